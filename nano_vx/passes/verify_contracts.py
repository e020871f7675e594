"""verify-contracts: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..comptime.errors import written
from ..diagnostics import visible
from ..languages.lsrc import contract_clauses
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis

verify_contracts = Analysis("verify-contracts", Lrouted, """
Prove every contract with z3 (E8001, E8006, E8007, E8008; W8001, W8002 when it cannot).

Each function with something to prove (an `ensures`, a loop `invariant`, a call of a
function with a `requires`) is run symbolically (nano_vx/contracts/): its paths become
verification conditions over z3 terms that mean what the interpreter computes (integers
wrap at their width, floats round as IEEE floats of theirs), a loop is known by its
invariants, a call by its callee's contract. Each obligation is proved by asking z3 for a
counterexample: an `ensures` at every return (E8001), a callee's `requires` at every call
(E8006), an invariant on entry to its loop (E8007) and across an iteration (E8008). A
refused contract is named as written, with z3's counterexample as a note (`x = 0`).

What the encoding does not follow (a tensor element, a field, a math built-in, a local lent
with `&mut`) is any value of its type: a contract whose refutation depends on one is
reported unverified (W8001), never admitted as proved; so is one z3 does not decide within
--contract-timeout-ms (W8002). z3 is imported only for a program with something to prove,
and --no-verify-contracts skips the pass. The fact it leaves, `proved_requires`, names the
`requires` clauses proved at every call, which insert-seam-assumes may carry into kernels.
""", provides=("proved_requires",))


@verify_contracts.on("Program")
def _program(run, program):
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    # Every `requires` counts as proved until a call is found that does not establish it.
    proved = {name: set(range(len(_requires(fn)))) for name, fn in fns.items()}
    if run.ctx.verify_contracts:
        from ..contracts.execute import needs_proof

        consts = {i.name: i for i in program.items if i._prod == "ConstItem"}
        for fn in fns.values():
            if needs_proof(fn, fns):
                _verify(run, fn, fns, consts, proved)
    else:
        proved = {}
    run.ctx.proved_requires = {name: frozenset(ix) for name, ix in proved.items() if ix}


def _requires(fn) -> list:
    return [c for c in contract_clauses(fn.body) if c._prod == "Requires"]


def _verify(run, fn, fns, consts, proved) -> None:
    from ..contracts.execute import Executor
    from ..contracts.terms import Encoding
    from ..solver import bounded, connected, counterexample, smallest

    enc = Encoding()
    ex = Executor(enc, fns, consts, fn)
    ex.run()
    z = enc.z
    timeout = run.ctx.contract_timeout_ms
    for ob in ex.obligations:
        refuted = (*ob.premises, z.Not(ob.goal))
        verdict = counterexample(bounded(timeout), *refuted)
        if verdict.status == "holds":
            continue
        if ob.code == "E8006":
            proved[ob.owner].discard(next(i for i, c in enumerate(_requires(fns[ob.owner]))
                                          if c is ob.clause))
        if verdict.status == "unknown":
            _undecided(run, ob, timeout, verdict.reason)
            continue
        mentioned = connected(ob.goal, ob.premises)
        blind = [enc.opaque[c] for c in mentioned if c in enc.opaque]
        if blind:
            _unverified(run, ob, min(blind, key=_place))
        else:
            weak = [ex.weak[c] for c in mentioned if c in ex.weak]
            named = [(s.expr, s.signed) for _, items in ob.shown for s in items
                     if s.expr.decl().name() in mentioned]
            model = smallest(refuted, named) or verdict.model
            _refuted(run, ob, model, mentioned, weak)
    for use, callee in ex.escaped:
        proved[callee.name].clear()
        run.ctx.diagnostics.warning(
            "W8001", use.span,
            f"the precondition of '{callee.name}' is unverified where it is called: "
            f"'{callee.name}' is used here as a value, and a call through it is not checked",
            help=[f"call '{callee.name}' by its name, where its `requires` can be proved"],
            function=callee.name)


# -- reporting ---------------------------------------------------------------------------

_WHAT = {"E8001": "postcondition", "E8006": "precondition", "E8007": "loop invariant",
         "E8008": "loop invariant"}


def _place(node) -> int:
    """Where a node starts, for the first of several; -1 when it has no place."""
    return node.span.start if node is not None and node.span is not None else -1


def _text(node) -> str:
    return visible(written(node))


def _where(node) -> str:
    line, col = node.span.source.line_col(node.span.start)
    return f"{line}:{col}"


def _named(ob) -> str:
    """The clause as the messages name it: `x > 0` of 'inc'."""
    owner = f" of '{ob.owner}'" if ob.code in ("E8001", "E8006") else ""
    return f"{_WHAT[ob.code]} `{_text(ob.clause.cond)}`{owner}"


def _primary(ob):
    """Where the diagnostic points: the call for a precondition (the caller must act), the
    clause as written for the rest."""
    return ob.at if ob.code == "E8006" and ob.at._prod == "Call" else ob.clause


def _refuted(run, ob, model, mentioned, weak) -> None:
    values: dict[str, str] = {}
    note = _counterexample(ob, model, mentioned, values)
    notes, help_ = [note], []
    if ob.code == "E8001":
        message = (f"{_named(ob)} does not hold: the function can return a result that "
                   f"makes it false")
        notes.append(f"it is false when '{ob.owner}' returns at {_where(ob.at)}: "
                     f"`{_text(ob.at)}`")
        help_.append("strengthen the function's `requires`, or fix the body or the clause")
    elif ob.code == "E8006" and ob.at._prod == "Call":
        message = f"{_named(ob)} is not established at this call"
        notes.append(f"'{ob.owner}' requires it at {_where(ob.clause)}")
        help_.append("establish it before the call (an `if`, an `assert`), or require it of "
                     "this function's callers with a `requires` of its own")
    elif ob.code == "E8006":
        message = f"{_named(ob)} does not hold: `main` has no caller to establish it"
        help_.append("test the condition inside `main` instead")
    elif ob.code == "E8007":
        message = f"{_named(ob)} does not hold when the loop starts"
        help_.append("establish it before the loop, or weaken it")
    else:
        message = (f"{_named(ob)} is not preserved: an iteration that starts with it true "
                   f"can end with it false")
        help_.append("strengthen the invariant with what the iteration needs (a bound on a "
                     "variable it changes, say)")
    for loop in dict.fromkeys(weak):
        help_.append(f"the loop at {_where(loop)} states no `invariant`: after it, nothing is "
                     f"known of the variables it changes")
    run.ctx.diagnostics.error(ob.code, _primary(ob).span, message, notes=notes, help=help_,
                              contract=_text(ob.clause.cond), function=ob.owner,
                              counterexample=values)


def _counterexample(ob, model, mentioned, values: dict) -> str:
    """`counterexample from z3: x = 0; ...`: the inputs the failing query mentions, the
    result or the callee's arguments; `values` gets them by name too."""
    from ..solver import show

    def shown(items) -> str:
        parts = []
        for s in items:
            value = show(model.eval(s.expr, model_completion=True), s.signed)
            values[s.label] = value
            parts.append(f"{s.label} = {value}")
        return ", ".join(parts)

    groups = {lead: [s for s in items if s.expr.decl().name() in mentioned]
              for lead, items in ob.shown}
    if ob.code == "E8001":  # the result joins the parameters
        groups[""] = groups.get("", []) + ob.given
    parts = [f"{lead}: {shown(items)}" if lead else shown(items)
             for lead, items in sorted(groups.items(), key=lambda g: g[0] != "") if items]
    if ob.code != "E8001" and ob.given:
        lead = {"E8006": f"{'so ' if parts else ''}'{ob.owner}' is called with ",
                "E8007": "on entry to the loop: ", "E8008": "at the end of the iteration: "}
        parts.append(lead[ob.code] + shown(ob.given))
    return "counterexample from z3: " + ("; ".join(parts) if parts
                                         else "it is false whatever the inputs")


def _unverified(run, ob, blind) -> None:
    what = (f"`{_text(blind)}` at {_where(blind)}" if _place(blind) >= 0 else
            "a value of two types where two paths meet")
    run.ctx.diagnostics.warning(
        "W8001", _primary(ob).span,
        f"{_named(ob)} is unverified: its proof depends on {what}, which verify-contracts "
        f"does not encode",
        help=["the program still compiles; --check-contracts checks the clause as it runs"],
        contract=_text(ob.clause.cond), function=ob.owner, depends_on=what)


def _undecided(run, ob, timeout: int, reason: str) -> None:
    why = (f"z3 did not decide it within {timeout} ms" if reason in ("timeout", "canceled")
           else f"z3 could not decide it ({reason})")
    run.ctx.diagnostics.warning(
        "W8002", _primary(ob).span, f"{_named(ob)} is unverified: {why}",
        help=["give z3 more time with --contract-timeout-ms, or simplify what it must reason "
              "about"],
        contract=_text(ob.clause.cond), function=ob.owner, timeout_ms=timeout)

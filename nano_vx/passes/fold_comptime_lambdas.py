"""fold-comptime-lambdas: Ltyped -> Ltyped."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..comptime import ComptimeError, Evaluator, Unknown, recorded_types, to_literal
from ..comptime.reporting import nested, report
from ..languages import Ltyped
from ..languages.lresolved import display_name
from ..nanopass import Pass, descendants


@dataclass
class State:
    eval: Evaluator | None = None
    lambdas: dict = field(default_factory=dict)  # the current function's: name -> Closure
    inlined: dict = field(default_factory=dict)  # name -> the lambda with its calls in place
    inlining: set = field(default_factory=set)  # the lambdas being written in place now
    unfit: set = field(default_factory=set)  # the lambdas that name themselves: E2001 said
    blocks: int = 0  # how many comptime blocks the walk is inside


fold_comptime_lambdas = Pass("fold-comptime-lambdas", Ltyped, Ltyped, """
Fold every call of a comptime lambda to its literal and drop the lambda's binding (E3034 for a
block nested in its body, E3052 for a call that cannot fold).

A lambda bound with `let x = |..| comptime { .. }` runs while compiling (semantics §4): each
call becomes the literal it returns, and the binding goes, called or not. A comptime block
may call a lambda with its own variables, so there the lambda is written in place instead,
for desugar-comptime to run with the block. E3034 for a block nested in a lambda's body;
E3052 for a call with an argument not known while compiling, or a lambda used as a value.
The IL does not change: that no comptime lambda is left outside a block is a property of the
tree that Ltyped has no production to express.
""", state=State, requires=("model",))


def is_comptime_lambda(closure) -> bool:
    """A closure whose whole body is a comptime block (how the parser reads
    `|x| comptime { .. }`)."""
    body = closure.body
    return not body.stmts and body.value is not None and body.value._prod == "Comptime"


def _comptime_lambdas(fn) -> dict:
    """The comptime lambdas a function binds with `let`: unique name -> Closure node."""
    return {n.name: n.value for n in descendants(fn.body)
            if n._prod == "Let" and n.value._prod == "Closure" and is_comptime_lambda(n.value)}


@fold_comptime_lambdas.on("Program")
def _program(run, node):
    run.state.eval = Evaluator(node, model=run.ctx.model)
    return run.rebuild(node)


@fold_comptime_lambdas.on("Fn")
def _fn(run, node):
    # Most functions write no comptime lambda, and then there is nothing to do in them.
    if not any(n._prod == "Closure" and is_comptime_lambda(n) for n in descendants(node)):
        return node
    ev = run.state.eval
    run.state.lambdas = _comptime_lambdas(node)
    run.state.inlined, run.state.unfit = {}, set()
    ev.types = recorded_types(node)
    out = run.rebuild(node)
    run.state.lambdas = {}
    ev.types = {}
    return out


def _inlined(run, name):
    """The lambda bound to `name`, with the lambdas its body names written in place, so
    that it runs with no binding left to look up."""
    memo, st = run.state.inlined, run.state
    if name not in memo:
        st.blocks += 1
        st.inlining.add(name)
        memo[name] = run.walk(st.lambdas[name])
        st.inlining.discard(name)
        st.blocks -= 1
    return memo[name]


@fold_comptime_lambdas.on("Comptime", "ComptimeStmt")
def _block(run, node):
    run.state.blocks += 1
    out = run.rebuild(node)
    run.state.blocks -= 1
    return out


@fold_comptime_lambdas.on("Let", splice=True)
def _let(run, node):
    if run.state.blocks or node.name not in run.state.lambdas:
        return run.rebuild(node)
    nested(run, node.value.body.value.body)  # the lambda's own comptime body
    return ()  # every call folds, so nothing refers to the binding


@fold_comptime_lambdas.on("Call")
def _call(run, node):
    callee = node.callee
    lambdas = run.state.lambdas
    if run.state.blocks or callee._prod != "Local" or callee.name not in lambdas:
        return run.rebuild(node)
    name = display_name(callee.name)
    ev = run.state.eval
    try:
        args = []
        for a in run.walk_seq(node.args):  # walked first: an argument may call a lambda
            v = ev.value(a)
            if type(v) is Unknown:
                raise ComptimeError(
                    "E3052", a.span, f"this argument of comptime lambda `{name}` is not known "
                    f"while compiling: it depends on {_why(v.why)}", lambda_=name)
            args.append(v)
        lam = _inlined(run, callee.name)
        if callee.name in run.state.unfit:  # said why already: no value to fold to
            return Ltyped["Int"](0, span=node.span)
        return to_literal(ev.call_lambda(lam, args, node.span), Ltyped, node.span)
    except ComptimeError as e:
        report(run, e)
        return Ltyped["Int"](0, span=node.span)


def _why(why) -> str:
    if why.kind == "overflow":
        return f"an integer result outside its type ({why.text})"
    return f"`{why.text}`, known only when the program runs"


@fold_comptime_lambdas.on("Local")
def _local(run, node):
    if node.name not in run.state.lambdas:
        return node
    if node.name in run.state.inlining:  # a hand-written IL may; resolve-names refuses it
        run.ctx.diagnostics.error(
            "E2001", node.span, f"cannot find value '{display_name(node.name)}' in this scope",
            notes=["a `let` binds its name after its value: a comptime lambda cannot call "
                   "itself"])
        run.state.unfit |= run.state.inlining
        return node
    if run.state.blocks:
        return _inlined(run, node.name)
    # calls were handled above: this is another use
    run.ctx.diagnostics.error(
        "E3052", node.span, f"comptime lambda `{display_name(node.name)}` is used as a "
        f"value; it runs while compiling, so it can only be called", lambda_=node.name)
    return node


@fold_comptime_lambdas.on("Closure")
def _closure(run, node):
    if run.state.blocks or not is_comptime_lambda(node):
        return run.rebuild(node)
    run.ctx.diagnostics.error(
        "E3052", node.span, "a comptime lambda must be bound with `let` and called; this one "
        "is used as a value, which would need it at run time")
    return Ltyped["Closure"](node.params, Ltyped["Block"]((), None, span=node.span), span=node.span)

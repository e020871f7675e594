"""name-closure-temporaries: Lcopied -> Lcopied.

Same IL: what it makes is a `let` of each argument computed first, and the call of its
local."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lcopied import Lcopied
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.tensor_names import (computed_first, flagged_tensors, lent_tensor, named_whole,
                                    tracked_at, written_copy)


@dataclass
class _Temporaries:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    closures: dict = field(default_factory=dict)  # a marked closure's `let` -> the closure
    tracked: set = field(default_factory=set)  # the locals whose flags are kept
    used: Names | None = None  # the function's names, for the new ones


name_closure_temporaries = Pass("name-closure-temporaries", Lcopied, Lcopied, """
Compute into a `let` first each tensor of `?` extents no local names that a call gives a parameter of a closure mark-uninit-closures marked, after what its statement computes before it, held in `let`s first, so that make-all-set-flags makes its flags all set beside the local.

A call of a marked closure giving, by value, a tensor made otherwise that no local names (a
call's result) at a parameter of `?` extents whose written-flags its callers keep, in its
statement (a `let`, an assignment of a local, an expression statement, a `return`) or a
block's value, has its arguments up to the last such tensor computed into `let`s before the
statement, in order, as the call computed them: each that computes something, and a local
before one (which it might change); the tensor's `let` is typed as the parameter. What the
statement computes before the call (the callees of calls it is an argument of, the
operands of operations before it, the arguments of calls before it) is computed so first:
an operand before one naming something is held in a `let` (but a literal, a borrow and a
tracked local), after what it names itself, so that each runs where it ran and a stop
comes where it came. A call that may not be computed (right of `&&` or `||`), or computed
after other than such operands (an index of an element), is left as it is, and
track-uninit-elements refuses it (E5010).
""", state=_Temporaries)


@name_closure_temporaries.on("Program")
def _program(run, program):
    run.state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    return run.rebuild(program)


@name_closure_temporaries.on("Fn")
def _fn(run, fn):
    state = run.state
    nodes = list(descendants(fn.body))
    state.closures = {s.name: s.value for s in nodes if s._prod == "Let" and
                      s.value._prod == "Closure" and written_copy(s.value) is not None}
    if not state.closures:
        return fn
    state.tracked = set(flagged_tensors(fn, nodes, state.fns))
    if not any(_temporaries(c, state) for c in nodes):
        return fn
    state.used = Names(fn)
    return run.rebuild(fn)


@name_closure_temporaries.on("Let", "ExprStmt", "Return", splice=True)
def _statement(run, s):
    field_ = "expr" if s._prod == "ExprStmt" else "value"
    if getattr(s, field_) is None:
        return s
    named, value = _named_first(run, getattr(s, field_))
    return (*named, run.rebuild(s.replace(**{field_: value})))


@name_closure_temporaries.on("Assign", splice=True)
def _assign(run, s):
    if s.target._prod != "Local":  # an element's indices might be computed before the value
        return run.rebuild(s)
    named, value = _named_first(run, s.value)  # the local is read after, as it was
    return (*named, run.rebuild(s.replace(value=value)))


@name_closure_temporaries.on("Block")
def _block(run, b):
    """A block's value: its arguments computed after the block's statements, as they were."""
    if b.value is None:
        return run.rebuild(b)
    out = run.rebuild(b.replace(value=None))
    named, value = _named_first(run, b.value)
    return out.replace(stmts=out.stmts + named, value=run.walk(value))


# The operand an expression computes first, before anything else of it.
_FIRST = {"Binary": "left", "Unary": "operand", "Cast": "value", "Index": "base",
          "MethodCall": "receiver"}


def _named_first(run, e) -> tuple[tuple, object]:
    """The expression with each call of a marked closure given tensors no local names at
    parameters of `?` extents that it computes, with only operands before it (the left one
    of an operation, the arguments of a call before it, each held in a `let` first): that
    call's arguments up to the last such one computed into `let`s first, in order, as the
    call computed them. The `let`s, and the expression with the call of their locals."""
    state, places = run.state, _temporaries(e, run.state)
    if not places:
        parts = _parts(e)
        later = [k for k, v in enumerate(parts) if k and _pending(v, state)]
        named, values = (), []
        for k, v in enumerate(parts[:(later or [0])[-1] + 1]):
            found, v = _named_first(run, v)
            held, v = _held(run, v) if later and k < later[-1] else ((), v)
            named, values = named + found + held, values + [v]
        if not named:
            return (), e
        if e._prod == "Call":
            return named, e.replace(args=(*values, *e.args[len(values):]))
        return named, e.replace(**dict(zip(("left", "right") if e._prod == "Binary" else
                                           (_FIRST[e._prod],), values)))
    lets, args = computed_first(e.args[:places[-1] + 1], state.tracked, state.used.fresh,
                                lambda a: a)
    params = state.closures[e.callee.name].params
    typed = {args[k].name: lent_tensor(params[k].type) for k in places}
    named = tuple(s.replace(type=typed.get(s.name, s.type), value=run.walk(s.value))
                  for s in lets)
    return named, e.replace(args=(*args, *e.args[places[-1] + 1:]))


def _parts(e) -> list:
    """The operands of `e` computed in order, one after another, before it: the first of
    `_FIRST`, both of an operation whose right one is always computed, a call's arguments."""
    if e._prod == "Binary" and e.op not in ("&&", "||"):
        return [e.left, e.right]
    if e._prod in _FIRST:
        return [getattr(e, _FIRST[e._prod])]
    if e._prod == "Call" and e.callee._prod in ("Global", "Local"):
        return list(e.args)
    return []


def _pending(e, state: _Temporaries) -> bool:
    """Whether `_named_first` names something of `e`."""
    return bool(_temporaries(e, state)) or any(_pending(v, state) for v in _parts(e))


def _held(run, e) -> tuple[tuple, object]:
    """An operand computed before a call named after it, held in a `let` first (a literal, a
    borrow and a tracked local as they are): the `let`, and the operand to use."""
    if e._prod in ("Int", "Bool", "Float", "Str", "Borrow") or \
            e._prod == "Local" and e.name in run.state.tracked:
        return (), e
    name = run.state.used.fresh("operand")
    return (Lcopied["Let"](name, False, Lcopied["OpaqueType"](span=e.span), run.walk(e),
                           span=e.span),), Lcopied["Local"](name, span=e.span)


def _temporaries(e, state: _Temporaries) -> list:
    """The places at which a call of a marked closure gives a parameter of `?` extents whose
    flags its callers keep a tensor made otherwise that no local names (a call's result)."""
    closure = state.closures.get(e.callee.name) \
        if e._prod == "Call" and e.callee._prod == "Local" else None
    if closure is None:
        return []
    at, given = tracked_at(e, state.tracked), written_copy(closure).given
    return [k for k, (p, a) in enumerate(zip(closure.params, e.args))
            if p.name in given and k not in at and a._prod != "Borrow" and
            named_whole(a) is None and any(d._prod != "DimInt" for d in lent_tensor(p.type).dims)]

"""split-state-tuples: Lconstparts -> Lconstparts.

Same IL: each element of a tuple split is computed where the tuple computed it, in order, and
read where the tuple's element was, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lconstparts import Lconstparts as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.hardware_states import is_state_type


@dataclass
class State:
    parts: dict = field(default_factory=dict)  # function -> {a tuple split -> its elements}
    spread: dict = field(default_factory=dict)  # function -> the positions of params split
    split: dict = field(default_factory=dict)  # the function's tuples split -> their elements


split_state_tuples = Pass("split-state-tuples", L, L, """
Give each element of a tuple holding a hardware state a local (or a parameter) of its own,
where a `let` binds the tuple (or a function takes it) and it is read only by its elements or
copied or given whole into another such tuple, so that lower-pins finds every state in a
variable.

`let pair = (t, 1); print(pair.1);` is `let pair_0 = t; let pair_1 = 1; print(pair_1);`:
`pair_0` is another name of t's state, as the tuple's element was (the interpreter's copies
share the pin). A copy `let again = pair;` is split with it, `let again_0 = pair_0; let
again_1 = pair_1;`: each element of the copy is another name of the same state, as the
interpreter's copy shares the pin. So is a parameter, `fn f(pair: (S, i32))` is `fn f(pair_0:
S, pair_1: i32)`, where every call gives it such a tuple or a tuple literal whose states are
variables, each call then given the elements: `f(pair)` is `f(pair_0, pair_1)`, `f((t, 2))`
is `f(t, 2)`, computed in the same order. A `let mut` tuple assigned a tuple literal or
another such tuple is each element's local assigned in turn, `pair = (u, 2);` is `pair_0 = u;
pair_1 = 2;` (kept whole when the literal reads the tuple, which would read an element
already assigned). A tuple printed is the tuple literal of its elements printed, `print(pair);`
is `print((pair_0, pair_1));`: the stop the interpreter makes there (E9006: it prints no
state), which lower-pins writes as that stop. A tuple used whole otherwise (returned, given to
a function used as a value or by another call) stays as it is, and so do the tuples it is
copied, assigned or given into and from; lower-pins refuses it.
""", state=State)


def _holds_a_state(let) -> bool:
    ty, value = let.type, let.value
    return value is not None and value._prod in ("Tuple", "Local") and _state_tuple(ty) \
        and (value._prod == "Local" or len(ty.elems) == len(value.elems))


def _state_tuple(ty) -> bool:
    return ty is not None and ty._prod == "TupleType" and any(is_state_type(t) for t in ty.elems)


@split_state_tuples.on("Program")
def _program(run, program):
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    counts, sources, into, whole = _tuples(fns)
    kept = set(counts)
    # A tuple is split with what it is copied or given into, and each its source is split too
    # (or a tuple literal): drop what breaks that until nothing does.
    while True:
        now = {t for t in kept if all(u is not None and u in kept for u in into.get(t, ()))
               and all(src == "literal" or src in kept for src in sources.get(t, ()))
               and t not in whole}
        if now == kept:
            break
        kept = now
    state = run.state
    for name, fn in fns.items():
        names = Names(fn)
        state.parts[name] = {t: [names.fresh(f"{t.split('#')[0]}_{i}") for i in range(n)]
                             for (f, t), n in counts.items() if f == name and (f, t) in kept}
        state.spread[name] = {k for k, p in enumerate(fn.params) if (name, p.name) in kept}
    return run.rebuild(program)


def _tuples(fns: dict):
    """Each tuple holding a state a `let` binds or a parameter takes, (function, name) -> its
    element count; the sources each is given (another such tuple, or "literal"); what each
    is copied or given into whole (None for any other use); the parameters of a function
    not only called, which no call can give their elements."""
    kept, sources, into, whole = {}, {}, {}, set()
    for name, fn in fns.items():
        for p in fn.params:
            if _state_tuple(p.type):
                kept[(name, p.name)] = len(p.type.elems)
        for n in descendants(fn.body):
            if n._prod == "Let" and _holds_a_state(n):
                kept[(name, n.name)] = len(n.type.elems)
    for name, fn in fns.items():
        nodes = list(descendants(fn.body))
        read = {id(n.base) for n in nodes if n._prod == "TupleGet"}
        goes = {}  # a Local given whole -> the tuple it goes into
        callees = set()
        for n in nodes:
            if n._prod == "Assign" and n.target._prod == "Local" \
                    and (name, n.target.name) in kept:
                target = (name, n.target.name)
                read.add(id(n.target))
                v = n.value
                # Each element is assigned in turn, so a literal reading the tuple it is
                # assigned to would read an element already replaced.
                fits = n.op == "=" and (v._prod == "Local" or v._prod == "Tuple" and len(
                    v.elems) == kept[target] and not any(
                        x._prod == "Local" and x.name == n.target.name for x in descendants(v)))
                sources.setdefault(target, []).append(
                    ("literal" if v._prod == "Tuple" else (name, v.name)) if fits else None)
                if v._prod == "Local":
                    goes[id(v)] = target
            elif n._prod == "Let" and (name, n.name) in kept:
                v = n.value
                sources.setdefault((name, n.name), []).append(
                    "literal" if v._prod == "Tuple" else (name, v.name))
                if v._prod == "Local":
                    goes[id(v)] = (name, n.name)
            elif _prints_a_variable(n):
                read.add(id(n.args[0]))
            elif n._prod == "Call" and n.callee._prod == "Global" and n.callee.name in fns:
                callees.add(id(n.callee))
                params = fns[n.callee.name].params
                for p, a in zip(params, n.args):
                    param = (n.callee.name, p.name)
                    if param not in kept:
                        continue
                    # lower-pins takes a state a call is given only from a variable
                    fits = a._prod == "Local" or a._prod == "Tuple" and \
                        len(a.elems) == kept[param] and all(
                            x._prod == "Local" for x, ty in zip(a.elems, p.type.elems)
                            if is_state_type(ty))
                    sources.setdefault(param, []).append(
                        ("literal" if a._prod == "Tuple" else (name, a.name)) if fits else None)
                    if a._prod == "Local":
                        goes[id(a)] = param
        for n in nodes:
            if n._prod == "Local" and (name, n.name) in kept and id(n) not in read:
                into.setdefault((name, n.name), []).append(goes.get(id(n)))
            elif n._prod == "Global" and n.name in fns and id(n) not in callees:
                whole.update((n.name, p.name) for p in fns[n.name].params)
    return kept, sources, into, whole


@split_state_tuples.on("Fn")
def _fn(run, fn):
    state = run.state
    state.split = state.parts[fn.name]
    if not state.split and not any(state.spread.values()):
        return fn
    params = []
    for p in fn.params:
        parts = state.split.get(p.name)
        params.extend([p] if parts is None else [
            p.replace(name=part, type=ty) for part, ty in zip(parts, p.type.elems)])
    return run.rebuild(fn.replace(params=tuple(params)))


def _prints_a_variable(e) -> bool:
    return e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" \
        and len(e.args) == 1 and e.args[0]._prod == "Local"


@split_state_tuples.on("Call")
def _call(run, e):
    if _prints_a_variable(e) and e.args[0].name in run.state.split:
        return e.replace(args=(L["Tuple"](_elements(run, e.args[0]), span=e.args[0].span),))
    at = run.state.spread.get(e.callee.name) if e.callee._prod == "Global" else None
    if not at:
        return run.rebuild(e)
    args = []
    for k, a in enumerate(e.args):
        args.extend(_elements(run, a) if k in at else (run.walk(a),))
    return e.replace(args=tuple(args))


def _elements(run, value) -> tuple:
    """What each element of a tuple split is given: the tuple literal's elements, or the
    locals of the tuple copied."""
    if value._prod == "Tuple":
        return tuple(run.walk(v) for v in value.elems)
    return tuple(L["Local"](part, span=value.span) for part in run.state.split[value.name])


@split_state_tuples.on("Let", splice=True)
def _let(run, node):
    parts = run.state.split.get(node.name)
    if parts is None:
        return (run.rebuild(node),)
    return tuple(L["Let"](part, node.mutable, ty, value, span=node.span)
                 for part, ty, value in zip(parts, node.type.elems, _elements(run, node.value)))


@split_state_tuples.on("Assign", splice=True)
def _assign(run, node):
    parts = run.state.split.get(node.target.name) if node.target._prod == "Local" else None
    if parts is None:
        return (run.rebuild(node),)
    return tuple(L["Assign"](L["Local"](part, span=node.target.span), node.op, value,
                             span=node.span)
                 for part, value in zip(parts, _elements(run, node.value)))


@split_state_tuples.on("TupleGet")
def _element(run, e):
    parts = run.state.split.get(e.base.name) if e.base._prod == "Local" else None
    if parts is None:
        return run.rebuild(e)
    return L["Local"](parts[e.index], span=e.span)

"""number-aggregate-function-values: Lmatched -> Lmatched.

Same IL: the local holds the number of the function it held, and each call of it calls, by
name, the function that number names, given the same arguments, computed as they were; a
local only called names no value that `print` or `==` would tell apart from a number, and
naming a function computes nothing, so the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import Pass, descendants
from ..scalars.aggregate_types import program_types
from ..scalars.closure_parts import called_closures, rechoose
from ..scalars.closures import bound_in, direct_closures, only_called
from ..scalars.storages import bound_locals, chosen_values, fresh_copy


@dataclass
class State:
    fns: dict = field(default_factory=dict)  # the program's functions -> their Sig
    numbered: dict = field(default_factory=dict)  # a local -> the functions it may hold
    given: dict = field(default_factory=dict)  # a closure's local -> {k: its k-th's functions}
    taken: set = field(default_factory=set)  # the locals of the function walked


number_aggregate_function_values = Pass("number-aggregate-function-values", L, L, """
Make each local only called that holds functions of the program, one of which takes or
returns a struct, a tuple or an enum, and that wrap-aggregate-function-values left, the number
of the function it holds, and each call of it an `if` on that number calling each function by
name: `let f = if c { bump } else { dump }; f(&mut p, 3)` is `let f = if c { 0 } else { 1 };
if f == 0 { bump(&mut p, 3) } else { dump(&mut p, 3) }`.

Such a local is a variable a `let` or an assignment gives a function, another such variable
or an `if` choosing among those (one taking a reference to an aggregate, which a closure
calling it would take whole), or a parameter of a closure a `let` binds and only calls, that
its body only calls and each call gives a function by name (`apply(spare, c)` gives the
number, an `i32`); its body may give it on to such a parameter of another such closure
(`let apply = |g, c: Cell| inner(g, c);`), the two numbering the same functions, or to a
`let` of a local only called (`let f = g;`, or an `if` choosing among such parameters and
functions, which then number the same functions), which holds the number too.
scalarize-aggregates then takes each call by name apart as any.
""", state=State)


@number_aggregate_function_values.on("Program")
def _program(run, program):
    _, sigs = program_types(program)
    run.state.fns = {item.name: sigs[item.name] for item in program.items if item._prod == "Fn"}
    if not any(sig.aggregate for sig in run.state.fns.values()):
        return program
    return run.rebuild(program)


@number_aggregate_function_values.on("Fn")
def _fn(run, fn):
    st = run.state
    held = called_closures(fn, lambda v: _function(st, v))
    st.numbered = {name: list(dict.fromkeys(v.name for v in values))
                   for name, values in held.items() if _aggregate(st, values)}
    st.given, copies = _given(st, fn)
    st.numbered.update({p: names for ks in st.given.values() for p, names in ks.values()})
    st.numbered.update(copies)
    if not st.numbered:
        return fn
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    return run.rebuild(fn)


def _function(st, value) -> bool:
    return value._prod == "Global" and value.name in st.fns


def _aggregate(st, values) -> bool:
    return any(st.fns[v.name].aggregate for v in values)


def _given(st, fn) -> dict:
    """Each closure a `let` binds and only calls -> {k: (its k-th parameter, the functions
    its calls give it)}, for each parameter its body only calls, gives on to such a
    parameter of another or to a local only called, that every call gives a function by name
    or such a parameter, one of those functions taking or returning an aggregate; and each
    such local -> the functions it numbers. A parameter given on holds the number of the one
    it gives it to, so the two number the same functions, and so do the parameters (and
    functions) an `if` chooses among for a local."""
    closures = direct_closures(fn)
    calls = [n for n in descendants(fn) if n._prod == "Call" and n.callee._prod == "Local"
             and n.callee.name in closures]
    values = {(name, k): [call.args[k] for call in calls if call.callee.name == name]
              for name, closure in closures.items() for k in range(len(closure.params))}
    params = {closures[name].params[k].name: (name, k) for name, k in values}
    copies = {f: chosen_values(v) for f, v in only_called(fn, lambda v: all(
        x._prod == "Local" or _function(st, x) for x in chosen_values(v)) and any(
        x._prod == "Local" for x in chosen_values(v))).items()}
    kept = {key for key, given in values.items() if given}
    while True:
        held = {closures[name].params[k].name for name, k in kept}
        copied = {f: vs for f, vs in copies.items()
                  if all(v.name in held for v in vs if v._prod == "Local")}
        left = {key for key in kept if all(
            _function(st, v) or v._prod == "Local" and v.name in held for v in values[key])
            and _only_called_or_given_on(closures[key[0]], key[1], kept, copied)}
        if left == kept:
            break
        kept = left
    linked = {key: {key} for key in kept}

    def link(key, other):
        joined = linked[key] | linked[other]
        linked.update((each, joined) for each in joined)
    for key in kept:
        for v in values[key]:
            if v._prod == "Local":
                link(key, params[v.name])
    first = {f: next(v.name for v in vs if v._prod == "Local") for f, vs in copied.items()}
    beside: dict = {}  # a parameter's key -> the functions a copy of it may hold instead
    for f, vs in copied.items():
        for v in vs:
            if v._prod == "Local":
                link(params[first[f]], params[v.name])
            else:
                beside.setdefault(params[first[f]], []).append(v)
    given = {}
    for name, k in kept:
        names = list(dict.fromkeys(v.name for key in sorted(linked[name, k])
                                   for v in values[key] + beside.get(key, [])
                                   if v._prod == "Global"))
        if any(st.fns[each].aggregate for each in names):
            given.setdefault(name, {})[k] = (closures[name].params[k].name, names)
    numbers = {p: names for ks in given.values() for p, names in ks.values()}
    return given, {f: numbers[first[f]] for f in copied if first[f] in numbers}


def _only_called_or_given_on(closure, k: int, kept: set, copied: dict) -> bool:
    """Whether the closure's k-th parameter is only a callee in its body, the j-th argument
    of a call of a closure a `let` binds (`inner`), (inner, j) being in `kept`, or what a
    `let` of a local only called gives it (`let f = g;`, or an `if` choosing among such
    parameters: `copied`), which then holds the number too."""
    name = closure.params[k].name
    allowed = {id(n.callee) for n in descendants(closure.body) if n._prod == "Call"}
    allowed |= {id(a) for n in descendants(closure.body) if n._prod == "Call"
                and n.callee._prod == "Local" for j, a in enumerate(n.args) if a._prod == "Local"
                and a.name == name and (n.callee.name, j) in kept}
    allowed |= {id(v) for vs in copied.values() for v in vs}
    return not any(n._prod == "Local" and n.name == name and id(n) not in allowed
                   for n in descendants(closure.body))


@number_aggregate_function_values.on("Param")
def _param(run, param):
    """A parameter given the number: an `i32`, written, so that split-closure-aggregates
    finds each parameter's type."""
    if param.name not in run.state.numbered:
        return param
    return param.replace(type=L["Scalar"]("i32", span=param.span))


@number_aggregate_function_values.on("Let", "Assign")
def _bound(run, node):
    st = run.state
    name = node.name if node._prod == "Let" else \
        node.target.name if node.target._prod == "Local" else None
    if name not in st.numbered:
        return run.rebuild(node)
    names = st.numbered[name]
    return node.replace(value=rechoose(node.value, lambda v: _number(names, v) if
                                       v._prod == "Global" else run.walk(v), run.walk))


def _number(names: list, v):
    return L["Int"](names.index(v.name), span=v.span)


@number_aggregate_function_values.on("Call")
def _call(run, call):
    st, callee = run.state, call.callee
    args = run.walk_seq(call.args)
    if callee._prod != "Local":
        return call.replace(callee=run.walk(callee), args=args)
    given = st.given.get(callee.name, {})
    # a parameter given on holds its number already
    args = tuple(_number(given[k][1], a) if k in given and a._prod == "Global" else a
                 for k, a in enumerate(args))
    if callee.name not in st.numbered:
        return call.replace(args=args)
    *tested, last = st.numbered[callee.name]
    span = call.span
    chosen = _by_name(run, call, last, args, fresh=bool(tested))
    for i, name in reversed(list(enumerate(tested))):
        test = L["Binary"]("==", callee, L["Int"](i, span=span), span=span)
        chosen = L["IfExpr"](test, False, L["Block"]((), _by_name(run, call, name, args, i > 0),
                                                     span=span),
                             L["Block"]((), chosen, span=span), span=span)
    return chosen


def _by_name(run, call, name: str, args, fresh: bool):
    """The call of the function named, given args (a copy of them, bound anew, if fresh)."""
    if fresh:
        renamed = {b: unused_name(display_name(b), run.state.taken)
                   for a in args for b in bound_locals(a)}
        args = tuple(fresh_copy(a, renamed) for a in args)
    return call.replace(callee=L["Global"](name, span=call.callee.span), args=args)

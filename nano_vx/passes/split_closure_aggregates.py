"""split-closure-aggregates: Lmatched -> Lmatched.

Same IL: a closure given an aggregate's scalar parts rebuilds it with a literal at its start,
so its body reads the value it read before, and the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import Pass, descendants
from ..scalars.closure_parts import (Parts, called_closures, given_split, giveable, part,
                                     part_names, rechoose, taken_parts, taken_type)


@dataclass
class State:
    parts: Parts | None = None  # the program's structs and enums, as closures take them apart
    split: dict = field(default_factory=dict)  # a closure's local -> per parameter, its parts
    enums_taken: dict = field(default_factory=dict)  # ... -> per parameter, its enum or None
    borrowing: dict = field(default_factory=dict)  # ... -> per parameter, whether a `&` one
    taken: set = field(default_factory=set)  # the function's locals
    reads: dict = field(default_factory=dict)  # a parameter read by its parts -> names, type
    fns: set = field(default_factory=set)  # the program's functions


split_closure_aggregates = Pass("split-closure-aggregates", L, L, """
Give each closure a local only called may hold (a `let` or an assignment gives it the closure,
another such local or an `if` choosing among those: `let mut f = f_0; f = f_1;`), each
struct, tuple or enum parameter it takes (or `&` to one) as one parameter per scalar part,
and each call the parts of its argument, so that scalarize-aggregates finds no closure
taking an aggregate.

`let s = |q: P| q.x + q.y; s(p)` is `let s = |q_x: i32, q_y: i32| { let q: P = P { x: q_x,
y: q_y }; q.x + q.y }; s(p.x, p.y)`. An enum's parts are, per variant, whether the value
holds it (but the last's, held where no other is) and the scalar parts of what it carries
(a struct's or a tuple's too), zero where it holds another: `area(Shape::Rect(2.0, 4.0))` of `|s: Shape|` is `area(false, 0.0 as f32, 2.0,
4.0)`, and the closure starts `let s: Shape = if s_Sq { Shape::Sq(s_Sq_0) } else {
Shape::Rect(s_Rect_0, s_Rect_1) };`. A `&` parameter takes the parts' values, as a
function's does (while the reference lives the borrow rules forbid any write to what it
names): `|q: &P|` starts `let q_value: P = P { x: q_x, y: q_y }; let q: &P = &q_value;`,
and a call gives the parts of what its `&x` borrows (`x.x, x.y`) or of what a reference
variable refers to. An argument is split where reading its parts twice
is reading it once: a variable, what a reference variable refers to, a constant (one a call
computes too), a field or an element of one, or a literal of those and constants, a negative
one too (`t((3, 4))` is `t(3, 4)`); a closure with a call given another is left whole, for
scalarize-aggregates to refuse. A generic struct's erased field is a parameter of no
written type (`|c: Cell<f64>|` is `|c_v|`), which native code types as each call gives it.
An enum a variant of
which carries a tensor is its tensors too (another variant's, one no read sees: an empty
buffer where a `?` extent is): put together again, those would be buffers no one drops, so
its closure reads it only by its parts (`b is Buf::Full` is `b_Full`, `b.Buf::Full.0` is
`b_Full_0`, `print(b)` prints the literal of its parts, `if b_Empty { Buf::Empty } else {
Buf::Full(b_Full_0) }`; choose-given-variants made a call given it whole an `if` on the
variant held) and each call gives an enum value written there or a variable (whose
tensor part scalarize-aggregates gives as the variable holds it, whatever variant it holds:
no buffer is made for the call), else it is left whole.
""", state=State)


@split_closure_aggregates.on("Program")
def _program(run, program):
    run.state.parts = Parts(program)
    run.state.fns = {item.name for item in program.items if item._prod == "Fn"}
    return run.rebuild(program)


@split_closure_aggregates.on("Fn")
def _fn(run, fn):
    st = run.state
    calls = [n for n in descendants(fn) if n._prod == "Call" and n.callee._prod == "Local"]
    st.split, st.enums_taken, st.borrowing = {}, {}, {}
    for name, closures in called_closures(fn).items():
        parts = taken_parts(closures, st.parts)
        if parts is None or not all(
                giveable(a, q, p, st.parts) for c in calls if c.callee.name == name
                for a, p, q in zip(c.args, parts, closures[0].params) if p) or not all(
                _read_by_parts(c.body, p.name) for c in closures for p in c.params
                if st.parts.carries_tensor(taken_type(p.type))):
            continue
        st.split[name] = parts
        st.enums_taken[name] = [st.parts.enum(taken_type(p.type)) for p in closures[0].params]
        st.borrowing[name] = [taken_type(p.type) is not p.type for p in closures[0].params]
    if not st.split:
        return fn
    st.taken = {n.name for n in descendants(fn) if n._prod in ("Let", "Param", "PBind")} | \
        {n.var for n in descendants(fn) if n._prod == "For"}
    return run.rebuild(fn)


def _read_by_parts(body, name: str) -> bool:
    """Whether body reads the parameter `name` only by the variant it holds and what that
    carries, or prints it: an enum carrying a tensor is not put together again, the
    literal's other variants' tensors being buffers no one would drop (a `print` is given
    the literal of its parts)."""
    bases = {id(n.base) for n in descendants(body) if n._prod in ("VariantIs", "VariantField")}
    bases |= {id(n.args[0]) for n in descendants(body) if _printed(n) is not None}
    return not any(getattr(n, "name", None) == name or getattr(n, "var", None) == name
                   for n in descendants(body) if n._prod in ("Let", "Param", "PBind", "For")) \
        and all(id(n) in bases for n in descendants(body)
                if n._prod == "Local" and n.name == name)


@split_closure_aggregates.on("Let", "Assign")
def _given(run, node):
    """A `let` or an assignment giving a closure (or an `if` choosing closures) to a local
    whose closures are split."""
    split = given_split(node, run.state.split)
    if split is None:
        return run.rebuild(node)
    return node.replace(value=rechoose(node.value, lambda v: _closure(run, v, split)
                                       if v._prod == "Closure" else v, run.walk))


def _closure(run, closure, split: list):
    """closure taking each aggregate parameter's parts, which it puts together first."""
    st = run.state
    params, lets = [], []
    for p, parts in zip(closure.params, split):
        if not parts:
            params.append(p)
            continue
        names = part_names(p.name, parts, st.taken)
        params += [L["Param"](names[path], ty, span=p.span) for path, ty in parts]
        taken = taken_type(p.type)
        if st.parts.carries_tensor(taken):
            st.reads[p.name] = names, taken
            continue
        literal = st.parts.literal(taken, names, p.span)
        if taken is not p.type:  # a `&` parameter refers to the value its parts make
            held = unused_name(f"{display_name(p.name)}_value", st.taken)
            lets.append(L["Let"](held, False, taken, literal, span=p.span))
            literal = L["Borrow"](L["Local"](held, span=p.span), False, span=p.span)
        lets.append(L["Let"](p.name, False, p.type, literal, span=p.span))
    body = run.walk(closure.body)
    body = body.replace(stmts=tuple(lets) + body.stmts)
    for p in closure.params:
        st.reads.pop(p.name, None)
    return closure.replace(params=tuple(params), body=body)


@split_closure_aggregates.on("VariantIs", "VariantField")
def _variant(run, e):
    read = run.state.reads.get(e.base.name) if e.base._prod == "Local" else None
    if read is None:
        return run.rebuild(e)
    return run.state.parts.variant_read(e, read[0])


def _printed(call):
    """The local the built-in `print` call `call` prints, else None."""
    if call._prod == "Call" and call.callee._prod == "Global" and call.callee.name == "print" \
            and len(call.args) == 1 and call.args[0]._prod == "Local":
        return call.args[0]
    return None


@split_closure_aggregates.on("Call")
def _call(run, call):
    st, shown = run.state, _printed(call)
    if shown is not None and shown.name in st.reads and "print" not in st.fns:
        names, ty = st.reads[shown.name]
        return call.replace(args=(st.parts.literal(ty, names, shown.span),))
    parts = run.state.split.get(call.callee.name) if call.callee._prod == "Local" else None
    if parts is None:
        return run.rebuild(call)
    args = []
    for a, split, enum, borrowing in zip(call.args, parts, st.enums_taken[call.callee.name],
                                         st.borrowing[call.callee.name]):
        # the parts of what `&x` borrows; a reference variable's are read through it
        a = run.walk(a.value if borrowing and a._prod == "Borrow" else a)
        args += [part(a, path, ty, enum) for path, ty in split] if split else [a]
    return call.replace(args=tuple(args))

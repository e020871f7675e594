"""split-closure-aggregates: Lmatched -> Lmatched.

Same IL: a closure given an aggregate's scalar parts rebuilds it with a literal at its start,
so its body reads the value it read before, and the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants
from ..scalars.closure_parts import (Parts, called_closures, given_split, part, part_names,
                                     rechoose)


@dataclass
class State:
    parts: Parts | None = None  # the program's structs and enums, as closures take them apart
    split: dict = field(default_factory=dict)  # a closure's local -> per parameter, its parts
    enums_taken: dict = field(default_factory=dict)  # ... -> per parameter, its enum or None
    taken: set = field(default_factory=set)  # the function's locals
    reads: dict = field(default_factory=dict)  # a parameter read by its parts -> names, type
    fns: set = field(default_factory=set)  # the program's functions


split_closure_aggregates = Pass("split-closure-aggregates", L, L, """
Give each closure a local only called may hold (a `let` or an assignment gives it the closure,
another such local or an `if` choosing among those: `let mut f = f_0; f = f_1;`), each
struct, tuple or enum parameter it takes as one parameter per scalar part, and each call the
parts of its argument, so that scalarize-aggregates finds no closure taking an aggregate.

`let s = |q: P| q.x + q.y; s(p)` is `let s = |q_x: i32, q_y: i32| { let q: P = P { x: q_x,
y: q_y }; q.x + q.y }; s(p.x, p.y)`. An enum's parts are, per variant, whether the value
holds it (but the last's, held where no other is) and the scalar parts of what it carries
(a struct's or a tuple's too), zero where it holds another: `area(Shape::Rect(2.0, 4.0))` of `|s: Shape|` is `area(false, 0.0 as f32, 2.0,
4.0)`, and the closure starts `let s: Shape = if s_Sq { Shape::Sq(s_Sq_0) } else {
Shape::Rect(s_Rect_0, s_Rect_1) };`. An argument is split where reading its parts twice
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
    st.split, st.enums_taken = {}, {}
    for name, closures in called_closures(fn).items():
        each = [[st.parts.of(p.type, untyped=True) for p in c.params] for c in closures]
        parts = each[0]
        if not any(parts) or any(p is False for p in parts) or \
                any(other != parts for other in each) or not all(
                _giveable(a, q, p, st.parts) for c in calls if c.callee.name == name
                for a, p, q in zip(c.args, parts, closures[0].params) if p) or not all(
                _read_by_parts(c.body, p.name) for c in closures for p in c.params
                if st.parts.carries_tensor(p.type)):
            continue
        st.split[name] = parts
        st.enums_taken[name] = [st.parts.enum(p.type) for p in closures[0].params]
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


def _giveable(a, param, split: list, parts: Parts) -> bool:
    """Whether a call may give the parts `split` of a for param: a value of an enum carrying a
    tensor only as a literal or a variable, whose tensor part scalarize-aggregates gives as
    the variable's own part, whatever variant it holds (another's part of a value made
    elsewhere would be a buffer made for the call, that no one drops)."""
    return (_plain(a, parts) or _read_once(a, (), [path for path, _ in split], parts)) and \
        (a._prod in ("EnumValue", "Local") or not parts.carries_tensor(param.type))


def _read_once(e, at: tuple, paths: list, parts: Parts) -> bool:
    """Whether e, a struct or tuple literal at the path `at` of the argument whose parts are
    at `paths` (in order), given part by part computes each operator of its fields once, in
    the order written: a field that is one part (`Two { a: 1 << 40, .. }`) is the argument
    in that part's place, so it may compute an operator on what reads alike each time; a
    field split in turn is such a literal too, or plain (no operator on literals alone:
    `P { k: 1 << 40, .. }`). The fields computing operators
    are written in the order of their parts, which the call computes in turn (one may stop
    the run: `x / y`)."""
    if e._prod == "StructLit":
        labelled = [(f.name, f.value) for f in e.fields]
    elif e._prod == "Tuple":
        labelled = list(enumerate(e.elems))
    else:
        return False
    computing = [label for label, v in labelled if not _plain(v, parts)]
    if computing != [label for label in dict.fromkeys(p[len(at)] for p in paths
                                                      if p[:len(at)] == at)
                     if label in computing]:
        return False
    return all(_plain(v, parts) or (at + (label,) in paths and _computed(v, parts) and not any(
        _of_literals(n) for n in descendants(v))) or _read_once(v, at + (label,), paths, parts)
               for label, v in labelled)


def _of_literals(e) -> bool:
    """Whether e is an operator on literals alone, which a closure's argument computes as a
    plain i32 or f64 (`1 << 40` wraps), where the literal's field or element gave it its
    type (a generic struct's field is given its arguments' by a cast: `1 as i64 << 40`)."""
    if e._prod == "Binary":
        return all(x._prod in ("Int", "Float") or _of_literals(x) for x in (e.left, e.right))
    return e._prod == "Unary" and (e.operand._prod in ("Int", "Float") or _of_literals(e.operand))


def _computed(e, parts: Parts) -> bool:
    """Whether e is an operator (or a cast, or an element of a tensor) on what reads alike
    each time, read once."""
    if e._prod == "Binary":
        return all(_plain(x, parts) or _computed(x, parts) for x in (e.left, e.right))
    if e._prod == "Unary":
        return _plain(e.operand, parts) or _computed(e.operand, parts)
    if e._prod == "Index":  # an element, its index checked where the part is given
        return all(_plain(x, parts) or _computed(x, parts) for x in (e.base, e.index))
    return e._prod == "Cast" and (_plain(e.value, parts) or _computed(e.value, parts))


def _plain(e, parts: Parts) -> bool:
    """Whether reading e's parts one by one reads what reading it once would: a constant's
    (a `Global`, or a part split-computed-constants made of one) is computed at its first
    read, once; an enum value computes each value it carries that is one part once, in the
    order written."""
    if e._prod in ("Local", "Global", "Int", "Float", "Bool"):
        return True
    if e._prod in ("FieldGet", "TupleGet"):
        return _plain(e.base, parts)
    if e._prod == "Deref":  # what a reference local refers to
        return e.value._prod == "Local"
    if e._prod == "Unary":  # a negative constant
        return e.op == "-" and e.operand._prod in ("Int", "Float")
    if e._prod == "Cast":  # a literal typed by the generic struct's arguments it is given
        return e.value._prod in ("Int", "Float", "Unary") and _plain(e.value, parts)
    if e._prod == "StructLit":
        return all(_plain(f.value, parts) for f in e.fields)
    if e._prod == "Tuple":
        return all(_plain(x, parts) for x in e.elems)
    if e._prod == "EnumValue":
        return all(_plain(x, parts) or parts.one_part(e, k) for k, x in enumerate(e.args))
    return False


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
        if st.parts.carries_tensor(p.type):
            st.reads[p.name] = names, p.type
            continue
        lets.append(L["Let"](p.name, False, p.type, st.parts.literal(p.type, names, p.span),
                             span=p.span))
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
    for a, split, enum in zip(call.args, parts, run.state.enums_taken[call.callee.name]):
        a = run.walk(a)
        args += [part(a, path, ty, enum) for path, ty in split] if split else [a]
    return call.replace(args=tuple(args))

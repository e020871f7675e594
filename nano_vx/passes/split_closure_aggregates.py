"""split-closure-aggregates: Lmatched -> Lmatched.

Same IL: a closure given an aggregate's scalar parts rebuilds it with a literal at its start,
so its body reads the value it read before, and the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import zero
from ..scalars.closure_parts import (aggregate_parts, called_closures, given_split,
                                     part_names, parts_literal, struct_fields)


@dataclass
class State:
    structs: dict = field(default_factory=dict)  # a struct's name -> its fields
    enums: dict = field(default_factory=dict)  # an enum of split payloads' name -> its variants
    split: dict = field(default_factory=dict)  # a closure's local -> per parameter, its parts
    enums_taken: dict = field(default_factory=dict)  # ... -> per parameter, its enum or None
    taken: set = field(default_factory=set)  # the function's locals


split_closure_aggregates = Pass("split-closure-aggregates", L, L, """
Give each closure a local only called may hold (a `let` or an assignment gives it the closure
or another such local: `let mut f = f_0; f = f_1;`), each struct, tuple or enum parameter it
takes as one parameter per scalar part, and each call the parts of its argument, so that
scalarize-aggregates finds no closure taking an aggregate.

`let s = |q: P| q.x + q.y; s(p)` is `let s = |q_x: i32, q_y: i32| { let q: P = P { x: q_x,
y: q_y }; q.x + q.y }; s(p.x, p.y)`. An enum's parts are, per variant, whether the value
holds it (but the last's, held where no other is) and the scalar parts of what it carries
(a struct's or a tuple's too), zero where it holds another: `area(Shape::Rect(2.0, 4.0))` of `|s: Shape|` is `area(false, 0.0 as f32, 2.0,
4.0)`, and the closure starts `let s: Shape = if s_Sq { Shape::Sq(s_Sq_0) } else {
Shape::Rect(s_Rect_0, s_Rect_1) };`. An argument is split where reading its parts twice
is reading it once: a variable, a field or an element of one, or a literal of those and
constants, a negative one too (`t((3, 4))` is `t(3, 4)`); a closure with a call given
another, with a parameter of a generic struct, or a part that is no scalar (an enum's
variant carrying a tensor) is left whole, for scalarize-aggregates to refuse.
""", state=State)


@split_closure_aggregates.on("Program")
def _program(run, program):
    structs = run.state.structs = struct_fields(program)
    run.state.enums = {item.name: item.variants for item in program.items
                       if item._prod == "EnumDecl" and item.variants and all(
                           t._prod == "Scalar" or aggregate_parts(structs, t)
                           for v in item.variants for t in v.fields)}
    return run.rebuild(program)


@split_closure_aggregates.on("Fn")
def _fn(run, fn):
    st = run.state
    calls = [n for n in descendants(fn) if n._prod == "Call" and n.callee._prod == "Local"]
    st.split, st.enums_taken = {}, {}
    for name, closures in called_closures(fn).items():
        each = [[_parts(st, p.type) for p in c.params] for c in closures]
        parts = each[0]
        if not any(parts) or any(p is False for p in parts) or \
                any(other != parts for other in each) or not all(
                _plain(a) for c in calls if c.callee.name == name
                for a, p in zip(c.args, parts) if p):
            continue
        st.split[name] = parts
        st.enums_taken[name] = [_enum(st, p.type) for p in closures[0].params]
    if not st.split:
        return fn
    st.taken = {n.name for n in descendants(fn) if n._prod in ("Let", "Param", "PBind")} | \
        {n.var for n in descendants(fn) if n._prod == "For"}
    return run.rebuild(fn)


def _parts(st, ty):
    """aggregate_parts of ty, an enum's too: per variant, whether the value holds it (a
    `bool` at the variant's label, but for the last, held where no other is), then the
    scalar parts of what it carries (at the variant's label, its index and their path)."""
    if _enum(st, ty) is None:
        return aggregate_parts(st.structs, ty)
    last = st.enums[ty.name][-1]
    return [part for v in st.enums[ty.name]
            for part in [((v.name,), L["Scalar"]("bool", span=ty.span))] * (v is not last) +
            [((v.name, k) + path, leaf) for k, t in enumerate(v.fields)
             for path, leaf in aggregate_parts(st.structs, t) or [((), t)]]]


def _enum(st, ty):
    """The name of ty, an enum whose values are split, else None."""
    return ty.name if ty is not None and ty._prod == "NamedType" and ty.name in st.enums \
        else None


def _plain(e) -> bool:
    """Whether reading e's parts one by one reads what reading it once would."""
    if e._prod in ("Local", "Int", "Float", "Bool"):
        return True
    if e._prod in ("FieldGet", "TupleGet"):
        return _plain(e.base)
    if e._prod == "Unary":  # a negative constant
        return e.op == "-" and e.operand._prod in ("Int", "Float")
    if e._prod == "StructLit":
        return all(_plain(f.value) for f in e.fields)
    if e._prod == "Tuple":
        return all(_plain(x) for x in e.elems)
    if e._prod == "EnumValue":
        return all(_plain(x) for x in e.args)
    return False


def _part(e, path: tuple, ty=None, enum=None):
    """The expression of e's part at path, of type ty, of e an enum value of the enum `enum`
    else None: a variant's value not held is zero, what no read sees."""
    if enum is not None:
        return _variant_part(e, path, ty, enum)
    for label in path:
        if e._prod == "StructLit":
            e = next(f.value for f in e.fields if f.name == label)
        elif e._prod == "Tuple":
            e = e.elems[label]
        elif isinstance(label, int):
            e = L["TupleGet"](e, label, span=e.span)
        else:
            e = L["FieldGet"](e, label, span=e.span)
    return e


def _variant_part(e, path: tuple, ty, enum):
    variant, index, rest = path[0], path[1] if len(path) > 1 else None, path[2:]
    if e._prod == "EnumValue":
        if index is None:
            return L["Bool"](e.variant == variant, span=e.span)
        return _part(e.args[index], rest) if e.variant == variant else _zero(ty, e.span)
    held = L["VariantIs"](e, enum, variant, span=e.span)
    if index is None:
        return held
    carried = _part(L["VariantField"](e, enum, variant, index, span=e.span), rest)
    return L["IfExpr"](held, False, L["Block"]((), carried, span=e.span),
                       L["Block"]((), _zero(ty, e.span), span=e.span), span=e.span)


def _zero(ty, span):
    """The zero of the scalar type ty, a number cast to it as the parameter types it."""
    made = zero(ty, span)
    return made if ty.name == "bool" else L["Cast"](made, ty, span=span)


def _variants_literal(st, ty, names: dict, span):
    """The value of the enum ty whose parts the locals `names` names: `if s_Sq { Shape::Sq(
    s_Sq_0) } else { Shape::Rect(s_Rect_0, s_Rect_1) }`."""
    *tested, last = st.enums[ty.name]

    def value(v):
        return L["EnumValue"](ty.name, v.name, tuple(
            parts_literal(t, (v.name, k), names, st.structs, span)
            for k, t in enumerate(v.fields)), span=span)
    made = value(last)
    for v in reversed(tested):
        made = L["IfExpr"](L["Local"](names[(v.name,)], span=span), False,
                           L["Block"]((), value(v), span=span),
                           L["Block"]((), made, span=span), span=span)
    return made


@split_closure_aggregates.on("Let", "Assign")
def _given(run, node):
    """A `let` or an assignment giving a closure to a local whose closures are split."""
    split = given_split(node, run.state.split)
    if split is None:
        return run.rebuild(node)
    return node.replace(value=_closure(run, node.value, split))


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
        value = _variants_literal(st, p.type, names, p.span) if _enum(st, p.type) else \
            parts_literal(p.type, (), names, st.structs, p.span)
        lets.append(L["Let"](p.name, False, p.type, value, span=p.span))
    body = run.walk(closure.body)
    body = body.replace(stmts=tuple(lets) + body.stmts)
    return closure.replace(params=tuple(params), body=body)


@split_closure_aggregates.on("Call")
def _call(run, call):
    parts = run.state.split.get(call.callee.name) if call.callee._prod == "Local" else None
    if parts is None:
        return run.rebuild(call)
    args = []
    for a, split, enum in zip(call.args, parts, run.state.enums_taken[call.callee.name]):
        a = run.walk(a)
        args += [_part(a, path, ty, enum) for path, ty in split] if split else [a]
    return call.replace(args=tuple(args))

"""split-closure-aggregates: Lmatched -> Lmatched.

Same IL: a closure given an aggregate's scalar parts rebuilds it with a literal at its start,
so its body reads the value it read before, and the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants
from ..scalars.closure_parts import (aggregate_parts, called_closures, given_split,
                                     part_names, parts_literal, struct_fields)


@dataclass
class State:
    structs: dict = field(default_factory=dict)  # a struct's name -> its fields
    split: dict = field(default_factory=dict)  # a closure's local -> per parameter, its parts
    taken: set = field(default_factory=set)  # the function's locals


split_closure_aggregates = Pass("split-closure-aggregates", L, L, """
Give each closure a local only called may hold (a `let` or an assignment gives it the closure
or another such local: `let mut f = f_0; f = f_1;`), each struct or tuple parameter it takes
as one parameter per scalar part, and each call the parts of its argument, so that
scalarize-aggregates finds no closure taking an aggregate.

`let s = |q: P| q.x + q.y; s(p)` is `let s = |q_x: i32, q_y: i32| { let q: P = P { x: q_x,
y: q_y }; q.x + q.y }; s(p.x, p.y)`. An argument is split where reading its parts twice
is reading it once: a variable, a field or an element of one, or a literal of those and
constants, a negative one too (`t((3, 4))` is `t(3, 4)`); a closure with a call given
another, with a parameter of a generic struct, an enum, or a part that is no scalar is left
whole, for scalarize-aggregates to refuse.
""", state=State)


@split_closure_aggregates.on("Program")
def _program(run, program):
    run.state.structs = struct_fields(program)
    return run.rebuild(program)


@split_closure_aggregates.on("Fn")
def _fn(run, fn):
    st = run.state
    calls = [n for n in descendants(fn) if n._prod == "Call" and n.callee._prod == "Local"]
    st.split = {}
    for name, closures in called_closures(fn).items():
        each = [[aggregate_parts(st.structs, p.type) for p in c.params] for c in closures]
        parts = each[0]
        if not any(parts) or any(p is False for p in parts) or \
                any(other != parts for other in each) or not all(
                _plain(a) for c in calls if c.callee.name == name
                for a, p in zip(c.args, parts) if p):
            continue
        st.split[name] = parts
    if not st.split:
        return fn
    st.taken = {n.name for n in descendants(fn) if n._prod in ("Let", "Param", "PBind")} | \
        {n.var for n in descendants(fn) if n._prod == "For"}
    return run.rebuild(fn)


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
    return False


def _part(e, path: tuple):
    """The expression of e's part at path."""
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
        lets.append(L["Let"](p.name, False, p.type,
                             parts_literal(p.type, (), names, st.structs, p.span), span=p.span))
    body = run.walk(closure.body)
    body = body.replace(stmts=tuple(lets) + body.stmts)
    return closure.replace(params=tuple(params), body=body)


@split_closure_aggregates.on("Call")
def _call(run, call):
    parts = run.state.split.get(call.callee.name) if call.callee._prod == "Local" else None
    if parts is None:
        return run.rebuild(call)
    args = []
    for a, split in zip(call.args, parts):
        a = run.walk(a)
        args += [_part(a, path) for path, _ in split] if split else [a]
    return call.replace(args=tuple(args))

"""split-closure-results: Lmatched -> Lmatched.

Same IL: the parts a closure writes through its `&mut` parameters are read back into the
literal its call's `let` binds, the value the call gave before, so the interpreter runs the
output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..languages.lresolved import unused_name
from ..nanopass import Pass, descendants
from ..scalars.closure_parts import (Parts, called_closures, given_split, part, part_names,
                                     rechoose)
from ..scalars.signatures import written
from ..scalars.storages import chosen_values

_ARITHMETIC = frozenset("+ - * / %".split())
_COMPARE = frozenset("== != < <= > >= && ||".split())


@dataclass
class State:
    parts: Parts | None = None  # the program's structs and enums, as closures take them apart
    results: dict = field(default_factory=dict)  # a function's name -> its result's type
    split: dict = field(default_factory=dict)  # a closure's local -> (result's type, parts, fixed)
    taken: set = field(default_factory=set)  # the function's locals


split_closure_results = Pass("split-closure-results", L, L, """
Make each closure a local only called may hold (a `let` or an assignment gives it the closure,
another such local or an `if` choosing among those), whose value is a struct, a tuple or an
enum, write its result's scalar parts through one `&mut` parameter each, and each call, the
value of a `let` (name-temporaries gave each other call one), give it variables of its own
to write, so that scalarize-aggregates finds no block whose value is an aggregate.

`let mk = |a: i32| P { x: a, y: 2 }; let v = mk(1);` is `let mk = |a: i32, out_x: &mut i32,
out_y: &mut i32| { let out: P = P { x: a, y: 2 }; *out_x = out.x; *out_y = out.y; };
let mut v_x: i32 = 0; let mut v_y: i32 = 0; mk(1, &mut v_x, &mut v_y); let v: P = P { x:
v_x, y: v_y };`; a call assigned to a local or to a field or element of one (`t = mk(1);`)
assigns it that literal so. An enum's parts are split-closure-aggregates': per variant, whether the
value holds it and what it carries, zero where it holds another. The result's type is what
the value says alone: a struct literal's, an enum value's, a variable's written type, the
written result of the function a call calls, a tuple of those, of `bool` literals or of
arithmetic on them, an `if` whose arms say the same one (not the type inference gave a
`let`: a default that may yet change). A generic struct's erased field is written through a
`&mut` of the type its value says so, alike in every value the closures may give
(`|x: f64| Cell { v: x, n: 2 }` writes v through a `&mut f64`); one that is the same
literal in every such value (`Cell { v: 2.5, .. }`, a plain f64 the interpreter types by
what it meets) is written by no `&mut`: the call's `let` of no written type binds the
literal (`let c_v = 2.5;`), computing what the closure would have. A closure with a
`return`, a result of another type (a generic struct whose erased field no type says and
that is not one literal, `if k > 0 { Cell { v: 1.5, .. } } else { Cell { v: 2.5, .. } }`,
an enum carrying a tensor, a part that is no scalar) is left whole, for
scalarize-aggregates to refuse.
""", state=State)


@split_closure_results.on("Program")
def _program(run, program):
    run.state.parts = Parts(program)
    run.state.results = {item.name: item.ret for item in program.items if item._prod == "Fn"}
    return run.rebuild(program)


@split_closure_results.on("Fn")
def _fn(run, fn):
    st = run.state
    # A type inference gave a `let` is only a default that may yet change: not these.
    types = {n.name: n.type for n in descendants(fn)
             if n._prod == "Param" or (n._prod == "Let" and written(n))}
    st.split = {}
    for name, closures in called_closures(fn).items():
        ty = _type_of(closures[0].body.value, types, st)
        parts, fixed = (st.parts.of(ty), {}) if st.parts.of(ty) else \
            _typed_erased_parts(ty, closures, types, st)
        if parts and not st.parts.carries_tensor(ty) and all(
                _type_of(c.body.value, types, st) == ty and not any(
                    n._prod == "Return" for n in descendants(c.body)) for c in closures) \
                and _calls_kept(fn, name):
            st.split[name] = (ty, parts, fixed)
    if not st.split:
        return fn
    st.taken = {n.name for n in descendants(fn) if n._prod in ("Let", "Param", "PBind")} | \
        {n.var for n in descendants(fn) if n._prod == "For"}
    return run.rebuild(fn)


def _typed_erased_parts(ty, closures: list, types: dict, st: State) -> tuple:
    """The parts of ty, a generic struct, each erased field's typed as the scalar every value
    the closures may give puts there says alike (`|x: f64| Cell { v: x, n: 2 }` writes an
    f64 through `&mut` for v), and those of the erased fields every such value puts one
    literal in (`Cell { v: 2.5, .. }`) -> that literal, which no type says (the interpreter's
    plain f64 is typed by what it meets): the call's `let` of no written type binds it
    where the part would be written, computing what the closure would have; (None, {})
    where an erased field is neither: a `&mut` needs a type."""
    parts = st.parts.of(ty, untyped=True)
    if not parts:
        return None, {}
    values = [v for c in closures for v in chosen_values(c.body.value)]
    typed, fixed = [], {}
    for path, leaf in parts:
        if leaf is None:
            found = {_type_of(part(v, path), types, st) for v in values}
            leaf = found.pop() if len(found) == 1 else None
            literals = {_literal(part(v, path)) for v in values}
            if (leaf is None or leaf._prod != "Scalar") and len(literals) == 1 and \
                    None not in literals:
                fixed[path] = part(values[0], path)
            elif leaf is None or leaf._prod != "Scalar":
                return None, {}
        typed.append((path, leaf))
    return typed, fixed


def _literal(e):
    """e as a number or a `bool` written alone (a negative one too), else None."""
    if e._prod == "Unary" and e.op == "-":
        inner = _literal(e.operand)
        return None if inner is None or inner[0] == "Bool" else ("-", *inner)
    if e._prod in ("Int", "Float", "Bool"):
        return e._prod, e.value, getattr(e, "type", None)
    return None


def _calls_kept(fn, name: str) -> bool:
    """Whether each call of the closure is a `let`'s value (name-temporaries gives one that is
    part of an expression a `let` of its own) or a plain assignment's to a place computing
    nothing (`p = step(p);`)."""
    kept = {id(n.value) for n in descendants(fn) if n._prod == "Let" or _plain_assign(n)}
    return all(id(n) in kept for n in descendants(fn) if n._prod == "Call"
               and n.callee._prod == "Local" and n.callee.name == name)


def _type_of(e, types: dict, st: State):
    """e's type where e alone says it, else None."""
    structs = st.parts.structs
    if e is None:
        return None
    if e._prod == "Call" and e.callee._prod == "Global":
        return st.results.get(e.callee.name)
    if e._prod == "Local":
        ty = types.get(e.name)
        return ty if ty is not None and ty._prod in ("Scalar", "TupleType", "NamedType") \
            else None
    if e._prod == "StructLit":
        return L["NamedType"](e.name, span=e.span) if e.name in structs else None
    if e._prod == "EnumValue":
        return L["NamedType"](e.enum, span=e.span)
    if e._prod == "Tuple":
        elems = [_type_of(x, types, st) for x in e.elems]
        return None if None in elems else L["TupleType"](tuple(elems), span=e.span)
    if e._prod == "Cast":
        return e.type
    if e._prod == "Bool":
        return L["Scalar"]("bool", span=e.span)
    if e._prod == "IfExpr":
        arms = [_type_of(b.value, types, st) if b is not None else None
                for b in (e.then, e.orelse)]
        return arms[0] if arms[0] == arms[1] else None
    if e._prod in ("FieldGet", "TupleGet"):
        return _part_type(_type_of(e.base, types, st), e, structs)
    if e._prod == "Binary" and e.op in _COMPARE:
        return L["Scalar"]("bool", span=e.span)
    if e._prod == "Binary" and e.op in _ARITHMETIC:
        # A literal operand takes the other's type.
        typed = [_type_of(x, types, st) for x in (e.left, e.right)
                 if x._prod not in ("Int", "Float")]
        if typed and typed[0] is not None and typed[0]._prod == "Scalar" and \
                all(t == typed[0] for t in typed):
            return typed[0]
    return None


def _part_type(ty, e, structs: dict):
    """The type of the field or element e reads of a value of type ty."""
    if ty is not None and ty._prod == "TupleType" and e._prod == "TupleGet" \
            and e.index < len(ty.elems):
        return ty.elems[e.index]
    if ty is not None and ty._prod == "NamedType" and e._prod == "FieldGet":
        return next((f.type for f in structs.get(ty.name, ()) if f.name == e.field), None)
    return None


def _zero(ty, span):
    if ty.name == "bool":
        return L["Bool"](False, span=span)
    return L["Float"](0.0, span=span) if ty.name.startswith(("f", "bf")) else \
        L["Int"](0, span=span)


def _closure(run, closure, split: tuple):
    """closure writing its result through `&mut` parameters."""
    st = run.state
    ty, parts, fixed = split
    parts = [(path, leaf) for path, leaf in parts if path not in fixed]
    span = closure.span
    out = unused_name("out", st.taken)
    outs = part_names(out, parts, st.taken)
    params = [L["Param"](outs[path], L["BorrowType"](leaf, True, span=span), span=span)
              for path, leaf in parts]
    body = run.walk(closure.body)
    writes = [L["Assign"](L["Deref"](L["Local"](outs[path], span=span), span=span), "=",
                          part(L["Local"](out, span=span), path, leaf, st.parts.enum(ty)),
                          span=span)
              for path, leaf in parts]
    body = body.replace(stmts=body.stmts + (L["Let"](out, False, ty, body.value, span=span),)
                        + tuple(writes), value=None)
    return closure.replace(params=closure.params + tuple(params), body=body)


def _closures(run, value, split: tuple):
    """value, a closure or an `if` choosing closures, each closure writing its result through
    `&mut` parameters."""
    return rechoose(value, lambda v: _closure(run, v, split) if v._prod == "Closure" else v,
                    run.walk)


def _called(run, call, base: str):
    """The statements that call the closure with variables of their own to write, and the
    literal of what it wrote."""
    st = run.state
    ty, parts, fixed = st.split[call.callee.name]
    span = call.span
    names = part_names(base, parts, st.taken)
    lets = [L["Let"](names[path], False, L["OpaqueType"](span=span), fixed[path], span=span)
            if path in fixed else
            L["Let"](names[path], True, leaf, _zero(leaf, span), span=span)
            for path, leaf in parts]
    lent = [L["Borrow"](L["Local"](names[path], span=span), True, span=span)
            for path, _ in parts if path not in fixed]
    made = call.replace(args=tuple(run.walk(a) for a in call.args) + tuple(lent))
    literal = st.parts.literal(ty, names, span)
    return lets + [L["ExprStmt"](made, span=span)], ty, literal


def _split_call(run, e) -> bool:
    return e._prod == "Call" and e.callee._prod == "Local" and e.callee.name in run.state.split


@split_closure_results.on("Let", splice=True)
def _let(run, let):
    split = given_split(let, run.state.split)
    if split is not None:
        return (let.replace(value=_closures(run, let.value, split)),)
    if not _split_call(run, let.value):
        return (run.rebuild(let),)
    stmts, ty, literal = _called(run, let.value, let.name)
    return tuple(stmts) + (let.replace(type=ty, value=literal),)


def _plain_assign(node) -> bool:
    """Whether node is `place = value;` of a place whose location computes nothing (a local,
    what a reference local refers to, their fields and elements), so the call may run before
    it as the interpreter runs it."""
    if node._prod != "Assign" or node.op != "=":
        return False
    place = node.target
    while place._prod in ("FieldGet", "TupleGet", "Deref"):
        place = place.value if place._prod == "Deref" else place.base
    return place._prod == "Local"


@split_closure_results.on("Assign", splice=True)
def _assign(run, assign):
    split = given_split(assign, run.state.split)
    if split is not None:
        return (assign.replace(value=_closures(run, assign.value, split)),)
    if not (_plain_assign(assign) and _split_call(run, assign.value)):
        return (run.rebuild(assign),)
    stmts, _, literal = _called(run, assign.value, "result")
    return tuple(stmts) + (assign.replace(target=run.walk(assign.target), value=literal),)

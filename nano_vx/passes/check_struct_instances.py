"""check-struct-instances: Lresolved, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import Lresolved, display_name
from ..languages.lsrc import DESCRIPTIONS
from ..nanopass import Analysis, descendants
from ..placement.literal_contexts import fixed, literal_arguments
from ..scalars.terms import FLOATS
from ..values.numbers import INT_TYPES

# The kinds of unsuffixed literals, each of which fits any type of its kind.
_INTEGER, _FLOAT = "{integer}", "{float}"
_KINDS = frozenset({*((_INTEGER, t) for t in INT_TYPES), *((_FLOAT, t) for t in FLOATS)})
_TO_BOOL = frozenset("|| && == != < <= > >=".split())
# The heads of a reference's type, `("&", Cell<i32>)`: which a place takes is not judged here.
_REFERENCES = frozenset({"&", "&mut"})


@dataclass
class State:
    structs: dict = field(default_factory=dict)  # name -> StructDecl
    enums: frozenset = frozenset()
    variants: dict = field(default_factory=dict)  # (enum, variant) -> its values' types
    fns: dict = field(default_factory=dict)  # name -> Fn
    closures: dict = field(default_factory=dict)  # a local a `let` binds a closure -> it
    given: dict = field(default_factory=dict)  # id of a literal -> the GArgs it is given
    fn: object = None  # the function walked
    locals: dict = field(default_factory=dict)  # a local of the function walked -> its type
    result: object = None  # the result type of the function walked, while not in a closure


check_struct_instances = Analysis("check-struct-instances", Lresolved, """
Refuse a value whose type differs from the one asked for in a generic struct's arguments
(E3012 a field, E3001 a `let` or an assignment, E3003 an argument, E3002 a result, E3007 an
arm): `Cell { v: true }` as a `Cell<i32>`, a `Cell<f64>` passed where a `Cell<i32>` is asked
for.

erase-struct-arguments, which comes next but one, erases a generic struct's scalar arguments
(a `Cell<i32>` is a `Cell`, as is a `Cell<bool>`), so the checks after it see one struct: a
`Cell<bool>` given as a `Cell<i32>` would run, and stop at the first arithmetic on its field
(E9006), or a `Cell<Cell<i32>>` held in a `Cell<i32>` would nest ever deeper at each
recursive call. This pass judges the values before the arguments go, as Rust does: a field
whose declared type names a parameter of its struct takes a value of the type the arguments
make it, in a literal (its arguments written, else those of the type it is given as:
placement/literal_contexts.py) or assigned (`x.v = true` of a `Cell<i32>`), and a
value given where a type is written (a parameter's too, of a function or of the closure a
`let` binds the variable called to) takes one that differs from it nowhere inside the
arguments of a generic struct the erasure erases. An unsuffixed literal fits any type of its
kind. What the checks after the erasure tell apart is theirs to judge, with their messages:
a mismatch outside a generic struct's arguments, and one between two instances it makes
(`Cell<Point>` and `Cell<Other>`, or a `Cell<Point>` given an `Other`).

A type here is what the text says: a scalar, a struct, an enum, a tuple, a generic struct
applied to such arguments (a `const` one to a number), a tensor (its element type and its
extents, numbers or a struct's const parameters), an unsuffixed literal's kind, or a
reference to one of those; anything else (a type that names a generic function's
parameter, a generic struct named without its arguments) is not known here and not judged.
The type of a value: a literal's kind; a cast's type, a tensor constructor's; a local's written type, else its
value's; a struct literal's arguments, written, else those of the type it is given as, else
those its fields bind; an enum value's enum; a call of a function, its written result (a
generic one's, where the call writes its arguments), and of the closure a `let` binds, its
body's value; a borrow's reference and a dereference's referent; a field's declared type
with its struct's arguments (read through a reference too); a tuple's elements; an `if`'s
or a `match`'s arms, where they agree; a comparison's bool; arithmetic on operands of known
types.
""", state=State, skip=DESCRIPTIONS)


@check_struct_instances.on("Program")
def _program(run, node):
    st = run.state
    st.structs = {i.name: i for i in node.items if i._prod == "StructDecl"}
    st.enums = frozenset(i.name for i in node.items if i._prod == "EnumDecl")
    st.variants = {(i.name, v.name): v.fields for i in node.items if i._prod == "EnumDecl"
                   for v in i.variants}
    st.fns = {i.name: i for i in node.items if i._prod == "Fn"}
    st.given = literal_arguments(node)
    run.descend(node)


@check_struct_instances.on("Fn")
def _fn(run, node):
    st = run.state
    st.fn, st.locals = node, {}
    # A variable bound once to a closure holds that closure wherever it is called (locals are
    # unique within a function); one `let mut` may come to hold another.
    st.closures = {n.name: n.value for n in descendants(node) if n._prod == "Let"
                   and not n.mutable and n.value._prod == "Closure"}
    for p in node.params:
        st.locals[p.name] = _written(run, fixed(p.type, node))
    st.result = result = _written(run, fixed(node.ret, node))
    run.descend(node)
    if node.body.value is not None:
        name = display_name(node.name)
        _judge(run, "E3002", node.body.value, result,
               lambda found: f"'{name}' returns {_shown(result)}, but its body ends in "
                             f"{_shown(found)}", function=name)
    st.fn = st.result = None


@check_struct_instances.on("Closure")
def _closure(run, node):
    st = run.state
    st.locals.update((p.name, _written(run, fixed(p.type, st.fn))) for p in node.params)
    result, st.result = st.result, None  # a closure's `return` gives its own result
    run.descend(node)
    st.result = result


@check_struct_instances.on("Spawn")
def _spawn(run, node):
    st = run.state
    result, st.result = st.result, None  # a `return` in the block gives the block's value
    run.descend(node)
    st.result = result


@check_struct_instances.on("Let")
def _let(run, node):
    run.descend(node)
    st = run.state
    written = _written(run, fixed(node.type, st.fn))
    st.locals[node.name] = written if node.type is not None else _type(run, node.value)
    name = display_name(node.name)
    _judge(run, "E3001", node.value, written,
           lambda found: f"'{name}' is declared {_shown(written)}, but its value is "
                         f"{_shown(found)}", name=name)


@check_struct_instances.on("Assign")
def _assign(run, node):
    """A variable takes a value of its type, and a field of a generic struct's instance
    whose declared type names a parameter the type the instance's arguments make it."""
    run.descend(node)
    target = node.target
    if node.op != "=" or target._prod not in ("Local", "FieldGet"):
        return
    held = _type(run, target)
    erased = target._prod == "FieldGet" and _erased_field(run, _type(run, target.base),
                                                          target.field)
    name = _place(target)
    _judge(run, "E3001", node.value, held,
           lambda found: f"`{name}` is {_shown(held)}, but the value assigned to it is "
                         f"{_shown(found)}", any_mismatch=erased, target=name)


def _erased_field(run, struct, name: str) -> bool:
    """Whether field `name` of a value of type `struct` names a parameter of a struct whose
    arguments erase-struct-arguments erases: what is given there is not judged after it."""
    decl, declared = _declared(run, struct, name)
    return declared is not None and _names_a_parameter(declared, decl) and \
        _erased(run, _through(struct))


def _place(e) -> str:
    """A place as a message writes it: `x`, `x.v`, `x.0.v`."""
    if e._prod == "Local":
        return display_name(e.name)
    if e._prod == "FieldGet":
        return f"{_place(e.base)}.{e.field}"
    if e._prod == "TupleGet":
        return f"{_place(e.base)}.{e.index}"
    return "_"


@check_struct_instances.on("Return")
def _return(run, node):
    run.descend(node)
    st = run.state
    if node.value is not None and st.result is not None:
        result, name = st.result, display_name(st.fn.name)
        _judge(run, "E3002", node.value, result,
               lambda found: f"'{name}' returns {_shown(result)}, but this value is "
                             f"{_shown(found)}", function=name)


@check_struct_instances.on("Call")
def _call(run, node):
    run.descend(node)
    fn, bound = _callee(run, node)
    closure = run.state.closures.get(node.callee.name) if node.callee._prod == "Local" \
        else None
    if fn is None and closure is None:
        return
    # A closure's parameters are written in the function walked, as its `let`s are.
    name, params, bound = (display_name(fn.name), fn.params, bound) if fn is not None else \
        (display_name(node.callee.name), closure.params, None)
    for i, (param, arg) in enumerate(zip(params, node.args), 1):
        takes = _written(run, fixed(param.type, run.state.fn) if fn is None else param.type,
                         bound)
        shown = display_name(param.name)
        _judge(run, "E3003", arg, takes,
               lambda found: f"argument {i} of '{name}' is {_shown(found)}, but its "
                             f"parameter '{shown}' is {_shown(takes)}", callee=name, argument=i)


def _callee(run, call):
    """The function `call` calls and what its generic parameters are (those the call
    writes, all of them): (None, None) for a call of no function or one whose arguments
    are deduced, which monomorphize judges."""
    fn = run.state.fns.get(call.callee.name) if call.callee._prod == "Global" else None
    if fn is None or len(call.targs) != len(fn.generics):
        return None, None
    return fn, _bindings(run, fn, call.targs)


@check_struct_instances.on("EnumValue")
def _enum_value(run, node):
    run.descend(node)
    declared = run.state.variants.get((node.enum, node.variant), ())
    shown = f"{display_name(node.enum)}::{node.variant}"
    for i, (ty, arg) in enumerate(zip(declared, node.args), 1):
        carries = _written(run, ty)
        _judge(run, "E3012", arg, carries,
               lambda found: f"value {i} of '{shown}' is {_shown(carries)}, but this value is "
                             f"{_shown(found)}", variant=shown)


@check_struct_instances.on("IfExpr")
def _if(run, node):
    run.descend(node)
    _arms(run, "`if`", [node.then, node.orelse])


@check_struct_instances.on("MatchValue")
def _match(run, node):
    run.descend(node)
    _arms(run, "`match`", [c.body for c in node.cases])


def _arms(run, construct: str, blocks) -> None:
    """An arm's value must be of the type of the first arm's."""
    values = [b.value for b in blocks if b.value is not None]
    if len(values) < 2:
        return
    first = _type(run, values[0])
    for value in values[1:]:
        _judge(run, "E3007", value, first,
               lambda found: f"the arms of this {construct} are {_shown(first)} and "
                             f"{_shown(found)}: an {construct} used as a value gives one type")


@check_struct_instances.on("StructLit")
def _literal(run, node):
    """Each field, given the type its struct's arguments make it: any mismatch where its
    declared type names a parameter of a struct erased, else one the erasure hides."""
    run.descend(node)
    decl = run.state.structs.get(node.name)
    if decl is None:
        return
    args = node.targs or run.state.given.get(id(node), ())
    bound = _bindings(run, decl, args) if args and len(args) == len(decl.generics) else None
    declared = {f.name: f.type for f in decl.fields}
    made = _type(run, node)
    shown, erased = _shown(made), _erased(run, made)
    for given in node.fields:
        ty = declared.get(given.name)
        if ty is None:
            continue
        parametric = _names_a_parameter(ty, decl)
        if parametric and bound is None:
            continue  # check-struct-fields binds the parameters by the fields themselves
        expected = _written(run, ty, bound or {})
        _judge(run, "E3012", given.value, expected,
               lambda found: f"field '{given.name}' of '{shown}' is {_shown(expected)}, but "
                             f"this value is {_shown(found)}",
               any_mismatch=parametric and erased, struct=shown, field=given.name)


def _judge(run, code, value, expected, message, any_mismatch=False, **data) -> None:
    """Refuse `value` where it does not fit `expected` and erase-struct-arguments would hide
    it (with `any_mismatch`, anywhere)."""
    found = _type(run, value)
    if _fits(found, expected) or not (any_mismatch or _hidden(run, found, expected)):
        return
    run.ctx.diagnostics.error(
        code, value.span, message(found),
        help=["a generic struct's arguments are part of its type: give a value of the type "
              "asked for, or ask for the type of the value"],
        expected=_shown(expected), found=_shown(found), **data)


def _fits(found, expected) -> bool:
    """Whether a value of type `found` may stand where `expected` is (None: not known)."""
    if found is None or expected is None:
        return True
    if isinstance(found, str) or isinstance(expected, str):
        return found == expected or (found, expected) in _KINDS or \
            (expected, found) in _KINDS
    return len(found) == len(expected) and _alike(found[0], expected[0]) and \
        all(_fits(f, e) for f, e in zip(found[1:], expected[1:]))


def _alike(a: str, b: str) -> bool:
    """Whether two types' heads are of one kind: the same, or two references."""
    return a == b or a in _REFERENCES and b in _REFERENCES


def _hidden(run, found, expected) -> bool:
    """Whether the two types, which do not fit, differ only where erase-struct-arguments
    makes them one: inside the arguments of a generic struct it erases (a `Cell<i32>` and a
    `Cell<bool>` are both `Cell`, and an erased one fits an instance). Where the two are
    instances it makes (`Cell<Point>`, `Cell<Other>`) or differ outside a generic struct's
    arguments, the checks after it tell them apart, with their codes."""
    if not (isinstance(found, tuple) and isinstance(expected, tuple) and
            len(found) == len(expected) and _alike(found[0], expected[0])):
        return False
    if found[0] != "(" and (_erased(run, found) or _erased(run, expected)):
        return True
    return any(_hidden(run, f, e) for f, e in zip(found[1:], expected[1:]))


def _erased(run, ty) -> bool:
    """Whether erase-struct-arguments erases the generic struct of type ty rather than make
    it an instance: a parameter a topology, an argument not known here, or none of them an
    aggregate (a struct, an enum, a tuple: what this pass knows of them)."""
    decl = run.state.structs.get(ty[0]) if isinstance(ty, tuple) else None
    if decl is None or not decl.generics:
        return False
    return any(g._prod == "TypeParam" and g.topology for g in decl.generics) or \
        None in ty[1:] or not any(isinstance(a, tuple) for a in ty[1:])


def _join(a, b):
    """The type of a value that is an `a` or a `b` (the arms of an `if`), where they fit:
    the one a literal's kind does not leave open."""
    if a is None or b is None:
        return b if a is None else a
    if not _fits(a, b):
        return None
    if isinstance(a, str) or isinstance(b, str):
        return b if a in (_INTEGER, _FLOAT) else a
    return (a[0], *(_join(x, y) for x, y in zip(a[1:], b[1:])))


def _bindings(run, decl, args) -> dict:
    """A struct's (or a function's) generic parameters -> the types (or numbers) `args`
    give them."""
    return dict(zip((g.name for g in decl.generics), _arguments(run, decl, args)))


def _arguments(run, decl, args, bound=None) -> list:
    """What each of `args` gives its parameter of decl: a type parameter a type, a `const`
    one its number; None where that is not known (or not of the parameter's kind)."""
    return [_written(run, a.type, bound) if a._prod == "TypeArg" and g._prod == "TypeParam"
            else str(a.dim.value) if a._prod == "DimArg" and a.dim._prod == "DimInt" and
            g._prod == "ConstParam" else None for g, a in zip(decl.generics, args)]


def _names_a_parameter(ty, decl) -> bool:
    names = {g.name for g in decl.generics}
    return any(n._prod in ("NamedType", "DimName") and n.name in names
               for n in descendants(ty))


def _written(run, ty, bound=None):
    """A written type as this pass compares types: a scalar's name, `(name, *arguments)` for
    a struct or an enum (a generic one's arguments), `("(", *elements)` for a tuple; None for
    what it does not judge. `bound`: a struct's parameters -> what its arguments make them."""
    if ty is None:
        return None
    st = run.state
    kind = ty._prod
    if kind == "Scalar":
        return ty.name
    if kind == "NamedType":
        if bound is not None and ty.name in bound:
            return bound[ty.name]
        decl = st.structs.get(ty.name)
        known = ty.name in st.enums or decl is not None and not decl.generics
        return (ty.name,) if known else None
    if kind == "AppliedType":
        decl = st.structs.get(ty.name)
        if decl is None or len(ty.args) != len(decl.generics):
            return None
        return (ty.name, *_arguments(run, decl, ty.args, bound))
    if kind == "TupleType":
        return ("(", *(_written(run, e, bound) for e in ty.elems))
    if kind == "BorrowType":
        inner = _written(run, ty.inner, bound)
        return None if inner is None else ("&mut" if ty.mutable else "&", inner)
    if kind == "TensorType":
        # `Tensor<f32, [N]>` of a `Row<4>` holds 4: erased, a tensor of 3 would be read past
        # its end. Its memory is not judged.
        return ("Tensor", _written(run, ty.elem, bound), *(_extent(d, bound) for d in ty.dims))
    return None


def _extent(dim, bound):
    """A tensor's written extent as a number (its text), where a literal or a struct's
    const parameter gives it; None otherwise."""
    if dim._prod == "DimInt":
        return str(dim.value)
    return bound.get(dim.name) if dim._prod == "DimName" and bound is not None else None


def _type(run, e):
    """The type of the value `e`, as `_written` gives types; None where it is not known."""
    st = run.state
    kind = e._prod
    if kind in ("Int", "Float", "Bool"):
        return {"Int": _INTEGER, "Float": _FLOAT, "Bool": "bool"}[kind]
    if kind in ("Cast", "TensorNew", "TensorLit"):
        return _written(run, e.type)
    if kind == "Local":
        return st.locals.get(e.name)
    if kind == "Tuple":
        return ("(", *(_type(run, x) for x in e.elems))
    if kind == "TupleGet":
        base = _type(run, e.base)
        return base[e.index + 1] if isinstance(base, tuple) and base[0] == "(" and \
            e.index + 1 < len(base) else None
    if kind == "StructLit":
        return _literal_type(run, e)
    if kind == "EnumValue":
        return (e.enum,) if e.enum in st.enums else None
    if kind == "IfExpr" and e.then.value is not None and e.orelse.value is not None:
        return _join(_type(run, e.then.value), _type(run, e.orelse.value))
    if kind == "MatchValue" and e.cases and all(c.body.value is not None for c in e.cases):
        joined = _type(run, e.cases[0].body.value)
        for c in e.cases[1:]:
            t = _type(run, c.body.value)
            if not _fits(joined, t):
                return None
            joined = _join(joined, t)
        return joined
    if kind == "FieldGet":
        return _field_type(run, _type(run, e.base), e.field)
    if kind == "Call":
        fn, bound = _callee(run, e)
        if fn is not None:
            return _written(run, fn.ret, bound)
        closure = st.closures.get(e.callee.name) if e.callee._prod == "Local" else None
        return _type(run, closure.body.value) \
            if closure is not None and closure.body.value is not None else None
    if kind == "Borrow":
        inner = _type(run, e.value)
        return None if inner is None else ("&mut" if e.mutable else "&", inner)
    if kind == "Deref":
        ref = _type(run, e.value)
        return ref[1] if isinstance(ref, tuple) and ref[0] in _REFERENCES else None
    if kind == "Unary":
        return _type(run, e.operand)
    if kind == "Binary":
        if e.op in _TO_BOOL:
            return "bool"
        left, right = _type(run, e.left), _type(run, e.right)
        known = isinstance(left, str) and isinstance(right, str)
        return _join(left, right) if known and e.op not in ("<<", ">>") else \
            left if known else None
    return None


def _literal_type(run, lit):
    st = run.state
    decl = st.structs.get(lit.name)
    if decl is None:
        return None
    if not decl.generics:
        return (lit.name,)
    args = lit.targs or st.given.get(id(lit), ())
    if args:
        return (lit.name, *_arguments(run, decl, args)) \
            if len(args) == len(decl.generics) else None
    # The arguments the fields bind: a parameter is the type of a value given a field of
    # type exactly that parameter.
    values = {f.name: f.value for f in lit.fields}
    bound = {}
    for f in decl.fields:
        if f.type is not None and f.type._prod == "NamedType" and f.name in values:
            found = _type(run, values[f.name])
            bound[f.type.name] = _join(bound.get(f.type.name), found) \
                if _fits(bound.get(f.type.name), found) else None
    return (lit.name, *(bound.get(g.name) for g in decl.generics))


def _declared(run, struct, name: str):
    """The declaration of the struct of type `struct` and the type it declares its field
    `name` of (None, None where either is not known)."""
    struct = _through(struct)
    decl = run.state.structs.get(struct[0]) if isinstance(struct, tuple) else None
    declared = next((f.type for f in decl.fields if f.name == name), None) \
        if decl is not None else None
    return decl, declared


def _field_type(run, struct, name: str):
    """The type of field `name` of a value of type `struct` (None where either is not
    known)."""
    decl, declared = _declared(run, struct, name)
    if declared is None:
        return None
    args = _through(struct)[1:]
    return _written(run, declared, {g.name: a for g, a in zip(decl.generics, args)})


def _through(ty):
    """The type of what a value of type ty names: ty, or what a reference refers to (a field
    is read through it)."""
    return ty[1] if isinstance(ty, tuple) and ty[0] in _REFERENCES else ty


def _shown(ty) -> str:
    """A type as a message writes it: `i32`, `Cell<i32>`, `(i32, bool)`, `_` unknown."""
    if ty is None:
        return "_"
    if isinstance(ty, str):
        return ty
    if ty[0] == "(":
        return f"({', '.join(map(_shown, ty[1:]))})"
    if ty[0] in _REFERENCES:
        return f"{ty[0]}{' ' * (ty[0] == '&mut')}{_shown(ty[1])}"
    if ty[0] == "Tensor":
        return f"Tensor<{_shown(ty[1])}, [{', '.join(map(_shown, ty[2:]))}]>"
    name = display_name(ty[0])
    return name if len(ty) == 1 else f"{name}<{', '.join(map(_shown, ty[1:]))}>"

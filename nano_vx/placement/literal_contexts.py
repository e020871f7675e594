"""The types the literals of a program are given as, by where they go: the generic arguments
each struct literal is built with, and the element type each array literal's elements take.

A struct literal's arguments are those it writes (`Cell::<f32> { .. }`), else those of the
type it is given as, where one is written and names no generic parameter of its function.
type-generic-field-literals types the literals of its scalar fields by them;
erase-struct-arguments makes the instance its aggregate ones ask for. An array literal given
as a tensor type whose element type is a scalar (`let v: Tensor<f32, [2]> = [0.1, 0.2];`)
takes that element type: type-array-literals casts its elements to it (not where it is
given to a closure's parameter, which converts no tensor it is given).

A literal is given as a type by the `let` or the constant that binds it (`let c: Cell<Point>
= Cell { .. };`, `const C: Cell<f32> = Cell { .. };`), the parameter it is passed to
(`get(Cell { .. })` for `fn get(c: Cell<Point>)`; `px<i64>(P { .. })` for `fn px<T>(p:
P<T>)`, whose call writes T, passes a `P<i64>`; `f(Cell { .. })` of a closure a `let` binds,
never assigned, `|c: Cell<f32>| ..`), the function's result it is returned as (by
`return` or the body's value; a closure's `return` is its own, of a type no one writes, and
so is a `spawn on` block's), the
field of a struct that is not generic or the variant's value it is given to, or a literal in
its field those its field's parameter is given (`Cell { v: Cell { .. } }` as a
`Cell<Cell<Point>>`). The type is handed on through the arms of an `if` or a `match`, an
`unsafe` block's value and a tuple's elements, as the interpreter hands a type on. A literal
assigned takes nothing: it takes the types of what its variable holds, as the interpreter and
type-scalars both give them."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Lresolved
from ..nanopass import Analysis, descendants, rebuild


def literal_arguments(program) -> dict[int, tuple]:
    """id of each struct literal of program (Lresolved) -> the GArgs it is built with, for
    the literals that write none and are given as a type that writes them (while program
    lives: the keys are its nodes')."""
    return _contexts.collect(program).given


def array_literal_elements(program) -> dict[int, object]:
    """id of each array literal of program (Lresolved) given as a tensor type whose element
    type is a scalar -> that Scalar (while program lives: the keys are its nodes')."""
    return _contexts.collect(program).elements


def fixed(ty, item):
    """ty (Lresolved, or None), where it names none of the generic parameters of item (a
    function or a struct, or None), else None: `Cell<T>` in a generic function says nothing
    of the literal, which keeps its own fields' types."""
    names = {g.name for g in item.generics} if item is not None else ()
    return None if ty is None or any(n._prod in ("NamedType", "DimName") and n.name in names
                                     for n in descendants(ty)) else ty


@dataclass
class _State:
    given: dict = field(default_factory=dict)  # id of a literal -> its GArgs
    elements: dict = field(default_factory=dict)  # id of an array literal -> its Scalar
    structs: dict = field(default_factory=dict)  # name -> StructDecl
    variants: dict = field(default_factory=dict)  # (enum, variant) -> its values' types
    callees: dict = field(default_factory=dict)  # name -> Fn
    closures: dict = field(default_factory=dict)  # a local a `let` binds a closure -> it
    fn: object = None  # the function walked
    result: object = None  # its result type, where its body's values are returned (not in
    # a closure), and that body
    body: object = None


_contexts = Analysis("literal-contexts", Lresolved, """
The generic arguments each struct literal is built with, written or from the type it is
given as, and the element type each array literal is given as (a helper of
type-generic-field-literals, type-array-literals and erase-struct-arguments).
""", state=_State)


@_contexts.on("Program")
def _program(run, node):
    st = run.state
    st.structs = {i.name: i for i in node.items if i._prod == "StructDecl"}
    st.variants = {(i.name, v.name): v.fields for i in node.items if i._prod == "EnumDecl"
                   for v in i.variants}
    st.callees = {i.name: i for i in node.items if i._prod == "Fn"}
    run.descend(node)


@_contexts.on("Fn")
def _fn(run, node):
    st = run.state
    st.fn, st.result, st.body = node, fixed(node.ret, node), node.body
    assigned = {n.target.name for n in descendants(node)
                if n._prod == "Assign" and n.target._prod == "Local"}
    st.closures = {n.name: n.value for n in descendants(node) if n._prod == "Let"
                   and n.value._prod == "Closure" and n.name not in assigned}
    run.descend(node)
    st.result = st.body = None


@_contexts.on("ConstItem")
def _const_item(run, node):
    run.state.fn = None
    if node.value is not None:
        _given_as(run, node.value, node.type)


@_contexts.on("Let")
def _let(run, node):
    _given_as(run, node.value, fixed(node.type, run.state.fn))


@_contexts.on("Return")
def _return(run, node):
    if node.value is not None:
        _given_as(run, node.value, run.state.result)


@_contexts.on("Block")
def _block(run, node):
    st = run.state
    _arm(run, node, st.result) if node is st.body else run.descend(node)


@_contexts.on("Closure", "Spawn")
def _closure(run, node):
    """A closure's `return`, and a `spawn on` block's, gives its own value, not the
    function's result."""
    st = run.state
    result, st.result = st.result, None
    run.descend(node)
    st.result = result


@_contexts.on("EnumValue")
def _enum_value(run, node):
    types = run.state.variants.get((node.enum, node.variant), ())
    for i, a in enumerate(node.args):
        _given_as(run, a, types[i] if i < len(types) else None)


@_contexts.on("Call")
def _call(run, node):
    st = run.state
    fn = st.callees.get(node.callee.name) if node.callee._prod == "Global" else None
    closure = st.closures.get(node.callee.name) if node.callee._prod == "Local" else None
    if closure is not None:  # a closure's parameters type what its calls give them too
        for i, a in enumerate(node.args):
            ty = fixed(closure.params[i].type, st.fn) if i < len(closure.params) else None
            # but not an array literal's elements: the interpreter makes them as they are
            # written and converts no tensor at the call, so `[0.1f32, 0.2]` says f32 there.
            _given_as(run, a, None if ty is not None and any(
                n._prod == "TensorType" for n in descendants(ty)) else ty)
        return
    if fn is None:
        run.descend(node)
        return
    bound = {g.name: a.type for g, a in zip(fn.generics, node.targs)
             if g._prod == "TypeParam" and a._prod == "TypeArg"}

    def written(ty):
        """ty with the callee's parameters the call binds replaced; None where it still names
        one of the callee's, or one of the caller's a written argument names."""
        if ty is not None and bound:
            ty = rebuild(ty, lambda n: bound.get(n.name) if n._prod == "NamedType" else None)
        return fixed(fixed(ty, fn), st.fn)
    run.walk(node.callee)
    for i, a in enumerate(node.args):
        _given_as(run, a, written(fn.params[i].type) if i < len(fn.params) else None)


@_contexts.on("StructLit")
def _struct_lit(run, node):
    _literal(run, node, node.targs)


def _given_as(run, value, ty):
    """Walk value, a value of the type ty (Lresolved, or None)."""
    p = value._prod
    if ty is not None and ty._prod == "TupleType" and p == "Tuple" and \
            len(ty.elems) == len(value.elems):
        for e, t in zip(value.elems, ty.elems):
            _given_as(run, e, t)
    elif ty is None or ty._prod not in ("AppliedType", "TensorType"):
        run.walk(value)
    elif p == "StructLit" and ty._prod == "AppliedType" and not value.targs and \
            ty.name == value.name:
        _literal(run, value, ty.args)
    elif p == "ArrayLit" and ty._prod == "TensorType":
        if ty.elem._prod == "Scalar":
            run.state.elements[id(value)] = ty.elem
        run.walk(value)
    elif p == "IfExpr":
        run.walk(value.cond)
        _arm(run, value.then, ty)
        _arm(run, value.orelse, ty)
    elif p == "MatchValue":
        run.walk(value.scrutinee)
        for c in value.cases:
            run.walk(c.pattern)
            _arm(run, c.body, ty)
    elif p == "Unsafe":
        _arm(run, value.body, ty)
    else:
        run.walk(value)


def _arm(run, block, ty):
    """Walk block, whose value is one of the type ty."""
    for s in block.stmts:
        run.walk(s)
    if block.value is not None:
        _given_as(run, block.value, ty)


def _literal(run, node, args):
    """Walk node, a literal built with the arguments args (GArgs, or none)."""
    st = run.state
    if args:
        st.given[id(node)] = args
    decl = st.structs.get(node.name)
    declared = {f.name: f.type for f in decl.fields} if decl is not None else {}
    applied = {g.name: a.type for g, a in zip(decl.generics, args) if a._prod == "TypeArg"
               and a.type._prod == "AppliedType"} \
        if decl is not None and len(args) == len(decl.generics) else {}
    for given in node.fields:
        ty = declared.get(given.name)
        inner = applied.get(ty.name) if ty is not None and ty._prod == "NamedType" else None
        v = given.value
        if inner is not None and v._prod == "StructLit" and not v.targs and \
                v.name == inner.name:
            _literal(run, v, inner.args)
        else:
            _given_as(run, v, fixed(ty, decl))

"""decide-vector-splats: Lmono, a rewrite in the same IL."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmono import Lmono
from ..nanopass import Pass

LANEWISE = frozenset("+ - * /".split())


@dataclass
class State:
    fns: dict = field(default_factory=dict)  # name -> Fn
    structs: dict = field(default_factory=dict)  # name -> {field: type}
    locals: dict = field(default_factory=dict)  # the current function's: name -> type
    ret: object = None  # the current function's result type


decide_vector_splats = Pass("decide-vector-splats", Lmono, Lmono, """
Give each `splat(v)` its vector type, from where its value goes (E3016 where nothing says it).

`splat(v)` is v in every lane of a vector whose type the place around it fixes, as a generic
function's type parameter is fixed by its call: the type of a `let` (`let s: <4 x f32> =
splat(x)`), of the variable assigned, of a struct's field, of a parameter of the called
function, of the function's result (`return splat(x)` and a body's value), or the other
operand of `+ - * /` when that one is a vector (`v * splat(2.0)`, a vector moved by
`transfer` or pinned by `spawn on` included). A splat with no such place
(`let s = splat(1.0);`) has no lane count to make, and is refused. The type is written into
the node (`splat::<4 x f32>(x)`), so that infer-placement, the checks and the interpreter
after it know the lanes; the types read are the ones written (this runs before
infer-placement, so that the values splats make are typed there).
""", state=State)


@decide_vector_splats.on("Program")
def _program(run, node):
    st = run.state
    st.fns = {i.name: i for i in node.items if i._prod == "Fn"}
    st.structs = {i.name: {f.name: f.type for f in i.fields}
                  for i in node.items if i._prod == "StructDecl"}
    return run.rebuild(node)


@decide_vector_splats.on("Fn")
def _fn(run, node):
    st = run.state
    st.locals = {p.name: p.type for p in node.params if p.type is not None}
    st.ret = node.ret
    body = node.body
    stmts = run.walk_seq(body.stmts)
    value = _fill(run, body.value, node.ret) if body.value is not None else None
    return node.replace(body=body.replace(stmts=stmts, value=value))


@decide_vector_splats.on("Let")
def _let(run, node):
    st = run.state
    value = _fill(run, node.value, node.type)
    # Before infer-placement, a `let` without a written type is of its value's.
    st.locals[node.name] = node.type if node.type is not None else _type_of(st, value)
    return node.replace(value=value)


@decide_vector_splats.on("Assign")
def _assign(run, node):
    want = _vector_of(run.state, node.target) if node.op in ("=", "+=", "-=", "*=", "/=") \
        else None
    return node.replace(target=run.walk(node.target), value=_fill(run, node.value, want))


@decide_vector_splats.on("Return")
def _return(run, node):
    if node.value is None:
        return node
    return node.replace(value=_fill(run, node.value, run.state.ret))


@decide_vector_splats.on("Binary")
def _binary(run, node):
    if node.op not in LANEWISE:
        return run.rebuild(node)
    st = run.state
    # The other operand's type is asked only for an undecided splat: asked at every `+` of a
    # chain, it would walk the rest of the chain each time (quadratic in a long sum).
    left = _vector_of(st, node.right) if _undecided(node.left) else None
    right = _vector_of(st, node.left) if _undecided(node.right) else None
    return node.replace(left=_fill(run, node.left, left), right=_fill(run, node.right, right))


@decide_vector_splats.on("StructLit")
def _struct(run, node):
    fields = run.state.structs.get(node.name, {})
    return node.replace(fields=tuple(
        f.replace(value=_fill(run, f.value, fields.get(f.name))) for f in node.fields))


@decide_vector_splats.on("Call")
def _call(run, node):
    fn = run.state.fns.get(node.callee.name) if node.callee._prod == "Global" else None
    if fn is None or len(fn.params) != len(node.args):
        return run.rebuild(node)
    return node.replace(args=tuple(_fill(run, a, p.type) for a, p in zip(node.args, fn.params)))


@decide_vector_splats.on("Splat")
def _splat(run, node):
    if node.type is None:
        run.ctx.diagnostics.error(
            "E3016", node.span, "the vector type of this `splat` is not determined: nothing "
                                "around it says how many lanes, of which type",
            help=["write the type where the value goes: `let s: <4 x f32> = splat(x);`"],
            param="splat")
    return run.rebuild(node)


def _undecided(expr) -> bool:
    return expr._prod == "Splat" and expr.type is None


def _fill(run, expr, want):
    """`expr`, rewritten; an undecided splat given `want` when that is a vector type."""
    if _undecided(expr) and want is not None and want._prod == "VectorType":
        return expr.replace(value=run.walk(expr.value), type=want)
    return run.walk(expr)


def _vector_of(st: State, expr):
    """The vector type of `expr` as the locals, fields and results written say it, or None."""
    t = _type_of(st, expr)
    return t if t is not None and t._prod == "VectorType" else None


def _type_of(st: State, expr):
    kind = expr._prod
    if kind == "Local":
        return st.locals.get(expr.name)
    if kind in ("VecLit", "Splat"):
        return expr.type
    if kind == "Binary" and expr.op in LANEWISE:
        return _vector_of(st, expr.left) or _vector_of(st, expr.right)
    if kind == "Transfer":  # a vector moved keeps its lanes, in another space
        return _type_of(st, expr.value)
    if kind == "Spawn":  # the block's value, pinned where it ran
        return _type_of(st, expr.body.value) if expr.body.value is not None else None
    if kind == "Call" and expr.callee._prod == "Global" and expr.callee.name in st.fns:
        return st.fns[expr.callee.name].ret
    if kind == "FieldGet":
        base = _type_of(st, expr.base)
        if base is not None and base._prod == "NamedType":
            return st.structs.get(base.name, {}).get(expr.field)
    if kind == "TupleGet":
        base = _type_of(st, expr.base)
        if base is not None and base._prod == "TupleType" and expr.index < len(base.elems):
            return base.elems[expr.index]
    return None

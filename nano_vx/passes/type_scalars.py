"""type-scalars: Lsafe -> Lscalars."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lscalars import Lscalars
from ..languages.lsafe import Lsafe
from ..nanopass import Pass
from ..scalars import infer_program, report_refused
from ..scalars.signatures import written
from ..scalars.terms import Closure, Ref, Tensor, Vector, decide

L = Lscalars


@dataclass
class State:
    types: dict = field(default_factory=dict)  # item name -> {id(node): decided type}
    rets: dict = field(default_factory=dict)  # function name -> its result's type term
    extents: dict = field(default_factory=dict)  # id(`t.extent(i)`) -> a static extent
    lanes: set = field(default_factory=set)  # id() of each `v[i]` reading a vector's lane
    item: str | None = None  # the item being rebuilt


type_scalars = Pass("type-scalars", Lsafe, Lscalars, """
Decide the machine type of every literal, operator, cast, `let`, loop variable and result.

Within each function, types flow both ways, as Rust infers them: an integer literal takes the
type of what it meets (the other operand, the variable it is assigned to, the parameter it is
passed as, the element it is stored in), a variable first bound to a literal takes the type
of whatever is later assigned to it, and what nothing fixes is i32 (integers) or f64 (floats).
A closure's parameters take the types of the arguments it is called with. A kernel's result is
its body's value. An array literal is the tensor literal of its decided type, and
`t.extent(i)` of a variable whose extent i is static is that number, any other an Extent,
read as the program runs. An operator on two vectors is a
VecBinary of their type, and `v[i]` of a vector a Lane. check-native-subset refused what
the inference cannot type; a dump resumed after it that still holds some is refused here,
with the same E5010, and its function left out.
""", state=State)


@type_scalars.on("Program")
def _program(run, program):
    inferred = infer_program(program, erased=True)
    report_refused(run.ctx.diagnostics, inferred)
    refused = inferred.refused
    # Solved only once every item is inferred: a launch's type is the kernel's body's, and
    # a kernel's parameters are what its launch passes, whichever comes first.
    run.state.types = {name: infer.solved() for name, infer in inferred.items.items()}
    run.state.extents = {key: n for infer in inferred.items.values()
                         for key, n in infer.extents.items()}
    run.state.lanes = set().union(*(infer.lanes for infer in inferred.items.values()))
    run.state.rets = {name: inferred.sigs.ret(name)
                      for name in inferred.sigs.fns if name not in refused}
    items = []
    for item in program.items:
        if getattr(item, "name", None) in refused:
            continue
        run.state.item = getattr(item, "name", None)
        items.append(run.walk(item))
    return L["Program"](tuple(items), span=program.span)


def _decided(run, node):
    return run.state.types[run.state.item][id(node)]


@type_scalars.on("MethodCall")
def _method(run, node):
    # `t.extent(i)` (the inference refused any other method call): a static extent of a
    # variable is that number, any other read as the program runs.
    if id(node) in run.state.extents:
        return L["Int"](run.state.extents[id(node)], _decided(run, node), span=node.span)
    return L["Extent"](run.walk(node.receiver), node.args[0].value, _decided(run, node),
                       span=node.span)


@type_scalars.on("Fn")
def _fn(run, fn):
    ret = _type_node(run.state.rets[fn.name], fn.span,
                     run.walk(fn.ret) if fn.ret is not None else None)
    on = run.walk(fn.on) if fn.on is not None else None
    return L["Fn"](fn.name, run.walk_seq(fn.params), on, ret, run.walk_seq(fn.bounds),
                   run.walk(fn.body), span=fn.span)


@type_scalars.on("Param")
def _param(run, param):
    given = param.type is not None and param.type._prod != "OpaqueType" and not (
        param.type._prod == "BorrowType" and param.type.inner._prod == "OpaqueType")
    keep = run.walk(param.type) if given else None
    decided = _decided(run, param)
    if keep is not None and keep._prod == "PinnedType" and keep.inner._prod == "OpaqueType":
        # A kernel's parameter given a launch's value the front end left open (the result of
        # a closure's call): its value's type is the one decided.
        keep = keep.replace(inner=_type_node(decided, param.span))
    return L["Param"](param.name, _type_node(decided, param.span, keep), span=param.span)


@type_scalars.on("Let")
def _let(run, let):
    ty = _decided(run, let)
    # A tensor's inferred type is kept: it says which space the tensor is in; not a
    # reference's whose tensor the front left open (`~&mut _` of `&mut h.t` through a
    # `&mut` to a struct), which says nothing erase-tensor-references could erase.
    placed = isinstance(ty, Tensor) and let.type._prod not in ("OpaqueType", "BorrowType")
    keep = run.walk(let.type) if written(let) or placed else None
    return L["Let"](let.name, let.mutable, _type_node(ty, let.span, keep), run.walk(let.value),
                    span=let.span)


@type_scalars.on("For")
def _for(run, node):
    return L["For"](node.var, _decided(run, node), run.walk(node.start), run.walk(node.end),
                    run.walk(node.body), span=node.span)


@type_scalars.on("ArrayLit")
def _array(run, node):
    # `[a, b]` is the tensor literal of its decided type.
    ty = _type_node(_decided(run, node), node.span)
    return L["TensorLit"](ty, run.walk_seq(node.elems), span=node.span)


@type_scalars.on("Int", "Float")
def _literal(run, node):
    return L[node._prod](node.value, _decided(run, node), span=node.span)


@type_scalars.on("Binary")
def _binary(run, node):
    ty = _decided(run, node)
    if isinstance(ty, Vector):
        return L["VecBinary"](node.op, _type_node(ty, node.span), run.walk(node.left),
                              run.walk(node.right), span=node.span)
    return L["Binary"](node.op, _decided(run, node), run.walk(node.left), run.walk(node.right),
                       span=node.span)


@type_scalars.on("Index")
def _index(run, node):
    if id(node) in run.state.lanes:
        return L["Lane"](run.walk(node.base), run.walk(node.index), span=node.span)
    return run.rebuild(node)


@type_scalars.on("Unary")
def _unary(run, node):
    return L["Unary"](node.op, _decided(run, node), run.walk(node.operand), span=node.span)


@type_scalars.on("Cast")
def _cast(run, node):
    return L["Cast"](run.walk(node.value), _decided(run, node), run.walk(node.type),
                     span=node.span)


@type_scalars.on("Closure")
def _closure(run, node):
    ret = _type_node(_decided(run, node), node.span)
    return L["Closure"](run.walk_seq(node.params), ret, run.walk(node.body), span=node.span)


def _type_node(t, span, keep=None):
    """A decided type as a Type node: `keep` (the type as written, or a tensor's as placed)
    when there is one, but for a reference to an element of a tensor of a narrow type, whose
    place holds that type (`&f8e4m3`) where the reference was written `&f32`."""
    t = decide(t)
    if keep is not None and not (isinstance(t, Ref) and t.held):
        return keep
    if isinstance(t, Tensor):
        return t.node or L["TensorType"](L["Scalar"](t.elem, span=span),
                                         tuple(L["DimInt"](d, span=span) for d in t.dims),
                                         None, span=span)
    if isinstance(t, Vector):
        return L["VectorType"](L["DimInt"](t.lanes, span=span), L["Scalar"](t.elem, span=span),
                               span=span)
    if isinstance(t, Ref):
        target = L["Scalar"](t.held, span=span) if t.held else _type_node(t.target, span)
        return L["BorrowType"](target, t.mutable, span=span)
    if isinstance(t, Closure):
        return L["ClosureType"](tuple(_type_node(p, span) for p in t.params),
                                _type_node(t.ret, span), span=span)
    return L["Scalar"](t, span=span)

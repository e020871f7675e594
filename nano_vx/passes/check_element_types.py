"""check-element-types: Ltyped, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lunrolled import OncePerPlace
from ..languages.ltyped import Ltyped
from ..nanopass import Analysis
from ..placement.typer import Typer, literal, show
from ..placement.types import Machine
from ..values.narrow import NARROW_TYPES


@dataclass
class State:
    said: OncePerPlace = field(default_factory=OncePerPlace)
    typer: Typer | None = None
    machine: Machine | None = None
    here: list[str | None] = field(default_factory=list)  # the spaces the code runs in
    let_values: set[int] = field(default_factory=set)  # judged by their `let`'s type
    # A type placement inference copied (`let b = x as T;` gets the cast's T) is met twice.
    narrow_at: set = field(default_factory=set)
    named: dict = field(default_factory=dict)  # a struct's, an enum's or str's name -> what it is


check_element_types = Analysis("check-element-types", Ltyped, """
Refuse a tensor placed on a device whose `dtypes:` does not list its element type (E6026), a
narrow storage type anywhere but as a tensor's element type (E3053), and a tensor whose
elements are no scalars (E1012).

A topology may declare the element types its device represents (`dtypes: [f16, i8]`, narrow
ones such as `i4` or `f8e4m3` included). A tensor whose type places it in the memory that
topology holds (`Tensor<f32, [8], Memory::NPU_HBM>`, or spelled by the device,
`Topology::NPU`) must have one of those element types: the message names the type, the
device and its list. A topology that declares no `dtypes:` represents every type. What is
judged is each type written or inferred for a `let`, a parameter or a field, and each tensor
no `let` binds: made in a device's code, or moved there by `transfer`
(`print(transfer(t, Memory::NPU_HBM)[0])`).

The narrow storage types (`i4 u4 f8e4m3 f8e5m2 f4e2m1`) are formats of a tensor's elements,
which are read and written as values of a scalar type (`f32`, `i8`, `u8`): no value, parameter,
result, field or cast is of one. A tensor's elements are numbers or bools: a tensor of
structs, vectors, tuples or text has no layout of elements to give, and is refused wherever its
type is written or inferred.
""", state=State, requires=("model",))


@check_element_types.on("Program")
def _program(run, node):
    st = run.state
    st.machine = Machine(run.ctx.model)
    st.typer = Typer(node, st.machine)
    st.named = {i.name: "a struct" if i._prod == "StructDecl" else "an enum"
                for i in node.items if i._prod in ("StructDecl", "EnumDecl")} | {"str": "text"}
    st.here = [st.machine.host_space]
    run.descend(node)
    st.said.note_copies()


@check_element_types.on("Fn")
def _fn(run, node):
    st = run.state
    # A local's name is unique within its function only: each function binds its own, so
    # that a name bound here without a type (a `match` pattern's) finds no other's local.
    program, st.typer = st.typer, st.typer.fresh()
    st.here.append(st.typer.functions[node.name].space)
    run.descend(node)
    st.here.pop()
    st.typer = program


@check_element_types.on("Spawn")
def _spawn(run, node):
    st = run.state
    st.here.append(st.machine.holds(node.topo.name))
    run.descend(node)
    st.here.pop()


@check_element_types.on("Let")
def _let(run, let):
    st = run.state
    _judge(run, let.type, let.value.span or let.span)
    st.let_values.add(id(let.value))
    run.descend(let)
    st.typer.bind(let.name, let.type, st.here[-1])


@check_element_types.on("Param")
def _param(run, param):
    if param.type is not None:
        _judge(run, param.type, param.span)
        run.walk(param.type)
        run.state.typer.bind(param.name, param.type, run.state.here[-1])


@check_element_types.on("Transfer", "TensorNew", "TensorLit", "ArrayLit")
def _placing(run, node):
    """A tensor made or moved where no `let` names its type."""
    st = run.state
    if id(node) not in st.let_values:
        _judge(run, st.typer.of(node, st.here[-1]), node.span)
    run.descend(node)


@check_element_types.on("TensorType")
def _tensor_type(run, ty):
    """A narrow element is what a narrow type is for (and no dimension or place is typed);
    an element that is no scalar (a struct, a vector, a tuple, text, a tensor) is E1012."""
    elem = ty.elem
    if elem._prod == "Scalar" or elem._prod == "OpaqueType" or ty.span in run.state.narrow_at \
            or elem._prod == "NamedType" and elem.name not in run.state.named:
        return  # a generic struct's parameter (`Tensor<T, [N]>`) is not known here
    run.state.narrow_at.add(ty.span)
    what = run.state.named.get(elem.name, "") if elem._prod == "NamedType" else \
        _NOT_ELEMENTS.get(elem._prod, "")
    run.ctx.diagnostics.error(
        "E1012", elem.span or ty.span,
        f"a tensor's elements are numbers or bools, but {show(elem)} is {what or 'not one'}",
        help=["keep such values in a struct's fields or a tuple, or one tensor per field"],
        type=show(elem))


_NOT_ELEMENTS = {"VectorType": "a vector", "TupleType": "a tuple", "TensorType": "a tensor",
                 "BorrowType": "a reference", "PtrType": "a raw pointer",
                 "ClosureType": "a closure"}


@check_element_types.on("Scalar")
def _scalar(run, ty):
    narrow = NARROW_TYPES.get(ty.name)
    if narrow is None or ty.span in run.state.narrow_at:
        return
    run.state.narrow_at.add(ty.span)
    run.ctx.diagnostics.error(
        "E3053", ty.span, f"{ty.name} is a narrow storage type: only a tensor's elements are "
                          f"of it",
        help=[f"write `Tensor<{ty.name}, [..]>`, whose elements are read and written as "
              f"{narrow.value_type}, or use {narrow.value_type} here"],
        type=ty.name)


def _judge(run, ty, span) -> None:
    if ty is None or literal(ty) or ty._prod != "TensorType" or ty.place is None \
            or ty.elem._prod != "Scalar":
        return
    model = run.ctx.model
    place = ty.place
    if place._prod == "MemRef":
        devices = [t for t in model.topologies.values() if t.memory == place.name]
    elif place._prod == "TopoRef" and place.name in model.topologies:
        devices = [model.topologies[place.name]]
    else:
        return
    elem = ty.elem.name
    for device in devices:
        if device.dtypes is None or elem in device.dtypes:
            continue
        message = (f"a tensor of {elem} is placed in {device.memory}, the memory of "
                   f"topology '{device.name}', which represents only "
                   f"[{', '.join(device.dtypes)}]")
        # The copies `unroll across` makes share their body's nodes, spans included.
        if not run.state.said.again((span, message)):
            diag = run.ctx.diagnostics.error(
                "E6026", span, message,
                help=[f"use one of its element types, or add {elem} to its `dtypes:`"],
                element=elem, topology=device.name, dtypes=list(device.dtypes))
            run.state.said.said((span, message), diag)

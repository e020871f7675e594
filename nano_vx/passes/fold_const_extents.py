"""fold-const-extents: Lmono -> Lmono."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..comptime import ComptimeError, Evaluator
from ..languages import Lmono
from ..languages.lresolved import display_name
from ..nanopass import Pass, descendants
from ..values.sizes import extent
from ..values.constants import const_item_value, int_value, written
from ..values.numbers import INT_TYPES, TInt

L = Lmono


@dataclass
class State:
    values: dict = field(default_factory=dict)  # const item -> its integer value, or None
    locals: set = field(default_factory=set)  # the names the function being walked binds
    consts: dict = field(default_factory=dict)  # const item name -> the item
    warned: set = field(default_factory=set)  # spawn indices told of (unrolled copies share one)


fold_const_extents = Pass("fold-const-extents", Lmono, Lmono, """
Write each extent that names an integer `const` item as its number; a `spawn on` unit index
that is not a compile-time integer is 0 (W1030).

`Tensor<f32, [N, N]>` with `const N: i32 = 1024` is `Tensor<f32, [1024, 1024]>`. A const's value is an integer literal or arithmetic (`+ - * / %`, a minus, a cast to an
integer type) over literals and other consts, or a `comptime` block, run here by the
evaluator desugar-comptime folds it with (one that cannot finish stays a name, for that pass
to report); extent arithmetic around it folds too (`[N * 2]`). An extent whose name is not such a const (a local's, a const holding anything else, or
one that folds to zero or less) stays as it is written. From here on a tensor's size is known
wherever its extents are: the capacity checks count it, and native code gives it a memref of
static shape. The IL stays Lmono: a name may still stand in an extent afterwards (a local's, a
float const's), so no production goes.

The unit index of `spawn on(Topology::X[i])` must be known the same way (a literal, a const,
a const generic's value, arithmetic over those): any other index falls back to 0, with
W1030 naming the expression, which is then not evaluated.
""", state=State, requires=("model",))


@fold_const_extents.on("Program")
def _program(run, program):
    consts = run.state.consts = {i.name: i for i in program.items if i._prod == "ConstItem"}
    evaluator = Evaluator(program, model=run.ctx.model)
    for name, item in consts.items():
        if item.value is not None and item.value._prod == "Comptime":
            run.state.values[name] = _folded(evaluator, item)
    for name in consts:
        const_item_value(name, consts, run.state.values)
    return run.rebuild(program)


def _folded(evaluator, item) -> int | None:
    """The integer a const's `comptime` block folds to, when its type holds it; None when
    the block cannot finish (desugar-comptime reports why) or gives anything else."""
    try:
        value = evaluator.fold(item.value.body, item.value.span)
    except ComptimeError:
        return None
    value = value.v if isinstance(value, TInt) else value
    t = INT_TYPES.get(item.type.name) if item.type._prod == "Scalar" else None
    return value if t is not None and type(value) is int and t.lo <= value <= t.hi else None


@fold_const_extents.on("Fn")
def _fn(run, fn):
    run.state.locals = {display_name(n.name) for n in descendants(fn)
                        if n._prod in ("Param", "Let")} | \
        {display_name(n.var) for n in descendants(fn) if n._prod == "For"}
    out = run.rebuild(fn)
    run.state.locals = set()
    return out


@fold_const_extents.on("DimName")
def _dim_name(run, node):
    value = run.state.values.get(node.name)
    if value is None or value <= 0 or node.name in run.state.locals:
        return node
    return L["DimInt"](value, span=node.span)


@fold_const_extents.on("DimBinary")
def _dim_binary(run, node):
    out = run.rebuild(node)
    n = extent(out) if out.left._prod == out.right._prod == "DimInt" else None
    return L["DimInt"](n, span=node.span) if n is not None and n > 0 else out


@fold_const_extents.on("Spawn")
def _spawn(run, node):
    """A unit index that is not a compile-time integer is 0, after W1030."""
    out = run.rebuild(node)
    topo = out.topo
    if topo._prod != "TopoRef" or topo.index is None or topo.end is not None \
            or int_value(topo.index, run.state.consts, memo=run.state.values) is not None:
        return out
    index = topo.index
    if index.span not in run.state.warned:
        run.state.warned.add(index.span)
        shown = written(index)
        run.ctx.diagnostics.warning(
            "W1030", index.span,
            f"the index `{shown}` of `spawn on(Topology::{topo.name}[{shown}])` is not "
            f"a compile-time constant; index 0 is used",
            notes=["the expression is not evaluated"],
            help=["write a constant index, or `unroll across(Topology::"
                  f"{topo.name}[a..b])` for one spawn per unit"],
            topology=topo.name, index=shown)
    zero = L["Int"](0, span=index.span)
    return out.replace(topo=topo.replace(index=zero))

"""substitute-generic-parameters: Lerased -> Lerased, a helper rewrite of monomorphize.

Not in the pipeline: monomorphize runs it (`Pass.rewrite`) once per instance it makes, on the
generic function's tree, and walks the result as that instance's body.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dump.text import to_text
from ..languages import Lerased
from ..nanopass import Pass
from ..values.sizes import extent


@dataclass
class Substitution:
    binding: dict  # parameter -> a type, a TopoRef, or an int
    name: str  # the instance's
    fn: object  # the generic
    argument: int = 0  # > 0 inside a generic argument of a call: a value, not an extent
    part: int = 0  # > 0 inside the arithmetic of an extent: `N - K` of `[N - K + 1]`


substitute = Pass("substitute-generic-parameters", Lerased, Lerased, """
Replace a generic function's parameters by what one instance binds them to.

A type parameter's uses become the type (and `T::f`, a function through it, the function
of that type), a topology's the topology, a const's uses as a value
its literal (cast to its type unless it is i32, or f64 for a float const) and its uses in
extents the number, with the extent arithmetic around it folded (`[N * 2]` is `[8]` for N =
4); `f<S>(..)` naming the const is a dimension. An extent in a type that folds to zero, a
negative number or a division by zero is E3047, naming the instance, and so is a const bound
to a negative number as a whole extent, `[N]` (a part of its arithmetic may be zero or
negative: `[N - K + 1]` for N = K is `[1]`); a generic argument of a call (`f<N - 1>()`) is a
value and may be zero or negative. A float or a bool const in an extent is E3026.
""", state=Substitution)


@substitute.on("NamedType")
def _named(run, node):
    bound = run.state.binding.get(node.name)
    return bound if bound is not None and type(bound) not in (int, bool) else node


@substitute.on("Global")
def _global(run, node):
    """`T::area`, a function through a type parameter: the function of the struct or enum T
    is (of the scalar T is, which names none: check-deferred-names says so)."""
    param, _, fn = node.name.partition("::")
    bound = run.state.binding.get(param) if fn else None
    if bound is None or type(bound) in (int, float, bool) or \
            bound._prod not in ("NamedType", "Scalar"):
        return node
    return Lerased["Global"](f"{bound.name}::{fn}", span=node.span)


@substitute.on("TopoRef")
def _topo(run, node):
    bound = run.state.binding.get(node.name)
    if bound is None or type(bound) in (int, float, bool) or bound._prod != "TopoRef" or \
            node.index is not None:
        return run.rebuild(node)
    return Lerased["TopoRef"](bound.name, bound.index, bound.end, span=node.span)


@substitute.on("DimName")
def _dim_name(run, node):
    """A float or a bool const in an extent counts no elements: the interpreter would find no
    such name there when the constructor ran (E3026); in a generic argument it is a value."""
    bound = run.state.binding.get(node.name)
    if type(bound) in (float, bool) and not run.state.argument:
        const = next(g for g in run.state.fn.generics if g.name == node.name)
        shown = to_text(const.type).strip()
        run.ctx.diagnostics.error(
            "E3026", node.span,
            f"in '{run.state.name}' the extent `{node.name}` names the const parameter "
            f"'{node.name}', of type {shown}, not an integer",
            help=[f"make it an integer parameter (`const {node.name}: i32`), or convert it "
                  f"into an integer variable: `let m = {node.name} as i32;`, then `[m]`"],
            extent=node.name, type=shown, instance=run.state.name)
    if type(bound) is int and bound < 0 and not run.state.argument and not run.state.part:
        run.ctx.diagnostics.error(
            "E3047", node.span,
            f"in '{run.state.name}' the extent `{node.name}` is {bound}; an extent must not be "
            f"negative", help=["call the generic with arguments that keep every extent "
                               "positive"],
            instance=run.state.name)
    return Lerased["DimInt"](bound, span=node.span) if type(bound) is int else node


@substitute.on("DimBinary")
def _dim_binary(run, node):
    # Only the whole extent counts elements: a part of it may be zero or negative.
    run.state.part += 1
    out = run.rebuild(node)
    run.state.part -= 1
    if out.left._prod != "DimInt" or out.right._prod != "DimInt":
        return out
    n = extent(out)
    if n is not None and (n > 0 or run.state.argument or run.state.part):
        return Lerased["DimInt"](n, span=node.span)
    value = "a division by zero" if n is None else str(n)
    run.ctx.diagnostics.error(
        "E3047", node.span,
        f"in '{run.state.name}' the extent `{to_text(node).strip()}` is "
        f"`{to_text(out).strip()}`, which is {value}; an extent must be a positive whole "
        f"number", help=["call the generic with arguments that keep every extent positive"],
        instance=run.state.name)
    return out


@substitute.on("Local")
def _local(run, node):
    bound = run.state.binding.get(node.name)
    if type(bound) is bool:
        return Lerased["Bool"](bound, span=node.span)
    if type(bound) not in (int, float):
        return node
    const = next(g for g in run.state.fn.generics if g.name == node.name)
    value = Lerased["Int" if type(bound) is int else "Float"](bound, span=node.span)
    if const.type._prod == "Scalar" and const.type.name == ("i32" if type(bound) is int
                                                            else "f64"):
        return value
    return Lerased["Cast"](value, const.type, span=node.span)


@substitute.on("DimArg")
def _dim_arg(run, node):
    # A const argument is a value, which may be zero or negative: only an extent in a type
    # must be positive.
    run.state.argument += 1
    out = run.rebuild(node)
    run.state.argument -= 1
    return out


@substitute.on("TypeArg")
def _type_arg(run, node):
    # `f<S>(x)` inside a generic with `const S`: a bare name is a dimension, or, a float
    # or a bool const's, the float or the bool it is bound to.
    bound = run.state.binding.get(node.type.name) if node.type._prod == "NamedType" else None
    if type(bound) is int:
        return Lerased["DimArg"](Lerased["DimInt"](bound, span=node.span), span=node.span)
    if type(bound) is float:
        return Lerased["FloatArg"](bound, span=node.span)
    if type(bound) is bool:
        return Lerased["BoolArg"](bound, span=node.span)
    return run.rebuild(node)

"""check-extent-names: Ltyped, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.lresolved import display_name
from ..languages.ltyped import Ltyped
from ..nanopass import Analysis, descendants
from ..placement.typer import show
from ..values.numbers import INT_TYPES

check_extent_names = Analysis("check-extent-names", Ltyped, """
Refuse a tensor extent that names a variable or a `const` whose type is not an integer (E3026).

An extent is a count of elements: `Tensor<i32, [n]>` with n a bool, a float or a reference
`&i32` would only stop the program when the constructor ran (the interpreter reads the name
as it is, a reference included, and finds no integer). A name the function binds is judged by
the type of that binding (names are unique in a function, and resolve-names gave the extent
the name of the binding in scope, which the interpreter reads); one it does not bind, by the
`const` item's type. A
binding whose type is not known here (`OpaqueType`) is not judged, nor is a struct's or an
enum's field: its extents name the declaration's `const` parameters, which a `const` item of
the same name does not change.
""")


@check_extent_names.on("Program")
def _program(run, program):
    consts = {i.name: i.type for i in program.items if i._prod == "ConstItem"}
    seen: set = set()
    for fn in (i for i in program.items if i._prod == "Fn"):
        bound, kinds = _bindings(fn)
        for dim in descendants(fn):
            if dim._prod != "DimName" or dim.span in seen:
                continue
            ty = bound[dim.name] if dim.name in bound else consts.get(dim.name)
            if _not_an_integer(ty):
                seen.add(dim.span)
                _refuse(run, dim, ty, kinds.get(dim.name, "constant"))


def _bindings(fn) -> tuple[dict, dict]:
    """Each name the function binds -> its type (None for a loop variable, which counts
    along a range of integers), and -> what binds it, for the message."""
    bound: dict = {}
    kinds: dict = {}
    for node in descendants(fn):
        if node._prod in ("Param", "Let"):
            bound[node.name] = node.type
            kinds[node.name] = "parameter" if node._prod == "Param" else "variable"
        elif node._prod == "For":
            bound[node.var] = None
    return bound, kinds


def _not_an_integer(ty) -> bool:
    if ty is None or ty._prod == "OpaqueType":
        return False
    return not (ty._prod == "Scalar" and ty.name in INT_TYPES)


def _refuse(run, dim, ty, kind: str):
    name = display_name(dim.name)
    if kind == "constant":
        repair = f"give the constant an integer type: `const {name}: i32 = ..;`"
    elif ty._prod == "BorrowType":
        repair = f"read the integer it refers to into a variable: `let m = *{name};`, " \
                 f"then `[m]`"
    elif ty._prod == "Scalar":
        repair = f"convert it into an integer variable: `let m = {name} as i32;`, " \
                 f"then `[m]`"
    else:
        repair = "name an integer variable or constant, or write the number"
    run.ctx.diagnostics.error(
        "E3026", dim.span,
        f"the extent `{name}` names the {kind} '{name}', of type {show(ty)}, "
        f"not an integer",
        help=[repair], extent=name, type=show(ty))

"""desugar-tensor-constructors: Linitialised -> Lshaped."""

from __future__ import annotations

from ..languages import Linitialised, Lshaped
from ..languages.tensor_calls import meaning, rows
from ..nanopass import Pass
from ..values.sizes import extent

desugar_tensor_constructors = Pass("desugar-tensor-constructors", Linitialised, Lshaped, """
Write each `Tensor<..>(..)` call as the constructor or the literal it means, with its extents;
a list of the wrong shape is E3018, one value for a shaped tensor E3023.

- `Tensor<T, [..]>()` is `Tensor<T, [..]>::new()`.
- `Tensor<T, [..]>([..])` is a tensor literal: the nested list's elements in row-major order;
  the list has the written extents (E3018; an extent naming a constant is checked when the
  program runs).
- `Tensor<T>([[1.0, 2.0], [3.0, 4.0]])` takes its extents from the nesting, `[2, 2]`: every
  row has the same length (E3018).
- `Tensor<T>([n, m])`, a flat list of integers (no float literal in it), is the shape of a
  tensor of zeros: `Tensor<T, [2, 3]>::new()` when the extents are literals, else
  `Tensor<T, [?, ?]>::new([n, m])`, the extents known when the program runs.
- `Tensor<T, [..]>(x)` for anything but a list is E3023: one value for every element is
  `::fill(x)`; `Tensor<T>()` gives no shape (E3023).

An array literal `[a, b]` elsewhere is a tensor of scalars, so its elements are not lists
(E3018); check-operand-types refuses an empty one, which a dump read after this pass may hold.
""")


@desugar_tensor_constructors.on("TensorCall")
def _call(run, call):
    report = run.ctx.diagnostics.error
    arg = call.args[0] if call.args else None
    if len(call.args) > 1:  # the parser reads one; a hand-written IL may hold more
        report("E3023", call.args[1].span, "a tensor is initialised from one nested list of "
                                           "its elements, not from several values",
               help=["write every element in one list: `Tensor<T, [2, 2]>([[1, 2], [3, 4]])`"])
    elif arg is not None and arg._prod != "ArrayLit":
        report("E3023", call.span, "a tensor is initialised from a nested list of its "
                                   "elements, not from a single value",
               help=["write `Tensor<T, [..]>::fill(v)` for every element v"])
    elif arg is None and not call.shaped:
        report("E3023", call.span, "`Tensor<T>()` gives no shape",
               help=["write its extents, `Tensor<T, [4]>()`, or give them as a list, "
                     "`Tensor<T>([n])`"])
    elif arg is not None:
        extents, _, ragged = rows(arg)
        if ragged is not None:
            report("E3018", ragged.span, "the rows of this nested list differ in shape: a "
                                         "tensor's rows all have the same extents")
        elif call.shaped and None not in (written := tuple(map(extent, call.dims))) and \
                written != extents:
            report("E3018", arg.span, f"this list has extents "
                                      f"[{', '.join(map(str, extents))}], not "
                                      f"[{', '.join(map(str, written))}] as the tensor's type "
                                      f"writes")
    return meaning(call, Lshaped, run.walk)


@desugar_tensor_constructors.on("ArrayLit")
def _array(run, node):
    report = run.ctx.diagnostics.error
    nested = next((e for e in node.elems if e._prod == "ArrayLit"), None)
    if nested is not None:
        report("E3018", nested.span, "an array literal holds scalars; a nested list "
                                     "initialises a tensor",
               help=["write `Tensor<f32>([[1.0, 2.0], [3.0, 4.0]])`"])
    return run.rebuild(node)

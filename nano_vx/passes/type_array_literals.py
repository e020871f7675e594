"""type-array-literals: Lresolved -> Lresolved.

Same IL: a literal cast to the type it would have had (`0.1 as f32` is the interpreter's
`0.1f32` under a `Tensor<f32, ..>`) is computed as before, so the interpreter runs the output
as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Lresolved as L
from ..nanopass import Pass
from ..placement.literal_contexts import array_literal_elements
from ..scalars.literal_hints import typed_literals


@dataclass
class State:
    elements: dict = field(default_factory=dict)  # id of an array literal -> its Scalar


type_array_literals = Pass("type-array-literals", L, L, """
Cast each unsuffixed literal of an array literal given as a tensor of a written scalar type
(`let v: Tensor<f32, [2]> = [0.1, 0.2];`) to that element type, as `0.1f32` would be written.

A tensor type reaches an array literal where a scalar type reaches a scalar's literals: a
`let`'s or a constant's written type, a parameter the literal is passed to, the function's
result, a struct's field, a variant's value, through an `if`'s or a `match`'s arms
(placement/literal_contexts.py); a closure's parameter does not, as its call converts no
tensor (`f([0.1f32, 0.2])`). Without the casts the literal would be a tensor of f64s or
i32s, which the typed place refuses (E3001, E3002, E3003); the interpreter types the
elements the same way. An element reaches it as a scalar `let`'s value does: an integer
literal takes an integer type, a float literal a float type, through arithmetic; an integer
the type cannot hold is E3008. A generic struct's field of type `Tensor<T, ..>` is
type-generic-field-literals' to type.
""", state=State)


@type_array_literals.on("Program")
def _program(run, node):
    run.state.elements = array_literal_elements(node)
    return run.rebuild(node)


@type_array_literals.on("ArrayLit")
def _array_lit(run, node):
    out = run.rebuild(node)
    scalar = run.state.elements.get(id(node))
    if scalar is None:
        return out
    return out.replace(elems=tuple(typed_literals(L, e, scalar, run.ctx.diagnostics)
                                   for e in out.elems))

"""erase-tensor-references: Lsafe, a rewrite in the same IL."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsafe import Lsafe
from ..nanopass import Pass, descendants
from ..scalars import infer_program
from ..scalars.terms import Tensor, find


@dataclass
class State:
    tensors: set = field(default_factory=set)  # id() of each node whose type is a tensor


erase_tensor_references = Pass("erase-tensor-references", Lsafe, Lsafe, """
Erase references to tensors: `&t` is t, `*p` is p and `&Tensor<..>` is `Tensor<..>`.

In native code a tensor is its buffer, so a reference to one is the buffer too, and writes
through either reach the same elements. Which `&` and `*` are a tensor's is what scalar
inference decides. A reference to a scalar stays: select-instructions makes it the place it
names, a variable's cell or an element of a tensor's buffer.
""", state=State)


@erase_tensor_references.on("Program")
def _program(run, program):
    # The inference is most of the pass's time, and a program without `&` or `*` needs none.
    if any(n._prod in ("Borrow", "Deref") for n in descendants(program)):
        run.state.tensors = {key for infer in infer_program(program).items.values()
                             for key, t in infer.terms.items() if isinstance(find(t), Tensor)}
    return run.rebuild(program)


@erase_tensor_references.on("Borrow", "Deref")
def _reference(run, node):
    if id(node) not in run.state.tensors:
        return run.rebuild(node)
    if node._prod == "Borrow" and node.value._prod == "Index":
        # A row lent (`&t[i]`): its index checked where the interpreter points, at the `&`.
        return run.walk(node.value).replace(span=node.span)
    return run.walk(node.value)


@erase_tensor_references.on("BorrowType")
def _reference_type(run, node):
    inner = node.inner
    while inner._prod == "BorrowType":
        inner = inner.inner
    return run.walk(inner) if inner._prod == "TensorType" else run.rebuild(node)

"""box-returned-locals: Lsafe -> Lsafe."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsafe import Lsafe as L
from ..nanopass import Pass
from ..scalars.returned import returned_locals


@dataclass
class State:
    boxed: set = field(default_factory=set)  # the function's locals made tensors


box_returned_locals = Pass("box-returned-locals", L, L, """
Make each local a function returns a reference to a tensor of one element, and the reference
one to that element.

The interpreter keeps a variable's cell alive while a reference to it is: a function may
return `&m` of its own `m`. Native code's cell of a local is gone once the call returns, but a
tensor's buffer is not, when a reference to an element of it is returned (find-owned-buffers
leaves it undropped): `let m: T = v;` becomes `let m: Tensor<T, [1]> = Tensor<T, [1]>([v]);`,
each use of m `m[0]`, so `&m` is `&m[0]`, and each call of the function has a cell of its
own. A closure reading or assigning m is given the tensor (lift-closures passes a tensor as
its buffer), so it reads and writes that cell. type-scalars refused such a local of a type
other than a scalar.
""", state=State)


@box_returned_locals.on("Fn")
def _fn(run, fn):
    run.state.boxed = returned_locals(fn)
    return run.rebuild(fn) if run.state.boxed else fn


@box_returned_locals.on("Let")
def _let(run, let):
    if let.name not in run.state.boxed:
        return run.rebuild(let)
    one = L["DimInt"](1, span=let.span)
    ty = L["TensorType"](let.type, (one,), None, span=let.type.span)
    return let.replace(type=ty, value=L["TensorLit"](ty, (run.walk(let.value),), span=let.span))


@box_returned_locals.on("Local")
def _local(run, local):
    if local.name not in run.state.boxed:
        return local
    return L["Index"](local, L["Int"](0, span=local.span), span=local.span)

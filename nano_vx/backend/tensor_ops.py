"""A tensor's buffer in MLIR, on values of a FunctionBuilder: its allocation (zeroed by the
runtime, a stop when there is no room), the runtime's check that the machine can hold what a
fill or a copy writes, indices checked against their extents, and element stores."""

from __future__ import annotations

from .machine_types import Tensor


def allocate(b, tensor: Tensor, what: str) -> str:
    """A zeroed buffer for the tensor, or a stop when there is no room even for the
    address range."""
    ref = b.op("Alloc", tensor.mtype)
    address = b.op("Pointer", ref, tensor.mtype)
    wide = b.op("Convert", "arith.index_cast", address, "index", "i64")
    got = b.op("Compare", "cmpi", "ne", wide, b.const(0, "i64"), "i64")
    b.check(got, "E9006", f"cannot allocate {what}: {{a}} bytes", "u64",
            b.const(tensor.bytes(), "i64"))
    return ref


def check_room(b, tensor: Tensor, what: str):
    """Ask the runtime whether the machine can hold every element of the tensor (a fill
    or a copy writes them all)."""
    site = b.module.site("StopSite", b.span, "E9006",
                         f"{what}: {{a}} bytes is more than this machine's memory", "u64")
    b.runtime_call("vx_check_alloc", (b.const(site, "i32"), b.const(tensor.bytes(), "i64")))


def checked_indices(b, values: list, dims: tuple) -> tuple:
    """Indices (ssa, Vx type) as `index` values, each checked against its extent; the
    checks come after every index is computed, as the interpreter makes them."""
    out = []
    for k, ((value, t), extent) in enumerate(zip(values, dims)):
        wide = b.to_i64(value, t)
        inside = b.op("Compare", "cmpi", "ult", wide, b.const(extent, "i64"), "i64")
        b.check(inside, "E9003", f"index {{a}} is out of bounds for dimension {k} of "
                                 f"extent {extent}", t, wide)
        out.append(b.op("Convert", "arith.index_cast", wide, "i64", "index"))
    return tuple(out)


def fill(b, ref: str, tensor: Tensor, value: str):
    """Store `value` in every element: a loop over the buffer seen as one dimension."""
    if not tensor.dims:
        b.store(value, ref, (), tensor.mtype, tensor.elem)
        return
    flat = Tensor(tensor.elem, (tensor.size,))
    if len(tensor.dims) > 1:
        ref = b.op("Collapse", ref, tensor.mtype, flat.mtype)
    start, stop, one = b.const(0, "index"), b.const(tensor.size, "index"), b.const(1, "index")
    i = b.arg("index")
    head = b.new_block((i,))
    body, after = b.new_block(), b.new_block()
    b.end("Br", head.label, (start,))
    b.enter(head)
    more = b.op("Compare", "cmpi", "ult", i.name, stop, "index")
    b.end("CondBr", more, body.label, (), after.label, ())
    b.enter(body)
    b.store(value, ref, (i.name,), flat.mtype, tensor.elem)
    b.end("Br", head.label, (b.op("Arith", "addi", i.name, one, "index"),))
    b.enter(after)


def store_elements(b, ref: str, tensor: Tensor, values: list):
    """A tensor literal's elements, in row-major order, into its buffer."""
    for k, value in enumerate(values):
        at, index = k, []
        for d in reversed(tensor.dims):
            at, i = divmod(at, d)
            index.append(b.const(i, "index"))
        b.store(value, ref, tuple(reversed(index)), tensor.mtype, tensor.elem)

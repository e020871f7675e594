"""Tensors in MLIR, on a FunctionBuilder: an element read through its indices (each checked
against its extent), a constructor or literal's buffer (memref.alloc, zeroed by the runtime,
which backs it with memory only where it is written, so `new()` and `uninit()` cost nothing
until used; a stop when there is no room), `fill(v)` as a loop after the runtime's check that
the machine can hold it, and a transfer (vx.transfer, the route and slot as attributes)."""

from __future__ import annotations

from .machine_types import Tensor, mtype, vx_type
from .transfer_attributes import route_text, slot_text


def element(b, e):
    """`t[i][j]`: the element's (ssa, Vx type)."""
    ref, indices, tensor = access(b, e)
    return b.load(ref, indices, tensor.mtype, tensor.elem), tensor.value


def access(b, e, row=False):
    """An index `t[i][j]`: the memref, the indices (as `index`, each checked against its
    extent after all are computed, as the interpreter does) and the tensor type. Only a
    printed one may select a row (check-native-subset refused the rest)."""
    chain = []
    while e._prod == "Index":
        chain.append(e.index)
        e = e.base
    ref, tensor = b.lower(e)
    if len(chain) != len(tensor.dims) and not row:
        raise AssertionError("an index that selects a row reached select-instructions")
    values = [b.lower(i) for i in reversed(chain)]
    return ref, checked_indices(b, values, tensor.dims), tensor


def tensor_new(b, e):
    """`Tensor<..>::new()`, `uninit()`, `fill(v)`: the buffer and its type."""
    tensor, what = vx_type(e.type), f"`{shown(e)}`"
    if e.ctor != "fill":  # the runtime's buffers start zeroed, pages given on first write
        return allocate(b, tensor, what), tensor
    value = b.lower(e.args[0])[0]
    check_room(b, tensor, f"cannot fill {what}")
    ref = allocate(b, tensor, what)
    fill(b, ref, tensor, value)
    return ref, tensor


def tensor_lit(b, e):
    """A tensor literal: its elements computed in order (one may stop), then its buffer."""
    tensor = vx_type(e.type)
    values = [b.lower(x)[0] for x in e.elems]
    ref = allocate(b, tensor, f"`{shown(e)}`")
    store_elements(b, ref, tensor, values)
    return ref, tensor


def transfer(b, e):
    """`transfer(v, M)`: vx.transfer, after the runtime's check that the machine can hold a
    tensor's copy."""
    value, t = b.lower(e.value)
    source = e.src.name if e.src is not None else None
    if isinstance(t, Tensor):
        check_room(b, t, f"cannot copy `{shown(e.value)}` into Memory::{e.dest.name}")
    return b.op("Transfer", value, mtype(t), source, e.dest.name, route_text(e.src, e.route),
                slot_text(e.slot)), t


def shown(node) -> str:
    """The node's text in the source, for a stop's message."""
    s = node.span
    return s.source.text[s.start:s.end] if s is not None else node._prod


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

"""Tensors in MLIR, on a FunctionBuilder: an element read through its indices (each checked
against its extent, a `?` one read by memref.dim), a constructor or literal's buffer
(memref.alloc, zeroed by the runtime, which backs it with memory only where it is written, so
`new()` and `uninit()` cost nothing until used; a stop when there is no room; a `?` tensor's
extents checked as the interpreter checks them), `fill(v)` as a loop after the runtime's
check that the machine can hold it, and a transfer (vx.transfer, the route and slot as
attributes)."""

from __future__ import annotations

from dataclasses import dataclass

from ..values.numbers import INT_TYPES
from ..languages.lmlir import Lmlir as M
from ..values.sites import INDICES, WORDS
from ..values.tensors import ADDRESS_LIMIT, count_groups
from .machine_types import MACHINE, Tensor, element_bytes, mtype, signed, vx_type
from .transfer_attributes import route_text, slot_text


def element(b, e):
    """`t[i][j]`: the element's (ssa, Vx type); `t[i]` of a rank-2 t, a row lent to a
    function (`&t[i]`, the reference erased), a buffer of its own that is a view of t's:
    (memref, Tensor)."""
    ref, indices, tensor = access(b, e, row=True, view=True)
    if len(indices) == len(tensor.dims):
        return b.load(ref, indices, tensor.mtype, tensor.elem), tensor.value
    row = Tensor(tensor.elem, tensor.dims[len(indices):])
    sizes = tuple(b.op("Dim", ref, b.const(k, "index"), tensor.mtype)
                  for k, d in enumerate(tensor.dims) if k >= len(indices) and d is None)
    return b.op("Row", ref, indices, sizes, tensor.mtype, row.mtype), row


def written_element(b, e):
    """An element of a tensor made by `uninit()` (Lwritten's `ReadWritten`): its indices
    checked, then the same element of its written-flags, a stop (E9005) where no write set
    it, as the interpreter stops on an element never written; then the element. The stop
    names the element by all its indices, written to a stack buffer for its INDICES."""
    ref, indices, tensor = access(b, e.element)
    flags, mask = b.lower(e.flags)
    written = b.load(flags, indices, mask.mtype, "bool")
    fail, cont = b.new_block(), b.new_block()
    b.end("CondBr", written, cont.label, (), fail.label, ())
    b.enter(fail)
    wide = [b.op("Convert", "arith.index_cast", i, "index", "i64") for i in indices]
    b.stop("E9005", f"read of element {INDICES}, never written, of a tensor made with "
                    f"::uninit()", None, *_words_buffer(b, wide))
    b.enter(cont)
    return b.load(ref, indices, tensor.mtype, tensor.elem), tensor.value


def _words_buffer(b, words: list) -> tuple:
    """The i64 values `words` written to a stack buffer: its address and their number, the
    operands of a stop whose message reads them."""
    memref = f"memref<{len(words)}xi64>"
    buffer = b.fresh()
    b.entry_ops.append(M["Alloca"](buffer, memref, span=b.span))
    for k, w in enumerate(words):
        b.store(w, buffer, (b.const(k, "index"),), memref, "i64")
    address = b.op("Convert", "arith.index_cast", b.op("Pointer", buffer, memref), "index",
                   "i64")
    return address, b.const(len(words), "i64")


def access(b, e, row=False, view=False):
    """An index `t[i][j]`: the memref, the indices (as `index`, each checked against its
    extent after all are computed, as the interpreter does) and the tensor type. Only a
    printed or lent one may select a row (check-native-subset refused the rest). `view`:
    the row selected (the element, where `row` is False) is a view whose offsets are the
    indices (checked_indices clamps them)."""
    chain = []
    while e._prod == "Index":
        chain.append(e.index)
        e = e.base
    ref, tensor = b.lower(e)
    if len(chain) != len(tensor.dims) and not row:
        raise AssertionError("an index that selects a row reached select-instructions")
    values = [b.lower(i) for i in reversed(chain)]
    view = view and (not row or len(chain) < len(tensor.dims))
    return ref, checked_indices(b, values, ref, tensor, view), tensor


def flatten(b, e):
    """`t.flatten()`, a raw pointer into t: t's buffer seen as one dimension of `?` extent,
    a view (memref.collapse_shape of a tensor of higher rank, memref.expand_shape of one of
    rank 0, memref.cast of a static extent), so `p[i]` is checked against the element count
    memref.dim reads."""
    ref, tensor = b.lower(e.value)
    flat = Tensor(tensor.elem, (tensor.size if tensor.static else None,))
    if len(tensor.dims) != 1:
        ref = b.op("Collapse", ref, tensor.mtype, flat.mtype)
    if flat.static:
        dynamic = Tensor(tensor.elem, (None,))
        ref, flat = b.op("Cast", ref, flat.mtype, dynamic.mtype), dynamic
    return ref, flat


def tensor_new(b, e):
    """`Tensor<..>::new()`, `uninit()`, `fill(v)`: the buffer and its type. A tensor of `?`
    extents computes its extents first, then its value, then checks them, as the
    interpreter does."""
    tensor, what = vx_type(e.type), f"`{shown(e)}`"
    args, given = e.args, None
    if not tensor.static:
        given, args = [b.lower(x) for x in args[0].elems], args[1:]
    value = b.lower(args[0])[0] if e.ctor == "fill" else None
    sizes = Sizes() if given is None else checked_sizes(b, given, tensor, what)
    if e.ctor != "fill":  # the runtime's buffers start zeroed, pages given on first write
        return allocate(b, tensor, what, sizes), tensor
    check_room(b, tensor, f"cannot fill {what}", sizes.bytes)
    ref = allocate(b, tensor, what, sizes)
    fill(b, ref, tensor, value, sizes.count)
    return ref, tensor


@dataclass(frozen=True)
class Sizes:
    """A buffer's sizes as SSA values when its extents are known only as the program runs:
    its `?` extents (index, in order), its element count (index) and its bytes (i64). A
    tensor of static extents has none: they are constants, made where they are used."""

    dynamic: tuple = ()
    count: str | None = None
    bytes: str | None = None


def checked_sizes(b, given: list, tensor: Tensor, what: str) -> Sizes:
    """The sizes of a `?` tensor whose extents are the values `given` (ssa, Vx type): a
    negative extent, then more than 2**63 elements, stop (E9006) as make_tensor does. The
    count is a product of products of at most 64 bits each (count_groups), checked without
    computing it past 64 bits."""
    wide = [b.to_i64(v, t) for v, t in given]
    for n, (_, t), d in zip(wide, given, tensor.dims):
        if signed(t) and d is None:  # a static extent is given as its number
            b.check(b.op("Compare", "cmpi", "sge", n, b.const(0, "i64"), "i64"), "E9006",
                    "a tensor extent must not be negative, found {a}", t, n)
    groups, start = [], 0
    for n in count_groups([d.bit_length() if d is not None else INT_TYPES[t].bits - signed(t)
                           for (_, t), d in zip(given, tensor.dims)]):
        groups.append(element_count(b, wide[start:start + n]))
        start += n
    if len(groups) == 1:
        count = groups[0]
        b.check(b.op("Compare", "cmpi", "ule", count, b.const(ADDRESS_LIMIT, "i64"), "i64"),
                "E9006", "a tensor of {a} elements is too large to address", "u64", count)
    elif len(groups) == 2:
        count = _checked_product(b, *groups)
    else:
        count = _checked_products(b, groups)
    # Its bytes must fit an address, where the interpreter, which stores only what is
    # written, has no bound: memref.alloc would multiply past 64 bits without a word.
    size = element_bytes(tensor.elem)
    b.check(b.op("Compare", "cmpi", "ult", count, b.const(ADDRESS_LIMIT // size, "i64"), "i64"),
            "E9006", f"cannot allocate {what}: {{a}} elements of {size} bytes, more than an "
                     f"address reaches", "u64", count)
    return Sizes(tuple(b.op("Convert", "arith.index_cast", n, "i64", "index")
                       for n, d in zip(wide, tensor.dims) if d is None),
                 b.op("Convert", "arith.index_cast", count, "i64", "index"),
                 b.op("Arith", "muli", count, b.const(size, "i64"), "i64"))


def _checked_product(b, first: str, rest: str) -> str:
    """first * rest (i64 values that each fit 64 bits unsigned) after the stop (E9006) of a
    product past 2**63, which prints it whole."""
    # first * rest <= 2**63 exactly when rest is 0 or first <= 2**63 // rest
    none = b.op("Compare", "cmpi", "eq", rest, b.const(0, "i64"), "i64")
    bound = b.op("Arith", "divui", b.const(ADDRESS_LIMIT, "i64"),
                 b.op("Arith", "maxui", rest, b.const(1, "i64"), "i64"), "i64")
    within = b.op("Compare", "cmpi", "ule", first, bound, "i64")
    b.check(b.op("Arith", "ori", none, within, "i1"), "E9006",
            "a tensor of {a*b} elements is too large to address", "u64", first, rest)
    return b.op("Arith", "muli", first, rest, "i64")


def _checked_products(b, groups: list) -> str:
    """The product of three or more i64 values that each fit 64 bits unsigned, after the
    stop (E9006) of one past 2**63, which prints it whole from the values, written to a
    stack buffer (a count past what two words hold)."""
    limit, one, zero = (b.const(v, "i64") for v in (ADDRESS_LIMIT, 1, 0))
    none = b.op("Compare", "cmpi", "eq", groups[0], zero, "i64")
    past, running = None, groups[0]
    for g in groups[1:]:
        # running * g <= 2**63 when g is 0 or running <= 2**63 // g; once past, running
        # wraps, but past stays set, and only a 0 among the groups makes the count small
        bound = b.op("Arith", "divui", limit, b.op("Arith", "maxui", g, one, "i64"), "i64")
        over = b.op("Compare", "cmpi", "ugt", running, bound, "i64")
        past = over if past is None else b.op("Arith", "ori", past, over, "i1")
        none = b.op("Arith", "ori", none, b.op("Compare", "cmpi", "eq", g, zero, "i64"), "i1")
        running = b.op("Arith", "muli", running, g, "i64")
    fits = b.op("Arith", "xori", past, b.const(1, "i1"), "i1")
    fail, cont = b.new_block(), b.new_block()
    b.end("CondBr", b.op("Arith", "ori", none, fits, "i1"), cont.label, (), fail.label, ())
    b.enter(fail)
    b.stop("E9006", f"a tensor of {WORDS} elements is too large to address", "u64",
           *_words_buffer(b, groups))
    b.enter(cont)
    return running


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
        check_room(b, t, f"cannot copy `{shown(e.value)}` into Memory::{e.dest.name}",
                   None if t.static else _bytes_held(b, value, t))
    return b.op("Transfer", value, mtype(t), source, e.dest.name, route_text(e.src, e.route),
                slot_text(e.slot)), t


def shown(node) -> str:
    """The node's text in the source, for a stop's message."""
    s = node.span
    return s.source.text[s.start:s.end] if s is not None else node._prod


def allocate(b, tensor: Tensor, what: str, sizes: Sizes = Sizes()) -> str:
    """A zeroed buffer for the tensor, or a stop when there is no room even for the
    address range."""
    ref = b.op("Alloc", sizes.dynamic, tensor.mtype)
    address = b.op("Pointer", ref, tensor.mtype)
    wide = b.op("Convert", "arith.index_cast", address, "index", "i64")
    got = b.op("Compare", "cmpi", "ne", wide, b.const(0, "i64"), "i64")
    b.check(got, "E9006", f"cannot allocate {what}: {{a}} bytes", "u64",
            sizes.bytes or b.const(tensor.bytes(), "i64"))
    return ref


def check_room(b, tensor: Tensor, what: str, nbytes: str | None = None):
    """Ask the runtime whether the machine can hold every element of the tensor (a fill
    or a copy writes them all): its bytes, or `nbytes` (i64) for a tensor of `?` extents."""
    site = b.module.site("StopSite", b.span, "E9006",
                         f"{what}: {{a}} bytes is more than this machine's memory", "u64")
    b.runtime_call("vx_check_alloc", (b.const(site, "i32"),
                                      nbytes or b.const(tensor.bytes(), "i64")))


def _bytes_held(b, ref: str, tensor: Tensor) -> str:
    """The bytes of the elements of a tensor of `?` extents, as an i64 (they fit: its
    allocation checked them)."""
    count = element_count(b, [extent(b, ref, tensor, k) for k in range(len(tensor.dims))])
    return b.op("Arith", "muli", count, b.const(element_bytes(tensor.elem), "i64"), "i64")


def element_count(b, extents: list) -> str:
    """The product of extents (i64 values): a tensor's element count."""
    count = extents[0]
    for n in extents[1:]:
        count = b.op("Arith", "muli", count, n, "i64")
    return count


def extent_of(b, e):
    """`t.extent(i)` read as the program runs: t computed, its extent i as e's type."""
    ref, tensor = b.lower(e.tensor)
    n = extent(b, ref, tensor, e.axis)
    if MACHINE[e.type] == "i64":
        return n, e.type
    return b.op("Convert", "arith.trunci", n, "i64", MACHINE[e.type]), e.type


def extent(b, ref: str, tensor: Tensor, k: int) -> str:
    """Extent k of the tensor whose buffer is `ref`, as an i64: its number, or what
    memref.dim reads of a `?` one."""
    if tensor.dims[k] is not None:
        return b.const(tensor.dims[k], "i64")
    dim = b.op("Dim", ref, b.const(k, "index"), tensor.mtype)
    return b.op("Convert", "arith.index_cast", dim, "index", "i64")


def checked_indices(b, values: list, ref: str, tensor: Tensor, view: bool = False) -> tuple:
    """Indices (ssa, Vx type) as `index` values, each checked against its extent; the
    checks come after every index is computed, as the interpreter makes them. `view`: they
    are a memref.subview's offsets, each clamped to its extent, which changes nothing once
    the check passed: expand-strided-metadata folds constant offsets into the view's
    static offset, and one out of range (a -1 only the stop's branch would see) is refused
    there as a negative offset."""
    out = []
    for k, (value, t) in enumerate(values):
        wide, d = b.to_i64(value, t), tensor.dims[k]
        n = extent(b, ref, tensor, k)
        inside = b.op("Compare", "cmpi", "ult", wide, n, "i64")
        if d is not None:
            b.check(inside, "E9003", f"index {{a}} is out of bounds for dimension {k} of "
                                     f"extent {d}", t, wide)
        else:  # the index read as its type's sign says, beside an extent below 2**63
            b.check(inside, "E9003", f"index {{a}} is out of bounds for dimension {k} of "
                                     f"extent {{b}}", "u64" if t == "u64" else "i64", wide, n)
        if view:
            wide = b.op("Arith", "minui", wide, n, "i64")
        out.append(b.op("Convert", "arith.index_cast", wide, "i64", "index"))
    return tuple(out)


def fill(b, ref: str, tensor: Tensor, value: str, count: str | None):
    """Store `value` in every element: a loop over the buffer seen as one dimension, of
    `count` (index) elements, None for the tensor's static size."""
    if not tensor.dims:
        b.store(value, ref, (), tensor.mtype, tensor.elem)
        return
    flat = Tensor(tensor.elem, (tensor.size if tensor.static else None,))
    if len(tensor.dims) > 1:
        ref = b.op("Collapse", ref, tensor.mtype, flat.mtype)
    start = b.const(0, "index")
    stop, one = count or b.const(tensor.size, "index"), b.const(1, "index")
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

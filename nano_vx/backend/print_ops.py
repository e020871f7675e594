"""`print` in MLIR, on values of a FunctionBuilder: a call of the runtime's vx_print with a
print site saying how to read the payload (a scalar's bits widened to 64, a tensor's or a
row's address, an aggregate's buffer of scalars, nothing for a string), or a stop for what
cannot be printed."""

from __future__ import annotations

from ..values.tensors import PRINT_LIMIT
from ..languages.linstances import generic_of
from ..languages.lmlir import Lmlir as M
from .machine_types import MACHINE, Ref, Tensor, Vector, element_bytes, kind, vx_type
from .tensor_ops import access, element_count, extent
from .vector_ops import lanes


def print_arg(b, arg, fns: dict):
    """`print(arg)`: a string, a row of a tensor (`t[i]` of a rank-2 t), or a value; `fns`
    are the program's functions by name (a row of a call's result has its result's type)."""
    if arg._prod == "Str":
        print_text(b, arg.span, arg.value)
    elif _record(arg):
        print_record(b, arg.span, arg)
    elif arg._prod == "Index" and _rank(arg) < len(_indexed(b, arg, fns).dims):
        with b.at(arg):  # a row's index checks point at it, as the interpreter's do
            ref, indices, tensor = access(b, arg, row=True)
        print_row(b, arg.span, ref, indices, tensor)
    else:
        value, t = b.lower(arg)
        print_value(b, arg.span, value, t)


def _record(e) -> bool:
    """Whether e is the literal of an aggregate scalarize-aggregates rebuilt for `print`: a
    literal, or a `Select` choosing an enum's variant between two such literals; or a
    `Select` choosing between two strings or two such `Select`s (number-texts' choice of
    a string's text by its number)."""
    if e._prod == "Select":
        return all(_record(arm) or arm._prod == "Str" for arm in (e.then, e.orelse))
    return e._prod in ("StructLit", "Tuple", "EnumValue")


def _rank(e) -> int:
    """How many indices an index expression applies."""
    return 1 + _rank(e.base) if e._prod == "Index" else 0


def _indexed(b, e, fns: dict) -> Tensor:
    """The tensor type of the expression an index chain starts from."""
    while e._prod == "Index":
        e = e.base
    while e._prod == "Select":  # both arms have the type
        e = e.then
    if e._prod == "Local":
        return (b.cells.get(e.name) or b.values[e.name])[1]
    if e._prod == "CallFn":
        return vx_type(fns[e.callee].ret)
    if e._prod == "Global":  # a constant holding a tensor
        return b.module.const_types[e.name]
    return vx_type(e.type)


def print_text(b, span, text: str):
    site = b.module.site("PrintSite", span, "str", None, text, ())
    b.runtime_call("vx_print", (b.const(site, "i32"), b.const(0, "i64")))


def print_value(b, span, value: str, t):
    """Print a value of Vx type t (a reference prints what it names)."""
    if isinstance(t, Ref):
        value, t = b.load(value, (), t.mtype, t.target), t.value
    if t == "void":
        _refuse(b, "cannot print a value of type ()")
        return
    if isinstance(t, Vector):  # its lanes between angle brackets: a record of scalars
        holes = []
        _print_holes(b, span, _vector_template(b, value, t, holes), holes)
        return
    if isinstance(t, Tensor) and not t.static:  # a record whose slots hold its extents
        _print_holes(b, span, _hole(t), [(value, t)])
        return
    if isinstance(t, Tensor):
        if t.size > PRINT_LIMIT:
            _refuse(b, _too_many(t.size))
            return
        site = b.module.site("PrintSite", span, "tensor", t.elem, None, t.dims)
        payload = _address(b, value, t)
    else:
        site = b.module.site("PrintSite", span, _scalar_kind(t), t, None, ())
        payload = _payload(b, value, t)
    b.runtime_call("vx_print", (b.const(site, "i32"), payload))


def _address(b, value: str, t: Tensor) -> str:
    """A tensor's first element's address, as an i64."""
    address = b.op("Pointer", value, t.mtype)
    return b.op("Convert", "arith.index_cast", address, "index", "i64")


def _scalar_kind(t) -> str:
    return "float" if kind(t) == "float" else "bool" if t == "bool" else "int"


def _payload(b, value: str, t) -> str:
    """A scalar's bits as an i64: a float's as an f64's, an integer's or a bool's extended."""
    if kind(t) == "float":
        wide = value if t == "f64" else b.op("Convert", "arith.extf", value, MACHINE[t], "f64")
        return b.op("Convert", "arith.bitcast", wide, "f64", "i64")
    return b.to_i64(value, t)


def print_record(b, span, literal):
    """`print` of the literal of an aggregate of scalars and tensors, which
    scalarize-aggregates rebuilt for it: one line, a record site's template
    (values/sites.py) with a hole per scalar or tensor and a choice per `Select` (an enum's
    variant), whose payloads (a tensor's: its address; a choice's: its condition) are
    written to a stack buffer of i64 slots the payload points to."""
    holes = []
    _print_holes(b, span, _template(b, literal, holes), holes)


def _print_holes(b, span, template: str, holes: list):
    """A record site's line: `template`, its holes' payloads written to a stack buffer."""
    if not holes:
        print_text(b, span, template.replace("{{", "{").replace("}}", "}"))
        return
    # A tensor under a choice is in the variant chosen: scalarize-aggregates splits no value
    # of another variant of its enum (it has no zero for the tensor), so each one is printed.
    large = [t.size for _, t in holes if isinstance(t, Tensor) and t.static and
             t.size > PRINT_LIMIT]
    if large:
        _refuse(b, _too_many(large[0]))
        return
    count = sum(1 + t.dims.count(None) if isinstance(t, Tensor) else 1 for _, t in holes)
    # Each hole's payloads computed as the slots before them are written, in order.
    _print_slots(b, span, template, count, (
        payload for value, t in holes for payload in (
            [_address(b, value, t), *_sized_extents(b, value, t)] if isinstance(t, Tensor)
            else [_payload(b, value, t)])))


def _print_slots(b, span, template: str, count: int, payloads):
    """A record site's line: its `count` i64 slots, each payload of `payloads` (an iterable
    made as it is read) written to a stack buffer in turn."""
    slots = f"memref<{count}xi64>"
    buffer = b.fresh()
    b.entry_ops.append(M["Alloca"](buffer, slots, span=span))
    for k, payload in enumerate(payloads):
        b.store(payload, buffer, (b.const(k, "index"),), slots, "i64")
    address = b.op("Pointer", buffer, slots)
    payload = b.op("Convert", "arith.index_cast", address, "index", "i64")
    site = b.module.site("PrintSite", span, "record", None, template, ())
    b.runtime_call("vx_print", (b.const(site, "i32"), payload))


def _template(b, e, holes: list) -> str:
    """The text `e` prints, `{T}` for each scalar of type T and `{T[d,..]}` for each tensor
    (appended to `holes` as (ssa, its type)), `{if}A{else}B{end}` for a `Select` of A and B
    (its condition a bool hole), a brace of the text doubled."""
    def inner(parts):
        return ", ".join(_template(b, x, holes) for x in parts)
    if e._prod == "StructLit":
        fields = ", ".join(f"{f.name}: {_template(b, f.value, holes)}" for f in e.fields)
        return f"{generic_of(e.name)} {{{{ {fields} }}}}"
    if e._prod == "Tuple":
        return f"({inner(e.elems)})"
    if e._prod == "EnumValue":
        return f"{e.enum}::{e.variant}" + (f"({inner(e.args)})" if e.args else "")
    if e._prod == "Str":
        return e.value.replace("{", "{{").replace("}", "}}")
    if e._prod == "Select" and _record(e):
        cond, _ = b.lower(e.cond)
        holes.append((cond, "bool"))
        then, orelse = _template(b, e.then, holes), _template(b, e.orelse, holes)
        return f"{{if}}{then}{{else}}{orelse}{{end}}"
    value, t = b.lower(e)
    if isinstance(t, Ref):
        value, t = b.load(value, (), t.mtype, t.target), t.value
    if isinstance(t, Vector):
        return _vector_template(b, value, t, holes)
    holes.append((value, t))
    return _hole(t) if isinstance(t, Tensor) else f"{{{t}}}"


def _hole(t: Tensor) -> str:
    """A tensor's hole in a record's text: `{T[2,?]}`, each `?` extent a slot of its own."""
    return f"{{{t.elem}[{','.join('?' if d is None else str(d) for d in t.dims)}]}}"


def _sized_extents(b, value: str, t: Tensor) -> list:
    """The `?` extents of a tensor printed, as i64 slots, after a stop (E9006) when it holds
    more elements than a print shows, as the interpreter makes it before printing."""
    if t.static:
        return []
    extents = [extent(b, value, t, k) for k in range(len(t.dims))]
    _check_printable(b, element_count(b, extents))
    return [n for n, d in zip(extents, t.dims) if d is None]


def _check_printable(b, count: str):
    """Stop (E9006) when `count` (i64) elements are more than a print shows."""
    small = b.op("Compare", "cmpi", "ule", count, b.const(PRINT_LIMIT, "i64"), "i64")
    b.check(small, "E9006", _too_many("{a}"), "u64", count)


def _vector_template(b, value: str, t: Vector, holes: list) -> str:
    """A vector's text, `<{T}, {T}, ..>`, a hole per lane."""
    holes.extend(lanes(b, value, t))
    return "<" + ", ".join(f"{{{t.elem}}}" for _ in range(t.lanes)) + ">"


def print_row(b, span, ref: str, indices: tuple, tensor: Tensor):
    """`print(t[i])` of a rank-2 t: the row's elements, read from its first one's address
    (the buffer is row-major and contiguous)."""
    rest = tensor.dims[len(indices):]
    row = Tensor(tensor.elem, rest)
    if not row.static or None in tensor.dims[1:len(indices)]:
        # where it starts is known only as the program runs: a `?` extent past the first
        # scales the indices before it
        _print_sized_row(b, span, ref, indices, tensor)
        return
    if row.size > PRINT_LIMIT:
        _refuse(b, _too_many(row.size))
        return
    offset, stride = b.const(0, "index"), row.size
    for k in reversed(range(len(indices))):
        scaled = b.op("Arith", "muli", indices[k], b.const(stride, "index"), "index")
        offset = b.op("Arith", "addi", offset, scaled, "index")
        stride *= tensor.dims[k] or 1  # the first extent, which may be `?`, scales nothing
    nbytes = b.op("Arith", "muli", offset, b.const(element_bytes(tensor.elem), "index"),
                  "index")
    start = b.op("Pointer", ref, tensor.mtype)
    address = b.op("Arith", "addi", start, nbytes, "index")
    site = b.module.site("PrintSite", span, "tensor", tensor.elem, None, rest)
    payload = b.op("Convert", "arith.index_cast", address, "index", "i64")
    b.runtime_call("vx_print", (b.const(site, "i32"), payload))


def _print_sized_row(b, span, ref: str, indices: tuple, tensor: Tensor):
    """A row of `?` extents (`t[i]` of a `Tensor<f32, [2, ?]>`), or one past a `?` extent
    after the first (`t[i][j]` of a `Tensor<f32, [2, ?, 2]>`): where it starts and what it
    holds are known only as the program runs, so it prints as a record of one tensor, its
    address and its `?` extents in the slots, after the stop (E9006) for one of more
    elements than a print shows."""
    rest = [extent(b, ref, tensor, k) for k in range(len(indices), len(tensor.dims))]
    stride = element_count(b, rest)
    _check_printable(b, stride)
    offset = b.const(0, "i64")
    for k in reversed(range(len(indices))):
        at = b.op("Convert", "arith.index_cast", indices[k], "index", "i64")
        offset = b.op("Arith", "addi", offset, b.op("Arith", "muli", at, stride, "i64"), "i64")
        if k:  # the first extent scales nothing
            stride = b.op("Arith", "muli", stride, extent(b, ref, tensor, k), "i64")
    nbytes = b.op("Arith", "muli", offset, b.const(element_bytes(tensor.elem), "i64"), "i64")
    address = b.op("Arith", "addi", _address(b, ref, tensor), nbytes, "i64")
    row = Tensor(tensor.elem, tensor.dims[len(indices):])
    _print_slots(b, span, _hole(row), 1 + row.dims.count(None),
                 [address, *(n for n, d in zip(rest, row.dims) if d is None)])


def _too_many(size: int) -> str:
    return (f"refusing to print a tensor of {size} elements (more than {PRINT_LIMIT}); "
            f"print some of its elements instead")


def _refuse(b, message: str):
    """Stop here; code after the print goes into a block of its own, which no jump reaches."""
    b.stop("E9006", message)
    b.enter(b.new_block())

"""What a runtime call means: the text vx_print prints and the stop vx_stop raises, read from
the program's PrintSite and StopSite items (docs/backend.md).

The Lmlir interpreter and the native runtime both call these, and they print through the
tree interpreter's own formatting (values/numbers.py, values/tensors.py), so the three cannot
disagree about how a value looks.
"""

from __future__ import annotations

import math
import os
import re
import struct

import numpy as np

from .narrow import NARROW_TYPES
from .numbers import FLOAT_TYPES, INT_TYPES, TFloat, TInt, format_scalar
from .stops import RuntimeStop
from .tensors import format_rows

_U64 = INT_TYPES["u64"]

# How a tensor's element is stored (docs/backend.md): struct format, native byte order.
_ELEMENT = {"bool": "B", "i8": "b", "u8": "B", "i16": "h", "u16": "H", "i32": "i", "u32": "I",
            "i64": "q", "u64": "Q", "f16": "e", "bf16": "H", "f32": "f", "f64": "d",
            "f8e4m3": "B", "f8e5m2": "B", "f4e2m1": "B", "i4": "b", "u4": "B"}


def site_table(program) -> dict[int, object]:
    """The program's sites by id."""
    return {item.id: item for item in program.items
            if item._prod in ("PrintSite", "StopSite")}


def _value(type_name: str, v):
    """A Python int or float as the interpreter's value of scalar type `type_name`."""
    if type_name == "bool":
        return v != 0
    if type_name == "i32":
        return INT_TYPES["i32"].wrap(v)
    if type_name in INT_TYPES:
        t = INT_TYPES[type_name]
        return TInt(t.wrap(v), t)
    if type_name == "f64":
        return v
    return TFloat(v, FLOAT_TYPES[type_name])


def _from_bits(type_name: str, payload: int):
    """The value of an i64 payload: an integer's (extended) value, or a float's f64 bits."""
    if type_name in FLOAT_TYPES or type_name == "f64":
        payload = struct.unpack("=d", struct.pack("=Q", _U64.wrap(payload)))[0]
    return _value(type_name, payload)


def _elements(type_name: str, data: bytes) -> list:
    fmt = _ELEMENT[type_name]
    raw = struct.unpack(f"={len(data) // struct.calcsize(fmt)}{fmt}", data)
    if type_name == "bf16":  # the high half of an f32
        raw = struct.unpack(f"={len(raw)}f", struct.pack(f"={len(raw)}I",
                                                         *(h << 16 for h in raw)))
    if type_name in NARROW_TYPES and NARROW_TYPES[type_name].value_type == "f32":
        # a narrow float's byte, read as the interpreter reads it
        dtype = NARROW_TYPES[type_name].dtype
        return [TFloat(float(v), FLOAT_TYPES["f32"])
                for v in np.array(raw, dtype=np.uint8).view(dtype).astype(np.float32)]
    return [_value(NARROW_TYPES[type_name].value_type if type_name in NARROW_TYPES
                   else type_name, v) for v in raw]


def printed(site, payload: int, read) -> str:
    """What vx_print(site, payload) prints, without the newline. read(address, nbytes) gives
    the bytes of a tensor's elements."""
    kind = site.kind
    if kind == "str":
        return site.text
    if kind == "record":
        return _record(site.text, payload, read)
    if kind != "tensor":
        return format_scalar(_from_bits(site.type, payload))
    return _tensor(site.type, site.dims, payload, read)


def _tensor(type_name: str, dims, address: int, read) -> str:
    """A tensor of element type `type_name` and extents `dims`, its elements read from
    `address`, as the interpreter prints it."""
    count = 1
    for d in dims:
        count *= d
    size = struct.calcsize("=" + _ELEMENT[type_name])
    elements = _elements(type_name, read(address, count * size)) if count else []
    strides, n = [], 1
    for d in reversed(dims):
        strides.append(n)
        n *= d
    strides.reverse()
    return format_rows(tuple(dims), strides, 0, lambda off: format_scalar(elements[off]))


# A record site's text: `{T}` is a scalar of type T, `{T[d, ..]}` a tensor of element type T
# and those extents (its slot holds its first element's address, and the slots after it each
# `?` extent, in order), `{if}A{else}B{end}` the text A when its slot (a bool) holds and B
# when not (an enum's variant, chosen as the program runs; the holes of both have their
# slots), `{{` and `}}` a brace.
_HOLE = re.compile(r"\{\{|\}\}|\{(if|else|end)\}|\{([a-z0-9]+)(?:\[([0-9?, ]*)\])?\}")
# A narrow storage type is a tensor hole's element type only: its elements print as values.
_SCALARS = frozenset(INT_TYPES) | frozenset(FLOAT_TYPES) | {"f64", "bool"} | frozenset(NARROW_TYPES)


def _dims(text: str | None):
    """A tensor hole's extents (None for a `?` one), None for a scalar's."""
    if text is None:
        return None
    return tuple(None if d == "?" else int(d) for d in text.replace(" ", "").split(",") if d)


def record_holes(template: str | None) -> list | None:
    """Each hole of a record site's text, (its type, its extents or None for a scalar), a
    choice's a bool; None when the text is not one: a brace neither doubled nor around a
    hole, a hole of no scalar type, a choice without its `{else}` or `{end}`."""
    if template is None:
        return None
    holes, open_choices = [], []  # for each choice open, whether its `{else}` was met
    for m in _HOLE.finditer(template):
        word = m.group(1)
        if word == "if":
            open_choices.append(False)
            holes.append(("bool", None))
        elif word == "else":
            if not open_choices or open_choices[-1]:
                return None
            open_choices[-1] = True
        elif word == "end":
            if not open_choices or not open_choices.pop():
                return None
        elif m.group(2):
            holes.append((m.group(2), _dims(m.group(3))))
    rest = _HOLE.sub("", template)
    if open_choices or "{" in rest or "}" in rest or any(
            t not in _SCALARS or dims is not None and t not in _ELEMENT for t, dims in holes):
        return None
    return holes


def _record(template: str, payload: int, read) -> str:
    """An aggregate's line: each hole of the template filled, in order, from the next i64
    slots of the buffer at `payload`: a scalar's bits, or a tensor's address and its `?`
    extents; of a choice, the text its slot picks (the other's slots are passed over, its
    tensors never read)."""
    count = sum(1 + (dims or ()).count(None) for _, dims in record_holes(template))
    slots = iter(struct.unpack(f"={count}q", read(payload, 8 * count)))
    out, shown, end = [], [], 0  # shown: for each choice open, whether its arm is printed
    for m in _HOLE.finditer(template):
        printing = all(shown)
        if printing:
            out.append(template[end:m.start()])
        end = m.end()
        word, type_name, dims = m.group(1), m.group(2), _dims(m.group(3))
        if word == "if":
            shown.append(next(slots) != 0)
        elif word == "else":
            shown[-1] = not shown[-1]
        elif word == "end":
            shown.pop()
        elif type_name is None:
            out.append(m.group(0)[0] if printing else "")
        elif dims is None:
            slot = next(slots)
            out.append(format_scalar(_from_bits(type_name, slot)) if printing else "")
        else:
            address = _U64.wrap(next(slots))
            dims = tuple(next(slots) if d is None else d for d in dims)
            out.append(_tensor(type_name, dims, address, read) if printing else "")
    return "".join(out) + template[end:]


# A stop's message may read b unsigned words at address a: WORDS is their product (a count
# past what two words hold), INDICES each in brackets (an element's indices, of any rank).
WORDS = "{a[0]*..*a[b-1]}"
INDICES = "{[a[0]]..[a[b-1]]}"


def reads_words(message: str) -> bool:
    """Whether a stop of this message reads the words its operands point to."""
    return WORDS in message or INDICES in message


def stopped(site, a: int, b: int, read=None) -> RuntimeStop:
    """The stop vx_stop(site, a, b) means; `read(address, nbytes)` gives the bytes of the
    words WORDS or INDICES reads."""
    message = site.message
    if reads_words(message):
        words = struct.unpack(f"={b}Q", read(_U64.wrap(a), 8 * b))
        message = message.replace(WORDS, str(math.prod(words))) \
                         .replace(INDICES, "".join(f"[{w}]" for w in words))
    if site.operand == "i128":  # its low word a, its high word b
        wide = INT_TYPES["i128"].wrap(_U64.wrap(b) << 64 | _U64.wrap(a))
        return RuntimeStop(site.code, site.span, message.replace("{a}", str(wide)))
    if site.operand is not None:
        # `{a*b}`: a count two words hold, the product of its halves (unsigned), past 64 bits
        message = message.replace("{a*b}", str(_U64.wrap(a) * _U64.wrap(b)))
        message = message.replace("{a}", format_scalar(_from_bits(site.operand, a))) \
                         .replace("{b}", format_scalar(_from_bits(site.operand, b)))
    return RuntimeStop(site.code, site.span, message)


def allocation_limit() -> int:
    """The most bytes one allocation may ask for: the machine's physical memory."""
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")

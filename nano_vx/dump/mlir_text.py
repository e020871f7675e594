"""An Lmlir program as MLIR text, in the dialects' custom syntax: what the MLIR parser reads
(backend/mlir.py) and what `--dump-after select-instructions` shows.

Every operand's type is taken from where MLIR requires it to agree: a call's from the
callee's signature, a branch argument's from the target block's argument, a returned value's
from the function's results, a loaded or stored element's from the memref. So the printer
needs no type inference, and a disagreement is MLIR's verifier's to report.
"""

from __future__ import annotations

import math
import re

_BARE_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_MEMREF = re.compile(r"memref<((?:(?:[0-9]+|\?)x)*)([a-z0-9]+)>\Z")

# The bits of an infinity and of the quiet NaN, per float type: a constant MLIR cannot read
# as a decimal literal is written as its bit pattern.
_FLOAT_BITS = {"f16": (16, 0x7C00, 0x7E00), "bf16": (16, 0x7F80, 0x7FC0),
               "f32": (32, 0x7F800000, 0x7FC00000),
               "f64": (64, 0x7FF0000000000000, 0x7FF8000000000000)}

# MLIR 22's LLVM dialect has no op for the saturating conversions: they are calls of the
# LLVM intrinsics, named with the result and source types (llvm.fptosi.sat.i32.f32).
_SATURATING = {"llvm.intr.fptosi.sat": "llvm.fptosi.sat",
               "llvm.intr.fptoui.sat": "llvm.fptoui.sat"}


_STRING = r'"(?:[^"\\]|\\.)*"'
_SITE = re.compile(r"^// vx_(print|stop) site ([0-9]+): (.*)$", re.M)
_STOP = re.compile(rf"(E9[0-9]{{3}}) ({_STRING})(?: \(operands ([a-z0-9]+)\))?\Z")
_PRINT = re.compile(rf"(?:(str|record) ({_STRING})|tensor ([a-z0-9]+) \[([0-9, ]*)\]|"
                    rf"(int|float|bool)(?: ([a-z0-9]+))?)\Z")


class MlirTextError(ValueError):
    """An Lmlir program that names a block or a function it does not have."""


def to_mlir_text(program) -> str:
    """The MLIR text of an Lmlir Module: its sites as comments, then the module."""
    lines = site_comments(program)
    signatures = {item.name: item for item in program.items
                  if item._prod in ("Func", "Declare")}
    lines.append("module {")
    for item in program.items:
        if item._prod == "Global":
            start = "uninitialized" if item.value is None else f"dense<{item.value}>"
            lines.append(f'  memref.global "private" {symbol(item.name)} : {item.type} = {start}')
        elif item._prod == "Declare":
            lines.append(f"  func.func private {symbol(item.name)}({', '.join(item.args)})"
                         f"{_results(item.results)}")
        elif item._prod == "Func":
            lines.extend(_func(item, signatures))
    lines.append("}")
    return "\n".join(lines) + "\n"


def symbol(name: str) -> str:
    """A function's symbol reference; a name that is not a bare identifier is quoted."""
    return f"@{name}" if _BARE_SYMBOL.match(name) else f"@{string(name)}"


def string(text: str) -> str:
    """A string literal MLIR reads back as `text`: printable ASCII as is, `"` and `\\`
    escaped, every other byte of its UTF-8 as two hex digits."""
    out = []
    for byte in text.encode("utf-8"):
        c = chr(byte)
        if c in '"\\':
            out.append("\\" + c)
        elif 0x20 <= byte < 0x7F:
            out.append(c)
        else:
            out.append(f"\\{byte:02X}")
    return '"' + "".join(out) + '"'


def memref_shape(mtype: str) -> tuple[tuple[int | None, ...], str]:
    """The dimensions (None for `?`) and the element type of a memref type's text."""
    m = _MEMREF.match(mtype)
    if m is None:
        raise MlirTextError(f"{mtype} is not a memref type")
    return tuple(None if d == "?" else int(d) for d in m.group(1).split("x")[:-1]), m.group(2)


def _row(op) -> str:
    """A row as a buffer of its own: memref.subview gives the row at an offset into the
    tensor's buffer; in the LLVM descriptor (the memref's own once finalize-memref-to-llvm
    runs, so reconcile-unrealized-casts erases both casts) the aligned pointer moves to that
    offset and the offset becomes 0, a memref of the row's identity layout, as every tensor
    a function is given."""
    dims, elem = memref_shape(op.type)
    sizes = iter(op.sizes)
    extents = [str(d) if d is not None else f"%{next(sizes)}" for d in dims]
    strides, stride = [], 1
    for d in reversed(dims):
        strides.insert(0, "?" if stride is None else str(stride))
        stride = None if stride is None or d is None else stride * d
    shape = "".join(f"{'?' if d is None else d}x" for d in dims)
    view = f"memref<{shape}{elem}, strided<[{', '.join(strides)}], offset: ?>>"
    rank = len(dims)
    llvm = f"!llvm.struct<(ptr, ptr, i64, array<{rank} x i64>, array<{rank} x i64>)>"
    n, name = len(op.indices), f"%row{op.result}_"
    offsets = ", ".join([f"%{i}" for i in op.indices] + ["0"] * rank)
    return "\n".join((
        f"{name}view = memref.subview %{op.ref}[{offsets}] [{', '.join(['1'] * n + extents)}] "
        f"[{', '.join(['1'] * (n + rank))}] : {op.source} to {view}",
        f"{name}d = builtin.unrealized_conversion_cast {name}view : {view} to {llvm}",
        f"{name}base = llvm.extractvalue {name}d[1] : {llvm}",
        f"{name}offset = llvm.extractvalue {name}d[2] : {llvm}",
        f"{name}first = llvm.getelementptr {name}base[{name}offset] : (!llvm.ptr, i64) -> "
        f"!llvm.ptr, {elem}",
        f"{name}zero = llvm.mlir.constant(0 : i64) : i64",
        f"{name}moved = llvm.insertvalue {name}first, {name}d[1] : {llvm}",
        f"{name}own = llvm.insertvalue {name}zero, {name}moved[2] : {llvm}",
        f"%{op.result} = builtin.unrealized_conversion_cast {name}own : {llvm} to {op.type}"))


def site_comments(program) -> list[str]:
    """What each print and stop site means, as `//` lines (MLIR has no operation for them);
    read_sites reads them back."""
    return [_site_comment(item) for item in program.items
            if item._prod in ("PrintSite", "StopSite")]


def read_sites(text: str) -> list[tuple[int, str, dict | None]]:
    """(offset, production, fields) of each site comment of an MLIR text; fields None when
    the comment does not read as one."""
    sites = []
    for m in _SITE.finditer(text):
        kind, number, rest = m.groups()
        form = (_STOP if kind == "stop" else _PRINT).fullmatch(rest)
        fields = None if form is None else _site_fields(kind, int(number), form)
        sites.append((m.start(), "StopSite" if kind == "stop" else "PrintSite", fields))
    return sites


def _site_fields(kind: str, number: int, form) -> dict | None:
    if kind == "stop":
        code, message, operand = form.groups()
        message = unstring(message)
        return None if message is None else {"id": number, "code": code, "message": message,
                                             "operand": operand}
    text_kind, text, tensor_type, dims, scalar_kind, scalar_type = form.groups()
    fields = {"id": number, "kind": text_kind, "type": None, "text": None, "dims": ()}
    if text is not None:
        fields["text"] = unstring(text)
        return None if fields["text"] is None else fields
    if tensor_type is not None:
        return {**fields, "kind": "tensor", "type": tensor_type,
                "dims": tuple(int(d) for d in dims.split(",") if d.strip())}
    return {**fields, "kind": scalar_kind, "type": scalar_type}


def unstring(literal: str) -> str | None:
    """The text of a string literal `string` writes; None when its bytes are not UTF-8 or an
    escape is not one `string` writes."""
    out, body, at = bytearray(), literal[1:-1], 0
    while at < len(body):
        c = body[at]
        if c != "\\":
            out += c.encode("utf-8")
            at += 1
        elif body[at + 1:at + 2] in ('"', "\\"):
            out += body[at + 1].encode()
            at += 2
        elif re.fullmatch(r"[0-9A-Fa-f]{2}", body[at + 1:at + 3]):
            out.append(int(body[at + 1:at + 3], 16))
            at += 3
        else:
            return None
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _site_comment(site) -> str:
    if site._prod == "StopSite":
        operand = f" (operands {site.operand})" if site.operand else ""
        return f"// vx_stop site {site.id}: {site.code} {string(site.message)}{operand}"
    if site.kind in ("str", "record"):
        what = f"{site.kind} {string(site.text or '')}"
    elif site.kind == "tensor":
        what = f"tensor {site.type} [{', '.join(map(str, site.dims))}]"
    else:
        what = site.kind + (f" {site.type}" if site.type else "")
    return f"// vx_print site {site.id}: {what}"


def _results(types) -> str:
    if not types:
        return ""
    return f" -> {types[0]}" if len(types) == 1 else f" -> ({', '.join(types)})"


def _func(fn, signatures) -> list[str]:
    params = ", ".join(f"%{a.name}: {a.type}" + (" {llvm.noalias}" if a._prod == "NoAlias"
                                                  else "") for a in fn.args)
    attrs = f" attributes {{vx.topology = {string(fn.topology)}}}" if fn.topology else ""
    head = f"  func.func {symbol(fn.name)}({params}){_results(fn.results)}{attrs}"
    if not fn.blocks:
        return [head]
    lines = [head + " {"]
    for i, block in enumerate(fn.blocks):
        # With named arguments the function's arguments are the entry block's, and MLIR
        # refuses a label there.
        label, body = block_lines(block, fn, signatures)
        if i or not fn.args:
            lines.append(f"  {label}")
        lines.extend(f"    {line}" for line in body)
    lines.append("  }")
    return lines


def block_lines(block, fn, signatures) -> tuple[str, list[str]]:
    """A block of a Func as MLIR text: its label line and its operations' lines."""
    args = ", ".join(f"%{a.name}: {a.type}" for a in block.args)
    label = f"^{block.label}({args}):" if args else f"^{block.label}:"
    blocks = {b.label: b for b in fn.blocks}
    return label, [_op(op, signatures) for op in block.ops] + [_term(block.term, fn, blocks)]


def _values(names) -> str:
    return ", ".join(f"%{n}" for n in names)


def _constant(value, mtype: str) -> str:
    if mtype not in _FLOAT_BITS:
        return str(value)
    v = float(value)
    if math.isinf(v) or math.isnan(v):
        bits, inf, nan = _FLOAT_BITS[mtype]
        pattern = nan if math.isnan(v) else inf | (1 << (bits - 1) if v < 0 else 0)
        return f"0x{pattern:0{bits // 4}X}"
    text = repr(v)  # the shortest decimal that reads back as v; MLIR wants a `.` in it
    if "." not in text:
        mantissa, _, exponent = text.partition("e")
        text = f"{mantissa}.0" + (f"e{exponent}" if exponent else "")
    return text


def _op(op, signatures) -> str:
    p = op._prod
    if p == "Constant":
        return f"%{op.result} = arith.constant {_constant(op.value, op.type)} : {op.type}"
    if p == "Arith":
        return f"%{op.result} = arith.{op.op} %{op.lhs}, %{op.rhs} : {op.type}"
    if p == "Math":
        return f"%{op.result} = math.{op.op} %{op.value} : {op.type}"
    if p == "Compare":
        return (f"%{op.result} = arith.{op.op} {op.predicate}, %{op.lhs}, %{op.rhs} : "
                f"{op.type}")
    if p == "Convert":
        if op.op in _SATURATING:
            intrinsic = f"{_SATURATING[op.op]}.{op.type}.{op.source}"
            return (f"%{op.result} = llvm.call_intrinsic {string(intrinsic)}(%{op.value}) : "
                    f"({op.source}) -> {op.type}")
        return f"%{op.result} = {op.op} %{op.value} : {op.source} to {op.type}"
    if p == "GetGlobal":
        return f"%{op.result} = memref.get_global {symbol(op.name)} : {op.type}"
    if p == "Alloca":
        return f"%{op.result} = memref.alloca() : {op.type}"
    if p == "Alloc":
        return f"%{op.result} = memref.alloc({_values(op.sizes)}) : {op.type}"
    if p == "Dim":
        return f"%{op.result} = memref.dim %{op.ref}, %{op.index} : {op.type}"
    if p == "Dealloc":
        return f"memref.dealloc %{op.ref} : {op.type}"
    if p == "Load":
        return f"%{op.result} = memref.load %{op.ref}[{_values(op.indices)}] : {op.type}"
    if p == "Store":
        return f"memref.store %{op.value}, %{op.ref}[{_values(op.indices)}] : {op.type}"
    if p == "Collapse":
        rank = len(memref_shape(op.source)[0])
        if not rank:  # the one element of a tensor of rank 0, as one dimension
            return (f"%{op.result} = memref.expand_shape %{op.ref} [] output_shape [1] : "
                    f"{op.source} into {op.type}")
        dims = ", ".join(map(str, range(rank)))
        return (f"%{op.result} = memref.collapse_shape %{op.ref} [[{dims}]] : {op.source} "
                f"into {op.type}")
    if p == "Cast":
        return f"%{op.result} = memref.cast %{op.ref} : {op.source} to {op.type}"
    if p == "Subview":
        ones = ", ".join("1" for _ in op.indices)
        return (f"%{op.result} = memref.subview %{op.ref}[{_values(op.indices)}] [{ones}] "
                f"[{ones}] : {op.source} to {op.type}")
    if p == "Row":
        return _row(op)
    if p == "Pointer":
        return (f"%{op.result} = memref.extract_aligned_pointer_as_index %{op.ref} : "
                f"{op.type} -> index")
    if p == "Transfer":
        attrs = ", ".join(f"{key} = {string(getattr(op, key))}"
                          for key in ("source", "dest", "route", "slot")
                          if getattr(op, key) is not None)
        return (f"%{op.result} = \"vx.transfer\"(%{op.value}) {{{attrs}}} : ({op.type}) -> "
                f"{op.type}")
    if p == "Call":
        callee = signatures.get(op.callee)
        if callee is None:
            raise MlirTextError(f"a call of {op.callee}, which the program does not define")
        results = f"{_values(a.name for a in op.results)} = " if op.results else ""
        launch = f" {{vx.launch = {string(op.launch)}}}" if op.launch else ""
        types = (callee.args if callee._prod == "Declare"
                 else tuple(a.type for a in callee.args))
        result_types = ", ".join(a.type for a in op.results)
        return (f"{results}func.call {symbol(op.callee)}({_values(op.args)}){launch} : "
                f"({', '.join(types)}) -> ({result_types})")
    if p == "Assume":
        return f"llvm.intr.assume %{op.cond} : i1"
    if p == "FromElements":
        return f"%{op.result} = vector.from_elements {_values(op.elements)} : {op.type}"
    if p == "Broadcast":
        return f"%{op.result} = vector.broadcast %{op.value} : {op.source} to {op.type}"
    if p == "Extract":
        return (f"%{op.result} = vector.extract %{op.vector}[%{op.index}] : {op.type} from "
                f"{op.source}")
    raise MlirTextError(f"no MLIR form for a {p} operation")


def _successor(label: str, args, blocks) -> str:
    block = blocks.get(label)
    if block is None:
        raise MlirTextError(f"a branch to ^{label}, which the function does not have")
    if not args:
        return f"^{label}"
    return f"^{label}({_values(args)} : {', '.join(a.type for a in block.args)})"


def _term(term, fn, blocks) -> str:
    p = term._prod
    if p == "Br":
        return f"cf.br {_successor(term.dest, term.args, blocks)}"
    if p == "CondBr":
        return (f"cf.cond_br %{term.cond}, {_successor(term.then, term.then_args, blocks)}, "
                f"{_successor(term.orelse, term.orelse_args, blocks)}")
    if p == "Ret":
        if not term.values:
            return "func.return"
        return f"func.return {_values(term.values)} : {', '.join(fn.results)}"
    if p == "Unreachable":
        return "llvm.unreachable"
    raise MlirTextError(f"no MLIR form for a {p} terminator")


"""The text form of the spatial ILs (docs/spatial.md, "The ILs"): a printer for the Graph of any
of the seven ILs, which `parse.parse_spatial` reads back to an equal node.

The header names the IL, so the text alone says which node classes to rebuild; `language_of`
recovers that IL from a node, whose class alone does not always tell (Sdataflow and Stiled
share one Graph class and differ only in their loads and stores).
"""

from __future__ import annotations

import math

from ..deep import run_deep
from ..languages.sdataflow import Sdataflow
from ..languages.stiled import Stiled
from ..languages.splaced import Splaced
from ..languages.ssized import Ssized
from ..languages.sfused import Sfused
from ..languages.shandshaked import Shandshaked
from ..languages.schoreographed import Schoreographed

LANGUAGES = (Sdataflow, Stiled, Splaced, Ssized, Sfused, Shandshaked, Schoreographed)

# Schedule ops: the word that starts the line; the operands follow in field order.
OP_WORDS = {
    "Read": "read", "Write": "write", "Reserve": "reserve", "Push": "push", "Send": "send",
    "Multicast": "multicast", "WaitFront": "wait_front", "Pop": "pop", "Wait": "wait",
    "Signal": "signal", "Barrier": "barrier", "Fire": "fire",
}

# Scalar bodies: binding strength of each printed form (higher binds tighter).
ADDITIVE, MULTIPLICATIVE, UNARY, ATOM = 1, 2, 3, 4
INFIX = {"+": ADDITIVE, "-": ADDITIVE, "*": MULTIPLICATIVE, "/": MULTIPLICATIVE}

INDENT = "    "


class SpatialTextError(Exception):
    """A node the text form cannot express (not a spatial Graph, or parts it cannot spell)."""


def language_of(graph):
    """The spatial IL whose Graph `graph` is."""
    cls = type(graph)
    candidates = [lang for lang in LANGUAGES if lang.nodes.get("Graph") is cls]
    if not candidates:
        lang = getattr(cls, "_language", None)
        what = f"a {cls._prod} node of {lang.name}" if lang is not None else repr(graph)[:80]
        raise SpatialTextError(f"not a spatial Graph: {what}")
    if candidates != [Sdataflow, Stiled]:
        return candidates[0]
    return Stiled if any(_tiled(s) for s in graph.stages) else Sdataflow


def to_spatial_text(graph) -> str:
    """The text of a spatial Graph, newline-terminated."""
    return run_deep(_graph, graph)


def _tiled(stage) -> bool:
    """A stage of Stiled's own: a tiled access, or a compute that may accumulate."""
    fields = type(stage)._fields
    return "tile" in fields or "over" in fields


def _graph(graph) -> str:
    lang = language_of(graph)
    lines = [f"spatial {graph.name}: {lang.name} {{"]
    for field in type(graph)._fields[1:]:
        for item in getattr(graph, field):
            _item(lines, item, lang)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _item(lines: list[str], n, lang) -> None:
    if n._prod == "Schedule":
        lines.append(f"{INDENT}schedule {_site(n.site)} {n.engine} {{")
        _ops(lines, n.ops, 2)
        lines.append(INDENT + "}")
    else:
        lines.append(INDENT + _ITEMS[n._prod](n, lang))


def _tensor(n, lang) -> str:
    return f"tensor {n.name}: {n.dtype}[{_ints(n.shape)}] {n.role}"


def _stream(n, lang) -> str:
    return f"stream {n.name}: {n.dtype}"


def _load(n, lang) -> str:
    return f"load {n.name} {_access(n, lang)} ->{_list(map(_port, n.outs))}"


def _store(n, lang) -> str:
    return f"store {n.name} {_port(n.input)} -> {_access(n, lang)}"


def _access(n, lang) -> str:
    """The tensor a load or store moves, with its tile and loop nest from Stiled on."""
    kind = n._prod.lower()
    if not _tiled(n):
        if lang is not Sdataflow:
            raise SpatialTextError(
                f"{kind} {n.name} has no tile, but every {kind} of {lang.name} needs one")
        return n.tensor
    if lang is Sdataflow:
        raise SpatialTextError(f"{kind} {n.name} has a tile in an Sdataflow graph")
    text = f"{n.tensor}[{', '.join(n.index)}] tile [{_ints(n.tile)}]"
    if n.loops:
        text += " for " + ", ".join(map(_loop, n.loops))
    return text


def _loop(n) -> str:
    step = f" step {n.step}" if n.step != 1 else ""
    return f"{n.var} in {n.start}..{n.stop}{step}"


def _compute(n, lang) -> str:
    head = [n.op]
    if n.axis is not None:
        head += ["axis", str(n.axis)]
    if n.factor is not None:
        head.append(_number(n.factor, f"compute {n.name}"))
    gap = " " if len(head) > 1 else ""
    ins = ", ".join(map(_port, n.ins))
    over = f" over {n.over}" if getattr(n, "over", None) is not None else ""
    return (f"compute {n.name} {' '.join(head)}{gap}({ins}){over}{_via(n)} "
            f"->{_list(map(_port, n.outs))}")


def _scalar(n, lang) -> str:
    if len(n.params) != len(n.ins):
        raise SpatialTextError(
            f"scalar {n.name} has {len(n.params)} params but {len(n.ins)} input ports; "
            f"the text pairs each param with its port")
    params = ", ".join(f"{p}: {_port(q)}" for p, q in zip(n.params, n.ins))
    body = _expr(n.body, f"scalar {n.name}")[0]
    return f"scalar {n.name}({params}) = {body}{_via(n)} ->{_list(map(_port, n.outs))}"


def _via(n) -> str:
    return f" via {n.via}" if n.via is not None else ""


def _place(n, lang) -> str:
    return f"place {n.stage} {_site(n.site)} {n.engine}"


def _buffer(n, lang) -> str:
    return f"buffer {n.stream} {_site(n.site)} depth {n.depth} bytes {n.bytes}"


def _group(n, lang) -> str:
    return f"group {n.name} {n.stage} ->{_list(n.streams)}"


def _handshake(n, lang) -> str:
    text = f"handshake {n.buffer} {n.kind}"
    if n.credit is not None:
        text += f" credit {n.credit}"
    if n.data is not None:
        text += f" data {n.data}"
    return text


def _semaphore(n, lang) -> str:
    return f"semaphore {n.name} {_site(n.site)} initial {n.initial}"


_ITEMS = {
    "Tensor": _tensor, "Stream": _stream, "Load": _load, "Store": _store,
    "Compute": _compute, "Scalar": _scalar, "Place": _place, "Buffer": _buffer,
    "Group": _group, "Handshake": _handshake, "Semaphore": _semaphore,
}


def _ops(lines: list[str], ops, depth: int) -> None:
    pad = INDENT * depth
    for op in ops:
        if op._prod == "Repeat":
            lines.append(f"{pad}repeat {op.count} {{")
            _ops(lines, op.body, depth + 1)
            lines.append(pad + "}")
        else:
            lines.append(" ".join([pad + OP_WORDS[op._prod], *map(str, op.values())]))


def _expr(e, owner: str) -> tuple[str, int]:
    """A scalar body's text and how tightly its outermost form binds."""
    p = e._prod
    if p == "Arg":
        return e.name, ATOM
    if p == "Num":
        return _number(e.value, owner), ATOM
    if p == "Bin":
        if e.op not in INFIX:
            return f"{e.op}({_expr(e.a, owner)[0]}, {_expr(e.b, owner)[0]})", ATOM
        prec = INFIX[e.op]
        # Left-associative: a right operand of the same strength keeps its parentheses.
        return f"{_operand(e.a, prec - 1, owner)} {e.op} {_operand(e.b, prec, owner)}", prec
    if e.op != "-":
        return f"{e.op}({_expr(e.a, owner)[0]})", ATOM
    if e.a._prod == "Num" and not _number(e.a.value, owner).startswith("-"):
        # `-2` reads back as the constant -2; the negation of the constant 2 is `-(2)`.
        return f"-({_number(e.a.value, owner)})", UNARY
    return "-" + _operand(e.a, UNARY - 1, owner), UNARY


def _operand(e, weaker: int, owner: str) -> str:
    """`e`'s text, in parentheses when it binds no tighter than `weaker`."""
    text, prec = _expr(e, owner)
    return text if prec > weaker else f"({text})"


def _number(v, owner: str) -> str:
    if type(v) is int:
        return str(v)
    if not math.isfinite(v):
        raise SpatialTextError(f"{owner}: the constant {v!r} has no text form (finite numbers only)")
    return repr(v)


def _ints(values) -> str:
    return ", ".join(map(str, values))


def _site(values) -> str:
    return f"({_ints(values)})"


def _port(p) -> str:
    return p.stream if p.rate == 1 else f"{p.stream} x{p.rate}"


def _list(texts) -> str:
    """A list after '->': empty prints as nothing, so the line ends at the arrow."""
    joined = ", ".join(texts)
    return " " + joined if joined else ""

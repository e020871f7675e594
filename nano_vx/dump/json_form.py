"""The JSON dump, and the way back.

`{"node": "Let", "span": {...} | null, "fields": {"name": "x", ...}}`, fields in declaration
order, `*` fields as lists. JSON has no infinity or NaN, so a non-finite float is written as
the string "inf", "-inf" or "nan" and read back through the field's declared kind.
"""

from __future__ import annotations

import json
import math

from ..deep import run_deep
from ..nanopass.nodes import Node
from ..source import Source, Span


def to_json(node: Node) -> dict:
    return run_deep(_node_json, node)


def dumps_json(node: Node, indent: int | None = None) -> str:
    """Compact by default: indentation makes a deep tree's JSON quadratic in size."""
    return run_deep(lambda: json.dumps(_node_json(node), indent=indent, ensure_ascii=False))


def _span_json(span: Span | None) -> dict | None:
    if span is None:
        return None
    line, column = span.source.line_col(span.start)
    end_line, end_column = span.source.line_col(span.end)
    return {"line": line, "column": column, "end_line": end_line, "end_column": end_column}


def _value_json(value):
    if isinstance(value, Node):
        return _node_json(value)
    if type(value) is tuple:
        return [_value_json(v) for v in value]
    if type(value) is float and not math.isfinite(value):
        return repr(value)
    return value


def _node_json(node: Node) -> dict:
    return {
        "node": node._prod,
        "span": _span_json(node.span),
        "fields": {f: _value_json(getattr(node, f)) for f in node._fields},
    }


def from_json(data: dict, language, source: Source | None = None) -> Node:
    """Rebuild a tree through `language`'s node classes (which check every field). Spans are
    rebuilt only when the `source` they point into is given."""
    return run_deep(_from_json, data, language, source)


def _from_json(data: dict, language, source: Source | None) -> Node:
    cls = language[data["node"]]
    fields = data["fields"]
    values = []
    for f in cls._declared:
        value = fields[f.name]
        if f.kind in language.terminals:
            values.append(_terminal(value, f.kind, f.mult))
        elif f.mult == "*":
            values.append(tuple(_from_json(v, language, source) for v in value))
        else:
            values.append(None if value is None else _from_json(value, language, source))
    return cls(*values, span=_span(data.get("span"), source))


def _terminal(value, kind: str, mult: str):
    if mult == "*":
        return tuple(_terminal(v, kind, "") for v in value)
    if type(value) is list:  # a tuple-valued terminal (a shape, a site), which JSON lists
        return tuple(value)
    if kind == "float" and type(value) in (str, int):
        return float(value)  # "inf"/"nan", or a whole float json wrote without a point
    return value


def _span(data: dict | None, source: Source | None) -> Span | None:
    if data is None or source is None:
        return None
    starts = source.line_starts
    start = starts[data["line"] - 1] + data["column"] - 1
    end = starts[data["end_line"] - 1] + data["end_column"] - 1
    return Span(source, start, end)

"""The JSON dump, and the way back.

`{"node": "Let", "span": {...} | null, "fields": {"name": "x", ...}}`, fields in declaration
order, `*` fields as lists; a dump of a whole IL names it first, `{"language": "Lresolved",
"node": "Program", ...}`. JSON has no infinity or NaN, so a non-finite float is written as
the string "inf", "-inf" or "nan" and read back through the field's declared kind.
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import math

from ..deep import run_deep
from ..nanopass.nodes import Node, NodeError
from ..source import Source, Span
from .lexemes import whole_number


class JsonFormError(ValueError):
    """JSON that is not a tree of the language: what is wrong, and the object it is in."""

    def __init__(self, message: str, where: object):
        super().__init__(message)
        self.message = message
        self.where = where


def to_json(node: Node) -> dict:
    return run_deep(_node_json, node)


def dumps_json(node: Node, indent: int | None = None, language=None) -> str:
    """Compact by default: indentation makes a deep tree's JSON quadratic in size. With its
    `language`, the dump names its IL, so that it reads back."""
    if indent is None:
        opening, rest = json_parts(node)
        return opening + json_heading(language) + rest

    def document():
        data = _node_json(node)
        if language is not None:
            data = {"language": getattr(language, "name", language), **data}
        return json.dumps(data, indent=indent, ensure_ascii=False)
    return run_deep(document)


def json_parts(node: Node) -> tuple[str, str]:
    """The compact dump around the place json_heading goes: what the tree alone decides."""
    return "{", _compact(node)


def json_heading(language) -> str:
    """The member naming the IL, first in the root's object; none without a `language`."""
    if language is None:
        return ""
    return f'"language": {_string(getattr(language, "name", language))}, '


_string = json.encoder.encode_basestring  # as json.dumps writes a string, ensure_ascii off
_LEAVES = {str: _string, int: int.__repr__, float: float.__repr__, bool: lambda v: "true" if v
           else "false", type(None): lambda v: "null"}


def _compact(root: Node) -> str:
    """The text json.dumps writes for the tree's _node_json but for the root's opening brace,
    written from the tree itself with a stack of its own: no dicts made for each node, and no
    recursion, so a tree at the depth bound is written as fast as a shallow one (json.dumps
    recursed through a dict per level)."""
    parts = []
    head = ""
    todo: list = [root]  # nodes and tuples still to write, and text already written
    while todo:
        item = todo.pop()
        if type(item) is str:
            parts.append(item)
        elif type(item) is tuple:
            todo.append("]")
            for i in range(len(item) - 1, -1, -1):
                todo.append(_leaf(item[i]))
                if i:
                    todo.append(", ")
            parts.append("[")
        elif isinstance(item, Node):
            parts.append(f'{head}"node": {_string(item._prod)}, "span": '
                         f'{_span_text(item.span)}, "fields": {{')
            head = "{"
            todo.append("}}")
            names = item._fields
            for i in range(len(names) - 1, -1, -1):
                todo.append(_leaf(getattr(item, names[i])))
                todo.append(f"{', ' if i else ''}{_string(names[i])}: ")
        else:
            parts.append(_leaf(item))
    return "".join(parts)


def _span_text(span: Span | None) -> str:
    if span is None:
        return "null"
    line, column = span.source.line_col(span.start)
    end_line, end_column = span.source.line_col(span.end)
    return (f'{{"line": {line}, "column": {column}, "end_line": {end_line}, '
            f'"end_column": {end_column}}}')


def _leaf(value):
    """A terminal's text, or the node or tuple itself for _compact to write."""
    if isinstance(value, Node) or type(value) is tuple:
        return value
    write = _LEAVES.get(type(value))
    if write is None or type(value) is float and not math.isfinite(value):
        return json.dumps(_value_json(value), ensure_ascii=False)
    return write(value)


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


def from_json(data: dict, language, source: Source | None = None, spans=None) -> Node:
    """Rebuild a tree through `language`'s node classes (which check every field); what does
    not fit raises JsonFormError. A node's span is `spans(obj)` when given (where its object
    is in the JSON text), else rebuilt from its "span" when the `source` it points into is
    given."""
    return run_deep(_from_json, data, language, source, spans)


def _from_json(data, language, source, spans) -> Node:
    if type(data) is not dict or type(data.get("node")) is not str \
            or type(data.get("fields")) is not dict:
        raise JsonFormError('expected a node: an object with "node" and "fields"', data)
    name, fields = data["node"], data["fields"]
    if name not in language.nodes:
        raise JsonFormError(f"{language.name} has no production {name}", data)
    cls = language.nodes[name]
    extra = sorted(set(fields) - set(cls._fields))
    if extra:
        raise JsonFormError(f"{name} has no field {extra[0]}; its fields are "
                            f"{', '.join(cls._fields) or 'none'}", data)
    values = []
    for f in cls._declared:
        if f.name not in fields:
            raise JsonFormError(f"{name} needs its field {f.name} ({f})", data)
        value = fields[f.name]
        if f.kind in language.terminals:
            values.append(_terminal(value, f.kind, f.mult))
            try:
                hash(values[-1])  # every terminal's value is; an object in it is not
            except TypeError:
                raise JsonFormError(f"{name}.{f.name}: expected {f.kind}, not "
                                    f"{json.dumps(value)[:40]}", data) from None
        elif f.mult == "*":
            if type(value) is not list:
                raise JsonFormError(f"{name}.{f.name}: expected a list of {f.kind}", data)
            values.append(tuple(_child(v, f, name, language, source, spans) for v in value))
        else:
            values.append(None if value is None and f.mult == "?"
                          else _child(value, f, name, language, source, spans))
    span = spans(data) if spans is not None else _span(data.get("span"), source)
    try:
        return cls(*values, span=span)
    except NodeError as err:
        raise JsonFormError(str(err), data) from None


def _child(data, f, parent: str, language, source, spans) -> Node:
    node = _from_json(data, language, source, spans)
    if node._nt not in language.accepts[f.kind]:
        raise JsonFormError(f"{parent}.{f.name}: expected {f.kind}, not a {node._prod} "
                            f"({node._nt})", data)
    return node


def _terminal(value, kind: str, mult: str):
    if mult == "*" and type(value) is list:
        return tuple(_terminal(v, kind, "") for v in value)
    if type(value) is list:  # a tuple-valued terminal (a shape, a site), which JSON lists
        return tuple(value)
    if kind == "float" and type(value) in (str, int):
        try:
            return float(value)  # "inf"/"nan", or a whole float json wrote without a point
        except ValueError:
            return value  # the node's check says what is wrong with it
    return value


def _span(data, source: Source | None) -> Span | None:
    if type(data) is not dict or source is None:
        return None
    try:
        starts = source.line_starts
        start = starts[data["line"] - 1] + data["column"] - 1
        end = starts[data["end_line"] - 1] + data["end_column"] - 1
    except (KeyError, IndexError, TypeError):
        return None
    return Span(source, start, end)


def load_with_places(text: str):
    """The JSON value of `text` and where each of its objects is: {id(obj): (start, end)}.
    Raises json.JSONDecodeError, or NumberTooLong for an integer of too many digits."""
    places: dict[int, tuple[int, int]] = {}
    decoder = json.JSONDecoder(parse_int=whole_number)

    def parse_object(s_and_end, *args):
        obj, end = json.decoder.JSONObject(s_and_end, *args)
        places[id(obj)] = (s_and_end[1] - 1, end)
        return obj, end

    decoder.parse_object = parse_object
    decoder.scan_once = json.scanner.py_make_scanner(decoder)
    return decoder.decode(text), places

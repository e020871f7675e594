"""The state of a compilation a dump file ends with, as `//` lines the tree reader skips:
where the dump was taken, the facts no later IL rebuilds, and every diagnostic reported so
far with the pass that made it. Written by the pass runner's --dump-dir, read by a resumed
run (`nano_vx/resume/`): one format, both ways, in one place.

    // after: check-capacity
    // fact proved_requires: {"scale": [0]}
    // reported by drop-imports: {"severity": "warning", "code": "W1031", ...}
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, Diagnostics, Label
from ..source import Source, Span
from .lexemes import whole_number

_LINE = re.compile(r"^// (after|before|fact [a-z_]+|reported by [a-z-]+): (.*)$", re.M)


# -- writing the state ----------------------------------------------------------------------

def _proved_to_json(proved: dict) -> dict:
    return {name: sorted(ix) for name, ix in sorted(proved.items())}


def _proved_from_json(data) -> dict:
    if type(data) is not dict or not all(
            type(ix) is list and all(type(i) is int for i in ix) for ix in data.values()):
        raise ValueError('expected {"function": [requires index, ...], ...}')
    return {name: frozenset(ix) for name, ix in data.items()}


# The facts a dump carries, as JSON both ways: those no later IL rebuilds.
CARRIED = {"proved_requires": (_proved_to_json, _proved_from_json)}


def trailer(ctx, when: str, pass_name: str) -> str:
    """The state lines a dump file ends with: where it was taken, the carried facts that are
    set, and every diagnostic reported so far with the pass that made it."""
    lines = [f"// {when.lower()}: {pass_name}"]
    for fact, (to_json, _) in CARRIED.items():
        value = getattr(ctx, fact)
        if value is not None:
            lines.append(f"// fact {fact}: {json.dumps(to_json(value), sort_keys=True)}")
    for d in ctx.diagnostics.items:
        lines.append(f"// reported by {d.origin}: {json.dumps(d.to_json(), sort_keys=True)}")
    return "".join(line + "\n" for line in lines)


# -- reading it back ------------------------------------------------------------------------

@dataclass
class State:
    """What a dump's state lines say."""

    after: str | None = None
    before: str | None = None
    facts: dict = field(default_factory=dict)
    reported: list[Diagnostic] = field(default_factory=list)


def read_state(source: Source, diagnostics: Diagnostics) -> State | None:
    """The state lines of a dump; one that does not read is E1007 at its line (None)."""
    state = State()
    for m in _LINE.finditer(source.text):
        key, value = m.group(1), m.group(2).strip()
        try:
            if key in ("after", "before"):
                setattr(state, key, value)
            elif key.startswith("fact "):
                fact = key[5:]
                if fact not in CARRIED:
                    raise ValueError(f"no fact named '{fact}' is carried; the carried facts "
                                     f"are {', '.join(CARRIED)}")
                state.facts[fact] = CARRIED[fact][1](json.loads(value, parse_int=whole_number))
            else:
                state.reported.append(_diagnostic(key[len("reported by "):],
                                                  json.loads(value, parse_int=whole_number),
                                                  source))
        except (ValueError, KeyError, TypeError) as err:
            diagnostics.error("E1007", Span(source, m.start(2), m.end(2)),
                              f"the state line '// {key}:' does not read: {err}")
            return None
    return state


_KNOWN = ("severity", "code", "message", "span", "labels", "notes", "help")
_SPAN_FIELDS = ("line", "column", "end_line", "end_column")


def _diagnostic(origin: str, data, source: Source) -> Diagnostic:
    """A diagnostic from its JSON form. A dump is data: a span that points into the dump's
    own text keeps its place there; any other (the program it was made from, or whatever
    file a hand-edited line names) is never opened, and is kept as a note."""
    if type(data) is not dict:
        raise ValueError("expected a JSON object (a diagnostic as --error-format=json "
                         "writes it)")
    for key in ("severity", "code", "message"):
        if type(data.get(key)) is not str:
            raise ValueError(f'expected a string in "{key}"')
    notes = _strings(data, "notes")
    span = _span(data.get("span"), source, notes)
    labels = []
    if type(data.get("labels", [])) is not list:
        raise ValueError('expected a list in "labels"')
    for label in data.get("labels", ()):
        if type(label) is not dict or type(label.get("label")) is not str:
            raise ValueError('expected {"span": {...}, "label": "..."} in "labels"')
        where = _span(label.get("span"), source, notes)
        if where is not None:
            labels.append(Label(where, label["label"]))
    d = Diagnostic(data["severity"], data["code"], data["message"], span, notes,
                   _strings(data, "help"),
                   {k: v for k, v in data.items() if k not in _KNOWN}, labels)
    d.origin = origin
    return d


def _strings(data: dict, key: str) -> list:
    value = data.get(key, [])
    if type(value) is not list or not all(type(v) is str for v in value):
        raise ValueError(f'expected a list of strings in "{key}"')
    return list(value)


def _span(where, source: Source, notes: list) -> Span | None:
    if where is None:
        return None
    if type(where) is not dict or type(where.get("file")) is not str or not all(
            type(where.get(k)) is int for k in _SPAN_FIELDS):
        raise ValueError('expected a span {"file": "...", "line": 1, "column": 1, '
                         '"end_line": 1, "end_column": 1}')
    start = _offset(source, where["line"], where["column"])
    end = _offset(source, where["end_line"], where["end_column"])
    if where["file"] != source.name or start is None or end is None:
        notes.append(f"reported at {where['file']}:{where['line']}:{where['column']}")
        return None
    return Span(source, start, max(start, end))


def _offset(source: Source, line: int, column: int) -> int | None:
    """The offset of a line and column (from 1) in the source; None where it has none."""
    lines = source.line_starts
    if not 1 <= line <= len(lines) or column < 1:
        return None
    end = lines[line] - 1 if line < len(lines) else len(source.text)
    offset = lines[line - 1] + column - 1
    return offset if offset <= end else None

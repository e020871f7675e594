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
    files: dict[str, Source | None] = {}
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
                state.facts[fact] = CARRIED[fact][1](json.loads(value))
            else:
                state.reported.append(_diagnostic(key[len("reported by "):],
                                                  json.loads(value), files))
        except (ValueError, KeyError, TypeError) as err:
            diagnostics.error("E1007", Span(source, m.start(2), m.end(2)),
                              f"the state line '// {key}:' does not read: {err}")
            return None
    return state


_KNOWN = ("severity", "code", "message", "span", "labels", "notes", "help")


def _diagnostic(origin: str, data: dict, files: dict) -> Diagnostic:
    """A diagnostic from its JSON form; its spans point into the file it was reported in
    when that file can still be read, else it keeps its place as a note."""
    notes = list(data.get("notes", ()))
    span = _span(data.get("span"), files, notes)
    labels = []
    for label in data.get("labels", ()):
        where = _span(label["span"], files, notes)
        if where is not None:
            labels.append(Label(where, label["label"]))
    d = Diagnostic(data["severity"], data["code"], data["message"], span, notes,
                   list(data.get("help", ())), {k: v for k, v in data.items() if k not in _KNOWN},
                   labels)
    d.origin = origin
    return d


def _span(where: dict | None, files: dict, notes: list) -> Span | None:
    if where is None:
        return None
    name = where["file"]
    if name not in files:
        try:
            with open(name, encoding="utf-8") as fh:
                files[name] = Source(name, fh.read())
        except (OSError, UnicodeDecodeError):
            files[name] = None
    source = files[name]
    lines = source.line_starts if source is not None else []
    if where["line"] > len(lines) or where["end_line"] > len(lines):
        notes.append(f"reported at {name}:{where['line']}:{where['column']}")
        return None
    start = lines[where["line"] - 1] + where["column"] - 1
    end = lines[where["end_line"] - 1] + where["end_column"] - 1
    return Span(source, start, max(start, end))

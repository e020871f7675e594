"""Diagnostics: what the compiler says to its user.

A diagnostic has a severity, a code from the registry (`nano_vx.codes`), a primary span, a
message that names the facts, optional labelled secondary spans (where a value was moved, say),
and optional notes and help lines. `data` carries the same facts as numbers and names for
`--error-format=json`. How a diagnostic is drawn is `nano_vx.snippets`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .codes import CODES
from .snippets import draw, visible
from .source import Span

__all__ = ["Diagnostic", "Diagnostics", "Label", "CompileError", "visible", "span_json",
           "JSON_VERSION", "SEVERITIES"]

SEVERITIES = ("error", "warning")
# The version of the JSON form (`--error-format=json`, docs/diagnostics-json.md): a field
# added keeps it, a field removed or changed in meaning raises it.
JSON_VERSION = 1


@dataclass
class Label:
    """A secondary span and what happened there (`'t' moved here`), drawn with `-` under it."""

    span: Span
    text: str

    def to_json(self) -> dict:
        return {"span": span_json(self.span), "label": self.text}


def span_json(span: Span) -> dict:
    line, col = span.source.line_col(span.start)
    end_line, end_col = span.source.line_col(span.end)
    return {"file": span.source.name, "line": line, "column": col, "end_line": end_line,
            "end_column": end_col}


@dataclass
class Diagnostic:
    severity: str
    code: str
    message: str
    span: Span | None = None
    notes: list[str] = field(default_factory=list)
    help: list[str] = field(default_factory=list)
    data: dict = field(default_factory=dict)
    labels: list[Label] = field(default_factory=list)
    # The pass that reported it, which a dump file records (nano_vx.resume).
    origin: str | None = field(default=None, compare=False)

    def __post_init__(self):
        if self.code not in CODES:
            raise ValueError(f"diagnostic code {self.code} is not in the registry")
        if self.severity not in SEVERITIES:
            raise ValueError(f"unknown severity {self.severity}")

    def sort_key(self):
        where = (self.span.source.name, self.span.start) if self.span else ("", -1)
        return (self.severity != "warning", where)

    def to_json(self) -> dict:
        out = {"severity": self.severity, "code": self.code, "message": self.message}
        if self.span is not None:
            out["span"] = span_json(self.span)
        out["labels"] = [label.to_json() for label in self.labels]
        out["notes"] = list(self.notes)
        out["help"] = list(self.help)
        out.update(self.data)
        return out

    def render(self, color: bool = False) -> str:
        """The text form, as rustc prints it; `color` adds a terminal's colours."""
        return draw(self, color)


class Diagnostics:
    """The diagnostics of one compilation, collected in order."""

    def __init__(self):
        self.items: list[Diagnostic] = []

    def add(self, diag: Diagnostic) -> Diagnostic:
        self.items.append(diag)
        return diag

    def error(self, code, span, message, *, notes=(), help=(), labels=(),
              **data) -> Diagnostic:
        return self.add(Diagnostic("error", code, message, span, list(notes), list(help), data,
                                   list(labels)))

    def warning(self, code, span, message, *, notes=(), help=(), labels=(),
                **data) -> Diagnostic:
        return self.add(Diagnostic("warning", code, message, span, list(notes), list(help),
                                   data, list(labels)))

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def codes(self) -> list[str]:
        return [d.code for d in self.sorted()]

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items, key=Diagnostic.sort_key)

    def render(self, color: bool = False) -> str:
        out = [d.render(color) for d in self.sorted()]
        errors = sum(d.severity == "error" for d in self.items)
        warnings = len(self.items) - errors
        if errors or warnings:
            counts = []
            if errors:
                counts.append(f"{errors} error{'s' * (errors != 1)}")
            if warnings:
                counts.append(f"{warnings} warning{'s' * (warnings != 1)}")
            out.append(f"{' and '.join(counts)} reported")
        return "\n\n".join(out) + ("\n" if out else "")

    def to_json(self, **program) -> str:
        doc = {"version": JSON_VERSION, "diagnostics": [d.to_json() for d in self.sorted()]}
        doc.update(program)
        return json.dumps(doc, indent=2, sort_keys=False) + "\n"


class CompileError(Exception):
    """Raised to stop a phase after its diagnostics were reported."""

"""Diagnostics: what the compiler says to its user.

A diagnostic has a severity, a code from the registry (`nano_vx.codes`), a primary span, a
message that names the facts, and optional notes and help lines. `data` carries the same facts
as numbers and names for `--error-format=json`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field

from .codes import CODES
from .source import Span

SEVERITIES = ("error", "warning")


@dataclass
class Diagnostic:
    severity: str
    code: str
    message: str
    span: Span | None = None
    notes: list[str] = field(default_factory=list)
    help: list[str] = field(default_factory=list)
    data: dict = field(default_factory=dict)

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
            line, col = self.span.source.line_col(self.span.start)
            end_line, end_col = self.span.source.line_col(self.span.end)
            out["span"] = {
                "file": self.span.source.name,
                "line": line,
                "column": col,
                "end_line": end_line,
                "end_column": end_col,
            }
        out["notes"] = list(self.notes)
        out["help"] = list(self.help)
        out.update(self.data)
        return out

    def render(self) -> str:
        lines = [f"{self.severity}[{self.code}]: {visible(self.message)}"]
        if self.span is not None:
            src = self.span.source
            line, col = src.line_col(self.span.start)
            text = src.line_text(line).removesuffix("\r").expandtabs(1)
            gutter = " " * len(str(line))
            end_line, end_col = src.line_col(max(self.span.end, self.span.start))
            width = (end_col - col) if end_line == line else len(text) - col + 1
            text, at, width = _clip(text, col, width)
            before, spanned = visible(text[:at - 1]), visible(text[at - 1:at - 1 + width])
            lines += [
                f"{gutter}--> {visible(src.name)}:{line}:{col}",
                f"{gutter} |",
                f"{line} | {visible(text)}",
                f"{gutter} | {' ' * _columns(before)}{'^' * max(1, _columns(spanned))}",
            ]
            pad = gutter
        else:
            pad = ""
        lines += [f"{pad} = note: {visible(n)}" for n in self.notes]
        lines += [f"{pad} = help: {visible(h)}" for h in self.help]
        return "\n".join(lines)


# What a terminal would act on rather than show: control characters (ANSI escapes, NUL,
# C1), format characters (bidirectional overrides, zero-width), line and paragraph
# separators, and lone surrogates, which stderr cannot even encode.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_SHORT = {"\0": "\\0", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
_UNUSUAL = re.compile(r"[^\x20-\x7e]")


def visible(text: str) -> str:
    """`text` with every character a terminal would act on written as Rust's `{:?}` writes
    it (`\\u{1b}`, `\\0`), so that a diagnostic shows a source line rather than replays
    it."""
    def shown(m: re.Match) -> str:
        c = m.group()
        if unicodedata.category(c) not in _HIDDEN:
            return c
        return _SHORT.get(c) or f"\\u{{{ord(c):x}}}"

    return _UNUSUAL.sub(shown, text)


def _columns(text: str) -> int:
    """The terminal columns `text` takes: two for a wide character (CJK, most emoji), none
    for a combining mark, so that the caret stands under its span."""
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


SHOWN_COLUMNS = 100


def _clip(text: str, col: int, width: int) -> tuple[str, int, int]:
    """A window of a long source line around the span, so that one diagnostic on a
    minified or generated line stays a few lines long, not kilobytes."""
    width = max(1, min(width, SHOWN_COLUMNS // 2))
    if len(text) <= SHOWN_COLUMNS:
        return text, col, width
    start = max(0, col - 1 - SHOWN_COLUMNS // 3)
    window = text[start:start + SHOWN_COLUMNS]
    prefix = "..." if start else ""
    suffix = "..." if start + SHOWN_COLUMNS < len(text) else ""
    return prefix + window + suffix, col - start + len(prefix), width


class Diagnostics:
    """The diagnostics of one compilation, collected in order."""

    def __init__(self):
        self.items: list[Diagnostic] = []

    def add(self, diag: Diagnostic) -> Diagnostic:
        self.items.append(diag)
        return diag

    def error(self, code, span, message, *, notes=(), help=(), **data) -> Diagnostic:
        return self.add(Diagnostic("error", code, message, span, list(notes), list(help), data))

    def warning(self, code, span, message, *, notes=(), help=(), **data) -> Diagnostic:
        return self.add(Diagnostic("warning", code, message, span, list(notes), list(help), data))

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def codes(self) -> list[str]:
        return [d.code for d in self.sorted()]

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items, key=Diagnostic.sort_key)

    def render(self) -> str:
        out = [d.render() for d in self.sorted()]
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
        doc = {"diagnostics": [d.to_json() for d in self.sorted()]}
        doc.update(program)
        return json.dumps(doc, indent=2, sort_keys=False) + "\n"


class CompileError(Exception):
    """Raised to stop a phase after its diagnostics were reported."""

"""The text before the grammar sees it: decoding bytes, refusing non-text (E1004), blanking
comments and attributes, closing unterminated strings (E1002), and the bracket-depth limit
(E1003) that keeps the recursive grammar far from any stack limit.

Blanking replaces characters by spaces, so every offset still points into the original text
and spans need no mapping back."""

from __future__ import annotations

import re

from ..diagnostics import Diagnostics
from ..source import Source, Span
from .limits import MAX_DEPTH


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
_LEXEME = re.compile(r'//[^\n]*|"(?:[^"\\\n]|\\.)*("?)|#!?\[')
_BRACKET = re.compile(r"[()\[\]{}]")
# `-x`, `!x`, `*p`, `&x`, `&mut x`: each a level (a run of `&&` in a binary position is no
# program anyway).
_UNARY_RUN = re.compile(r"(?:(?:&[ \t\r\n]*mut\b|[-!*&])[ \t\r\n]*){%d,}" % (MAX_DEPTH + 1))


def decode(name: str, data: bytes) -> tuple[Source, tuple[int, int] | None]:
    """The Source of `data`, and (offset, byte) of the first byte that is not UTF-8 if any.
    Undecodable bytes become U+FFFD one for one, so the offset is a character offset."""
    text = data.decode("utf-8", "surrogateescape")
    m = re.search(r"[\udc80-\udcff]", text)
    if m is None:
        return Source(name, text), None
    bad = (m.start(), ord(m.group()) - 0xDC00)
    return Source(name, re.sub(r"[\udc80-\udcff]", "\ufffd", text)), bad


def report_bad_byte(source: Source, bad: tuple[int, int], diagnostics: Diagnostics) -> None:
    at, byte = bad
    diagnostics.error("E1004", Span(source, at, at + 1),
                      f"the input is not UTF-8 text: byte 0x{byte:02x} cannot start or continue "
                      f"a character", help=["a Vx program is UTF-8 text"])


def check_characters(source: Source, diagnostics: Diagnostics) -> bool:
    """E1004 at the first control character; True when there is none."""
    m = _CONTROL.search(source.text)
    if m is None:
        return True
    c = m.group()
    what = "a NUL byte" if c == "\0" else f"the control character U+{ord(c):04X}"
    diagnostics.error("E1004", Span(source, m.start(), m.end()),
                      f"the input is not Vx text: it holds {what}",
                      help=["a Vx program is UTF-8 text without control characters"])
    return False


def blank(text: str, diagnostics: Diagnostics,
          source: Source) -> tuple[str, str, list[tuple[int, int]]]:
    """(text for the grammar, skeleton for recovery scans, spans of unterminated strings).

    The grammar's text has comments and attributes (`#[..]`, `#![..]`) blanked and every
    unterminated string closed (after E1002); the skeleton also blanks string contents."""
    unterminated: list[tuple[int, int]] = []
    parts: list[str] = []
    skel: list[str] = []
    pos = 0
    m = _LEXEME.search(text)
    while m is not None:
        start, end = m.span()
        parts.append(text[pos:start])
        skel.append(text[pos:start])
        lexeme = m.group()
        if lexeme.startswith("//"):
            parts.append(" " * (end - start))
            skel.append(" " * (end - start))
        elif lexeme.startswith("#"):
            end = _attribute_end(text, end)
            filler = re.sub(r"[^\n]", " ", text[start:end])
            parts.append(filler)
            skel.append(filler)
        elif m.group(1):  # a whole string literal
            parts.append(lexeme)
            skel.append('"' + " " * (end - start - 2) + '"')
        else:
            diagnostics.error("E1002", Span(source, start, end),
                              "unterminated string literal: it does not close before the end "
                              "of its line", help=['close it with \'"\''])
            unterminated.append((start, end))
            # Closed in place (offsets kept) so that the rest of the line still parses.
            closed = '""' + " " * (end - start - 2) if end - start >= 2 else " "
            parts.append(closed)
            skel.append(closed)
        pos = end
        m = _LEXEME.search(text, pos)
    parts.append(text[pos:])
    skel.append(text[pos:])
    return "".join(parts), "".join(skel), unterminated


def _attribute_end(text: str, pos: int) -> int:
    """The end of an attribute whose `[` ends before `pos`: after its matching `]`."""
    depth = 1
    for m in re.compile(r"[\[\]]").finditer(text, pos):
        depth += 1 if m.group() == "[" else -1
        if depth == 0:
            return m.end()
    return len(text)


def check_depth(skeleton: str, source: Source, diagnostics: Diagnostics) -> bool:
    """E1003 where brackets (or a run of prefix operators) nest past MAX_DEPTH."""
    depth = 0
    for m in _BRACKET.finditer(skeleton):
        if m.group() in "([{":
            depth += 1
            if depth > MAX_DEPTH:
                _too_deep(source, m.start(), diagnostics, "brackets")
                return False
        elif depth:
            depth -= 1
    m = _UNARY_RUN.search(skeleton)
    if m is not None:
        _too_deep(source, m.start(), diagnostics, "prefix operators")
        return False
    return True


def _too_deep(source: Source, at: int, diagnostics: Diagnostics, what: str) -> None:
    diagnostics.error("E1003", Span(source, at, at + 1),
                      f"{what} nest deeper than {MAX_DEPTH} levels here",
                      help=["split the expression with `let` bindings"])

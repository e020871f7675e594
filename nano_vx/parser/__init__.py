"""The Vx parser: text to Lsrc, with spans on every node and E1xxx diagnostics.

`parse(source, diagnostics)` is what the `parse` pass runs; `parse_text(text_or_bytes)` is
the shortcut for tests and tools; `decode_source` / `read_source` turn bytes into a Source
(E1004 on bytes that are not UTF-8).
"""

from __future__ import annotations

from pathlib import Path

from ..deep import run_deep
from ..diagnostics import Diagnostics
from ..languages.lsrc import Lsrc
from ..source import Source, Span
from . import text as _text
from .driver import parse_items
from .limits import MAX_DEPTH

__all__ = ["MAX_DEPTH", "decode_source", "parse", "parse_text", "read_source"]


def parse(source: Source, diagnostics: Diagnostics):
    """The Program of the items that parse (possibly none); every problem is reported."""
    empty = Lsrc["Program"]((), span=Span(source, 0, len(source.text)))
    if not _text.check_characters(source, diagnostics):
        return empty
    text = source.text
    if text.startswith("\ufeff"):  # a byte-order mark is not part of the program
        text = " " + text[1:]
    text, skeleton, unterminated = _text.blank(text, diagnostics, source)
    if not skeleton.strip():
        diagnostics.error("E1005", Span(source, 0, len(source.text)),
                          "the file holds no items: nothing but white space and comments",
                          help=["a program needs at least `fn main() { }`"])
        return empty
    if not _text.check_depth(skeleton, source, diagnostics):
        return empty
    return run_deep(parse_items, source, text, skeleton, diagnostics, unterminated)


def decode_source(name: str, data: bytes, diagnostics: Diagnostics) -> Source | None:
    """The Source of `data`; None after E1004 when it is not UTF-8."""
    source, bad = _text.decode(name, data)
    if bad is not None:
        _text.report_bad_byte(source, bad, diagnostics)
        return None
    return source


def read_source(path, diagnostics: Diagnostics) -> Source | None:
    """Read a file as bytes and decode it (see decode_source)."""
    return decode_source(str(path), Path(path).read_bytes(), diagnostics)


def parse_text(text: str | bytes, name: str = "<input>"):
    """(Program, Diagnostics) for a text or its bytes."""
    diagnostics = Diagnostics()
    if isinstance(text, bytes):
        source = decode_source(name, text, diagnostics)
        if source is None:
            return Lsrc["Program"](()), diagnostics
    else:
        source = Source(name, text)
    return parse(source, diagnostics), diagnostics

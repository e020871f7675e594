"""Syntax errors: saying what was expected and what was found, and finding where to resume.

Resuming scans the skeleton (strings and comments blanked), so a `;` or `}` inside a string
or a comment is never taken for a boundary."""

from __future__ import annotations

import re

from pyparsing import ParseBaseException

from . import state
from .elements import WHITE, skip_ws
from .limits import TooDeep

_TOKEN = re.compile(
    r'[A-Za-z_][A-Za-z0-9_]*|[0-9][0-9A-Za-z_.]*|"|::|->|\.\.|\|\||&&|[=!<>+\-*/]=|.', re.S)
# An item keyword at the start of a line (column 1) followed by its name.
_ITEM_START = r"^(?:fn|const|struct|Memory|Topology)[ \t]+[A-Za-z_]"
_NEXT_ITEM = re.compile(_ITEM_START, re.M)
_BOUNDARY = re.compile(r"[;{}()\[\]]|" + _ITEM_START, re.M)
_BRACE = re.compile(r"[{}]")


def found(text: str, loc: int) -> tuple[str, int, int]:
    """How to name what is at `loc`, and its span."""
    loc = skip_ws(text, loc)
    if loc >= len(text):
        return "end of file", len(text), len(text)
    m = _TOKEN.match(text, loc)
    tok = m.group()
    if tok == '"':
        return "a string literal", loc, loc + 1
    return f"'{tok}'", loc, m.end()


def expected(exc: ParseBaseException) -> str:
    msg = exc.msg
    return msg[len("Expected "):] if msg.startswith("Expected ") else msg


def report(exc: ParseBaseException, what: str | None = None) -> None:
    """E1001 for a failed parse: 'expected X, found Y' at the token found, or for a missing
    `;` just after the statement's last token (E1003 when the parse gave up on nesting)."""
    text = exc.pstr
    tok, start, end = found(text, exc.loc)
    if isinstance(exc, TooDeep):
        state.error("E1003", start, end, f"this nests too deeply to parse: {exc.msg}")
        return
    what = what or expected(exc)
    if what.startswith("';'"):
        missing_semi(text, start, what)
        return
    state.error("E1001", start, end, f"expected {what}, found {tok}")


def missing_semi(text: str, at: int, what: str = "';' after the statement") -> None:
    """E1001 for a `;` missing before `at`, where rustc points: just after the last token
    of the statement, not at the next line's token (which the message names)."""
    tok = found(text, at)[0]
    at = token_end(text, at)
    state.error("E1001", at, at, f"expected {what}, found {tok}")


def token_end(text: str, loc: int) -> int:
    """The end of the token before `loc`: white space (and blanked comments) skipped back."""
    while loc > 0 and text[loc - 1] in WHITE:
        loc -= 1
    return loc


_STATEMENT_KEYWORD = re.compile(
    r"(?:let|for|while|if|return|break|continue|assert|unroll|fn|const|struct)(?![A-Za-z0-9_])")


def after_statement(skeleton: str, start: int, loc: int) -> int:
    """Where to resume after the statement at `start` failed at `loc`: at `loc` itself when a
    statement keyword is there (the usual missing `;`), else after the next `;`, at the next
    `}` that closes the enclosing block, or at an item keyword starting a line; brackets
    opened after the error are skipped whole. A statement that failed inside braces of its
    own (the arms of a `match`, the fields of a declaration) ends with the `}` closing them,
    so it resumes after that one: that `}` does not close the enclosing block."""
    loc = skip_ws(skeleton, loc)
    own = _open_braces(skeleton, start, loc)
    if loc > start and not own and _STATEMENT_KEYWORD.match(skeleton, loc):
        return loc
    depth = own
    for m in _BOUNDARY.finditer(skeleton, loc):
        c = m.group()
        if c in "([{":
            depth += 1
        elif c in ")]":
            depth = max(0, depth - 1)
        elif c == "}":
            if depth == 0:
                return m.start()
            depth -= 1
            if own and depth == 0:
                after = skip_ws(skeleton, m.end())
                return after + 1 if skeleton[after:after + 1] == ";" else m.end()
        elif c == ";":
            if depth == 0:
                return m.end()
        else:
            return m.start()
    return len(skeleton)


def _open_braces(skeleton: str, start: int, loc: int) -> int:
    """How many `{` the text from `start` to `loc` leaves open."""
    depth = 0
    for m in _BRACE.finditer(skeleton, start, loc):
        depth = depth + 1 if m.group() == "{" else max(0, depth - 1)
    return depth


def next_item(skeleton: str, loc: int) -> int:
    """Where to resume after a broken item: the next line that starts with an item keyword."""
    m = _NEXT_ITEM.search(skeleton, loc)
    return m.start() if m else len(skeleton)

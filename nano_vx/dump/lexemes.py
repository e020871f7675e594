"""How each terminal kind is written in the text dump, both ways: a lexeme shows a value and
reads it back from a position of the text.

A kind with no entry here (a terminal a new IL adds) is written as the generic form writes a
terminal (`terminal_text`) and read back by `read_bare`: a quoted string, or a bare token
taken as whichever of a bool, an integer, a float or the text itself the kind admits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ..languages.lsrc import ASSIGN_OPS, BINARY_OPS, NARROW, SCALARS, UNARY_OPS, UNITS
from ..parser.lexical import RESERVED
from .writer import quote, terminal_text

_WORD = r"[A-Za-z_][A-Za-z0-9_]*"
_ENDS_WORD = r"(?![A-Za-z0-9_])"


@dataclass(frozen=True)
class Lexeme:
    what: str  # what a reader expected, for a message
    show: Callable[[object], str]
    read: Callable[[str, int], "tuple[object, int] | None"]  # (value, end) at a position


def _regex(pattern: str, convert=str) -> Callable:
    compiled = re.compile(pattern)

    def read(text, pos):
        m = compiled.match(text, pos)
        return None if m is None else (convert(m.group()), m.end())
    return read


def _words(words) -> str:
    """An alternation of fixed words, the longest first (`<<=` before `<<` before `<`)."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _keywords(words) -> str:
    return f"(?:{_words(words)}){_ENDS_WORD}"


_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r", "0": "\0"}
_STRING = re.compile(r'"((?:[^"\\\n]|\\(?:u\{[0-9a-fA-F]{1,6}\}|.))*)"')
_ESCAPE = re.compile(r"\\(u\{([0-9a-fA-F]{1,6})\}|.)")


def _unescape(m) -> str:
    if m.group(2) is not None:
        return chr(int(m.group(2), 16))
    return _ESCAPES.get(m.group(1), m.group(1))


def read_string(text: str, pos: int):
    """A quoted string as `quote` writes it: its escapes, `\\u{..}` included."""
    m = _STRING.match(text, pos)
    if m is None:
        return None
    try:
        return _ESCAPE.sub(_unescape, m.group(1)), m.end()
    except (ValueError, OverflowError):  # \u{..} beyond Unicode
        return None


def _read_iname(text: str, pos: int, path: bool = True):
    """`stage$i32`, `id$Tensor<f32,[4],CPU_DRAM>`: a name (`Point::new` too, when `path`),
    then `$` arguments whose brackets balance (a `,` inside `<..>` or `[..]` belongs to the
    name, one outside it does not, and so does a `$` inside them: `Cell$<Cell$Point>`, and
    an extent's `?`, `#` or operator: `id$Tensor<i32,[?,n#1+1]>`); a reference or pointer
    argument starts with its `&` or `*`, `id$&mut-i32`, where `@f$i32 * x` is a product; a
    tuple argument is in `(..)`, `Pair$(i32,Point)`, where `@f$i32(x)` is a call. A `.`
    belongs to it only inside a number (`scale$2.5`, not `@f$i32.as_ptr()`), a `:` only as
    a path's `::` (not `struct Cell$Point: Copy`)."""
    m = re.compile(rf"{_WORD}(::{_WORD})?" if path else _WORD).match(text, pos)
    if m is None:
        return None
    i, n = m.end(), len(text)
    while i < n and text[i] == "$":
        j, depth = i + 1, 0
        while j < n:
            c = text[j]
            if c in "<[" or c == "(" and (j == i + 1 or depth):  # `Pair$(i32,Point)`
                depth += 1
            elif c in ">])":
                if depth == 0:
                    break
                depth -= 1
            elif c == "," and depth == 0 or not (c.isalnum() or c in "_,.:-" or
                                                 c in "$?#+/%" and depth or
                                                 c in "&*" and (depth or text[j - 1] in "$&*")) \
                    or text.startswith("..", j):
                break
            elif c == "." and not text[j + 1:j + 2].isdigit():
                break
            elif c == ":":
                if not text.startswith("::", j):
                    break
                j += 1
            j += 1
        if j == i + 1 or depth:
            break
        i = j
    return text[pos:i], i


def _read_clause(text: str, pos: int):
    """A where clause as written, up to the `*/` that closes the comment it is printed in."""
    end = text.find("*/", pos)
    if end < 0 or "\n" in text[pos:end]:
        return None
    return text[pos:end].rstrip(), len(text[pos:end].rstrip()) + pos


class ReadFailure(Exception):
    """Text that does not fit the IL: the furthest position reached and what it wanted."""

    def __init__(self, pos: int, message: str):
        super().__init__(message)
        self.pos = pos
        self.message = message


# Far more than any value of any IL holds, and below Python's limit on converting digits.
MAX_DIGITS = 4000


class NumberTooLong(ValueError):
    """An integer of more digits than a dump's numbers have."""

    def __init__(self, digits: str):
        super().__init__(f"an integer of {len(digits.lstrip('-'))} digits; a dump's integers "
                         f"have at most {MAX_DIGITS}")
        self.digits = digits


def whole_number(digits: str) -> int:
    """The integer the digits (with an optional sign) write, or NumberTooLong."""
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise NumberTooLong(digits)
    return int(digits)


_FLOAT = r"(?:[0-9]+\.[0-9]+(?:e[+-]?[0-9]+)?|[0-9]+e[+-]?[0-9]+|inf|nan)"
def read_number(text: str, pos: int, kind: str):
    """A number with an optional sign: an int, or a float as `repr` writes one; an integer
    of too many digits is a ReadFailure there and then."""
    pattern = rf"-?{_FLOAT}" if kind == "float" else r"-?[0-9]+"
    m = re.compile(pattern).match(text, pos)
    if m is None:
        return None
    if kind == "float":
        return float(m.group()), m.end()
    try:
        return whole_number(m.group()), m.end()
    except NumberTooLong as err:
        raise ReadFailure(pos, str(err)) from None


def _path_show(value: str) -> str:
    # A variable naming a function of an impl block, `<S>::f`, is told apart from the enum
    # value `S::f`, which is written the same in the source.
    head, sep, tail = value.partition("::")
    return f"<{head}>::{tail}" if sep else value


_PATH = re.compile(rf"<({_WORD})>::({_WORD})|{_WORD}")


def _path_read(text: str, pos: int):
    m = _PATH.match(text, pos)
    if m is None:
        return None
    return (f"{m.group(1)}::{m.group(2)}" if m.group(1) else m.group()), m.end()


LEXEMES: dict[str, Lexeme] = {
    "name": Lexeme("a name", str, _regex(_WORD)),
    "fname": Lexeme("a function's name", str, _regex(rf"{_WORD}(?:::{_WORD})?")),
    # A bare keyword is no local (`transfer[sync](..)` is a transfer, never `transfer` indexed
    # and called); one renamed apart (`match#1`) is, and so is `return`, the result an
    # `ensures` names.
    "uname": Lexeme("a local's name (x, x#1)", str,
                    _regex(rf"(?!{_keywords(RESERVED - {'return'})}(?!#)){_WORD}(?:#[0-9]+)?")),
    "iname": Lexeme("a function's name", str, _read_iname),
    "tname": Lexeme("a struct's name", str, lambda t, p: _read_iname(t, p, path=False)),
    "label": Lexeme("a block's label (bb0)", str, _regex(r"bb[0-9]+" + _ENDS_WORD)),
    "clause": Lexeme("a where clause", str, _read_clause),
    "cost": Lexeme("a cost (50, 63/134)", str, _regex(r"[0-9]+(?:/[0-9]+)?")),
    "decimal": Lexeme("a number", str, _regex(r"[0-9]+(?:\.[0-9]+)?")),
    "int": Lexeme("an integer", str, lambda t, p: read_number(t, p, "int")),
    "float": Lexeme("a float", repr, lambda t, p: read_number(t, p, "float")),
    "string": Lexeme("a string literal", quote, read_string),
    "binop": Lexeme("an operator", str, _regex(_words(BINARY_OPS))),
    "unop": Lexeme("'-' or '!'", str, _regex(_words(UNARY_OPS))),
    "assignop": Lexeme("an assignment operator", str, _regex(_words(ASSIGN_OPS))),
    "scalar": Lexeme("a scalar type", str, _regex(_keywords(SCALARS | set(NARROW)))),
    "unit": Lexeme("a unit", str, _regex(rf"(?:{_words(UNITS)})(?![A-Za-z0-9_/])")),
    "variant": Lexeme("Available or Saturated", str,
                      _regex(_keywords(("Available", "Saturated")))),
    "mark": Lexeme("sync or relaxed", str, _regex(_keywords(("sync", "relaxed")))),
    "via": Lexeme("edge or within", str, _regex(_keywords(("edge", "within")))),
    "bool": Lexeme("true or false", lambda v: "true" if v else "false",
                   _regex(_keywords(("true", "false")), lambda s: s == "true")),
    "false": Lexeme("false", lambda v: "false", _regex(_keywords(("false",)), lambda s: False)),
}

# Other ways of writing a kind, named by a slot (`{name!path}`).
STYLES: dict[str, Lexeme] = {
    "path": Lexeme("a name", _path_show, _path_read),
}

_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_DIGITS = frozenset("0123456789")
# The characters a kind's text can start with (a kind not here: any).
STARTS = {kind: _LETTERS for kind in ("name", "fname", "uname", "iname", "tname", "label", "scalar",
                                      "unit", "variant", "mark", "via", "bool", "false")}
STARTS.update({"int": _DIGITS | {"-"}, "decimal": _DIGITS, "cost": _DIGITS,
               "float": _DIGITS | {"-", "i", "n"}, "string": frozenset('"'),
               "path": _LETTERS | {"<"}})
STARTS.update({kind: frozenset(op[0] for op in ops) for kind, ops in
               (("binop", BINARY_OPS), ("unop", UNARY_OPS), ("assignop", ASSIGN_OPS))})

_BARE = re.compile(r'[^\s,:()\[\]{}"]+')


def read_bare(text: str, pos: int, admits: Callable[[object], bool], kind: str):
    """A terminal as the generic form writes it (`terminal_text`): quoted, or one bare token
    taken as the first of a bool, an integer, a float or the token itself that the kind
    admits and that is written back the same."""
    if text.startswith('"', pos):
        got = read_string(text, pos)
        if got is not None and admits(got[0]):
            return got
        return None
    m = _BARE.match(text, pos)
    if m is None:
        return None
    token = m.group()
    for convert in (_as_bool, int, float, str):
        try:
            value = convert(token)
        except ValueError:
            continue
        if admits(value) and terminal_text(value, kind) == token:
            return value, m.end()
    return None


def _as_bool(token: str) -> bool:
    if token not in ("true", "false"):
        raise ValueError(token)
    return token == "true"


def lexeme(kind: str, style: str | None = None) -> Lexeme | None:
    return STYLES[style] if style else LEXEMES.get(kind)

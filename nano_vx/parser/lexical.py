"""Tokens: identifiers, keywords, literals and punctuation, each named the way an error
message should say what was expected."""

from __future__ import annotations

import re

from pyparsing import Keyword, Literal, Regex, Suppress

from ..languages.lsrc import SCALARS, Lsrc
from . import state
from .elements import Build


# Words that cannot name a variable, a function or a parameter.
RESERVED = frozenset(
    "fn let mut for in while loop if else return break continue assert comptime unroll spawn "
    "match import "
    "transfer true false as where const struct grad vjp jvp Some None Reachable Memory "
    "Topology Tensor Pinned Verified HardwareState Ref".split()
) | SCALARS

_reserved = "|".join(sorted(RESERVED, key=len, reverse=True))
_IDENT_RE = re.compile(rf"(?!(?:{_reserved})(?![A-Za-z0-9_]))[A-Za-z_][A-Za-z0-9_]*")
IDENT = Regex(_IDENT_RE).set_name("an identifier")
# Field, method and declaration-key names: any word, keywords included (`x.transfer`).
ANY_NAME = Regex(r"[A-Za-z_][A-Za-z0-9_]*").set_name("a name")


def kw(word: str) -> Suppress:
    return Suppress(Keyword(word)).set_name(f"'{word}'")


def punct(text: str, name: str | None = None) -> Suppress:
    return Suppress(Literal(text)).set_name(name or f"'{text}'")


def punct_re(pattern: str, name: str) -> Suppress:
    return Suppress(Regex(pattern)).set_name(name)


LPAR, RPAR = punct("("), punct(")")
LBRACK, RBRACK = punct("["), punct("]")
LBRACE, RBRACE = punct("{"), punct("}")
LT, GT = punct("<"), punct(">")
COMMA, COLON = punct(","), punct_re(r":(?!:)", "':'")
PATH = punct("::")
SEMI = punct(";")
ARROW = punct("->")
DOTDOT = punct("..")
# `.` of a field or method, never the first dot of `..`.
DOT = punct_re(r"\.(?!\.)", "'.'")
EQUALS = punct_re(r"=(?!=)", "'='")
BAR = punct_re(r"\|(?!\|)", "'|'")
OROR = punct("||")

U64_MAX = 2**64 - 1

# A number as loosely as it can be written, so a malformed one is one token (E1006),
# not a number followed by a stray word.
_NUMBER_TOKEN = (r"0[xX][0-9A-Za-z_]*"
                 r"|[0-9][0-9A-Za-z_]*(?:\.[0-9][0-9A-Za-z_]*)?(?:(?<=[eE])[+-][0-9A-Za-z_]*)?")
_INT_DEC = re.compile(r"[0-9][0-9_]*\Z")
_INT_HEX = re.compile(r"0[xX][0-9A-Fa-f_]*[0-9A-Fa-f][0-9A-Fa-f_]*\Z")
_FLOAT = re.compile(r"[0-9][0-9_]*(?:\.[0-9][0-9_]*)?(?:[eE][+-]?[0-9]+)?\Z")


# More significant digits than this cannot fit in 64 bits: such a literal is refused by its
# length, never converted (Python refuses to convert strings of more than 4300 digits).
_MAX_DIGITS = {10: len(str(U64_MAX)), 16: 16}


def read_int(text: str, sp) -> int:
    """The value of an integer literal; E1006 (and 0) when it exceeds 64 bits."""
    base = 16 if text[:2] in ("0x", "0X") else 10
    written = text[2 if base == 16 else 0:].replace("_", "")
    digits = written.lstrip("0")
    value = int(digits or "0", base) if len(digits) <= _MAX_DIGITS[base] else None
    if value is None or value > U64_MAX:
        state.error("E1006", sp.start, sp.end,
                    f"integer literal {shown(text, len(written), 'digits')} does not fit in "
                    f"64 bits (the largest is {U64_MAX})")
        return 0
    return value


SHOWN_CHARACTERS = 40


def shown(literal: str, count: int | None = None, unit: str = "characters") -> str:
    """A literal as a message quotes it: whole when short, else its first and last
    characters and how many it has, so that a 5,000-digit literal costs one line."""
    if len(literal) <= SHOWN_CHARACTERS:
        return literal
    return f"{literal[:12]}...{literal[-12:]} ({count or len(literal)} {unit})"


def is_int(text: str) -> bool:
    return bool(_INT_DEC.match(text) or _INT_HEX.match(text))


# A type written after a literal: `0i64`, `10f32`, `1_000_u32`, `0xFFu8`.
_SUFFIX = re.compile(r"(.*?[0-9A-Fa-f.])_*(i8|i16|i32|i64|u8|u16|u32|u64|f16|bf16|f32|f64)\Z", re.S)
_FLOAT_SUFFIXES = ("f16", "bf16", "f32", "f64")


def _number(sp, toks):
    text = toks[0]
    m = _SUFFIX.match(text)
    if m is not None and not is_int(text):  # `0x1f32` is a hexadecimal integer, as in Rust
        return _suffixed(sp, m.group(1), m.group(2))
    return _plain_number(sp, text)


def _suffixed(sp, digits: str, suffix: str):
    """`<literal><type>`; an integer type after a float literal, or a float type after a
    hexadecimal one, is E1006."""
    if is_int(digits) and not (digits[:2] in ("0x", "0X") and suffix in _FLOAT_SUFFIXES):
        value = read_int(digits, sp)
        literal = Lsrc["Float"](float(value), span=sp) if suffix in _FLOAT_SUFFIXES \
            else Lsrc["Int"](value, span=sp)
    elif _FLOAT.match(digits) and suffix in _FLOAT_SUFFIXES:
        literal = _plain_number(sp, digits)
    else:
        state.error("E1006", sp.start, sp.end,
                    f"invalid numeric literal '{shown(digits + suffix)}': a `{suffix}` suffix "
                    f"on {'a float' if _FLOAT.match(digits) else 'this'} literal")
        return Lsrc["Int"](0, span=sp)
    return Lsrc["Suffixed"](literal, suffix, span=sp)


def _plain_number(sp, text: str):
    if is_int(text):
        return Lsrc["Int"](read_int(text, sp), span=sp)
    if _FLOAT.match(text):
        value = float(text.replace("_", ""))
        if value == float("inf"):
            state.error("E1006", sp.start, sp.end,
                        f"float literal {shown(text)} is out of range")
            value = 0.0
        return Lsrc["Float"](value, span=sp)
    state.error("E1006", sp.start, sp.end, f"invalid numeric literal '{shown(text)}'")
    return Lsrc["Int"](0, span=sp)


NUMBER = Build(Regex(_NUMBER_TOKEN), _number, "a number")
INT_TOKEN = Regex(r"[0-9][0-9A-Za-z_]*").set_name("an integer")

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"'}
_ESCAPE = re.compile(r"\\(.)", re.S)


def unescape(raw: str, start: int) -> str:
    """The text of a string literal body; an unknown escape is E1006 and kept as written."""

    def one(m):
        c = m.group(1)
        if c in _ESCAPES:
            return _ESCAPES[c]
        at = start + m.start()
        state.error("E1006", at, at + 2, f"unknown escape '\\{c}' in a string literal")
        return m.group()

    return _ESCAPE.sub(one, raw) if "\\" in raw else raw


_STRING_RE = Regex(r'"(?:[^"\\\n]|\\.)*"')
STRING_TEXT = Build(_STRING_RE, lambda sp, t: unescape(t[0][1:-1], sp.start + 1),
                    "a string literal")
STRING = Build(_STRING_RE, lambda sp, t: Lsrc["Str"](unescape(t[0][1:-1], sp.start + 1), span=sp),
               "a string literal")

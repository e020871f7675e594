"""`Memory NAME { ... }` and `Topology NAME { ... }`: fields `key: value`, bare flags and
`transfer Memory::A -> Memory::B [: cost] [flag ...]`, separated by commas and/or newlines."""

from __future__ import annotations

from pyparsing import (Forward, Group, Keyword, Optional, ParseException, ParseFatalException,
                       Regex, ZeroOrMore)

from ..languages.lsrc import EDGE_FLAGS, UNITS, Lsrc
from . import state
from .elements import Build, Dispatch
from .lexical import (ANY_NAME, ARROW, COLON, COMMA, IDENT, LBRACE, LBRACK, U64_MAX, kw, punct,
                      shown)
from .types import MEM

_UNIT_NAMES = ", ".join(sorted(UNITS))


def _check_unit(s, loc, t):
    unit = t[0].strip()
    if unit in EDGE_FLAGS:  # `: 20 relaxed`: a cost without a unit, then a flag
        raise ParseException(s, loc, "a unit")
    if unit not in UNITS:
        raise ParseFatalException(s, loc, f"Expected a unit ({_UNIT_NAMES})")
    return unit


# A unit sits on the number's line: a word on the next line is the next field.
_UNIT = Regex(r"[ \t]*[A-Za-z_][A-Za-z0-9_]*(?:/[A-Za-z]+)?").leave_whitespace() \
    .add_parse_action(_check_unit)
# The model reads a figure exactly (a Fraction of its digits); one with more digits than a
# 64-bit integer has is no real figure, and is refused by its length before any conversion.
MAX_FIGURE_DIGITS = len(str(U64_MAX))


def _quantity(sp, t):
    number, unit = t[0], t[1] if len(t) > 1 else None
    digits = len(number) - number.count(".")
    if digits > MAX_FIGURE_DIGITS:
        state.error("E1006", sp.start, sp.start + len(number),
                    f"the number {shown(number, digits, 'digits')} has more than "
                    f"{MAX_FIGURE_DIGITS} digits: no memory or link figure needs that many")
        number = "0"
    return Lsrc["Quantity"](number, unit, span=sp)


_QUANTITY = Build(
    Regex(r"[0-9]+(?:\.[0-9]+)?(?![0-9A-Za-z_.])").set_name("a number") + Optional(_UNIT),
    _quantity)
_WORD = Build(ANY_NAME, lambda sp, t: Lsrc["Word"](t[0], span=sp))

DECL_VALUE = Forward().set_name("a value")
_LIST = Build(
    LBRACK - Group(Optional(DECL_VALUE + ZeroOrMore(COMMA + DECL_VALUE) + Optional(COMMA)))
    - punct("]", "',' or ']'"),
    lambda sp, t: Lsrc["DeclList"](tuple(t[0]), span=sp))
DECL_VALUE <<= Dispatch({"Memory": MEM, "[": _LIST} | {d: _QUANTITY for d in "0123456789"},
                        _WORD, "a value")

# An edge's flags (`relaxed`, `copy_engine`, ...) sit on its line, like a unit: a word on
# the next line is the next field, and so is a word followed by ':' on the same line.
_FLAG = Regex(r"[ \t]*(?!transfer\b)[A-Za-z_][A-Za-z0-9_]*(?![A-Za-z0-9_]|[ \t]*:)") \
    .leave_whitespace() \
    .add_parse_action(lambda t: t[0].strip())
_EDGE = Build(kw("transfer") - MEM - ARROW - MEM
              + Optional(COLON - DECL_VALUE, default=None) + Group(ZeroOrMore(_FLAG)),
              lambda sp, t: Lsrc["TransferEdge"](t[0], t[1], t[2], tuple(t[3]), span=sp))
_FIELD = Build(ANY_NAME + Optional(COLON - DECL_VALUE),
               lambda sp, t: Lsrc["DeclField"](t[0], t[1] if len(t) > 1 else None, span=sp))
_FIELDS = Group(ZeroOrMore((_EDGE | _FIELD) + Optional(COMMA)))
_CLOSE = punct("}", "a field or '}'")


def _decl(production):
    return lambda sp, t: Lsrc[production](t[0], tuple(t[1]), span=sp)


# The keyword and the name together commit to a declaration (`Memory::X` is an expression).
MEMORY_DECL = Build(Keyword("Memory").suppress() + IDENT - LBRACE - _FIELDS - _CLOSE,
                    _decl("MemoryDecl"), "a memory declaration")
TOPOLOGY_DECL = Build(Keyword("Topology").suppress() + IDENT - LBRACE - _FIELDS - _CLOSE,
                      _decl("TopologyDecl"), "a topology declaration")

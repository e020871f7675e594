"""Three pyparsing elements the stock ones do not provide cheaply.

- `Build` gives a node builder the exact [start, end) of what it matched (a parse action
  only sees the start), so every node gets its span without `lineno` or `Located` wrappers.
- `Dispatch` picks the one alternative a leading word or character allows, instead of
  trying a dozen alternatives in turn: most of the parser's speed comes from here.
- `Binary` reads `operand (op operand)*` in one loop and folds it by precedence, instead of
  one nested element per precedence level.
"""

from __future__ import annotations

import re
from typing import Callable

from pyparsing import ParseException, ParserElement, ParseSyntaxException

from . import state
from .limits import MAX_NESTING, TooDeep

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
WHITE = " \t\r\n"


def skip_ws(s: str, loc: int) -> int:
    n = len(s)
    while loc < n and s[loc] in WHITE:
        loc += 1
    return loc


class _Custom(ParserElement):
    """Base for elements holding sub-elements: streamline and recurse reach them."""

    def __init__(self, children):
        super().__init__()
        self._children = list(children)
        self.mayIndexError = False

    def recurse(self):
        return list(self._children)

    def _generateDefaultName(self):
        return type(self).__name__

    def streamline(self):
        if not self.streamlined:
            super().streamline()
            for c in self._children:
                c.streamline()
        return self


def refused(message: str, help: tuple[str, ...]) -> Callable:
    """A Build action refusing what it matched, something of Rust's that Vx has not, with
    E1001 (`{0}` in message names it as written), and reading it as its first token, so the
    rest still parses."""
    def refuse(sp, t):
        state.error("E1001", sp.start, sp.end, message.format(t[0]), help=help)
        return t[0]
    return refuse


class Build(_Custom):
    """Match `expr` and return `fn(span, tokens)` as the single token."""

    def __init__(self, expr: ParserElement, fn: Callable, name: str | None = None):
        super().__init__([expr])
        self.expr = expr
        self.fn = fn
        if name:
            self.set_name(name)

    def parseImpl(self, s, loc, do_actions=True):
        end, toks = self.expr._parse(s, loc, do_actions, callPreParse=False)
        return end, [self.fn(state.span(loc, end), toks)]


class Dispatch(_Custom):
    """Choose an alternative by the word (or, failing that, the character) at the cursor.

    `table` maps words and single characters to elements; `default` handles any other word.
    A failure at the very start is reported as "expected <name>" (the alternative's own
    expectation, e.g. "an identifier" for a keyword, would mislead)."""

    def __init__(self, table: dict[str, ParserElement], default: ParserElement | None,
                 name: str):
        children = list(dict.fromkeys(table.values()))
        if default is not None:
            children.append(default)
        super().__init__(children)
        self.table = table
        self.default = default
        self.set_name(name)

    def parseImpl(self, s, loc, do_actions=True):
        m = _WORD.match(s, loc)
        if m:
            elem = self.table.get(m.group(), self.default)
        else:
            elem = self.table.get(s[loc:loc + 1])
        if elem is None:
            raise ParseException(s, loc, self.errmsg, self)
        # Every recursive construct passes through a Dispatch, so its depth is the nesting.
        st = state.current()
        st.depth += 1
        try:
            if st.depth > MAX_NESTING:
                raise TooDeep(s, loc, f"more than {MAX_NESTING} nested constructs", self)
            return elem._parse(s, loc, do_actions, callPreParse=False)
        except ParseException as exc:
            if exc.loc <= loc:
                raise ParseException(s, loc, self.errmsg, self) from None
            raise
        finally:
            st.depth -= 1


# Rust's: comparisons, then `|`, `^`, `&`, the shifts, `+ -`, `* / %`, each binding tighter.
PRECEDENCE = {"||": 1, "&&": 2, "==": 3, "!=": 3, "<": 3, "<=": 3, ">": 3, ">=": 3,
              "|": 4, "^": 5, "&": 6, "<<": 7, ">>": 7, "+": 8, "-": 8, "*": 9, "/": 9, "%": 9}
# An operator never followed by `=` (that is an assignment), `-` never by `>` (a return
# type arrow), `/` never by `/` (comments are blanked, but keep it exact).
_OP = re.compile(r"\|\||&&|==|!=|<<(?!=)|>>(?!=)|<=|>=|<(?!<)|>(?!>)|\+(?!=)|-(?![=>])"
                 r"|\*(?!=)|/(?![=/])|%(?!=)|&(?![&=])|\|(?![|=])|\^(?!=)")


class Binary(_Custom):
    """`operand (op operand)*`, folded left-associatively by PRECEDENCE with `make`."""

    def __init__(self, operand: ParserElement, make: Callable, name: str):
        super().__init__([operand])
        self.operand = operand
        self.make = make
        self.set_name(name)

    def parseImpl(self, s, loc, do_actions=True):
        operand = self.operand
        loc, toks = operand._parse(s, loc, do_actions, callPreParse=False)
        out = [toks[0]]
        ops: list[str] = []
        make = self.make
        while True:
            i = skip_ws(s, loc)
            m = _OP.match(s, i)
            if m is None:
                break
            op = m.group()
            try:
                loc, toks = operand._parse(s, m.end(), do_actions)
            except ParseException as exc:
                raise ParseSyntaxException(
                    s, exc.loc, f"Expected an expression after '{op}'", self) from None
            prec = PRECEDENCE[op]
            while ops and PRECEDENCE[ops[-1]] >= prec:
                right = out.pop()
                out.append(make(ops.pop(), out.pop(), right))
            ops.append(op)
            out.append(toks[0])
        while ops:
            right = out.pop()
            out.append(make(ops.pop(), out.pop(), right))
        return loc, [out[0]]

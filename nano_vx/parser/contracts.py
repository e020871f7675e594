"""Contracts: `requires` and `ensures` clauses in a function's header, `invariant` clauses in a
loop's, and `return` as a value inside an `ensures` (the function's result).

Each clause becomes a statement at the start of the body it guards, in the order written, so
the productions that hold a body (`Fn`, `For`, `While`, `Loop`) keep their fields in every
IL. The words are not reserved: `requires` stays a usable name, since a clause can only
start where a body's `{` was expected.
"""

from __future__ import annotations

from pyparsing import Group, ParseException, ZeroOrMore

from ..languages.lsrc import Lsrc
from . import state
from .elements import Build, _Custom
from .lexical import kw
from .refs import EXPR


class _Ensured(_Custom):
    """An `ensures` condition: inside it, and only there, `return` is a value."""

    def __init__(self, expr):
        super().__init__([expr])
        self.expr = expr
        self.set_name("an expression")

    def parseImpl(self, s, loc, do_actions=True):
        st = state.current()
        outer, st.ensures = st.ensures, True
        try:
            return self.expr._parse(s, loc, do_actions, callPreParse=False)
        finally:
            st.ensures = outer


class _ResultValue(_Custom):
    """`return` as a value. Anywhere but in an `ensures` it does not match, so the parser
    says what it said before contracts existed: an expression was expected."""

    def __init__(self):
        super().__init__([])
        self.set_name("an expression")

    def parseImpl(self, s, loc, do_actions=True):
        if not state.current().ensures:
            raise ParseException(s, loc, self.errmsg, self)
        end = loc + len("return")  # the Dispatch of primaries read the word
        return end, [Lsrc["ReturnValue"](span=state.span(loc, end))]


RESULT_VALUE = _ResultValue()


class ReturnOrResult(_Custom):
    """A statement starting with `return`: the `return` statement, except inside an
    `ensures`, where it is the result (`ensures if c { return > 0 } else { true }`)."""

    def __init__(self, statement, value):
        super().__init__([statement, value])
        self.statement, self.value = statement, value
        self.set_name("a statement")

    def parseImpl(self, s, loc, do_actions=True):
        chosen = self.value if state.current().ensures else self.statement
        return chosen._parse(s, loc, do_actions, callPreParse=False)


def _clause(word: str, prod: str, cond):
    return Build(kw(word) - cond, lambda sp, t: Lsrc[prod](t[0], span=sp),
                 f"`{word}` and a condition")


FN_CONTRACTS = Group(ZeroOrMore(_clause("requires", "Requires", EXPR)
                                | _clause("ensures", "Ensures", _Ensured(EXPR))))
INVARIANTS = Group(ZeroOrMore(_clause("invariant", "Invariant", EXPR)))


def guarded(clauses, block):
    """`block` starting with the contract clauses its header wrote."""
    if not clauses:
        return block
    return block.replace(stmts=tuple(clauses) + block.stmts)

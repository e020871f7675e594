"""Statements and blocks. A block's body is read by `BlockBody`, which recovers from a
broken statement (reports it, resumes after the next `;` or at the block's `}`) so that one
run reports every broken statement, not only the first."""

from __future__ import annotations

import re

from pyparsing import (Forward, Group, Keyword, Literal, Optional, ParseBaseException,
                       ParseException, ParseSyntaxException, Regex, ZeroOrMore)

from ..languages.lsrc import Lsrc, is_valued_if
from ..source import Span
from . import recovery, state
from .contracts import INVARIANTS, ReturnOrResult, guarded
from .declarations import MEMORY_DECL, TOPOLOGY_DECL
from .elements import Build, Dispatch, _Custom, refused, skip_ws
from .expressions import COMPTIME, MATCH, SPAWN, UNSAFE
from .limits import MAX_DEPTH, TooDeep
from .lexical import (BAR, COLON, COMMA, DOTDOT, EQUALS, IDENT, LBRACE, LPAR, RBRACE, RPAR,
                      STRING_TEXT, kw, punct)
from .refs import BLOCK, EXPR, IF_EXPR, ITEM, TYPE
from .types import TOPO

SEMI = punct(";", "';' after the statement")
_PLACES = frozenset({"Var", "Index", "Deref"})
_PARTS = frozenset({"FieldGet", "TupleGet"})


class ExprLine:
    """An expression at statement level, before its block decides what it is: a statement
    (`;`, or a block-like form), an assignment, or the block's trailing value."""

    __slots__ = ("expr", "op", "value", "semi", "blocklike", "span")

    def __init__(self, expr, op, value, semi, blocklike, span):
        self.expr, self.op, self.value = expr, op, value
        self.semi, self.blocklike, self.span = semi, blocklike, span


_ASSIGN_OP = Regex(r"(?:<<|>>|[+\-*/%&|^])?=(?!=)").set_name("an assignment")
_EXPR_LINE = Build(
    EXPR + Group(Optional(_ASSIGN_OP - EXPR)) + Optional(Literal(";")),
    lambda sp, t: ExprLine(t[0], t[1][0] if t[1] else None, t[1][1] if t[1] else None,
                           len(t) > 2, False, sp))
# `comptime { }`, `spawn on(..) { }`, `unsafe { }` and `match x { .. }` at the start of a
# statement end with their block, as in Rust: the `;` after them is optional.
_BLOCKLIKE_LINE = Build(
    (COMPTIME | SPAWN | MATCH | UNSAFE) + Optional(Literal(";")),
    lambda sp, t: ExprLine(t[0], None, None, len(t) > 1, True, sp))



def _let(sp, t):
    mutable = t[0] == "mut"
    name, typed, value = t[1:] if mutable else t
    if value:
        return Lsrc["Let"](name, mutable, typed[0] if typed else None, value[0], span=sp)
    if not typed:
        state.error("E1001", sp.start, sp.end,
                    f"`let {name};` declares '{name}' without a value, so it needs a type: "
                    f"`let {name}: T;`")
        return Lsrc["Declare"](name, mutable, Lsrc["Scalar"]("i32", span=sp), span=sp)
    return Lsrc["Declare"](name, mutable, typed[0], span=sp)


# `let x: T;` declares x and leaves its value to a later assignment.
_LET = Build(
    kw("let") - Optional(Keyword("mut")) - IDENT - Group(Optional(COLON - TYPE))
    - Group(Optional(EQUALS - EXPR)) - SEMI, _let)
# `let (a, mut b) = t;`: a binding's `mut` is read as a `let`'s is, and, as it, not enforced.
_TUPLE_BINDING = Optional(Keyword("mut")).suppress() + IDENT
_LET_TUPLE = Build(
    kw("let") + LPAR - Group(_TUPLE_BINDING + ZeroOrMore(COMMA + _TUPLE_BINDING)
                             + Optional(COMMA)) - RPAR - EQUALS - EXPR - SEMI,
    lambda sp, t: Lsrc["LetTuple"](tuple(t[0]), t[1], span=sp))
# A statement that ends with its block may have a `;` after it, as in Rust (`while c { .. };`).
_OPT_SEMI = Optional(Literal(";")).suppress()


def _inclusive(sp, t):
    state.error("E1001", sp.start, sp.end,
                "an inclusive range `a..=b` is not in the language nano-vx reads: `a..b` runs "
                "from a to b - 1",
                help=("write the end one past the last value: `a..b + 1`",))
    return t[0]


# `0..=n`, Rust's inclusive range: refused at its `=`, and read as `0..n` so the loop parses.
_INCLUSIVE = Optional(Build(Literal("="), _inclusive)).suppress()
_FOR = Build(kw("for") - IDENT - kw("in") - EXPR - DOTDOT - _INCLUSIVE - EXPR - INVARIANTS
             - BLOCK + _OPT_SEMI,
             lambda sp, t: Lsrc["For"](t[0], t[1], t[2], guarded(t[3], t[4]), span=sp))
_WHILE = Build(kw("while") - EXPR - INVARIANTS - BLOCK + _OPT_SEMI,
               lambda sp, t: Lsrc["While"](t[0], guarded(t[1], t[2]), span=sp))
_LOOP = Build(kw("loop") - INVARIANTS - BLOCK + _OPT_SEMI,
              lambda sp, t: Lsrc["Loop"](guarded(t[0], t[1]), span=sp))

_IF_HEAD = Build(kw("if") + Optional(Keyword("comptime")) - EXPR - BLOCK,
                 lambda sp, t: (sp, len(t) == 3, t[-2], t[-1]))


_ELSE = re.compile(r"else(?![A-Za-z0-9_])")
_IF_WORD = re.compile(r"if(?![A-Za-z0-9_])")


class IfChain(_Custom):
    """`if c {..} (else if c {..})* (else {..})?`, read in a loop; returns (heads, orelse).

    Each `else if` nests the tree, and its blocks, one level deeper, and so does each link of
    the chains a chain is written in: past MAX_DEPTH links on one path the chain is refused
    where the link past it starts, before anything after it is read (and BlockBody skips the
    statement whole), so a long chain costs MAX_DEPTH links, not its length."""

    def __init__(self, head, block):
        super().__init__([head, block])
        self.head, self.block = head, block
        self.set_name("an `if` statement")

    def parseImpl(self, s, loc, do_actions=True):
        st = state.current()
        outer = st.links
        try:
            loc, toks = self.head._parse(s, loc, do_actions, callPreParse=False)
            heads = [toks[0]]
            while True:
                m = _ELSE.match(s, skip_ws(s, loc))
                if m is None:
                    return loc, [(tuple(heads), None)]
                at = skip_ws(s, m.end())
                st.links = outer + len(heads)  # the links above what is read next
                if not _IF_WORD.match(s, at):
                    try:
                        loc, toks = self.block._parse(s, at, do_actions, callPreParse=False)
                    except ParseException as exc:  # `else` commits to a block
                        raise ParseSyntaxException(s, exc.loc, exc.msg, self.block) from None
                    return loc, [(tuple(heads), toks[0])]
                if st.links >= MAX_DEPTH:
                    raise TooDeep(s, at, f"`else if` links nest more than {MAX_DEPTH} deep "
                                         f"(in one chain, or in chains within chains)")
                loc, toks = self.head._parse(s, at, do_actions, callPreParse=False)
                heads.append(toks[0])
        finally:
            st.links = outer


def _if(sp, t):
    heads, orelse = t[0]
    # An `else if` chain nests from its end: each later `if` is the only statement of the
    # `else` block before it. Built in a loop, so long chains cost no recursion.
    for head_span, comptime, cond, then in reversed(heads[1:]):
        at = Span(sp.source, head_span.start, sp.end)
        node = Lsrc["If"](cond, comptime, then, orelse, span=at)
        orelse = Lsrc["Block"]((node,), None, span=at)
    _, comptime, cond, then = heads[0]
    return Lsrc["If"](cond, comptime, then, orelse, span=sp)


def as_value(stmt):
    """The `if` statement `stmt` (see is_valued_if) as an `if` expression; an `else if` link
    of its chain, a block holding just the inner `if`, becomes a block whose value it is."""
    def branch(block):
        last = block.stmts[-1] if block.stmts else None
        if block.value is None and last is not None and last._prod == "If" \
                and is_valued_if(last):
            return block.replace(stmts=block.stmts[:-1], value=as_value(last))
        return block
    return Lsrc["IfExpr"](stmt.cond, stmt.comptime, branch(stmt.then), branch(stmt.orelse),
                          span=stmt.span)


def _if_expr(sp, t):
    stmt = _if(sp, t)
    if stmt.comptime:
        state.error("E1001", sp.start, sp.end,
                    "an `if comptime` gives a value only where it ends a block (write the "
                    "`if comptime` around the `let`)")
    elif not is_valued_if(stmt):
        state.error("E1001", sp.start, sp.end,
                    "an `if` used as a value needs an `else`, and each branch must end in its "
                    "value (an expression without `;`) or leave with `return`, `break` or "
                    "`continue`")
    else:
        return as_value(stmt)
    return Lsrc["Int"](0, span=sp)


# An `if` at the start of a statement: a statement, or its block's value when the block ends
# with it, it gives a value (is_valued_if) and no `;` follows it (`if c { 1 } else { 2 };` is
# a statement whose branch values are dropped, as in Rust).
_IF = Build(IfChain(_IF_HEAD, BLOCK) + Optional(Literal(";")),
            lambda sp, t: ExprLine(_if(sp, t), None, None, len(t) > 1, True, sp))
IF_EXPR <<= Build(IfChain(_IF_HEAD, BLOCK), _if_expr)
_RETURN = Build(kw("return") - Group(Optional(EXPR)) - SEMI,
                lambda sp, t: Lsrc["Return"](t[0][0] if t[0] else None, span=sp))
# Rust's loop labels, `'outer: for ..` and `break 'outer;`: Vx has none. Each is refused
# where it is written, and the loop or the `break` read without it, so the rest still parses.
_label = refused(
    "loop labels are not in the language nano-vx reads: `{0}` names no loop, and `break` and "
    "`continue` leave the innermost one",
    help=("to leave an outer loop, set a flag the outer loop's condition reads, or put the "
          "loops in a function and `return` from it",))
_LABEL = Build(Regex(r"'[A-Za-z_][A-Za-z0-9_]*"), _label)


_break_value = refused(
    "a `break` carries no value in Vx: a `loop` is a statement, not a value",
    help=("assign the value to a variable declared before the loop, then `break;`",))
# `break v;`, Rust's loop value: refused, and read as `break;`.
_BREAK_VALUE = Build(~Literal(";") + EXPR, _break_value)
_BREAK = Build(kw("break") + Optional(_LABEL) + Optional(_BREAK_VALUE) - SEMI,
               lambda sp, t: Lsrc["Break"](span=sp))
_CONTINUE = Build(kw("continue") + Optional(_LABEL) - SEMI,
                  lambda sp, t: Lsrc["Continue"](span=sp))
_ASSERT = Build(
    kw("assert") - LPAR - EXPR - Group(Optional(COMMA - STRING_TEXT))
    - punct(")", "',' or ')'") - SEMI,
    lambda sp, t: Lsrc["Assert"](t[0], t[1][0] if t[1] else None, span=sp))


class BlockBody(_Custom):
    """The statements of a block up to (not including) its `}`; returns (stmts, value)."""

    def __init__(self, stmt):
        super().__init__([stmt])
        self.stmt = stmt
        self.set_name("a statement")

    def parseImpl(self, s, loc, do_actions=True):
        stmts: list = []
        value = None
        n = len(s)
        stmt = self.stmt
        while True:
            loc = skip_ws(s, loc)
            if loc >= n or s[loc] == "}":
                break
            if value is not None:  # a value followed by more: it needed its `;`
                recovery.missing_semi(s, value.span.end)
                stmts.append(Lsrc["ExprStmt"](value, span=value.span))
                value = None
            try:
                end, toks = stmt._parse(s, loc, do_actions, callPreParse=False)
            except ParseBaseException as exc:
                recovery.report(exc)
                skeleton = state.current().skeleton
                # A statement that nests too deeply is skipped whole: resuming inside it
                # would read its next level as a statement of its own, and so on down.
                at = loc if isinstance(exc, TooDeep) else max(exc.loc, loc)
                resume = recovery.after_statement(skeleton, loc, at)
                if resume <= loc and s[loc:loc + 1] != "}":
                    resume = recovery.after_statement(skeleton, loc, loc + 1)
                loc = resume
                continue
            node = toks[0]
            loc = end
            if not isinstance(node, ExprLine):
                stmts.append(node)
                continue
            value = _settle(node, s, end, stmts)
        return loc, [(tuple(stmts), value)]


def _is_place(expr) -> bool:
    """A field or an element (`s.a`, `p.0`, `s.pair.1`) is a place when what it is part of is
    one; a part of a value made there (`(a, b).0`, `f().x`) has no name to keep what it is
    given."""
    while expr._prod in _PARTS:
        expr = expr.base
    return expr._prod in _PLACES


def _settle(line: ExprLine, s: str, end: int, stmts: list):
    """Append what `line` is to `stmts`; return it instead when it may be the block's value."""
    expr, sp = line.expr, line.span
    if line.op is not None:
        if not line.semi:
            recovery.missing_semi(s, end)
        if not _is_place(expr):
            state.error("E1001", expr.span.start, expr.span.end,
                        "expected a place (a variable, an index, `*p`, or a field or a tuple "
                        f"element of a place) on the left of '{line.op}', found an expression")
            return None
        stmts.append(Lsrc["Assign"](expr, line.op, line.value, span=sp))
        return None
    nxt = skip_ws(s, end)
    at_end = not line.semi and s[nxt:nxt + 1] in ("}", "")
    if expr._prod == "If":
        if at_end and is_valued_if(expr):
            return as_value(expr)
        stmts.append(expr)
        return None
    if at_end:
        return expr
    if line.blocklike and expr._prod == "Comptime":
        stmts.append(Lsrc["ComptimeStmt"](expr.body, span=sp))
    elif line.semi or line.blocklike:
        stmts.append(Lsrc["ExprStmt"](expr, span=sp))
    else:
        recovery.missing_semi(s, end)
        stmts.append(Lsrc["ExprStmt"](expr, span=sp))
    return None


_STMT = Forward().set_name("a statement")
BODY = BlockBody(_STMT)
BLOCK <<= Build(LBRACE + BODY - punct("}", "'}'"),
                lambda sp, t: Lsrc["Block"](t[0][0], t[0][1], span=sp))


def _unroll(sp, t):
    topo, (var, body) = t[0], t[1]
    return Lsrc["UnrollAcross"](topo, var, body, span=sp)


_UNROLL_BODY = Build(LBRACE - BAR - IDENT - BAR - BODY - RBRACE,
                     lambda sp, t: (t[0], Lsrc["Block"](t[1][0], t[1][1], span=sp)))
_UNROLL = Build(kw("unroll") - kw("across") - LPAR - TOPO - RPAR - _UNROLL_BODY + _OPT_SEMI,
                _unroll)
_ITEM_STMT = Build(ITEM, lambda sp, t: Lsrc["ItemStmt"](t[0], span=sp))
# `{ .. }` as a statement, as in Rust: a block with its own scope (`;` after it optional).
_BLOCK_STMT = Build(BLOCK + _OPT_SEMI,
                    lambda sp, t: Lsrc["BlockStmt"](t[0], span=sp))



def _decl_or_expr(decl):
    """`Memory NAME {` declares an item; `Memory::X` starts an expression."""
    return Build(decl, lambda sp, t: Lsrc["ItemStmt"](t[0], span=sp)) | _EXPR_LINE


_LABELLED = Build(_LABEL + COLON - (_FOR | _WHILE | _LOOP), lambda sp, t: t[-1])

_STMT <<= Dispatch({
    "'": _LABELLED,
    "let": _LET_TUPLE | _LET, "for": _FOR, "while": _WHILE, "loop": _LOOP, "if": _IF,
    "return": ReturnOrResult(_RETURN, _EXPR_LINE),
    "break": _BREAK, "continue": _CONTINUE, "assert": _ASSERT, "unroll": _UNROLL,
    "comptime": _BLOCKLIKE_LINE, "spawn": _BLOCKLIKE_LINE, "match": _BLOCKLIKE_LINE,
    "{": _BLOCK_STMT, "unsafe": _ITEM_STMT | _BLOCKLIKE_LINE,
    "fn": _ITEM_STMT, "const": _ITEM_STMT, "struct": _ITEM_STMT, "enum": _ITEM_STMT,
    "impl": _ITEM_STMT, "trait": _ITEM_STMT,
    "Memory": _decl_or_expr(MEMORY_DECL), "Topology": _decl_or_expr(TOPOLOGY_DECL),
} | {c: _EXPR_LINE for c in "0123456789\"(|-!*&["}, _EXPR_LINE, "a statement")

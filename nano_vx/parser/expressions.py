"""Expressions: literals, names, operators by precedence, postfix chains, and the Vx forms
(`transfer`, `spawn`, `comptime`, `match`, closures, `grad`/`vjp`/`jvp`, `Reachable`,
placements).

Precedence, loosest first: || < && < comparisons < + - < * / % < unary - ! < `as` < postfix.
"""

from __future__ import annotations

import re

from pyparsing import (FollowedBy, Group, Literal, Optional, ParseException, ParseSyntaxException,
                       Regex, ZeroOrMore)

from ..languages.l0_source import Lsrc
from ..source import Span
from . import state
from .elements import Binary, Build, Dispatch, _Custom, skip_ws
from .lexical import (_IDENT_RE, ANY_NAME, BAR, COLON, COMMA, DOT, GT, IDENT, LBRACE, LBRACK, LPAR,
                      LT, NUMBER, OROR, PATH, RBRACK, RPAR, STRING, kw, punct)
from .refs import BLOCK, EXPR, TYPE
from .types import DIM, KEYWORD_TYPE, MEM, TENSOR_TYPE, TOPO

_CLOSE_ARGS = punct(")", "',' or ')'")
ARGS = Group(LPAR - Optional(EXPR + ZeroOrMore(COMMA + EXPR) + Optional(COMMA)) - _CLOSE_ARGS)


# -- generic arguments: `f<4>(a)`, `f<i32>(x)`, `f<Topology::GPU>(p)` -------------------------


def _garg(sp, t):
    v = t[0]
    if v._nt == "Topo":
        return Lsrc["TopoArg"](v, span=sp)
    if v._nt == "Type":
        return Lsrc["TypeArg"](v, span=sp)
    if v._prod == "DimName":  # a bare name: a type parameter (see KEYWORD_TYPE)
        return Lsrc["TypeArg"](Lsrc["NamedType"](v.name, span=sp), span=sp)
    return Lsrc["DimArg"](v, span=sp)


_GARG = Build(TOPO | KEYWORD_TYPE | DIM, _garg)
# Tried before reading `<` as less-than; FollowedBy('(') keeps `a < b > c` a comparison.
_GENERIC_ARGS = Group(LT + _GARG + ZeroOrMore(COMMA + _GARG) + Optional(COMMA) + GT
                      + FollowedBy(Literal("(")))


class GenericCallee:
    """A name with generic arguments, waiting for the call that must follow it."""

    __slots__ = ("var", "targs")

    def __init__(self, var, targs):
        self.var = var
        self.targs = targs


class NameExpr(_Custom):
    """A name, with generic arguments when `<...>(` follows it (else `<` is less-than)."""

    def __init__(self):
        super().__init__([_GENERIC_ARGS])
        self.set_name("an identifier")

    def parseImpl(self, s, loc, do_actions=True):
        m = _IDENT_RE.match(s, loc)
        if m is None:
            raise ParseException(s, loc, self.errmsg, self)
        if m.group() == "print" and s.startswith("!", m.end()) and \
                s.startswith("(", skip_ws(s, m.end() + 1)):
            # `print!(x)`, as the public Vx compiler's users write it, is `print(x)`.
            return m.end() + 1, [Lsrc["Var"]("print", span=state.span(loc, m.end() + 1))]
        var = Lsrc["Var"](m.group(), span=state.span(loc, m.end()))
        i = skip_ws(s, m.end())
        if s[i:i + 1] == "<":
            try:
                end, toks = _GENERIC_ARGS._parse(s, i, do_actions, callPreParse=False)
            except ParseException:
                return m.end(), [var]
            return end, [GenericCallee(var, tuple(toks[0]))]
        return m.end(), [var]


_NAME_EXPR = NameExpr()

# -- primaries ----------------------------------------------------------------------------


def _closure(sp, t):
    params = tuple(t[0])
    body = t[1]
    if body._nt != "Block":
        body = Lsrc["Block"]((), body, span=body.span)
    return Lsrc["Closure"](params, body, span=sp)


_CLOSURE_PARAM = Build(IDENT + Optional(COLON - TYPE),
                       lambda sp, t: Lsrc["Param"](t[0], t[1] if len(t) > 1 else None, span=sp))
_CLOSURE_PARAMS = Group(
    OROR | (BAR + Optional(_CLOSURE_PARAM + ZeroOrMore(COMMA + _CLOSURE_PARAM)
                           + Optional(COMMA)) - punct("|", "',' or '|'")))
CLOSURE = Build(_CLOSURE_PARAMS - (BLOCK | EXPR), _closure, "a closure")

SPAWN = Build(kw("spawn") - kw("on") - LPAR - TOPO - RPAR - BLOCK,
              lambda sp, t: Lsrc["Spawn"](t[0], t[1], span=sp), "spawn")
COMPTIME = Build(kw("comptime") - BLOCK, lambda sp, t: Lsrc["Comptime"](t[0], span=sp), "comptime")

# `match h { Available(p) => { .. }, Saturated(v) => { .. } }`: the arms of a match on the
# result of `try_pin`, in either order, a comma between them optional (as after a block in
# Rust); `HardwareState::Available` is the same pattern spelled with its type.
_VARIANT = Regex(r"(?:HardwareState\s*::\s*)?(?:Available|Saturated)(?![A-Za-z0-9_])").set_name(
    "`Available(..)` or `Saturated(..)`")
_BINDING = Build(IDENT, lambda sp, t: Lsrc["Param"](t[0], None, span=sp))
_ARM = Build(_VARIANT - LPAR - _BINDING - RPAR - punct("=>", "'=>'") - BLOCK,
             lambda sp, t: Lsrc["Arm"](t[0].rsplit(":", 1)[-1].strip(), t[1], t[2], span=sp))
_ARMS = Group(Optional(_ARM + ZeroOrMore(Optional(COMMA) + _ARM) + Optional(COMMA)))


def _match(sp, t):
    scrutinee, arms = t[0], tuple(t[1])
    first = {}
    for arm in arms:  # a second arm for one variant could never run
        seen = first.setdefault(arm.variant, arm)
        if seen is not arm:
            line, col = sp.source.line_col(seen.span.start)
            state.error("E1001", arm.span.start, arm.span.end,
                        f"this `match` already has an arm for `{arm.variant}(..)`, at "
                        f"{line}:{col}; each variant takes one arm")
    return Lsrc["Match"](scrutinee, arms, span=sp)


MATCH = Build(kw("match") - EXPR - LBRACE - _ARMS
              - punct("}", "`Available(..) => { .. }`, `Saturated(..) => { .. }` or '}'"),
              _match, "match")
_TRANSFER = Build(kw("transfer") - LPAR - EXPR - COMMA - MEM - RPAR,
                  lambda sp, t: Lsrc["Transfer"](t[0], t[1], span=sp))
_GRAD = Build(kw("grad") - LPAR - IDENT - COMMA - EXPR - RPAR,
              lambda sp, t: Lsrc["Grad"](t[0], t[1], span=sp))
_VJP = Build(kw("vjp") - LPAR - IDENT - COMMA - EXPR - COMMA - EXPR - RPAR,
             lambda sp, t: Lsrc["Vjp"](t[0], t[1], t[2], span=sp))
_JVP = Build(kw("jvp") - LPAR - IDENT - COMMA - EXPR - COMMA - EXPR - RPAR,
             lambda sp, t: Lsrc["Jvp"](t[0], t[1], t[2], span=sp))
_REACHABLE = Build(kw("Reachable") - LT - TOPO - COMMA - TOPO - GT,
                   lambda sp, t: Lsrc["ReachableQ"](t[0], t[1], span=sp))
_SOME = Build(kw("Some") - LPAR - TOPO - RPAR, lambda sp, t: Lsrc["SomeTopo"](t[0], span=sp))
_NONE = Build(kw("None"), lambda sp, t: Lsrc["NoneTopo"](span=sp))
_TRUE = Build(kw("true"), lambda sp, t: Lsrc["Bool"](True, span=sp))
_FALSE = Build(kw("false"), lambda sp, t: Lsrc["Bool"](False, span=sp))
_TENSOR_NEW = Build(TENSOR_TYPE - PATH - ANY_NAME - ARGS,
                    lambda sp, t: Lsrc["TensorNew"](t[0], t[1], tuple(t[2]), span=sp))
_PAREN = LPAR - EXPR - RPAR

_PRIMARY_TABLE = {
    "true": _TRUE, "false": _FALSE, "transfer": _TRANSFER, "spawn": SPAWN, "match": MATCH,
    "comptime": COMPTIME, "grad": _GRAD, "vjp": _VJP, "jvp": _JVP, "Reachable": _REACHABLE,
    "Some": _SOME, "None": _NONE, "Memory": MEM, "Topology": TOPO, "Tensor": _TENSOR_NEW,
    "(": _PAREN, '"': STRING, "|": CLOSURE,
} | {d: NUMBER for d in "0123456789"}
PRIMARY = Dispatch(_PRIMARY_TABLE, _NAME_EXPR, "an expression")

# -- unary, cast and postfix, in one loop --------------------------------------------------

_CALL = Build(ARGS, lambda sp, t: tuple(t[0]))
_INDEX = LBRACK - EXPR - RBRACK
_MEMBER = DOT - ANY_NAME + Optional(ARGS)
_AS = re.compile(r"as(?![A-Za-z0-9_])")


class Operand(_Custom):
    """`(- | !)* primary (call | index | .field | .method(args))* (as type)*`, where the
    prefixes bind tighter than `as` (Rust: `-1 as u32` is `(-1) as u32`).

    One element peeking at the next character instead of one element per level trying
    and failing: the expression grammar's hot path. Prefix chains fold in a loop, so a long
    `- - - x` costs no recursion."""

    def __init__(self, primary):
        super().__init__([primary, _CALL, _INDEX, _MEMBER, TYPE])
        self.primary = primary
        self.set_name("an expression")

    def parseImpl(self, s, loc, do_actions=True):
        prefixes = []
        while s[loc:loc + 1] in ("-", "!"):
            prefixes.append((s[loc], loc))
            loc = skip_ws(s, loc + 1)
        loc, toks = self.primary._parse(s, loc, do_actions, callPreParse=False)
        node = toks[0]
        source = state.current().source
        while True:
            i = skip_ws(s, loc)
            c = s[i:i + 1]
            if c == "(":
                loc, toks = _CALL._parse(s, i, do_actions, callPreParse=False)
                if isinstance(node, GenericCallee):
                    at = Span(source, node.var.span.start, loc)
                    node = Lsrc["Call"](node.var, node.targs, toks[0], span=at)
                else:
                    node = Lsrc["Call"](node, (), toks[0], span=Span(source, node.span.start, loc))
            elif c == "[":
                loc, toks = _INDEX._parse(s, i, do_actions, callPreParse=False)
                node = Lsrc["Index"](node, toks[0], span=Span(source, node.span.start, loc))
            elif c == "." and s[i + 1:i + 2] != ".":
                loc, toks = _MEMBER._parse(s, i, do_actions, callPreParse=False)
                at = Span(source, node.span.start, loc)
                node = (Lsrc["MethodCall"](node, toks[0], tuple(toks[1]), span=at)
                        if len(toks) > 1 else Lsrc["FieldGet"](node, toks[0], span=at))
            else:
                break
        for op, at in reversed(prefixes):
            node = Lsrc["Unary"](op, node, span=Span(source, at, node.span.end))
        while _AS.match(s, i):
            try:
                loc, toks = TYPE._parse(s, i + 2, do_actions)
            except ParseException as exc:
                raise ParseSyntaxException(s, exc.loc, "Expected a type after 'as'",
                                           self) from None
            node = Lsrc["Cast"](node, toks[0], span=Span(source, node.span.start, loc))
            i = skip_ws(s, loc)
        return loc, [node]


def _binary(op, left, right):
    return Lsrc["Binary"](op, left, right, span=left.span.to(right.span))


EXPR <<= Binary(Operand(PRIMARY), _binary, "an expression")

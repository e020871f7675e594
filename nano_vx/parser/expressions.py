"""Expressions: literals, names, operators by precedence, postfix chains, and the Vx forms
(`transfer`, `spawn`, `comptime`, `match`, closures, `grad`/`vjp`/`jvp`, `Reachable`,
placements).

Precedence, loosest first: || < && < comparisons < + - < * / % < unary - ! * & < `as` <
postfix.
"""

from __future__ import annotations

import re

from pyparsing import (FollowedBy, Forward, Group, Keyword, Literal, Optional, ParseException,
                       ParseSyntaxException, Regex, Suppress, ZeroOrMore)

from ..languages.lsrc import Lsrc
from ..source import Span
from . import state
from .contracts import RESULT_VALUE
from .elements import Binary, Build, Dispatch, _Custom, refused, skip_ws
from .lexical import (_IDENT_RE, ANY_NAME, BAR, COLON, COMMA, DOT, GT, IDENT, LBRACE, LBRACK, LPAR,
                      LT, NUMBER, OROR, PATH, RBRACK, RPAR, STRING, kw, punct)
from .refs import BLOCK, EXPR, IF_EXPR, TYPE
from .types import DIM, GARGS, MEM, PLACE, TENSOR_HEAD, TOPO, VECTOR_TYPE

_CLOSE_ARGS = punct(")", "',' or ')'")
ARGS = Group(LPAR - Optional(EXPR + ZeroOrMore(COMMA + EXPR) + Optional(COMMA)) - _CLOSE_ARGS)


# -- generic arguments: `f<4>(a)`, `f<i32>(x)`, `f<Topology::GPU>(p)` -------------------------


# Tried before reading `<` as less-than; FollowedBy('(') keeps `a < b > c` a comparison.
_GENERIC_ARGS = GARGS + FollowedBy(Literal("("))


class GenericCallee:
    """A name with generic arguments, waiting for the call that must follow it."""

    __slots__ = ("var", "targs")

    def __init__(self, var, targs):
        self.var = var
        self.targs = targs


_FIELD_INIT = Build(IDENT + COLON - EXPR, lambda sp, t: Lsrc["FieldInit"](t[0], t[1], span=sp))
_STRUCT_BODY = Group(LBRACE - _FIELD_INIT + ZeroOrMore(COMMA + _FIELD_INIT) + Optional(COMMA)
                     - punct("}", "',' or '}'"))
_TURBOFISH = PATH + GARGS
_TYPE_PATH = PATH + IDENT + FollowedBy(Literal("(") | Literal("<"))
# `S { a: ..`: a struct literal; a block never starts with `name:`, so `if c { .. }` and
# `while c { .. }` keep their blocks.
_NAME_RE = re.compile(ANY_NAME.re.pattern)
_STRUCT_START = re.compile(r"\{\s*[A-Za-z_][A-Za-z0-9_]*\s*:(?!:)")


def _calls_with_generics(s, j) -> bool:
    """Whether `<` at j opens generic arguments and a call (`S::f<4>(x)`), not less-than."""
    try:
        _GENERIC_ARGS.try_parse(s, j)
    except ParseException:
        return False
    return True


_RUST_PRINTS = frozenset({"println", "eprintln", "eprint"})


class NameExpr(_Custom):
    """A name, with generic arguments when `<...>(` follows it (else `<` is less-than), or
    a struct literal `S { a: 1 }`, `S::<f32> { a: 1.0 }`; Rust's turbofish writes the generic
    arguments of a call the same way, `f::<4>(x)`, `Pair::<i32>::new(1, 2)`."""

    def __init__(self):
        super().__init__([GARGS, _TYPE_PATH, _STRUCT_BODY, _TURBOFISH])
        self.set_name("an identifier")

    def parseImpl(self, s, loc, do_actions=True):
        m = _IDENT_RE.match(s, loc)
        if m is None:
            raise ParseException(s, loc, self.errmsg, self)
        if m.group() == "print" and s.startswith("!", m.end()) and \
                s.startswith("(", skip_ws(s, m.end() + 1)):
            # `print!(x)`, as the public Vx compiler's users write it, is `print(x)`.
            return m.end() + 1, [Lsrc["Var"]("print", span=state.span(loc, m.end() + 1))]
        if m.group() in _RUST_PRINTS and s.startswith("!", m.end()):
            # Rust's printing macros take a format string; Vx's `print` one value.
            state.error("E1001", loc, m.end() + 1,
                        f"`{m.group()}!` is Rust's macro, not Vx's: `print(x)` prints one "
                        f"value and a newline, with no format string",
                        help=("write `print(x);` for each value: `println!(\"{}\", x)` is "
                              "`print(x);`",))
            return m.end() + 1, [Lsrc["Var"]("print", span=state.span(loc, m.end() + 1))]
        var = Lsrc["Var"](m.group(), span=state.span(loc, m.end()))
        i = skip_ws(s, m.end())
        if s.startswith("::", i) and s.startswith("<", skip_ws(s, i + 2)):
            end, toks = _TURBOFISH._parse(s, i, do_actions, callPreParse=False)
            found = self.after_arguments(s, loc, var, tuple(toks[-1]), end, do_actions)
            if found is None:
                raise ParseSyntaxException(s, skip_ws(s, end), "Expected '(' (a call) or '{' "
                                           "(a struct literal) after generic arguments", self)
            return found
        if _STRUCT_START.match(s, i):
            return self.struct_literal(s, loc, m.group(), (), i, do_actions)
        if s.startswith("::", i) and _NAME_RE.match(s, skip_ws(s, i + 2)):
            # `Shape::Dot`; `Shape::Circle(1.5)` and `Pair::new(a)` are both a PathCall, told
            # apart once the program's enums and impl blocks are known. A word after `::` is
            # any word: a variant may be named `Some` or `None`.
            v = _NAME_RE.match(s, skip_ws(s, i + 2))
            j = skip_ws(s, v.end())
            if s[j:j + 1] == "(" or s[j:j + 1] == "<" and _calls_with_generics(s, j):
                return self.path_call(s, loc, m.group(), (), v.group(), j, do_actions)
            return v.end(), [Lsrc["EnumValue"](m.group(), v.group(),
                                               span=state.span(loc, v.end()))]
        if s[i:i + 1] == "<":
            return self.applied(s, loc, var, i, do_actions)
        return m.end(), [var]

    def applied(self, s, loc, var, i, do_actions):
        """A name and `<`: generic arguments and what follows them (a call `f<4>(x)`, a struct
        literal `Array<f32, N> { .. }`, a call through a generic type `Vec<i32>::new(..)`),
        else `<` is less-than."""
        try:
            end, toks = GARGS._parse(s, i, do_actions, callPreParse=False)
        except ParseException:
            return var.span.end, [var]
        found = self.after_arguments(s, loc, var, tuple(toks[0]), end, do_actions)
        return (var.span.end, [var]) if found is None else found

    def after_arguments(self, s, loc, var, targs, end, do_actions):
        """What follows a name's generic arguments, ending at `end`: a call, a struct
        literal or a call through the type; None when none does."""
        j = skip_ws(s, end)
        if s[j:j + 1] == "(":
            return end, [GenericCallee(var, targs)]
        if _STRUCT_START.match(s, j):
            return self.struct_literal(s, loc, var.name, targs, j, do_actions)
        try:
            end, toks = _TYPE_PATH._parse(s, j, do_actions, callPreParse=False)
        except ParseException:
            return None
        return self.path_call(s, loc, var.name, targs, toks[0], skip_ws(s, end), do_actions)

    def struct_literal(self, s, loc, name, targs, i, do_actions):
        end, toks = _STRUCT_BODY._parse(s, i, do_actions, callPreParse=False)
        return end, [Lsrc["StructLit"](name, targs, tuple(toks[0]), span=state.span(loc, end))]

    def path_call(self, s, loc, type_name, targs, fn, j, do_actions):
        """The rest of `A::f`: the function's generic arguments, if any, and the call."""
        fargs = ()
        if s[j:j + 1] == "<":
            j, toks = _GENERIC_ARGS._parse(s, j, do_actions, callPreParse=False)
            fargs, j = tuple(toks[0]), skip_ws(s, j)
        end, toks = ARGS._parse(s, j, do_actions, callPreParse=False)
        return end, [Lsrc["PathCall"](type_name, targs, fn, fargs, tuple(toks[0]),
                                      span=state.span(loc, end))]


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
UNSAFE = Build(kw("unsafe") - BLOCK, lambda sp, t: Lsrc["Unsafe"](t[0], span=sp), "unsafe")

# -- match -------------------------------------------------------------------------------
# `match x { 0 => a, 1 | 2 => b, n => c }`, `match s { Shape::Circle(r) => .., _ => .. }`: a
# match on a value. `match h { Available(p) => { .. }, Saturated(v) => { .. } }` is a match on
# the result of `try_pin` (`HardwareState::Available` is the same pattern with its type): a
# form of its own, whose arms hold the pin while they run.

_PATTERN = Forward().set_name("a pattern")
_HW = re.compile(r"(?:HardwareState\s*::\s*)?(Available|Saturated)(?![A-Za-z0-9_])")
_P_WILD = Build(Regex(r"_(?![A-Za-z0-9_])"), lambda sp, t: Lsrc["PWild"](span=sp))
_P_BOOL = Build(Regex(r"(?:true|false)(?![A-Za-z0-9_])"),
                lambda sp, t: Lsrc["PLit"](Lsrc["Bool"](t[0] == "true", span=sp), span=sp))
_P_INT = Build(Optional(Literal("-")) + NUMBER,
               lambda sp, t: Lsrc["PLit"](Lsrc["Unary"]("-", t[1], span=sp) if len(t) == 2
                                          else t[0], span=sp))
_P_ARGS = Group(Optional(LPAR - Optional(_PATTERN + ZeroOrMore(COMMA + _PATTERN)
                                         + Optional(COMMA)) - punct(")", "',' or ')'")))
_P_HW = Build(Regex(_HW.pattern) + _P_ARGS,
              lambda sp, t: Lsrc["PVariant"]("HardwareState", _HW.match(t[0]).group(1),
                                             tuple(t[1]), span=sp))
_P_PATH = Build(IDENT + PATH - ANY_NAME + _P_ARGS,
                lambda sp, t: Lsrc["PVariant"](t[0], t[1], tuple(t[2]), span=sp))
_P_BIND = Build(IDENT, lambda sp, t: Lsrc["PBind"](t[0], span=sp))


def _tuple_pattern(sp, t):
    state.error("E1001", sp.start, sp.end,
                "a tuple pattern is not in the language nano-vx reads: a pattern is `_`, a "
                "literal, a name, a variant with patterns for what it carries, or `a | b`",
                help=("match on one element and then on the next inside its cases, or bind "
                      "the tuple to a name and test its elements (`p.0`, `p.1`)",))
    return Lsrc["PWild"](span=sp)


# Rust's `(0, _) =>`: refused, and read as `_` so the rest of the `match` still parses.
_P_TUPLE = Build(LPAR - Optional(_PATTERN + ZeroOrMore(COMMA + _PATTERN) + Optional(COMMA))
                 - punct(")", "',' or ')'"), _tuple_pattern)
_P_ATOM = (_P_WILD | _P_BOOL | _P_INT | _P_HW | _P_PATH | _P_BIND | _P_TUPLE).set_name(
    "a pattern")
_PATTERN <<= Build(_P_ATOM + ZeroOrMore(BAR + _P_ATOM),
                   lambda sp, t: t[0] if len(t) == 1 else Lsrc["POr"](tuple(t), span=sp))


def _case_body(sp, t):
    body = t[0]
    return body if body._nt == "Block" else Lsrc["Block"]((), body, span=body.span)


_guard = refused(
    "a case of a `match` takes no guard (`if ..` after its pattern) in Vx",
    help=("test the condition inside the case, `n => if c { .. } else { .. }`, or match on "
          "the condition itself",))


def _assigned(sp, t):
    if len(t) > 1:
        text = sp.source.text[sp.start:sp.end]
        state.error("E1001", sp.start, sp.end,
                    "an assignment is a statement in Vx, not a value a case can give",
                    help=(f"make the case a block: `=> {{ {text}; }}`",))
    return t[0]


# Rust's guard, `n if n < 0 =>`, and its assignment as a case's value, `0 => s.0 += 1,`:
# refused where written, and read without them, so the rest of the `match` still parses.
_GUARD = Suppress(Build(kw("if") - EXPR, _guard))
_CASE_VALUE = Build(EXPR + Optional(Regex(r"(?:<<|>>|[+\-*/%&|^])?=(?![=>])") - EXPR),
                    _assigned)
_CASE = Build(_PATTERN + Optional(_GUARD) - punct("=>", "'=>'")
              - Build(BLOCK | _CASE_VALUE, _case_body),
              lambda sp, t: Lsrc["Case"](t[0], t[1], span=sp))
_CASES = Group(Optional(_CASE + ZeroOrMore(Optional(COMMA) + _CASE) + Optional(COMMA)))


def _pin_arm(case):
    """The arm of a match on a hardware state that `case` is, or None."""
    p = case.pattern
    if p._prod != "PVariant" or p.enum != "HardwareState" or len(p.args) != 1 \
            or p.args[0]._prod != "PBind":
        return None
    binding = Lsrc["Param"](p.args[0].name, None, span=p.args[0].span)
    return Lsrc["Arm"](p.variant, binding, case.body, span=case.span)


def _match(sp, t):
    scrutinee, cases = t[0], tuple(t[1])
    hardware = [c for c in cases if c.pattern._prod == "PVariant"
                and c.pattern.enum == "HardwareState"]
    pinning = scrutinee._prod == "MethodCall" and scrutinee.method == "try_pin"
    if not hardware and not pinning:
        return Lsrc["MatchValue"](scrutinee, cases, span=sp)
    arms = [_pin_arm(c) for c in cases]
    if None in arms:
        bad = cases[arms.index(None)]
        state.error("E1001", bad.span.start, bad.span.end,
                    "a `match` on the result of `try_pin` has the arms `Available(p) => { .. }` "
                    "and `Saturated(v) => { .. }`, each binding a name")
        return Lsrc["Match"](scrutinee, tuple(a for a in arms if a is not None), span=sp)
    first = {}
    for arm in arms:  # a second arm for one variant could never run
        seen = first.setdefault(arm.variant, arm)
        if seen is not arm:
            line, col = sp.source.line_col(seen.span.start)
            state.error("E1001", arm.span.start, arm.span.end,
                        f"this `match` already has an arm for `{arm.variant}(..)`, at "
                        f"{line}:{col}; each variant takes one arm")
    return Lsrc["Match"](scrutinee, tuple(arms), span=sp)


MATCH = Build(kw("match") - EXPR - LBRACE - _CASES - punct("}", "a pattern or '}'"),
              _match, "match")
_TRANSFER = Build(kw("transfer") - LPAR - EXPR - COMMA - MEM - RPAR,
                  lambda sp, t: Lsrc["Transfer"](t[0], t[1], span=sp))
_GRAD = Build(kw("grad") - LPAR - IDENT - COMMA - EXPR - RPAR,
              lambda sp, t: Lsrc["Grad"](t[0], t[1], span=sp))
_VJP = Build(kw("vjp") - LPAR - IDENT - COMMA - EXPR - COMMA - EXPR - RPAR,
             lambda sp, t: Lsrc["Vjp"](t[0], t[1], t[2], span=sp))
_JVP = Build(kw("jvp") - LPAR - IDENT - COMMA - EXPR - COMMA - EXPR - RPAR,
             lambda sp, t: Lsrc["Jvp"](t[0], t[1], t[2], span=sp))
_REACHABLE = Build(kw("Reachable") - LT - PLACE - COMMA - PLACE - GT,
                   lambda sp, t: Lsrc["ReachableQ"](t[0], t[1], span=sp))
# `Transfer<A, B>`, the older spelling, is a question only once a place follows `<`: else
# `Transfer` is a name like any other.
_TRANSFER_Q = Build(kw("Transfer") + LT + PLACE - COMMA - PLACE - GT,
                    lambda sp, t: Lsrc["ReachableQ"](t[0], t[1], span=sp)) | _NAME_EXPR
_SOME = Build(kw("Some") - LPAR - TOPO - RPAR, lambda sp, t: Lsrc["SomeTopo"](t[0], span=sp))
_NONE = Build(kw("None"), lambda sp, t: Lsrc["NoneTopo"](span=sp))
_TRUE = Build(kw("true"), lambda sp, t: Lsrc["Bool"](True, span=sp))
_FALSE = Build(kw("false"), lambda sp, t: Lsrc["Bool"](False, span=sp))


_ARRAY = Build(LBRACK - Group(Optional(EXPR + ZeroOrMore(COMMA + EXPR) + Optional(COMMA)))
               - punct("]", "',' or ']'"), lambda sp, t: Lsrc["ArrayLit"](tuple(t[0]), span=sp),
               "an array literal")
# A tensor constructor's argument: a list whose elements may be lists (a tensor's rows).
_NESTED = Forward().set_name("a list")
_NESTED_ELEM = Dispatch({"[": _NESTED}, None, "a list") | EXPR
_NESTED <<= Build(LBRACK - Group(Optional(_NESTED_ELEM + ZeroOrMore(COMMA + _NESTED_ELEM)
                                          + Optional(COMMA))) - punct("]", "',' or ']'"),
                  lambda sp, t: Lsrc["ArrayLit"](tuple(t[0]), span=sp))
_TENSOR_ARGS = Group(LPAR - Optional(_NESTED | EXPR) - punct(")", "')'"))


def _tensor_call(sp, t):
    """`Tensor<T>(..)`, `Tensor<T, [..]>(..)` as written: desugar-tensor-constructors reads
    what it makes."""
    (_, elem, dims, place), args = t[0], tuple(t[1])
    return Lsrc["TensorCall"](elem, dims or (), dims is not None, place, args, span=sp)


def _tensor_ctor(sp, t):
    (head, elem, dims, place), ctor, args = t[0], t[1], tuple(t[2])
    if dims is None:
        state.error("E1001", sp.start, sp.end,
                    f"`Tensor<T>::{ctor}(..)` needs the tensor's extents: `Tensor<T, [4]>`, or "
                    f"`[?]` with the extents given first, `::{ctor}([n])`")
        dims = ()
    if any(d._prod == "DimAny" for d in dims) and not (
            args and args[0]._prod == "ArrayLit" and len(args[0].elems) == len(dims)):
        state.error("E1001", sp.start, sp.end,
                    f"a tensor with `?` extents takes all {len(dims)} of its extents first, as "
                    f"a list: `::{ctor}([{', '.join('n' for _ in dims)}]{', ..' if args else ''})`")
    return Lsrc["TensorNew"](Lsrc["TensorType"](elem, dims, place, span=head), ctor, args,
                             span=sp)


_TENSOR_NEW = (Build(TENSOR_HEAD + PATH - ANY_NAME - ARGS, _tensor_ctor)
               | Build(TENSOR_HEAD + _TENSOR_ARGS, _tensor_call)).set_name("a tensor constructor")


def _paren(sp, t):
    elems = tuple(t[0])
    if len(elems) == 1 and not t[1]:
        return elems[0]
    if not 2 <= len(elems) <= 6:
        state.error("E1001", sp.start, sp.end,
                    f"a tuple has 2 to 6 elements, this one {len(elems)}")
    return Lsrc["Tuple"](elems, span=sp)


# `(e)` is e; `(a, b)` a tuple (a trailing comma allowed, and making `(a,)` one).
_PAREN = Build(LPAR - Group(EXPR + ZeroOrMore(COMMA + EXPR))
               + Group(Optional(COMMA)) - punct(")", "',' or ')'"), _paren)

# `vec<4 x f32>(a, b, c, d)` and `splat(v)`; `vec` and `splat` are names otherwise (a local
# `vec`, `vec < n`).
_VEC = Build(kw("vec") + FollowedBy(Literal("<") + DIM + Keyword("x")) + VECTOR_TYPE + ARGS,
             lambda sp, t: Lsrc["VecLit"](t[0], tuple(t[1]), span=sp), "a vector")
# `splat::<4 x f32>(v)` writes the vector type a splat otherwise takes from its place.
_SPLAT = Build(kw("splat") + Group(Optional(PATH + FollowedBy(Literal("<")) - VECTOR_TYPE))
               + FollowedBy(Literal("(")) + LPAR - EXPR - punct(")", "')': splat takes one "
                                                                       "value"),
               lambda sp, t: Lsrc["Splat"](t[1], t[0][0] if len(t[0]) else None, span=sp),
               "a splat")



def _loop_value(sp, t):
    """`let x = loop { .. break v; }`: Rust's loop as a value, which Vx's `loop` is not."""
    state.error("E1001", sp.start, sp.start + len("loop"),
                "a `loop` is a statement in Vx, not a value: its `break` carries none",
                help=("declare the variable first and assign it before `break`: `let mut x = "
                      "0; loop { ..; x = v; break; }`",))
    return Lsrc["Int"](0, span=sp)


_LOOP_VALUE = Build(kw("loop") + BLOCK, _loop_value)

_PRIMARY_TABLE = {
    "loop": _LOOP_VALUE,
    "vec": _VEC | _NAME_EXPR, "splat": _SPLAT | _NAME_EXPR,
    "true": _TRUE, "false": _FALSE, "transfer": _TRANSFER, "spawn": SPAWN, "match": MATCH,
    "comptime": COMPTIME, "unsafe": UNSAFE, "grad": _GRAD, "vjp": _VJP, "jvp": _JVP, "Reachable": _REACHABLE,
    "Transfer": _TRANSFER_Q,
    "Some": _SOME, "None": _NONE, "Memory": MEM, "Topology": TOPO, "Tensor": _TENSOR_NEW,
    "(": _PAREN, '"': STRING, "|": CLOSURE, "if": IF_EXPR, "[": _ARRAY, "return": RESULT_VALUE,
} | {d: NUMBER for d in "0123456789"}
PRIMARY = Dispatch(_PRIMARY_TABLE, _NAME_EXPR, "an expression")

# -- unary, cast and postfix, in one loop --------------------------------------------------

_CALL = Build(ARGS, lambda sp, t: tuple(t[0]))
_INDEX = LBRACK - EXPR - RBRACK
_MEMBER = DOT - (ANY_NAME | Regex(r"[0-9]+(?![0-9A-Za-z_])").set_name("a field or an index")) \
    + Optional(ARGS)
_AS = re.compile(r"as(?![A-Za-z0-9_])")
# `t.as_ptr()`, `t.as_mut_ptr()`: a raw pointer into the tensor, not a method call.
_POINTERS = ("as_ptr", "as_mut_ptr")
# In a prefix position `*` dereferences and `&` borrows; after an operand the Binary loop
# reads them as multiplication, bitwise and, and (`&&`) logical and.
_PREFIXES = ("-", "!", "*", "&")
_MUT = re.compile(r"mut(?![A-Za-z0-9_])")


class Operand(_Custom):
    """`(- | ! | * | & | &mut)* primary (call | index | .field | .method(args))* (as type)*`,
    where the prefixes bind tighter than `as` (Rust: `-1 as u32` is `(-1) as u32`) and looser
    than the postfix forms (`&t[0]` borrows the element, `*p[0]` dereferences it).

    One element peeking at the next character instead of one element per level trying
    and failing: the expression grammar's hot path. Prefix chains fold in a loop, so a long
    `- - - x` costs no recursion."""

    def __init__(self, primary):
        super().__init__([primary, _CALL, _INDEX, _MEMBER, TYPE])
        self.primary = primary
        self.set_name("an expression")

    def parseImpl(self, s, loc, do_actions=True):
        prefixes = []
        while s[loc:loc + 1] in _PREFIXES:
            op, at = s[loc], loc
            loc = skip_ws(s, loc + 1)
            if op == "&":  # `&mut x`; `&&x` in a prefix position is `&(&x)`, as in Rust
                m = _MUT.match(s, loc)
                if m is not None:
                    op, loc = "&mut", skip_ws(s, m.end())
            prefixes.append((op, at))
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
                end = loc
                while len(toks) == 1 and s[end - 1].isspace():  # looking for `(` went past
                    end -= 1
                at = Span(source, node.span.start, end)
                if toks[0][0].isdigit():  # `t.0`; `t.0(a)` calls the part, no method `0`
                    part_end = skip_ws(s, i + 1) + len(toks[0])
                    part = Lsrc["TupleGet"](node, int(toks[0]),
                                            span=Span(source, node.span.start, part_end))
                    node = part if len(toks) == 1 else \
                        Lsrc["Call"](part, (), tuple(toks[1]), span=at)
                elif len(toks) > 1 and toks[0] in _POINTERS and not toks[1]:
                    node = Lsrc["AsPtr"](node, toks[0] == "as_mut_ptr", span=at)
                else:
                    node = (Lsrc["MethodCall"](node, toks[0], tuple(toks[1]), span=at)
                            if len(toks) > 1 else Lsrc["FieldGet"](node, toks[0], span=at))
            else:
                break
        for op, at in reversed(prefixes):
            at = Span(source, at, node.span.end)
            if op == "*":
                node = Lsrc["Deref"](node, span=at)
            elif op[0] == "&":
                node = Lsrc["Borrow"](node, op == "&mut", span=at)
            else:
                node = Lsrc["Unary"](op, node, span=at)
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

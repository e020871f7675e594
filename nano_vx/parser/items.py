"""Items: functions, `const` items, structs, enums, impl blocks, and the declarations (from `declarations`)."""

from __future__ import annotations

from pyparsing import FollowedBy, Group, Keyword, Literal, Optional, ZeroOrMore

from ..languages.lsrc import Lsrc, contract_clauses
from .contracts import FN_CONTRACTS, guarded
from .declarations import MEMORY_DECL, TOPOLOGY_DECL
from . import state
from .elements import Build, Dispatch
from .lexical import (ANY_NAME, ARROW, COLON, COMMA, EQUALS, GT, IDENT, LBRACE, LPAR, LT, PATH, RPAR,
                      kw, punct)
from .refs import BLOCK, EXPR, ITEM, TYPE

from .types import LIFETIME, TOPO



def _receiver(sp, t):
    """`self`, `&self`, `&mut self`: a Rust method's receiver, which Vx has no methods to take;
    refused, and read as a parameter without a type so the rest of the item still parses."""
    taken = "".join(w + " " if w == "mut" else w for w in t[:-1])
    state.error("E1001", sp.start, sp.end,
                f"`{taken}self` is a method's receiver: Vx has no methods but its built-in "
                f"ones, and a function of an impl block takes its value as a named parameter",
                help=(f"name the parameter and write its type, `v: {taken}Self`, and call the "
                      f"function through its type: `T::f({taken}x, ..)`",))
    return Lsrc["Param"]("self", None, span=sp)


PARAM = (Build(Optional(Literal("&") + Optional(Keyword("mut"))) + Keyword("self") + ~COLON,
               _receiver)
         | Build(IDENT - COLON - TYPE, lambda sp, t: Lsrc["Param"](t[0], t[1], span=sp))
         ).set_name("a parameter")
_PARAMS = Group(Optional(PARAM + ZeroOrMore(COMMA + PARAM) + Optional(COMMA)))

_CONST_PARAM = Build(kw("const") - IDENT - COLON - TYPE,
                     lambda sp, t: Lsrc["ConstParam"](t[0], t[1], span=sp))
# `T: Area`, a trait bound, is not Vx: `T::area(x)` in a generic function resolves per instance.
_TYPE_PARAM = Build(IDENT + Optional(COLON - Keyword("Topology").set_name(
    "'Topology' (the one bound a generic parameter takes; write `<T>` without a trait bound: "
    "`T::m(x)` resolves for each instance)")),
                    lambda sp, t: Lsrc["TypeParam"](t[0], len(t) > 1, span=sp))
_GPARAM = (_CONST_PARAM | _TYPE_PARAM).set_name("a generic parameter")
# A lifetime among them, `<'a, T>`, is refused (types.LIFETIME) and read as absent; so is
# a list of lifetimes alone, `<'a>`.
_GPARAMS = (LIFETIME | _GPARAM) + ZeroOrMore(COMMA + (LIFETIME | _GPARAM)) + Optional(COMMA)
_GENERICS = Group(Optional(LT - _GPARAMS - punct(">", "',' or '>'")))

# `Transfer<A, B>` is the older spelling of the bound, still in users' programs.
_BOUND = Build((kw("Reachable") | kw("Transfer")) - LT - IDENT - COMMA - IDENT - GT,
               lambda sp, t: Lsrc["ReachableBound"](t[0], t[1], span=sp), "a bound")
_WHERE = Group(Optional(kw("where") - _BOUND + ZeroOrMore(COMMA + _BOUND) + Optional(COMMA)))


def _optional(group):
    return group[0] if group else None


FN = Build(
    kw("fn") - IDENT - _GENERICS - LPAR - _PARAMS - punct(")", "',' or ')'")
    - Group(Optional(kw("on") - TOPO)) - Group(Optional(ARROW - TYPE)) - _WHERE - FN_CONTRACTS
    - BLOCK,
    lambda sp, t: Lsrc["Fn"](t[0], tuple(t[1]), tuple(t[2]), _optional(t[3]), _optional(t[4]),
                          tuple(t[5]), guarded(t[6], t[7]), span=sp),
    "a function")


def _unsafe(sp, t):
    """`unsafe fn`: the function, marked after its contract clauses."""
    fn = t[0]
    n = len(contract_clauses(fn.body))
    stmts = fn.body.stmts[:n] + (Lsrc["UnsafeFn"](span=sp),) + fn.body.stmts[n:]
    return fn.replace(body=fn.body.replace(stmts=stmts))


UNSAFE_FN = Build(kw("unsafe") + FN, _unsafe, "an unsafe function")
CONST_ITEM = Build(kw("const") - IDENT - COLON - TYPE + Group(Optional(EQUALS - EXPR))
                   - punct(";"),
                   lambda sp, t: Lsrc["ConstItem"](t[0], t[1], t[2][0] if t[2] else None,
                                                   span=sp))
STRUCT = Build(kw("struct") - IDENT - _GENERICS - LBRACE - _PARAMS - punct("}", "',' or '}'"),
               lambda sp, t: Lsrc["StructDecl"](t[0], tuple(t[2]), tuple(t[1]), span=sp))

# A variant is always named through its enum (`Option::None`), so any word names one.
_VARIANT = Build(ANY_NAME + Group(Optional(LPAR - Optional(TYPE + ZeroOrMore(COMMA + TYPE)
                                                         + Optional(COMMA)) - RPAR)),
                 lambda sp, t: Lsrc["Variant"](t[0], tuple(t[1]), span=sp), "a variant")
def _generic_enum(sp, t):
    """`enum Opt<T>`: Rust's generic enum, which Vx has not; refused, and the enum read without
    its parameters so the rest of the program still parses."""
    state.error("E1001", sp.start, sp.end,
                "an enum takes no generic parameters: generic enums are not in the language "
                "nano-vx reads (a struct may be generic)",
                help=("write one enum per type it holds (`enum OptI32 { Has(i32), Empty }`), "
                      "or a generic struct",))
    return ()


ENUM = Build(kw("enum") - IDENT - Optional(Build(FollowedBy(LT) + _GENERICS, _generic_enum))
             - LBRACE
             - Group(Optional(_VARIANT + ZeroOrMore(COMMA + _VARIANT) + Optional(COMMA)))
             - punct("}", "',' or '}'"),
             lambda sp, t: Lsrc["EnumDecl"](t[0], tuple(t[-1]), span=sp))

# `impl<T> Pair<T> { .. }` holds functions only; `impl Trait for Type { .. }` implements a
# trait: the trait is a name, so the word before `for` tells the two apart.
_IMPL_BODY = LBRACE - Group(ZeroOrMore(FN)) - punct("}", "a function or '}'")
IMPL = (Build(kw("impl") + _GENERICS + IDENT + kw("for") - TYPE - _IMPL_BODY,
              lambda sp, t: Lsrc["ImplFor"](t[1], tuple(t[0]), t[2], tuple(t[3]), span=sp))
        | Build(kw("impl") - _GENERICS - TYPE - _IMPL_BODY,
                lambda sp, t: Lsrc["Impl"](tuple(t[0]), t[1], tuple(t[2]), span=sp)))

# A trait's methods: a signature ending in `;` is required, one with a body has a default.
# A signature backtracks (`+`) up to its `;`, so a method with a body is read as a function.
_SIG = Build(kw("fn") + IDENT + _GENERICS + LPAR + _PARAMS + RPAR
             + Group(Optional(ARROW + TYPE)) + punct(";"),
             lambda sp, t: Lsrc["FnSig"](t[0], tuple(t[1]), tuple(t[2]), _optional(t[3]),
                                         span=sp), "a method's signature")
TRAIT = Build(kw("trait") - IDENT - LBRACE - Group(ZeroOrMore(_SIG | FN))
              - punct("}", "a method or '}'"),
              lambda sp, t: Lsrc["Trait"](t[0], tuple(t[1]), span=sp))

IMPORT = Build(kw("import") - IDENT + ZeroOrMore(PATH - IDENT) - punct(";"),
               lambda sp, t: Lsrc["Import"](tuple(t), span=sp), "an import")

ITEM <<= Dispatch({"fn": FN, "const": CONST_ITEM, "struct": STRUCT, "enum": ENUM,
                   "import": IMPORT, "impl": IMPL, "trait": TRAIT, "unsafe": UNSAFE_FN,
                   "Memory": MEMORY_DECL,
                   "Topology": TOPOLOGY_DECL}, None, ITEM.customName)

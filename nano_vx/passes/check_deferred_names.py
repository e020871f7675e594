"""check-deferred-names: Linstances, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass

from ..global_names import BUILTINS, undefined
from ..languages.lerased import ERASED
from ..languages.linstances import Linstances
from ..languages.lsrc import DESCRIPTIONS
from ..nanopass import Analysis


@dataclass
class State:
    names: frozenset[str] = frozenset()  # every item's name, and the builtins
    types: frozenset[str] = frozenset()  # the names a type may have: structs, enums, `str`
    fn: str = ""  # the function being walked


check_deferred_names = Analysis("check-deferred-names", Linstances, """
Refuse a name no item declares in a branch an instance's `if comptime` keeps (E2001), and a
type named in a body that names none (E3029).

resolve-names leaves the unknown names of a branch of an `if comptime` on a generic parameter
alone, since only an instance decides the branch, and monomorphize prunes the branch each
instance does not take. What such a branch names, once kept, is judged here, after every
instance is made: a name that is no item of the program and no builtin is E2001, as
resolve-names says it, with the instance that keeps the branch. So is a call through a type
parameter (`T::area(x)`) in an instance whose T has no such function (`i32::area`).

The same holds of a type named in a body, which check-type-names leaves for the same reason:
the type of a `let`, a cast, a closure's parameter or a tensor's element that names no struct
or enum of the program (a Rust type such as `usize`, a misspelling) is E3029 where it is
written, instead of standing for a type of no values that a later check would blame the
value for (`'n' is declared usize, but its value is {integer}`).
""", skip=tuple(d for d in DESCRIPTIONS if d != "Type"), state=State)


@check_deferred_names.on("Program")
def _program(run, node):
    run.state.names = frozenset(item.name for item in node.items) | BUILTINS
    run.state.types = frozenset(item.name for item in node.items
                                if item._prod in ("StructDecl", "EnumDecl")) | {"str", ERASED}
    run.descend(node)


@check_deferred_names.on("Fn")
def _fn(run, node):
    # The signature's types are check-type-names'; only the body's are judged here.
    run.state.fn = node.name
    run.walk(node.body)
    run.state.fn = ""


@check_deferred_names.on("NamedType")
def _named_type(run, node):
    if run.state.fn and node.name not in run.state.types:
        hint = _RUST_TYPES.get(node.name)
        run.ctx.diagnostics.error(
            "E3029", node.span, f"the type '{node.name}' in '{run.state.fn}' names no type",
            help=[hint or "declare it (`struct`, `enum`) or fix the name"], name=node.name)


# Rust's types a Vx program is likeliest to name, and what Vx writes for each.
_RUST_TYPES = {
    "usize": "Vx has no `usize`: write `i64` (or `u64`), or `i32` as an index",
    "isize": "Vx has no `isize`: write `i64`",
    "String": "Vx's text is `str`",
    "char": "Vx has no `char`: a character is text, `str`, or its code, `u8` or `u32`",
}


@check_deferred_names.on("Global")
def _global(run, node):
    if node.name not in run.state.names:
        # A call through a type parameter (`T::f(..)`) names its function in each instance.
        why = "a call through a type parameter names it" if "::" in node.name else \
            "the `if comptime` around it keeps the branch that names it"
        undefined(run.ctx.diagnostics, node.name, node.span,
                  notes=[f"in '{run.state.fn}', {why}"])

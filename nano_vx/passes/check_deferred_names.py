"""check-deferred-names: Linstances, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass

from ..global_names import BUILTINS, undefined
from ..languages.linstances import Linstances
from ..languages.lsrc import DESCRIPTIONS
from ..nanopass import Analysis


@dataclass
class State:
    names: frozenset[str] = frozenset()  # every item's name, and the builtins
    fn: str = ""  # the function being walked


check_deferred_names = Analysis("check-deferred-names", Linstances, """
Refuse a name no item declares in a branch an instance's `if comptime` keeps (E2001).

resolve-names leaves the unknown names of a branch of an `if comptime` on a generic parameter
alone, since only an instance decides the branch, and monomorphize prunes the branch each
instance does not take. What such a branch names, once kept, is judged here, after every
instance is made: a name that is no item of the program and no builtin is E2001, as
resolve-names says it, with the instance that keeps the branch. So is a call through a type
parameter (`T::area(x)`) in an instance whose T has no such function (`i32::area`).
""", skip=DESCRIPTIONS, state=State)


@check_deferred_names.on("Program")
def _program(run, node):
    run.state.names = frozenset(item.name for item in node.items) | BUILTINS
    run.descend(node)


@check_deferred_names.on("Fn")
def _fn(run, node):
    run.state.fn = node.name
    run.descend(node)


@check_deferred_names.on("Global")
def _global(run, node):
    if node.name not in run.state.names:
        # A call through a type parameter (`T::f(..)`) names its function in each instance.
        why = "a call through a type parameter names it" if "::" in node.name else \
            "the `if comptime` around it keeps the branch that names it"
        undefined(run.ctx.diagnostics, node.name, node.span,
                  notes=[f"in '{run.state.fn}', {why}"])

"""Handlers keyed by production name, for code that walks ILs by hand rather than as a pass.

An evaluator that turns each node into something else (the reference interpreter compiling
a node to a closure, the typer computing a node's type, explicate-control's block builder)
chooses what to do by the node's production. `Handlers` is that choice as a table the
framework checks: a handler is registered with `@table.on("Prod", ...)`, and a production
that none of the table's languages has (a misspelt name, or one an IL has since removed) is
refused there, when the module defining the handler loads, instead of the handler silently
never being called. `nonterminal=` narrows what the table accepts to what a field of that
kind accepts in some language: a statement handler in an expression table is refused too.

The table is a dict from production name to the handler as written (a method is stored as
its function, so the caller passes `self`): `table.get(node._prod)` costs one dict lookup.
An evaluator that may be subclassed holds its table in a class attribute, so a subclass
serving one more IL swaps in `table.extend(...)` with its own handlers registered.
"""

from __future__ import annotations

from difflib import get_close_matches
from typing import Callable, Iterable

from .language import Language


class DispatchError(Exception):
    """A handler registered for a production its table's languages do not have."""


class Handlers(dict):
    """Production name -> handler, for the productions of `languages` (those a field of
    kind `nonterminal` accepts, when given)."""

    def __init__(self, what: str, languages: Iterable[Language], nonterminal: str | None = None):
        super().__init__()
        self.what = what
        self.languages = tuple(languages)
        self.nonterminal = nonterminal
        self.productions = frozenset(
            p for lang in self.languages for p, (nt, _) in lang.productions.items()
            if nonterminal is None or nt.name in lang.accepts.get(nonterminal, ()))
        self._registered: set[str] = set()  # by this table's own `on`, not inherited

    def on(self, *productions: str) -> Callable:
        """Register the decorated function as the handler of `productions`."""

        def register(fn):
            for p in productions:
                if p not in self.productions:
                    raise DispatchError(f"{self.what}: the handler {fn.__qualname__} is for "
                                        f"{p}, {self._unknown(p)}")
                if p in self._registered:
                    raise DispatchError(f"{self.what}: {p} has two handlers, "
                                        f"{self[p].__qualname__} and {fn.__qualname__}")
                self._registered.add(p)
                self[p] = fn
            return fn

        return register

    def extend(self, what: str, languages: Iterable[Language]) -> Handlers:
        """A table serving `languages` besides this one's, starting with this one's handlers
        (which it may replace): how a subclass teaches an evaluator an IL of its own."""
        table = Handlers(what, self.languages + tuple(languages), self.nonterminal)
        table.update(self)
        return table

    def _unknown(self, production: str) -> str:
        langs = self.languages
        if len(langs) > 2 and all(b.parent is a for a, b in zip(langs, langs[1:])):
            names = f"{langs[0].name} to {langs[-1].name}"
        else:
            names = ", ".join(lang.name for lang in langs)
        kind = f" {self.nonterminal}" if self.nonterminal else ""
        near = get_close_matches(production, sorted(self.productions), n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        return f"which is no{kind} production of {names}{hint}"

    def __repr__(self) -> str:
        return f"<Handlers {self.what}: {len(self)} productions>"


def lineage(last: Language, first: Language | None = None) -> tuple[Language, ...]:
    """`first` and every language extended from it up to `last` (from the root without
    `first`): the ILs an evaluator serving that stretch of the chain meets."""
    chain = [last]
    while chain[-1] is not first and chain[-1].parent is not None:
        chain.append(chain[-1].parent)
    if first is not None and chain[-1] is not first:
        raise DispatchError(f"{last.name} is not extended from {first.name}")
    return tuple(reversed(chain))

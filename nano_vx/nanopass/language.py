"""Intermediate languages declared as data.

A `Language` is a set of terminals (named predicates over plain Python values) and
nonterminals (named sets of productions). A production is a node shape: a name and a list of
fields, each field naming a terminal or a nonterminal and a multiplicity (one, `?` optional,
`*` a tuple of any length). A nonterminal may also include other nonterminals, whose
productions then count as its own.

Every language after the first is written as a delta of the one before (`extend`), so the
chain of ILs reads as a chain of small changes and `diff` can always print them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping


@dataclass(frozen=True)
class Terminal:
    name: str
    predicate: Callable[[object], bool] = field(compare=False)
    doc: str = ""


@dataclass(frozen=True)
class Field:
    name: str
    kind: str  # a terminal or nonterminal name
    mult: str = ""  # "" one, "?" optional, "*" a tuple

    def __str__(self) -> str:
        return f"{self.name}: {self.kind}{self.mult}"


def fields(spec: str) -> tuple[Field, ...]:
    """Parse 'name: Kind, rest: Kind*, maybe: Kind?' into fields."""
    out = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        fname, _, kind = (s.strip() for s in part.partition(":"))
        mult = kind[-1] if kind[-1:] in ("?", "*") else ""
        out.append(Field(fname, kind.rstrip("?*"), mult))
    return tuple(out)


@dataclass(frozen=True)
class Production:
    name: str
    fields: tuple[Field, ...] = ()
    doc: str = ""

    def signature(self) -> str:
        return f"{self.name}({', '.join(map(str, self.fields))})"


def prod(name: str, spec: str = "", doc: str = "") -> Production:
    return Production(name, fields(spec), doc)


@dataclass(frozen=True)
class Nonterminal:
    name: str
    productions: tuple[Production, ...] = ()
    includes: tuple[str, ...] = ()
    doc: str = ""

    def without(self, names: Iterable[str]) -> "Nonterminal":
        gone = set(names)
        missing = gone - {p.name for p in self.productions} - set(self.includes)
        if missing:
            raise LanguageError(f"nonterminal {self.name} has no production {sorted(missing)}")
        return Nonterminal(
            self.name,
            tuple(p for p in self.productions if p.name not in gone),
            tuple(i for i in self.includes if i not in gone),
            self.doc,
        )

    def adding(self, items: Iterable[Production | str]) -> "Nonterminal":
        prods, incs = list(self.productions), list(self.includes)
        for item in items:
            if isinstance(item, str):
                incs.append(item)
            else:
                if any(p.name == item.name for p in prods):
                    raise LanguageError(f"nonterminal {self.name} already has {item.name}")
                prods.append(item)
        return Nonterminal(self.name, tuple(prods), tuple(incs), self.doc)


class LanguageError(Exception):
    """A language declaration that is not well formed."""


class Language:
    """One IL: terminals, nonterminals, an entry nonterminal, and its node classes."""

    def __init__(
        self,
        name: str,
        doc: str,
        terminals: Iterable[Terminal],
        nonterminals: Iterable[Nonterminal],
        entry: str,
        parent: "Language | None" = None,
    ):
        self.name = name
        self.doc = doc
        self.terminals: dict[str, Terminal] = {t.name: t for t in terminals}
        self.nonterminals: dict[str, Nonterminal] = {n.name: n for n in nonterminals}
        self.entry = entry
        self.parent = parent
        self._check()
        self.productions: dict[str, tuple[Nonterminal, Production]] = {
            p.name: (nt, p) for nt in self.nonterminals.values() for p in nt.productions
        }
        # Which nonterminal names a field of each kind accepts, after includes.
        self.accepts: dict[str, frozenset[str]] = {
            n: frozenset(self._closure(n)) for n in self.nonterminals
        }
        from .nodes import node_class  # node classes need a finished language

        self.nodes = {p: node_class(self, nt, pr) for p, (nt, pr) in self.productions.items()}
        # For each class of this language, its child fields as (name, is a sequence).
        self.child_fields = {
            cls: tuple((f.name, f.mult == "*") for f in cls._declared
                       if f.kind in self.nonterminals)
            for cls in self.nodes.values()
        }

    def _check(self) -> None:
        if self.entry not in self.nonterminals:
            raise LanguageError(f"{self.name}: entry {self.entry} is not a nonterminal")
        seen: dict[str, str] = {}
        for nt in self.nonterminals.values():
            if nt.name in self.terminals:
                raise LanguageError(f"{self.name}: {nt.name} is both terminal and nonterminal")
            for inc in nt.includes:
                if inc not in self.nonterminals:
                    raise LanguageError(f"{self.name}: {nt.name} includes unknown {inc}")
            for p in nt.productions:
                if p.name in seen:
                    raise LanguageError(
                        f"{self.name}: production {p.name} is in both {seen[p.name]} and {nt.name}"
                    )
                seen[p.name] = nt.name
                for f in p.fields:
                    if f.kind not in self.terminals and f.kind not in self.nonterminals:
                        raise LanguageError(
                            f"{self.name}: {p.name}.{f.name} names unknown kind {f.kind}"
                        )
                    if f.mult not in ("", "?", "*"):
                        raise LanguageError(f"{self.name}: {p.name}.{f.name} bad multiplicity")

    def _closure(self, name: str) -> set[str]:
        out, todo = set(), [name]
        while todo:
            n = todo.pop()
            if n not in out:
                out.add(n)
                todo.extend(self.nonterminals[n].includes)
        return out

    def __repr__(self) -> str:
        return f"<Language {self.name}>"

    def __getitem__(self, production: str):
        """The node class of a production: `L0['Let'](...)`."""
        try:
            return self.nodes[production]
        except KeyError:
            raise KeyError(f"language {self.name} has no production {production}") from None

    def extend(
        self,
        name: str,
        doc: str,
        *,
        add: Mapping[str, Iterable[Production | str]] | None = None,
        remove: Mapping[str, Iterable[str]] | None = None,
        terminals: Iterable[Terminal] = (),
        remove_terminals: Iterable[str] = (),
        entry: str | None = None,
    ) -> "Language":
        """The next IL: this one with productions removed, then productions added.

        `add` maps a nonterminal to productions (or names of included nonterminals); a
        nonterminal not yet in the language is created. Removing every production of a
        nonterminal removes it. Replacing a production is a remove and an add of the same name.
        """
        nts = dict(self.nonterminals)
        for nt_name, names in (remove or {}).items():
            if nt_name not in nts:
                raise LanguageError(f"{name}: cannot remove from unknown nonterminal {nt_name}")
            nt = nts[nt_name].without(names)
            if nt.productions or nt.includes:
                nts[nt_name] = nt
            else:
                del nts[nt_name]
        for nt_name, items in (add or {}).items():
            nts[nt_name] = nts.get(nt_name, Nonterminal(nt_name)).adding(items)
        terms = {n: t for n, t in self.terminals.items() if n not in set(remove_terminals)}
        terms.update({t.name: t for t in terminals})
        return Language(name, doc, terms.values(), nts.values(), entry or self.entry, self)

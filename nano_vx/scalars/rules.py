"""A table of inference rules by production, each name checked against the IL the rules read
when the rule is registered, so a misspelt rule is refused when its module loads."""

from __future__ import annotations

from ..nanopass import LanguageError


class Rules(dict):
    """Production name -> rule(infer, node)."""

    def __init__(self, language):
        super().__init__()
        self.language = language

    def on(self, *productions: str):
        def register(rule):
            for p in productions:
                if p not in self.language.productions:
                    raise LanguageError(f"{rule.__qualname__}: {self.language.name} has no "
                                        f"production {p}")
                self[p] = rule
            return rule
        return register

"""A table of inference rules by production, each name checked against the IL the rules read
when the rule is registered, so a misspelt rule is refused when its module loads."""

from __future__ import annotations

from ..nanopass import LanguageError


class Rules(dict):
    """Production name -> rule(infer, node)."""

    def __init__(self, *languages):
        super().__init__()
        self.languages = languages

    def on(self, *productions: str):
        def register(rule):
            for p in productions:
                if not any(p in language.productions for language in self.languages):
                    names = " or ".join(language.name for language in self.languages)
                    raise LanguageError(f"{rule.__qualname__}: {names} has no production {p}")
                self[p] = rule
            return rule
        return register

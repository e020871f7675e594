"""How control leaves a block early: the signal a statement hands back instead of None.

A statement returns BREAK, CONTINUE or a Return, which each enclosing block passes up to the
loop or function that consumes it (no exceptions on the common path). The interpreter and the
compile-time evaluator both run statements this way.
"""

from __future__ import annotations


class Signal:
    __slots__ = ("what",)

    def __init__(self, what: str):
        self.what = what


BREAK = Signal("break")
CONTINUE = Signal("continue")


class Return:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

"""The assembled grammar, built once at import: importing the modules fills the forward
references of `refs`; streamlining once here spares every parse from doing it."""

from . import declarations, expressions, items, statements  # noqa: F401  (fill the forwards)
from .refs import BLOCK, EXPR, ITEM, TYPE

for _element in (ITEM, EXPR, TYPE, BLOCK):
    _element.streamline()

__all__ = ["BLOCK", "EXPR", "ITEM", "TYPE"]

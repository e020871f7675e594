"""Validation of one rewrite of the spatial lane: the output is well formed, and on a corpus
of inputs it means what the input meant (`equivalent_under`)."""

from __future__ import annotations

from dataclasses import dataclass

from .equivalence import corpus, equivalent_under
from ..spatial.balance import RateError, repetitions
from ..spatial.program import Program
from ..spatial.validate import validate


@dataclass(frozen=True)
class IllFormed:
    """The pass's output breaks a structural rule of its IL, or its rates have no
    solution."""
    problems: tuple[str, ...]

    def describe(self) -> str:
        return "the output is ill-formed: " + "; ".join(self.problems)


def check_rewrite(before, after, target=None, *, inputs=None, reference=None, seen=None):
    """None when `after` is a faithful rewrite of `before`, else an IllFormed or the first
    Divergence of `equivalent_under` (whose `reference` and `seen` it passes on)."""
    problems = validate(after, target)
    if not problems:
        try:
            repetitions(Program(after))
        except RateError as error:
            problems = [str(error)]
    if problems:
        return IllFormed(tuple(problems))
    inputs = corpus(before) if inputs is None else inputs
    return equivalent_under(before, after, inputs, reference=reference, seen=seen)

"""Printed outputs that agree to rounding: the same text but for the numbers, each within a
relative tolerance of its counterpart. A derivative the interpreter computes by its own rule
(nano_vx/oracle/derivatives.py), on an IL before differentiate-forward, and the one the
generated functions compute after the passes sum the same terms, not always in the same
order, so they may differ in the last bits."""

from __future__ import annotations

import re

import pytest

NUMBER = re.compile(r"NaN|-?inf|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def numbers(text: str) -> list[float]:
    return [float(x) for x in NUMBER.findall(text)]


def assert_alike(got: str, expected: str, rel: float = 1e-12, abs: float = 1e-14):
    assert NUMBER.sub("#", got) == NUMBER.sub("#", expected), (got, expected)
    assert numbers(got) == pytest.approx(numbers(expected), rel=rel, abs=abs, nan_ok=True), \
        (got, expected)

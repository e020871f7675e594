"""Units in declarations are exact: decimal and binary prefixes, rates, clocks."""

from fractions import Fraction

import pytest

from nano_vx.languages.lsrc import UNITS as LEXED_UNITS
from nano_vx.model.units import CLOCK, COUNT, PER_CYCLE, RATE, SIZE, UNITS, quantity, show_bytes


@pytest.mark.parametrize("number, unit, kind, value", [
    ("40", "GiB", SIZE, 42_949_672_960),
    ("40", "GB", SIZE, 40_000_000_000),
    ("228", "KiB", SIZE, 233_472),
    ("1", "KB", SIZE, 1000),
    ("3.35", "TB/s", RATE, 3_350_000_000_000),
    ("31.5", "GB/s", RATE, 31_500_000_000),
    ("1.98", "GHz", CLOCK, 1_980_000_000),
    ("128", "B/cyc", PER_CYCLE, 128),
    ("132", None, COUNT, 132),
])
def test_quantities_are_exact(number, unit, kind, value):
    assert quantity(number, unit) == (kind, value)


def test_a_fractional_figure_stays_a_fraction():
    assert quantity("0.5", "B") == (SIZE, Fraction(1, 2))


def test_every_unit_the_lexer_reads_has_a_meaning():
    assert set(LEXED_UNITS) <= set(UNITS)


def test_bytes_print_exactly_with_a_readable_size():
    assert show_bytes(42_949_672_960) == "42949672960 bytes (40 GiB)"
    assert show_bytes(12) == "12 bytes"

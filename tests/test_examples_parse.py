"""Every program under examples/ parses with no diagnostics, and the tour prints what
examples/tour.expected says: the examples are the first thing a newcomer runs, so a change
that breaks one must fail here."""

import io
from pathlib import Path

import pytest

from nano_vx.oracle import run_program
from nano_vx.parser import parse_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PROGRAMS = sorted(EXAMPLES.rglob("*.vx"))


def test_examples_exist():
    assert len(PROGRAMS) >= 8  # the tour and the seven correlation programs


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_example_parses_cleanly(path):
    program, diagnostics = parse_text(path.read_text(), str(path))
    assert not diagnostics.codes(), diagnostics.render()
    assert program.items, "an example with no items"


def test_the_tour_prints_its_expected_output():
    tour = EXAMPLES / "tour.vx"
    program, diagnostics = parse_text(tour.read_text(), str(tour))
    out = io.StringIO()
    assert run_program(program, out=out) == 0
    assert out.getvalue() == (EXAMPLES / "tour.expected").read_text()

"""Every program under examples/ parses with no diagnostics: the examples are the first
thing a newcomer runs, so a grammar change that breaks one must fail here."""

from pathlib import Path

import pytest

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

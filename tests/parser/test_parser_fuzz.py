"""No input makes the parser raise: random text, random bytes, and mutations of valid
programs give a Program and diagnostics, nothing else."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nano_vx.parser import parse_text

# Slow (the whole suite's, not the inner loop's): random text and bytes through the parser.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SEEDS = [p.read_text() for p in sorted((ROOT / "examples").rglob("*.vx"))]
SEEDS += [p.read_text() for p in sorted((Path(__file__).parent / "cases").glob("*.vx"))]
ALPHABET = st.sampled_from(list("fnletmuif{}()[]<>;:,.|&=+-*/%!\"\\#0123456789 \n\tx_")
                           + ["fn ", "let ", "Memory ", "Topology::", "Tensor<", "->", "..",
                              "//", "spawn on(", "comptime ", "else if ", "1e", "0x",
                              "match ", "=>", "enum ", "struct ", "::", "&mut ", "_",
                              "Tensor<f32>(", "if ", "import ", "sizeof<", ".0", "?", "impl ",
                              "Self", "<i32>::"])

SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def check(data):
    program, diagnostics = parse_text(data)
    assert program._prod == "Program"
    for d in diagnostics.items:
        assert d.code.startswith("E1") and d.span is not None
        d.render()


@SETTINGS
@given(st.text(max_size=300))
def test_random_text(text):
    check(text)


@SETTINGS
@given(st.binary(max_size=300))
def test_random_bytes(data):
    check(data)


@SETTINGS
@given(st.lists(ALPHABET, max_size=120).map("".join))
def test_random_token_soup(text):
    check(text)


@SETTINGS
@given(st.sampled_from(SEEDS), st.lists(st.tuples(st.floats(0, 1), st.integers(0, 40),
                                                     st.text(max_size=8)), max_size=4))
def test_mutated_programs(seed, edits):
    text = seed
    for where, length, insert in edits:
        at = int(where * len(text))
        text = text[:at] + insert + text[at + length:]
    check(text)

"""Bad input gets diagnostics, never an internal error: programs one or two tokens away from
the examples and the pass cases (a name, a number or an operator swapped) go through the
whole pipeline, and whatever a pass thinks of them it says as a diagnostic."""

import re
from pathlib import Path

from hypothesis import given, settings, strategies as st

from nano_vx.context import Compilation
from nano_vx.deep import run_deep
from nano_vx.diagnostics import Diagnostics
from nano_vx.driver import run_pipeline
from nano_vx.pipeline import PIPELINE
from nano_vx.source import Source

ROOT = Path(__file__).resolve().parent.parent
TEXTS = [p.read_text() for p in sorted(ROOT.glob("examples/**/*.vx"))
         + sorted(ROOT.glob("tests/passes/cases/**/*.vx"))]
TOKEN = re.compile(r"\s+|//[^\n]*|[A-Za-z_]\w*|\d+(?:\.\d+)?|\S")
KEYWORDS = set("fn let mut for in while if else return break continue assert comptime unroll "
               "across spawn on transfer Memory Topology Tensor true false Some None as where "
               "const struct".split())
WORDS = sorted({t for text in TEXTS for t in TOKEN.findall(text)
                if re.fullmatch(r"[A-Za-z_]\w*", t) and t not in KEYWORDS})
NUMBERS = ["0", "1", "-1", "7", "128", "255", "2147483647", "4294967296", "1.5"]
OPERATORS = list("+-*/%<>")


def _swap(token: str, pick: int) -> str:
    if re.fullmatch(r"[A-Za-z_]\w*", token) and token not in KEYWORDS:
        return WORDS[pick % len(WORDS)]
    if token[0].isdigit():
        return NUMBERS[pick % len(NUMBERS)]
    if token in OPERATORS:
        return OPERATORS[pick % len(OPERATORS)]
    return token


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(TEXTS) - 1),
       st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1, max_size=3))
def test_a_near_miss_of_a_good_program_gets_diagnostics_not_an_internal_error(which, swaps):
    tokens = TOKEN.findall(TEXTS[which])
    for at, pick in swaps:
        i = at % len(tokens)
        tokens[i] = _swap(tokens[i], pick)
    ctx = Compilation(Source("near_miss.vx", "".join(tokens)), Diagnostics())
    run_deep(run_pipeline, PIPELINE, ctx.source, ctx)  # an InternalError fails the test

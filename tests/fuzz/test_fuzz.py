"""The fuzz campaign, bounded for the suite: a few hundred inputs, the same ones on every run
(derandomized, no example database), each through the whole pipeline in a worker with a time
and a memory bound. Generated programs must be admitted and run to their end; mutants of them
and of the examples, raw bytes, mutated dumps of every IL of both lanes (text and JSON) and
mutated spatial programs must be admitted or refused with diagnostics; none may end in a
traceback, an internal error, another exit status, a hang or a memory failure.
benchmarks/fuzz.py runs the long campaign. Also here: the runner and the minimizer, on
planted failures."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.dumps import corpus
from fuzz.inputs import dump_inputs
from fuzz.known import known_item
from fuzz.minimize import PIECE, minimize
from fuzz.mutations import CORPUS, mutants, raw_bytes, spliced
from fuzz.programs import programs
from fuzz.runner import PROGRAM, Form, Outcome, Runner
from nano_vx.pipeline import LANGUAGES
from nano_vx.spatial_pipeline import SPATIAL_LANGUAGES

# Slow (the whole suite's, not the inner loop's): bounded campaigns.
pytestmark = pytest.mark.slow

# E8005 arrives after a million compile-time steps (loop iterations and calls): seconds by
# design (a mutant of these can pass the bound on a loaded machine). These cases stay in the
# long campaign only.
SLOW = {"tests/passes/cases/desugar_comptime/e8005_long.vx",
        "tests/passes/cases/desugar_comptime/e8005_calls.vx"}
EXAMPLES = tuple(text for name, text in CORPUS.items() if name not in SLOW)
BOUNDED = settings(derandomize=True, database=None, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def runner():
    with Runner() as r:
        yield r


def ends_well(runner: Runner, data: bytes, terminates: bool = False,
              form: Form = PROGRAM) -> Outcome:
    outcome = runner.run(data, terminates=terminates, form=form)
    assert not outcome.failed, (f"{outcome.report()}\n--- the input ---\n"
                                f"{data.decode('utf-8', 'replace')}")
    return outcome


def test_generated_programs_are_admitted_and_run_to_their_end(runner):
    kinds = []

    @settings(BOUNDED, max_examples=60)
    @given(programs())
    def one(text):
        kinds.append(ends_well(runner, text.encode(), terminates=True).kind)

    one()
    # The generator writes well-formed programs: a refusal is a bug of it or of the compiler.
    assert kinds.count("admitted") >= 0.9 * len(kinds), kinds


@settings(BOUNDED, max_examples=120)
@given(mutants(st.one_of(programs(), st.sampled_from(EXAMPLES))))
def test_mutants_of_programs_and_examples_get_diagnostics(runner, text):
    ends_well(runner, text.encode())


@settings(BOUNDED, max_examples=80)
@given(st.one_of(raw_bytes(), spliced(st.sampled_from(EXAMPLES))))
def test_raw_and_spliced_bytes_get_diagnostics(runner, data):
    ends_well(runner, data)


def test_the_dump_corpus_holds_every_il_of_both_lanes_in_text_and_json():
    header = re.compile(r"^(?://\s*IL:\s*(\w+)|spatial \w+: (\w+) \{)", re.M)
    texts, jsons = set(), set()
    for form, text in corpus().values():
        if form.name.endswith(".json"):
            jsons.add(json.loads(text)["language"])
        else:
            texts.update(a or b for a, b in header.findall(text))
    # Sdataflow is the spatial program as written, which the corpus holds too.
    assert texts == set(LANGUAGES) | set(SPATIAL_LANGUAGES) - {"Sdataflow"}
    assert jsons == set(LANGUAGES)


@settings(BOUNDED, max_examples=120)
# Deferred: the dumps are made when the test first draws one, not when every worker
# collects the suite (4 s each).
@given(st.deferred(lambda: st.one_of(*dump_inputs())))
def test_mutated_dumps_and_spatial_programs_get_diagnostics(runner, item):
    ends_well(runner, item.data, form=item.form)


# -- the runner and the minimizer, on planted failures --------------------------------------

PLANTED = "tests/fuzz/planted.py"


@pytest.fixture(scope="module")
def planted():
    with Runner(check_bound=1.0, run_bound=1.0, entry="fuzz.planted:main") as r:
        yield r


@pytest.mark.parametrize("text, terminates, kind, key", [
    (b"fn main() {}", False, "admitted", ""),
    (b"refuse", False, "refused", ""),
    (b"xyzzy plugh", False, "traceback", f"traceback: KeyError at {PLANTED}:main"),
    (b"ice", False, "internal error", f"internal error: ZeroDivisionError at {PLANTED}:divide"),
    (b"status", False, "exit status", "exit status 3 from check"),
    (b"hang", False, "hang", f"hang in check at {PLANTED}:spin"),
    (b"endless", False, "ran past bound", ""),
    (b"endless", True, "hang", f"hang in run at {PLANTED}:spin"),
    (b"hog", False, "memory", f"memory in check at {PLANTED}:main"),
    (b"abort", False, "crash", f"crash in check at {PLANTED}:main"),
])
def test_the_runner_tells_how_an_input_ended(planted, text, terminates, kind, key):
    outcome = planted.run(text, terminates=terminates)
    assert (outcome.kind, outcome.key) == (kind, key), outcome.detail
    assert planted.run(b"fn main() {}").kind == "admitted"  # the next input finds a worker


def test_the_minimizer_keeps_what_a_failure_needs_and_drops_the_rest():
    tour = CORPUS["examples/tour.vx"].encode()
    fails = lambda data: b"spawn" in data and b"comptime" in data  # noqa: E731
    small = minimize(tour, fails)
    assert fails(small) and len(small) <= len(b"spawn comptime")
    tokens = PIECE.findall(small.decode())
    for i in range(len(tokens)):  # 1-minimal: no token can go
        assert not fails("".join(tokens[:i] + tokens[i + 1:]).encode())


def test_the_minimizer_shrinks_bytes_that_are_not_utf8():
    fails = lambda data: b"\xff" in data and b"\xfe" in data  # noqa: E731
    small = minimize(b"ab\xffcd\xfe" * 20, fails)
    assert fails(small) and len(small) == 2


def test_a_planted_failure_minimizes_to_the_tokens_that_cause_it(planted):
    lines = CORPUS["examples/tour.vx"].splitlines(keepends=True)
    text = "".join(lines[:40] + ["  // xyzzy\n"] + lines[40:90] + ["  plugh();\n"] + lines[90:])
    failed = planted.run(text.encode())
    small = minimize(text.encode(), lambda data: planted.run(data).key == failed.key)
    assert failed.kind == "traceback" and small in (b"xyzzyplugh", b"xyzzy plugh")


def test_known_items_are_told_from_new_failures(monkeypatch):
    import fuzz.known

    monkeypatch.setattr(fuzz.known, "KNOWN", (
        ("deep expressions", lambda o, text: "RecursionError" in o.key),))
    deep = Outcome("traceback", "check", key="traceback: RecursionError at nano_vx/x.py:f")
    new = Outcome("traceback", "check", key="traceback: KeyError at nano_vx/x.py:f")
    assert known_item(deep, b"") == "deep expressions"
    assert known_item(new, b"") is None

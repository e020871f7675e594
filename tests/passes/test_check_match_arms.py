"""check-match-arms: a `match` on the result of `try_pin` without an arm for a variant, and a
`match` on a value that does not cover every value (E3020)."""

from pathlib import Path

import pytest

from nano_vx.passes.check_match_arms import check_match_arms
from front import (assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "check_match_arms"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "missing_saturated": ("E3020", "this `match` on the result of `try_pin` has no "
                                   "`Saturated(..)` arm"),
    "missing_available": ("E3020", "this `match` on the result of `try_pin` has no "
                                   "`Available(..)` arm"),
    "nested": ("E3020", "has no `Available(..)` and no `Saturated(..)` arm"),
    "unrolled": ("E3020", "has no `Saturated(..)` arm"),
    "enum_variant_missing": ("E3020", "this `match` on a `Shape` has no case for "
                                      "`Shape::Rect(..)`"),
    "nested_variant_missing": ("E3020", "this `match` on a `Outer` has no case for "
                                        "`Outer::Wrap(Inner::B)`, "
                                        "`Outer::Pair(false, Inner::B)`"),
    "deep_variant_missing": ("E3020", "this `match` on a `Out` has no case for "
                                      "`Out::W(In::B, In::C(..))`, `Out::Z(false, false)`"),
    "bool_case_missing": ("E3020", "this `match` on a bool has no case for `false`"),
    "integer_rest_missing": ("E3020", "this `match` does not cover every value: no case takes "
                                      "the ones it does not list"),
}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", check_match_arms)
    assert ran.after is ran.before
    code = REFUSED.get(case, (None,))[0]
    assert ran.diagnostics.codes() == ([code] if code else [])
    assert ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_match_arms, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


@pytest.mark.parametrize("case", [n for n in NAMES if n.endswith("_repaired")])
def test_a_repaired_program_runs_the_same_after_the_check(case):
    assert_prints_the_same(CASES / f"{case}.vx", check_match_arms)


def test_the_json_form_names_the_missing_arms_and_the_span_is_the_head():
    [d] = run_front(CASES / "nested.vx", check_match_arms).diagnostics.items
    assert d.data == {"missing": ["Available", "Saturated"]}
    span = d.span
    assert span.source.text[span.start:span.end] == "match x.try_pin(Topology::NPU)"
    assert [h.split(":")[0] for h in d.help] == ["add an arm", "add an arm"]


def test_a_match_in_an_unrolled_body_is_refused_once_for_all_its_copies():
    [d] = run_front(CASES / "unrolled.vx", check_match_arms).diagnostics.items
    assert d.notes == ["this applies to each of the 3 copies of this code that `unroll across` "
                       "makes"]


def test_a_match_cannot_fold_while_compiling():
    # Which arm runs is decided by the units free at run time: a comptime block holding a
    # match is refused where comptime blocks are folded, with that reason.
    from nano_vx.passes.desugar_comptime import desugar_comptime

    ran = run_front("fn main() {\n    let c = comptime {\n        match 1.try_pin(Topology::NPU) "
                    "{ Available(p) => { 1 } Saturated(v) => { 2 } }\n    };\n    print(c);\n}\n",
                    desugar_comptime)
    [d] = ran.diagnostics.items
    assert d.code == "E3033"
    assert d.message.endswith("a `match` on `try_pin` depends on which units are free when the "
                              "program runs")


# Hand-written Ltyped: a case naming an enum nobody declares, which resolve-names refuses
# before this pass runs. With no declaration to list the variants, the match is judged as a
# match on any value: it needs a case `_`.
UNDECLARED_ENUM = """
    // IL: Ltyped
    fn main() {
        let k: i32 = match 3 {
            Ghost::A => {
                1
            },
        };
        @print(k);
    }
"""


def test_handwritten_a_case_of_an_undeclared_enum_needs_a_rest(run_pass, snapshot_txt):
    ran = run_pass("check-match-arms", UNDECLARED_ENUM)
    assert ran.codes == ["E3020"]
    assert ran.diagnostics.items[0].data["missing"] == ["_"]
    assert ran.dump == snapshot_txt

"""desugar-literal-suffixes: `0i64` is `0 as i64` once the literal is known to fit its type
(E3008 when it does not, counting a minus written before it)."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.desugar_literal_suffixes import desugar_literal_suffixes
from front import (assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "desugar_literal_suffixes"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e3008"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", desugar_literal_suffixes)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"desugar-literal-suffixes: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES + ["e3008_out_of_range_repaired"])
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", desugar_literal_suffixes)


def test_a_literal_that_does_not_fit_its_suffix_is_e3008():
    assert_refused_then_repaired(CASES / "e3008_out_of_range.vx", desugar_literal_suffixes,
                                 "E3008", "`128i8` does not fit into `i8`, whose range is "
                                          "-128..=127")


def test_e3008_from_the_command_line(capsys):
    assert_refused_from_the_command_line(CASES / "e3008_out_of_range.vx", "E3008", capsys)


@pytest.mark.parametrize("text,says", [
    ("-129i8", "`-129i8` does not fit into `i8`"),
    ("256u8", "`256u8` does not fit into `u8`, whose range is 0..=255"),
    ("-1u32", "`-1u32` does not fit into `u32`"),
])
def test_the_minus_before_a_literal_counts(text, says):
    ran = run_front(f"fn main() {{ let a = {text}; }}\n", desugar_literal_suffixes)
    [diag] = ran.diagnostics.items
    assert diag.code == "E3008" and says in diag.message


def test_every_suffix_is_a_cast_and_a_float_suffix_makes_a_float():
    ran = run_front(CASES / "suffixes.vx", desugar_literal_suffixes)
    casts = {(c.value._prod, c.type.name) for c in ran.nodes("Cast")}
    assert casts == {("Int", "i64"), ("Float", "f32"), ("Int", "u8"), ("Int", "u32"),
                     ("Int", "i8"), ("Float", "f64")}
    assert not list(ran.nodes("Suffixed"))


def test_handwritten_minus_inside_the_suffixed(run_pass, snapshot_txt):
    # The minus inside the Suffixed (the generic form): the parser always puts it outside,
    # `-(129i8)`. It still counts: -129 does not fit an i8 (E3008), -128 does.
    ran = run_pass("desugar-literal-suffixes", """
        // IL: Lshaped
        fn main() {
            print(Suffixed(value: -129, suffix: i8));
            print(Suffixed(value: -128, suffix: i8));
        }
    """)
    assert ran.codes == ["E3008"]
    assert ran.dump == snapshot_txt

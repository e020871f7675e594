"""drop-type-declarations: struct and enum declarations go (no function check-native-subset
admitted holds their values); a dump that still holds what the gate refuses is refused."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.drop_type_declarations import drop_type_declarations
from front import _printed, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "drop_type_declarations"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", drop_type_declarations)
    assert not ran.diagnostics.items
    assert [i._prod for i in ran.before.items].count("StructDecl") == 1
    assert [i._prod for i in ran.after.items] == ["Fn"]
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", drop_type_declarations)


# Hand-written Lnocontracts: an enum declared and matched in one function, which
# check-native-subset would have refused. The function is refused with E5010 and left out;
# the other stays.
MATCHED_ENUM = """
    // IL: Lnocontracts
    enum Mode {
        Fast,
        Slow,
    }

    fn pick(m: Mode) -> i32 {
        match m {
            Mode::Fast => {
                1
            },
            Mode::Slow => {
                2
            },
        }
    }

    fn main() {
        @print(3);
    }
"""


def test_handwritten_a_function_matching_an_enum_is_refused_and_left_out(run_pass, snapshot_txt):
    ran = run_pass("drop-type-declarations", MATCHED_ENUM)
    assert ran.codes == ["E5010"]
    assert [i.name for i in ran.tree.items] == ["main"]
    assert _printed(ran.tree) == "3\n"
    assert ran.dump == snapshot_txt

"""type-array-literals: the unsuffixed literals of an array literal given as a tensor of a
written element type are cast to it (`let v: Tensor<f32, [2]> = [0.1, 0.2];` holds two f32s),
as the interpreter types them from that context; one the type cannot hold is E3008; the
program prints what it printed."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.type_array_literals import type_array_literals
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same, run_cli,
                   run_front)

CASES = Path(__file__).parent / "cases" / "type_array_literals"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", type_array_literals)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"type-array-literals: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", type_array_literals)


def test_handwritten_a_let_a_parameter_and_an_if_hand_the_element_type_on(run_pass, snapshot_txt):
    # The `let`'s f32 reaches the literals through the `if`'s arms; the parameter's u8 makes
    # 250 + 10 a u8 sum that wraps; the array bound without a type stays f64.
    ran = run_pass("type-array-literals", """
        // IL: Lresolved
        fn first(t: Tensor<u8, [2]>) -> u8 {
            t[0]
        }

        fn main() {
            let v: Tensor<f32, [2]> = if true { [0.1, 0.2] } else { [1.0, 2.0] };
            @print(v[0] + v[1]);
            @print(@first([250 + 10, 1]));
            let w = [0.1, 0.2];
            @print(w[0] + w[1]);
        }
    """)
    assert ran.codes == []
    assert "[0.1 as f32, 0.2 as f32]" in ran.text and "[1.0 as f32, 2.0 as f32]" in ran.text
    assert "[250 as u8 + 10 as u8, 1 as u8]" in ran.text
    assert "let w = [0.1, 0.2];" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "0.3\n4\n0.30000000000000004\n"
    assert ran.dump == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_both_lanes_run_the_typed_literals_alike(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


REFUSED = "fn main() {\n  let t: Tensor<u8, [2]> = [300, 1];\n  print(t[0]);\n}\n"


def test_an_element_the_type_cannot_hold_is_refused_and_the_repair_admitted(tmp_path):
    [d] = run_front(REFUSED, type_array_literals).diagnostics.items
    assert (d.code, d.message) == ("E3008", "literal out of range for `u8`: `300` does not fit "
                                            "into `u8`, whose range is 0..=255")
    case = tmp_path / "repaired.vx"
    case.write_text(REFUSED.replace("u8", "u16"))
    assert run_cli(case, "--action", "interpret") == (0, "300\n", "")


def test_an_integer_literal_under_a_float_element_type_stays_an_integer(tmp_path):
    # As under a scalar `let x: f32 = 1;`: the literal takes no float type, and the typed
    # place then refuses the tensor of i32s (E3001), as it did before the pass.
    text = "fn main() {\n  let t: Tensor<f32, [2]> = [1, 2];\n  print(t[0]);\n}\n"
    ran = run_front(text, type_array_literals)
    assert not ran.diagnostics.items
    assert [to_text(n).strip() for n in ran.nodes("ArrayLit")] == ["[1, 2]"]
    case = tmp_path / "ints.vx"
    case.write_text(text)
    code, _, err = run_cli(case, "--action", "check")
    assert code == 1 and "error[E3001]" in err

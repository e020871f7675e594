"""differentiate-forward: each `jvp(f, x, t)` becomes a call of `f$jvp`, the tangent
function, generated for f and for every function f calls with a float; the program prints
what it printed; what no tangent follows is refused with E3060, E3061, E3062 or E3010."""

import io
from pathlib import Path

import pytest

from nano_vx.deep import run_deep
from nano_vx.dump.text import to_text
from nano_vx.oracle import run_program
from nano_vx.pipeline import PIPELINE
from nano_vx.passes.differentiate_forward import differentiate_forward
from front import assert_refused_then_repaired, run_front
from printed_alike import assert_alike

CASES = Path(__file__).parent / "cases" / "differentiate_forward"
REFUSED = {
    "integer_parameter": ("E3060", "cannot differentiate 'scale': its parameter 'n' is i32"),
    "transfer": ("E3061", "cannot differentiate 'norm': no derivative follows a `transfer`"),
    "while_on_value": ("E3062", "cannot differentiate 'halvings': a `while` loop whose trip "
                                "count depends on the differentiated value"),
    "two_parameters": ("E3010", "`jvp(area, ..)` passes one argument, but 'area' takes 2"),
}
ADMITTED = sorted(p.stem for p in CASES.glob("*.vx") if p.stem not in REFUSED)
LAST = PIPELINE.passes[-1]


@pytest.mark.parametrize("case", ["scalars", "tensors"])
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", differentiate_forward)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", ADMITTED)
def test_the_output_prints_what_the_input_printed(case):
    """Before the pass the interpreter's own rule computes the derivative, after it the
    generated function: they agree to rounding."""
    ran = run_front(CASES / f"{case}.vx", differentiate_forward)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    before, after = ran.prints()
    assert_alike(after, before)


@pytest.mark.parametrize("case", ADMITTED)
def test_no_jvp_is_left_and_the_checks_after_it_admit_the_tangent_functions(case):
    ran = run_front(CASES / f"{case}.vx", differentiate_forward)
    assert not list(ran.nodes("Jvp"))
    assert run_front(CASES / f"{case}.vx", LAST).diagnostics.items == []


def test_a_tangent_function_takes_each_float_with_its_tangent_and_a_tensor_by_reference():
    after = run_front(CASES / "tensors.vx", differentiate_forward).after
    fns = {i.name: i for i in after.items if i._prod == "Fn"}
    assert [(p.name, to_text(p.type).strip()) for p in fns["normalize$jvp"].params] == [
        ("v_ref", "&Tensor<f64, [3], Memory::CPU_DRAM>"),
        ("v_dot_ref", "&Tensor<f64, [3], Memory::CPU_DRAM>")]
    assert [p.name for p in fns["dot$jvp"].params] == ["a", "a_dot", "b", "b_dot"]
    scalars = run_front(CASES / "scalars.vx", differentiate_forward).after
    power = next(i for i in scalars.items if i.name == "power$jvp")
    assert [p.name for p in power.params] == ["x", "x_dot", "n"]  # an integer has none


def test_each_statement_follows_its_tangent_which_reads_the_values_before_it():
    after = run_front(CASES / "scalars.vx", differentiate_forward).after
    half = next(i for i in after.items if i.name == "half$jvp")
    assert [to_text(s).strip() for s in half.body.stmts] == [
        "let mut y_dot: ~f32 = x_dot * 0.5 as f32;",
        "let mut y: f32 = x * 0.5 as f32;",
        "y_dot -= x_dot / 4.0 as f32;",
        "y -= x / 4.0 as f32;"]


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    code, says = REFUSED[case]
    assert_refused_then_repaired(CASES / f"{case}.vx", differentiate_forward, code, says)


def test_handwritten_jvp_becomes_a_call_of_the_tangent_function(run_pass):
    ran = run_pass("differentiate-forward", """
        // IL: Lrouted
        fn sq(x: f64) -> f64 {
            x * x + 1.0
        }

        fn main() {
            @print(jvp(sq, 3.0, 0.5));
        }
    """)
    assert ran.codes == []
    assert ran.text == """\
// IL: Lrouted
fn sq(x: f64) -> f64 {
    x * x + 1.0
}

fn sq$jvp(x: f64, x_dot: f64) -> f64 {
    x_dot * x + x * x_dot
}

fn main() {
    @print(@sq$jvp(3.0, 0.5));
}
"""
    # The interpreter's own rule before, the tangent function after: 2 * 3 * 0.5.
    assert run_deep(_printed, ran.before) == run_deep(_printed, ran.tree) == "3\n"


def _printed(tree) -> str:
    out = io.StringIO()
    run_program(tree, out=out)
    return out.getvalue()

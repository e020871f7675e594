"""differentiate-reverse: each `grad(f, x)` and `vjp(f, x, s)` becomes a call of `f$vjp`,
the adjoint function (a forward sweep saving on a tape, a reverse sweep), generated for f and
every function f calls with a float; the program prints what it printed; the checks after it
(check-linearity among them) admit the generated functions; what no adjoint follows is
refused with E3060, E3061, E3062 or E3010."""

import io
from pathlib import Path

import pytest

from nano_vx.deep import run_deep
from nano_vx.dump.text import to_text
from nano_vx.oracle import run_program
from nano_vx.pipeline import PIPELINE
from nano_vx.passes.differentiate_reverse import differentiate_reverse
from front import assert_refused_then_repaired, run_front
from printed_alike import assert_alike

CASES = Path(__file__).parent / "cases" / "differentiate_reverse"
REFUSED = {
    "integer_result": ("E3060", "cannot differentiate 'steps': its result is i32"),
    "spawn": ("E3061", "cannot differentiate 'offload': no derivative follows a `spawn`"),
    "break_in_loop": ("E3061", "no derivative follows `break` inside a loop"),
    "moved_tensor": ("E3061", "the tensor 'v' moved into the call of 'total'"),
    "while_on_value": ("E3062", "cannot differentiate 'grow': a `while` loop whose trip count "
                                "depends on the differentiated value"),
    "generic_named": ("E3061", "cannot differentiate 'square': no derivative follows a generic "
                               "function named directly"),
    "nested_grad": ("E3061", "cannot differentiate 'slope': no derivative follows `grad` inside "
                             "a differentiated function"),
}
ADMITTED = sorted(p.stem for p in CASES.glob("*.vx") if p.stem not in REFUSED)
LAST = PIPELINE.passes[-1]


def _fns(case: str) -> dict:
    after = run_front(CASES / f"{case}.vx", differentiate_reverse).after
    return {i.name: i for i in after.items if i._prod == "Fn"}


@pytest.mark.parametrize("case", ["scalars", "tensors", "loops"])
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", differentiate_reverse)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", ADMITTED)
def test_the_output_prints_what_the_input_printed(case):
    """Before the pass the interpreter's own rule computes the derivative, after it the
    generated function: they agree to rounding."""
    ran = run_front(CASES / f"{case}.vx", differentiate_reverse)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    before, after = ran.prints()
    assert_alike(after, before)


@pytest.mark.parametrize("case", ADMITTED)
def test_no_grad_or_vjp_is_left_and_the_checks_after_it_admit_the_adjoints(case):
    ran = run_front(CASES / f"{case}.vx", differentiate_reverse)
    assert not list(ran.nodes("Grad")) and not list(ran.nodes("Vjp"))
    assert run_front(CASES / f"{case}.vx", LAST).diagnostics.items == []


def test_an_adjoint_returns_the_first_parameters_and_adds_to_the_others_through_mut():
    blend = _fns("scalars")["blend$vjp"]
    assert [(p.name, to_text(p.type).strip()) for p in blend.params] == [
        ("a", "f64"), ("b", "f64"), ("n", "i32"), ("seed", "f64"), ("b_adj", "&mut f64")]
    assert to_text(blend.ret).strip() == "f64"
    normalize = _fns("tensors")["normalize$vjp"]
    assert [p.name for p in normalize.params] == ["v_ref", "seed"]
    assert to_text(normalize.params[1].type).strip() == "&Tensor<f64, [3], Memory::CPU_DRAM>"


def test_a_tape_is_sized_while_compiling_when_every_loop_bound_is_known_then():
    fns = _fns("tensors")
    tapes = [to_text(s.type).strip() for s in fns["dot$vjp"].body.stmts
             if s._prod == "Let" and s.name in ("tape", "itape")]
    assert tapes == ["Tensor<f64, [3], Memory::CPU_DRAM>",
                     "Tensor<i64, [2], Memory::CPU_DRAM>"]
    assert "dot$vjp$tape" not in fns


def test_a_tape_sized_at_run_time_is_counted_by_the_forward_sweep_first():
    fns = _fns("loops")
    assert "series$vjp$tape" in fns and "at_four$vjp$tape" not in fns
    counter = fns["series$vjp$tape"]
    assert [p.name for p in counter.params] == ["x", "n", "floats", "ints"]
    assert "tape[" not in to_text(counter)  # it only counts


def test_a_function_that_prints_is_called_through_a_copy_without_its_prints():
    fns = _fns("prints")
    quiet, adjoint = to_text(fns["square$quiet"]), to_text(fns["loss$vjp"])
    assert "print" not in quiet and "print" not in adjoint
    assert "@square$quiet(x)" in adjoint and "@square(" not in adjoint
    assert "@print(x)" in to_text(fns["square"])  # the function itself still prints


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    code, says = REFUSED[case]
    assert_refused_then_repaired(CASES / f"{case}.vx", differentiate_reverse, code, says)


def test_a_site_inside_another_sites_argument_is_a_call_too():
    ran = run_front("fn sq(x: f64) -> f64 { x * x }\n"
                    "fn main() { print(grad(sq, grad(sq, 3.0))); }\n", differentiate_reverse)
    assert not list(ran.nodes("Grad"))
    assert ran.prints() == ("12\n", "12\n")


def test_a_remainder_of_floats_assigned_in_place_is_refused():
    ran = run_front("fn m(x: f64) -> f64 { let mut s = x; s %= 2.0; s }\n"
                    "fn main() { print(grad(m, 5.0)); }\n", differentiate_reverse)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E3061", "cannot differentiate 'm': no derivative follows `%` on floats")]


def test_handwritten_grad_becomes_a_call_of_the_adjoint_function(run_pass):
    ran = run_pass("differentiate-reverse", """
        // IL: Lrouted
        fn ratio(x: f64) -> f64 {
            let y: ~f64 = x * x;
            y / x
        }

        fn main() {
            @print(grad(ratio, 3.0));
        }
    """)
    assert ran.codes == []
    adjoint = ran.text[ran.text.index("fn ratio$vjp"):ran.text.index("fn main")]
    assert adjoint == """\
fn ratio$vjp(x: f64, seed: f64) -> f64 {
    let y: ~f64 = x * x;
    let result: ~f64 = y / x;
    let mut x_adj: ~f64 = 0.0;
    let mut y_adj: ~f64 = 0.0;
    let mut result_adj: ~f64 = 0.0;
    result_adj = seed;
    y_adj += result_adj / x;
    x_adj += -(result_adj / x * (y / x));
    x_adj += y_adj * x;
    x_adj += x * y_adj;
    x_adj
}

"""
    assert "@print(@ratio$vjp(3.0, 1.0));" in ran.text
    # The interpreter's own rule before, the adjoint function after: (x^2 / x)' = 1.
    assert run_deep(_printed, ran.before) == run_deep(_printed, ran.tree) == "1\n"
    refused = run_pass("differentiate-reverse", """
        // IL: Lrouted
        fn scale(x: f64, n: i32) -> f64 {
            x
        }

        fn main() {
            @print(grad(scale, 3.0));
        }
    """)
    assert [(d.code, d.message) for d in refused.diagnostics.items] == [
        ("E3010", "`grad(scale, ..)` passes one argument, but 'scale' takes 2")]


def _printed(tree) -> str:
    out = io.StringIO()
    run_program(tree, out=out)
    return out.getvalue()

"""hand-on-lent-tensors: a tensor a function gives back that a parameter handed it (lent by
`&mut`, or moved in) is no out-parameter: the caller's variable is made the tensor it handed
over; the program prints what it printed, natively too."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.hand_on_lent_tensors import hand_on_lent_tensors
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same,
                   run_front)

CASES = Path(__file__).parent / "cases" / "hand_on_lent_tensors"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", hand_on_lent_tensors)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert "GiveBack" not in {n._prod for n in ran.nodes()}
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", hand_on_lent_tensors)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_each_call_is_followed_by_the_callers_variable_made_the_tensor_it_handed_over():
    ran = run_front(CASES / "lent.vx", hand_on_lent_tensors)
    fns = {i.name: to_text(i) for i in ran.after.items if i._prod == "Fn"}
    assert "p_a = @wrap(&mut t, 1, 2.0);\n    p_b = t;" in fns["main"]
    assert "q_a = @wrap(r, 0, 0.0);\n    q_b = *r;" in fns["rewrap"]
    assert "m_a = @take(u, 1.5);\n    m_b = u;" in fns["main"]
    assert "ret_b" not in fns["wrap"] and "ret_b" not in fns["take"]


def test_a_tensor_a_call_gave_of_a_parameters_is_handed_over_too():
    """`pick` and `pick2` return their `&mut` parameter's tensor and `own` the one moved in,
    at every return: what `wrap` gives back of their calls is the tensor its caller handed."""
    ran = run_front(CASES / "through_calls.vx", hand_on_lent_tensors)
    fns = {i.name: to_text(i) for i in ran.after.items if i._prod == "Fn"}
    assert "p_0 = @wrap(&mut t, &mut u, w);\n    p_1 = w;\n    p_2 = t;" in fns["main"]
    assert "ret_1" not in fns["wrap"] and "ret_2" not in fns["wrap"]
    shared = run_front(CASES / "shared_tensor.vx", hand_on_lent_tensors).after
    assert "p_a = @wrap(&mut t, &mut u);\n    p_b = t;" in to_text(shared)


def test_a_program_giving_nothing_back_comes_out_as_it_went_in():
    ran = run_front(CASES / "../scalarize_aggregates/structs.vx", hand_on_lent_tensors)
    assert ran.after is ran.before


# Hand-written Lparted: `wrap` gives back the tensor x lends, but `outer` hands its own
# out-parameter on to it rather than a variable of its own: both keep their out-parameters
# (copy-out-tensors then refuses the tensor given back, which more than the aggregate holds).
FORWARDED = """
    // IL: Lparted
    fn wrap(x: &mut Tensor<f32, [2]>, ret_b: &mut Tensor<f32, [2]>) -> i32 {
        let b: ~_ = *x;
        give_back ret_b = b;
        1
    }

    fn outer(x: &mut Tensor<f32, [2]>, ret_b: &mut Tensor<f32, [2]>) -> i32 {
        @wrap(x, ret_b)
    }

    fn main() {
        let mut t: ~_ = Tensor<f32, [2]>::fill(5.0);
        let mut b: ~_ = Tensor<f32, [2]>::fill(0.0);
        @print(@outer(&mut t, &mut b));
        t[0] = 7.0;
        @print(b);
    }
"""


def test_handwritten_a_function_whose_call_hands_on_an_out_parameter_keeps_them(run_pass):
    ran = run_pass("hand-on-lent-tensors", FORWARDED)
    assert ran.codes == []
    assert ran.tree == ran.before
    assert _printed(ran.before) == "1\n[7, 5]\n"
    alone = FORWARDED.replace("@print(@outer(&mut t, &mut b));", "@wrap(&mut t, &mut b);")
    alone = alone[:alone.index("    fn outer")] + alone[alone.index("    fn main"):]
    ran = run_pass("hand-on-lent-tensors", alone)
    assert "@wrap(&mut t);\n    b = t;" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "[7, 5]\n"

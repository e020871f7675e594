"""flag-maybe-lent-tensors: a function returning either the tensor a `&mut` parameter lends
it or one it makes says which through a flag, and a function giving back what a call of it
gave copies the tensor where it was made and else says the caller's local is the tensor it
lent; the program prints what it printed, and native code runs it as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.flag_maybe_lent_tensors import flag_maybe_lent_tensors
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "flag_maybe_lent_tensors"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
COPY_OUT = Path(__file__).parent / "cases" / "copy_out_tensors"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", flag_maybe_lent_tensors)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert "GiveBack" not in {n._prod for n in ran.nodes()}
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", flag_maybe_lent_tensors)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_flag_chooses_between_the_copy_and_the_tensor_lent():
    text = to_text(run_front(COPY_OUT / "maybe_lent.vx", flag_maybe_lent_tensors).after)
    assert "    if k > 1.0 {\n        return Tensor<f32, [2]>::fill(k);\n    }\n" \
           "    *lent = true;\n    *x\n" in text
    assert "    let agg#1: ~_ = @maybe(x, 0.5, &mut lent#2);\n" in text
    assert "    if lent#2 {\n        *lent = true;\n    } else {\n        for copied in 0..2 {\n" \
           "            (*ret_b)[copied] = agg#1[copied];\n" in text
    assert "    p_a = @wrap(&mut t, &mut u, &mut p_b, &mut lent, &mut lent#1);\n    if lent {\n" \
           "        p_b = t;\n    }\n" in text


def test_a_result_a_lending_call_gave_hands_on_its_flag():
    """wrap's result is what `maybe(z, ..)` gave: wrap's own flag, handed on to that call,
    says whether it is the tensor its caller lent (drop-flagged-takers reads it)."""
    text = to_text(run_front(COPY_OUT / "maybe_lent.vx", flag_maybe_lent_tensors).after)
    assert "ret_b: &mut Tensor<f32, [2], Memory::CPU_DRAM>, lent: &mut bool, " \
           "lent#1: &mut bool) -> Tensor<f32, [2], Memory::CPU_DRAM> {\n" in text
    assert "    let agg: ~_ = @maybe(z, 0.0, lent#1);\n" in text
    assert "    let mut lent#1: ~bool = false;\n    p_a = @wrap(" in text


PROGRAM = """struct Both {{ a: Tensor<i32, [2]>, b: Tensor<i32, [2]> }}
fn made(k: i32) -> Tensor<i32, [2]> {{
    let mut m = Tensor<i32, [2]>::fill(k); if k > 5 {{ m = Tensor<i32, [2]>::fill(5); }} m
}}
fn maybe(x: &mut Tensor<i32, [2]>, k: i32) -> Tensor<i32, [2]> {{ {maybe} }}
fn wrap(x: &mut Tensor<i32, [2]>, z: &mut Tensor<i32, [2]>) -> Both {{ {wrap} }}
fn main() {{
  let mut t = Tensor<i32, [2]>::fill(5);
  let mut u = Tensor<i32, [2]>::fill(1);
  {call}
  u[0] = 7;
  print(p);
}}
"""
MAYBE = "if k > 1 { return Tensor<i32, [2]>::fill(k); } *x"
WRAP = "Both { a: maybe(z, 0), b: maybe(x, 2) }"
CALL = "let p = wrap(&mut t, &mut u);"


# A tensor a call made, held by a `let mut` it may assign whole, or a local another holds
# too, returned beside the one lent; the tensor taken read whole besides being given back; a
# call of the function giving it back lending no variable: given back as it was
# (copy-out-tensors refuses each).
@pytest.mark.parametrize("maybe, wrap, call", [
    ("if k > 1 { return made(k); } *x", WRAP, CALL),
    ("if k > 1 { let m = Tensor<i32, [2]>::fill(k); let n = m; return n; } *x", WRAP, CALL),
    (MAYBE, "let b = maybe(x, 2); let c = b; Both { a: maybe(z, 0), b: c }", CALL),
    (MAYBE, WRAP, "let r = &mut t;\n  let p = wrap(r, &mut u);\n  r[1] = 3;"),
])
def test_a_tensor_not_told_apart_is_given_back_as_it_was(maybe, wrap, call):
    ran = run_front(PROGRAM.format(maybe=maybe, wrap=wrap, call=call), flag_maybe_lent_tensors)
    wrap = next(i for i in ran.after.items if i.name == "wrap")
    assert [p.name for p in wrap.params] == ["x", "z", "ret_b"]
    assert [n.param for n in ran.nodes("GiveBack")] == ["ret_b"]


# Hand-written Lparted: the function giving back is called as a statement dropping nothing,
# twice with one taker, which the second call gives a new tensor first (it holds the one the
# first lent), and returns its parameter's tensor from a `return` inside an `if`.
HANDWRITTEN = """
// IL: Lparted
fn maybe(x: &mut Tensor<i32, [2], Memory::CPU_DRAM>, k: i32) -> Tensor<i32, [2], Memory::CPU_DRAM> {
    if k > 1 {
        return *x;
    }
    Tensor<i32, [2], Memory::CPU_DRAM>::fill(k)
}

fn give(x: &mut Tensor<i32, [2], Memory::CPU_DRAM>, k: i32, ret: &mut Tensor<i32, [2], Memory::CPU_DRAM>) {
    let b: Tensor<i32, [2], Memory::CPU_DRAM> = @maybe(x, k);
    give_back ret = b;
}

fn main() {
    let mut t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2], Memory::CPU_DRAM>::fill(5);
    let mut q: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2], Memory::CPU_DRAM>::new();
    @give(&mut t, 2, &mut q);
    t[0] = 7;
    @print(q);
    @give(&mut t, 0, &mut q);
    t[1] = 8;
    @print(q);
}
"""


def test_handwritten_a_statement_calling_the_function_giving_back(run_pass, snapshot_txt):
    ran = run_pass("flag-maybe-lent-tensors", HANDWRITTEN)
    assert ran.codes == []
    assert "    if k > 1 {\n        *lent = true;\n        return *x;\n    }\n" in ran.dump
    assert "    @give(&mut t, 2, &mut q, &mut lent);\n    if lent {\n        q = t;\n    }\n" \
        in ran.dump
    assert "    q = Tensor<i32, [2], Memory::CPU_DRAM>::new();\n    let mut lent#1: ~bool = false;\n" \
           "    @give(&mut t, 0, &mut q, &mut lent#1);\n" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "[7, 5]\n[0, 0]\n"
    assert ran.dump == snapshot_txt

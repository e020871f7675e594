"""verify-seams (--verify-seams): a relaxed transfer whose data a kernel's assert depends on
is refused with z3's counterexample (E6004); a synchronized one, or an assert the data cannot
change, is admitted."""

import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nano_vx.cli import main as cli_main
from nano_vx.contracts.terms import FLOAT_LITERAL, INT_LITERAL, Encoding, Term, Unknown
from nano_vx.passes.verify_seams import verify_seams
from nano_vx.solver import bounded, counterexample
from nano_vx.values.numbers import INT_TYPES
from front import run_front

CASES = Path(__file__).parent / "cases" / "verify_seams"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "stale_read": ("E6004", "relaxed transfer of 'a' across the CPU_DRAM -> NPU_HBM seam"),
    "wrapping": ("E6004", "relaxed transfer of 'a' across the CPU_DRAM -> NPU_HBM seam"),
    "not_a_number": ("E6004", "relaxed transfer of 'xs' across the CPU_DRAM -> NPU_HBM seam"),
}


# z3 takes seconds on some cases (not_a_number), which several tests read: each is judged
# once per process (a Ran is only read).
@cache
def judged(case: str):
    return run_front(CASES / f"{case}.vx", verify_seams, verify_seams=True)


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = judged(case)
    assert ran.after is ran.before
    code = REFUSED.get(case, (None,))[0]
    assert ran.diagnostics.codes() == ([code] if code else [])
    assert ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    [d] = judged(case).diagnostics.items
    assert (d.code, REFUSED[case][1] in d.message) == ("E6004", True)
    assert not judged(f"{case}_repaired").diagnostics.items


def test_the_counterexample_names_the_read_as_written_and_as_read_stale():
    [d] = judged("wrapping").diagnostics.items
    assert d.data["reads"] == [{"read": "moved[1]", "fresh": d.data["reads"][0]["fresh"],
                                "stale": "2147483647"}]
    assert (d.data["value"], d.data["seam"]) == ("a", ["CPU_DRAM", "NPU_HBM"])
    assert "`v + 1 > v` at 7:12 false" in d.notes[0]
    span = d.span
    assert span.source.text[span.start:span.end] == "a.to_device_relaxed()"


def test_without_the_flag_nothing_is_checked():
    ran = run_front(CASES / "stale_read.vx", verify_seams)
    assert not ran.diagnostics.items


def test_correlation_program_4_from_the_command_line(capsys):
    program = Path(__file__).parents[2] / "examples" / "correlation" / \
        "04_freshness_across_the_launch.vx"
    assert cli_main([str(program), "--verify-seams", "--action", "check"]) == 1
    err = capsys.readouterr().err
    assert "error[E6004]: relaxed transfer of 'a' across the CPU_DRAM -> NPU_HBM seam" in err
    assert cli_main([str(program), "--action", "check"]) == 0


@pytest.mark.slow  # a fresh interpreter: what a process imports
def test_z3_is_imported_only_when_the_flag_asks_for_it():
    program = CASES / "stale_read.vx"
    check = ("import sys; from nano_vx.cli import main; "
             f"main([{str(program)!r}, '--action', 'check']); "
             "print('z3' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


# -- the encoding, against brute force over every i8 ---------------------------------------------

def _wrap8(n: int) -> int:
    return (n + 128) % 256 - 128


_OPS = {"+": lambda a, b: _wrap8(a + b), "-": lambda a, b: _wrap8(a - b),
        "*": lambda a, b: _wrap8(a * b)}
_COMPARE = {"==": int.__eq__, "!=": int.__ne__, "<": int.__lt__, "<=": int.__le__,
            ">": int.__gt__, ">=": int.__ge__}


@st.composite
def _i8_terms(draw, depth: int = 3):
    """(text, function of the element) of an i8 term over `moved[0]`, every operation with the
    element on one side (a condition on literals alone is not the seam's)."""
    if depth == 0 or draw(st.booleans()):
        return "moved[0]", lambda x: x
    text, fn = draw(_i8_terms(depth - 1))
    op = draw(st.sampled_from(sorted(_OPS)))
    k = draw(st.integers(-5, 5))
    lit = f"({k})" if k < 0 else str(k)
    if draw(st.booleans()):
        return f"({text} {op} {lit})", lambda x, f=fn, o=_OPS[op], k=k: o(f(x), k)
    return f"({lit} {op} {text})", lambda x, f=fn, o=_OPS[op], k=k: o(k, f(x))


@settings(max_examples=25, deadline=None)
@given(_i8_terms(), st.sampled_from(sorted(_COMPARE)), st.integers(-5, 5))
def test_the_verdict_is_brute_forces_over_every_i8(term, compare, k):
    """E6004 exactly when some element value makes the assert true and another false, with i8
    arithmetic wrapping as the interpreter's does."""
    text, fn = term
    program = f"""
fn stage(a: Tensor<i8, [2]>) -> i32 {{
  let moved = a.to_device_relaxed();
  spawn on(Topology::NPU[0]) {{
    assert({text} {compare} {k});
  }};
  return 0;
}}

fn main() {{
  let _r = stage(Tensor<i8, [2]>::fill(1));
}}
"""
    ran = run_front(program, verify_seams, verify_seams=True)
    outcomes = {_COMPARE[compare](fn(x), k) for x in range(-128, 128)}
    assert ran.diagnostics.codes() == (["E6004"] if len(outcomes) == 2 else [])


# -- the tensor reads of the one encoding (contracts/terms.py), which the seams ask of it -------

def test_an_index_is_a_64_bit_bit_vector_widened_as_its_type_says():
    enc = Encoding()
    z = enc.z
    for ty, value, index in [("i8", -1, 2**64 - 1), ("u8", 255, 255), ("i32", -2, 2**64 - 2),
                             ("i64", 7, 7)]:
        at = enc.index(Term(z.BitVecVal(value, INT_TYPES[ty].bits), ty), None)
        assert (at.ty, z.simplify(at.expr).as_long()) == ("i64", index), ty
    assert z.simplify(enc.index(Term(2**64 + 3, INT_LITERAL), None).expr).as_long() == 3
    assert isinstance(enc.index(Term(1.0, FLOAT_LITERAL), None), Unknown)
    assert isinstance(enc.index(Term(z.BoolVal(True), "bool"), None), Unknown)


def test_an_element_is_the_array_at_its_index_and_a_named_constant_is_one_constant():
    enc = Encoding()
    z = enc.z
    tensor = enc.array("t", "f32")
    k = enc.constant("k", "i16")
    assert k.expr.eq(enc.constant("k", "i16").expr)
    read = enc.element(tensor, "f32", enc.index(k, None))
    assert read.ty == "f32" and read.expr.eq(z.Select(tensor, z.SignExt(48, k.expr)))
    other = enc.element(tensor, "f32", enc.index(Term(3, INT_LITERAL), None))
    assert counterexample(bounded(10_000), k.expr == 3, z.Not(read.expr == other.expr)) \
        .status == "holds"


# Hand-written Lrouted: the relaxed tensor's name bound again, in a block of the host and in
# kernels, which the unique names of resolve-names rule out. An assert on a value of that name
# there reads the block's own value, and asks nothing of the seam; the last kernel reads the
# moved tensor itself and is refused.
NAME_BOUND_AGAIN = """
    // IL: Lrouted
    fn stage(a: Tensor<i32, [4], Memory::CPU_DRAM>) {
        let m: Tensor<i32, [4], Memory::NPU_HBM> =
            transfer[relaxed, CPU_DRAM -> NPU_HBM (50), cost 50](a, Memory::NPU_HBM);
        {
            let m: Tensor<i32, [4], Memory::NPU_HBM> = Tensor<i32, [4]>::fill(42);
            spawn on(Topology::NPU[0]) {
                assert(m[2] == 42);
            };
        }
        spawn on(Topology::NPU[0]) {
            for m in 0..4 {
                assert(m < 4);
            }
            let m: Tensor<i32, [4], Memory::NPU_HBM> = Tensor<i32, [4]>::fill(42);
            assert(m[0] == 42);
        };
        spawn on(Topology::NPU[0]) {
            assert(m[1] == 42);
        };
    }
"""


def test_handwritten_a_name_bound_again_is_not_the_moved_tensor(run_pass, snapshot_txt):
    ran = run_pass("verify-seams", NAME_BOUND_AGAIN, verify_seams=True)
    assert ran.codes == ["E6004"]
    assert ran.diagnostics.items[0].notes == [
        "counterexample from z3: `m[1]` is 42 as written but 0 as the kernel may read it, "
        "which makes the kernel's assert `m[1] == 42` at 19:16 false"]
    assert ran.dump == snapshot_txt

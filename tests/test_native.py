"""Native code equals the interpreter: every example (with each command line its header
promises) and every case program of the pass tests prints the same and exits the same way
compiled to native code (the default action) as in the reference interpreter (`--action
interpret`). A program native code does not lower runs in the interpreter either way, after
W5001; the test counts those, so that a change that stops lowering programs shows."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from nano_vx.cli import main
from test_examples import PROMISES

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted((ROOT / "tests" / "passes" / "cases").rglob("*.vx"))
# A promise of `--action check` runs nothing (the spatial lane's Vx kernels have no `main`).
RUNS = [(f"examples/{p.example}", p.args) for p in PROMISES if "check" not in p.args] + \
       [(str(c.relative_to(ROOT)), ()) for c in CASES]
_CODES = re.compile(r"^(?:error|warning)\[([EW]\d{4})\]", re.M)

# The programs native code does not lower (each refused with E5010): the run-time machine
# state of `try_pin` and `match` on it; `.extent(i)`; a function returning a reference to a
# scalar, a reference to an element; an aggregate scalarize-aggregates cannot take apart (a
# generic struct returned whose fields no local types).
NOT_LOWERED = {
    "tests/passes/cases/check_loans/admitted.vx",
    "tests/passes/cases/type_scalars/e5010_element_reference.vx",
    "tests/passes/cases/erase_struct_arguments/nested.vx",
    "tests/passes/cases/erase_struct_arguments/pair.vx",
    "tests/passes/cases/desugar_tensor_constructors/forms.vx",
    "tests/passes/cases/check_match_arms/missing_available_repaired.vx",
    "tests/passes/cases/check_match_arms/missing_saturated_repaired.vx",
    "tests/passes/cases/check_match_arms/nested_repaired.vx",
    "tests/passes/cases/check_match_arms/unrolled_repaired.vx",
    "tests/passes/cases/check_visibility/pinned_repaired.vx",
    "tests/passes/cases/infer_placement/try_pin.vx",
    "tests/passes/cases/resolve_names/match_arms.vx",
    "tests/passes/cases/type_scalars/e5010_assigning_closure.vx",
    "tests/passes/cases/type_scalars/e5010_try_pin.vx",
    # An adjoint whose tape is sized at run time (a loop bound known only when the loop
    # starts, a `while`) holds a tensor of `?` extent.
    "tests/passes/cases/differentiate_reverse/loops.vx",
    "tests/passes/cases/differentiate_reverse/while_on_value_repaired.vx",
    # A string copied into another local (number-texts numbers only one that is printed).
    "tests/passes/cases/number_texts/copied.vx",
    # An aggregate a call makes on the right of `&&`; one whose `print` takes more than 64
    # arms; a struct returned holding two tensors.
    "tests/passes/cases/name_temporaries/e5010_right_of_and.vx",
    "tests/passes/cases/expand_aggregate_prints/e5010_too_many_arms.vx",
    "tests/passes/cases/scalarize_aggregates/e5010_two_tensors.vx",
    # A tensor of a narrow storage type (f8e4m3, i4, ...): the interpreter runs it.
    "tests/passes/cases/check_element_types/narrow_element_repaired.vx",
    "tests/passes/cases/check_element_types/narrow_elsewhere_repaired.vx",
    # Raw pointers and `unsafe`: a pointer is an element of a tensor, which native code
    # holds as a memref, not an address it can offset; the interpreter runs them.
    "tests/passes/cases/check_unsafe/pointers.vx",
    "tests/passes/cases/check_unsafe/read_outside_repaired.vx",
    "tests/passes/cases/check_unsafe/write_outside_repaired.vx",
    "tests/passes/cases/check_unsafe/unsafe_call_repaired.vx",
    "tests/passes/cases/check_calls/device_pointer_repaired.vx",
    "tests/passes/cases/check_visibility/pointer_repaired.vx",
    "tests/passes/cases/desugar_comptime/e3033_unsafe_repaired.vx",
    # Vectors, `<N x T>`: native code does not lower them yet; the interpreter runs them.
    "tests/passes/cases/check_operand_types/vector_lanes_repaired.vx",
    "tests/passes/cases/check_vector_lanes/lane_at_run_time.vx",
    "tests/passes/cases/check_vector_lanes/lane_out_of_range_repaired.vx",
    "tests/passes/cases/check_vector_lanes/lane_type_repaired.vx",
    "tests/passes/cases/check_vector_lanes/lane_written_repaired.vx",
    "tests/passes/cases/check_vector_types/lanes_not_literal_repaired.vx",
    "tests/passes/cases/check_vector_types/lanes_not_scalar_repaired.vx",
    "tests/passes/cases/check_vector_types/vectors.vx",
    "tests/passes/cases/check_vector_types/wrong_value_count_repaired.vx",
    "tests/passes/cases/decide_vector_splats/contexts.vx",
    "tests/passes/cases/decide_vector_splats/undetermined_repaired.vx",
    # `malloc(n)` and `Tensor<f32, CPU_DRAM>`: a tensor of `?` extent.
    "tests/passes/cases/desugar_malloc/old_spellings.vx",
    "tests/passes/cases/desugar_malloc/untyped_repaired.vx",
}


def _run(path: str, *args: str) -> tuple[int, str, list[str]]:
    out, err = io.StringIO(), io.StringIO()
    code = main([path, *args], stdout=out, stderr=err)
    return code, out.getvalue(), _CODES.findall(err.getvalue())


@pytest.mark.slow
@pytest.mark.parametrize("path,args", RUNS, ids=[" ".join((p, *a)) for p, a in RUNS])
def test_native_code_prints_and_ends_as_the_interpreter(path, args, monkeypatch):
    monkeypatch.chdir(ROOT)
    interpreted = _run(path, *args, "--action", "interpret")
    native = _run(path, *args)
    status, printed, codes = native
    if path in NOT_LOWERED:
        assert codes[:1] == ["W5001"], "native code now lowers it: take it off NOT_LOWERED"
        codes = [c for c in codes if c != "W5001"]
    assert (status, printed, codes) == interpreted


def test_the_programs_native_code_does_not_lower_are_the_ones_listed():
    listed = {path for path, _ in RUNS if path in NOT_LOWERED}
    assert listed == NOT_LOWERED


@pytest.mark.parametrize("kernel", ["matmul", "stencil", "reduction"])
def test_the_benchmark_kernels_compile_to_vector_code_at_O3(kernel):
    out, err = io.StringIO(), io.StringIO()
    path = ROOT / "benchmarks" / "kernels" / f"{kernel}.vx"
    assert main([str(path), "--action", "emit-llvm", "-O3"], stdout=out, stderr=err) == 0
    assert not err.getvalue() and re.search(r"<\d+ x (float|double|i64)>", out.getvalue())

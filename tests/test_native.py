"""Native code equals the interpreter: every example (with each command line its header
promises) and every case program of the pass tests prints the same, reports the same bytes on
stderr (a stop's code, place and message) and exits the same way compiled to native code (the
default action) as in the reference interpreter (`--action interpret`). A program native code
does not lower runs in the interpreter either way, after W5001; the test counts those, so that
a change that stops lowering programs shows."""

from __future__ import annotations

import io
import re
from pathlib import Path
from string import Template

import pytest

from nano_vx.cli import main
from test_examples import PROMISES

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted((ROOT / "tests" / "passes" / "cases").rglob("*.vx"))
# A promise of `--action check` runs nothing (the spatial lane's Vx kernels have no `main`).
# The contract cases run with the second per obligation their pass tests give z3
# (tests/passes/test_verify_contracts.py): `timeout.vx` takes all it is given, and the default
# ten seconds, twice, was a third of the module's time.
CASE_ARGS = {"verify_contracts": ("--contract-timeout-ms=1000",)}
RUNS = [(f"examples/{p.example}", p.args) for p in PROMISES if "check" not in p.args] + \
       [(str(c.relative_to(ROOT)), CASE_ARGS.get(c.parent.name, ())) for c in CASES]
_CODES = re.compile(r"^(?:error|warning)\[([EW]\d{4})\]", re.M)
# One W5001 warning as rendered: its lines up to the blank line that ends it.
_W5001 = re.compile(r"warning\[W5001\]:.*?\n\n", re.S)

# The programs native code does not lower (each refused with E5010): an aggregate
# scalarize-aggregates cannot take apart (a generic struct's erased field given forms that
# no copy of its function covers); a closure returned from the closure whose variable it
# assigns, copied into a variable alive while a closure assigns the first anew (the
# assignment does not see the copy).
NOT_LOWERED = {
    # A closure returning a generic struct whose erased field is one literal in one value it
    # gives and another in another (split-closure-results leaves it whole: no type says the
    # part for its `&mut`, nor is it one literal the call's `let` may bind).
    "tests/passes/cases/split_closure_results/e5010_generic_struct_results_of_two_literals.vx",
    # A closure returning an enum a variant of which carries a tensor, chosen by a `match`
    # (split-closure-results leaves it whole: written part by part, its tensor would be
    # assigned whole through a `&mut`, which the closure's erased tensor references make a
    # rebinding of its parameter instead).
    "tests/passes/cases/split_closure_results/e5010_enum_carrying_a_tensor_chosen_by_a_match.vx",
    # A closure taking a struct given, in a `while` condition, a literal whose field is an
    # operator on literals alone (split-closure-aggregates leaves it whole: a closure's
    # argument would compute it as a plain i32, and no `let` before the loop holds it).
    "tests/passes/cases/split_closure_aggregates/"
    "e5010_struct_literal_of_an_operator_on_literals_given_in_a_while_condition.vx",
    # A reference to an element of a tensor made by ::uninit() of `?` extents at a computed
    # index (track-uninit-elements): no static extent to check the index against where it
    # is taken, and a write through it would set no written-flag, a read through it check
    # none.
    "tests/passes/cases/track_uninit_elements/"
    "e5010_element_of_unknown_extents_borrowed_at_a_computed_index.vx",
    # One assigned whole in a loop where another name holds its buffer (track-uninit-
    # elements): no `let` of its own names the tensor of each turn, its flags would then be
    # another tensor's, and a copy into it would change the other name's.
    "tests/passes/cases/track_uninit_elements/"
    "e5010_assigned_whole_in_a_loop_where_another_name_holds_its_buffer.vx",
    # Ever deeper forms, at each recursive call, of a `Cell` taken without its arguments
    # (written `Cell<i32>`, check-struct-instances refuses the nesting: E3012): a genuine
    # limit, as deep as the recursion runs, which no finite set of copies covers.
    "tests/passes/cases/scalarize_aggregates/e5010_unwritten_arguments_holding_ever_deeper_"
    "aggregates.vx",
    # Two tensors of a struct assigned whole through a `&mut` to the struct, each one's
    # buffer held by another local too, one lent `&mut` on before its field is assigned anew
    # (native code copies into the buffer, which the other would see).
    "tests/passes/cases/scalarize_aggregates/"
    "e5010_two_tensor_parts_assigned_and_both_held_one_lent_mutably_before.vx",
    # A `&mut` to a struct a function returns from a `return` in its statements on a
    # condition after a `let` its arm reads (neither computed again per part nor written at
    # the call).
    "tests/passes/cases/scalarize_aggregates/"
    "e5010_mut_reference_returned_early_on_a_condition_after_a_let_the_arm_reads.vx",
    # A `&mut` to a `&mut` parameter's struct made to refer to another's in a loop, the
    # tensor assigned whole through it, where a `let` holds the first's tensor: native code
    # copies the new tensor into the buffer, which the `let` would see.
    "tests/passes/cases/scalarize_aggregates/e5010_tensor_assigned_whole_through_a_reference_"
    "to_a_parameters_struct_made_to_refer_elsewhere_whose_tensor_a_let_holds.vx",
    # A constant holding an aggregate holding two tensors, each an `if` chooses among other
    # constants' (not another constant's read, which a constant of its own reads again), or
    # made by ::uninit(), or rows of one tensor (the function computing it returns one tensor
    # and would copy the other, as copy-out-tensors refuses for any function returning two
    # such tensors: a call gives back one buffer): inline-aggregate-constants refuses it.
    "tests/passes/cases/inline_aggregate_constants/"
    "e5010_holding_two_tensors_constants_hold_chosen_by_ifs.vx",
    "tests/passes/cases/inline_aggregate_constants/e5010_holding_two_tensors_made_by_uninit.vx",
    "tests/passes/cases/inline_aggregate_constants/e5010_holding_two_rows_of_one_tensor.vx",
    # A constant holding a tensor made by ::uninit() of `?` extents (flag-uninit-constants):
    # no flags of static extents for its first read to make.
    "tests/passes/cases/flag_uninit_constants/e5010_of_unknown_extents.vx",
    # A constant holding a reference to an element of a tensor constant, whose value binds a
    # variable (name-temporaries): no function computes a reference constant's value.
    "tests/passes/cases/name_temporaries/"
    "e5010_reference_constant_naming_an_element_at_an_index_a_variable_holds.vx",
    # A constant holding a reference whose value calls a function, choosing between elements
    # of two tensor constants (dereference-constants): no global keeps a place, each read
    # would call it again, and no index names the tensor (index-chosen-constant-elements).
    "tests/passes/cases/dereference_constants/e5010_chosen_by_a_call_between_two_tensors.vx",
    # A closure indexing a parameter of no written type, given to a variable then assigned
    # another, given to a closure that prints before it returns it: no call says whether the
    # parameter is a raw pointer or a tensor.
    "tests/passes/cases/type_scalars/"
    "e5010_closure_value_assigned_given_to_a_closure_printing_then_returning_it.vx",
    # A closure binding an i64 to arithmetic on its untyped parameter, given an i32 and a
    # literal (no one type of its calls types q while compiling): the interpreter's plain
    # i32 takes the i64 it meets, where native code types q once as i64 (language.md, Not
    # yet).
    "tests/passes/cases/type_scalars/"
    "e5010_closure_binding_an_i64_of_its_untyped_parameter_given_an_i32_and_a_literal.vx",
    # A counter copied in a loop, then assigned another by a closure, bound before the loop,
    # that a closure a `let mut` may hold calls (the assignment does not see the copy, which
    # it would give the cell they share).
    "tests/passes/cases/type_scalars/"
    "e5010_counter_copied_in_a_loop_then_assigned_through_a_closure_a_variable_may_hold.vx",
    # A tuple returned through a call of a function that may give back in it the state it
    # is given, given a state an `if` chose between a parameter and a state read from another
    # call's tuple (no flag says which of the caller's variables that element is; given the
    # state read from the tuple alone, `paired(e, y)`, it is refused alike).
    "tests/passes/cases/lower_state_tuples/"
    "e5010_state_read_from_a_tuple_chosen_beside_a_parameter_in_a_tuple_returned_through_a_"
    "call.vx",
    # A parameter of a closure given a variable a `let mut` binds to a function and an `if`
    # in a loop may assign a closure, printed: the next turn reads what the `if` gave, and
    # no flag says which kind the variable holds at a call.
    "tests/passes/cases/halt_closure_prints/"
    "e5010_parameter_given_a_variable_an_if_in_a_loop_assigns_both_kinds_printed.vx",
    # Functions taking a struct, given to a closure that returns one it chooses, given a
    # closure's call to choose by (which may assign a variable it captures that the
    # arguments before it read): its value would call it as it was, not as its parts.
    "tests/passes/cases/check_aggregate_function_values/"
    "e5010_chosen_by_a_closure_given_a_closure_call.vx",
    # A closure a `let mut` binds, called in a `spawn` body in a closure's body that a
    # closure given back by another calls, after the `let` of a tensor another closure it
    # is given reads: a tensor has no zero to bind it to before the variable's `let`
    # (hoist-lets-of-chosen-closures binds only scalars so), so that closure's `let` is out
    # of the launch's scope, and the launch may run after it.
    "tests/passes/cases/hoist_lets_of_chosen_closures/"
    "e5010_tensor_read_by_a_closure_a_launched_variable_is_given_later.vx",
    # A `spawn` body assigning a tensor of the launcher whole and calling in a loop a closure
    # that moves it, the loop's condition reading it after an operator's value, the body
    # assigning it only on some turns: no check of the flag goes before a loop's condition.
    "tests/passes/cases/defer_kernel_moves/"
    "e5010_moved_by_a_closure_called_in_a_loop_whose_condition_reads_it.vx",
    # A struct returned holding two tensors calls gave, each of which may be one its caller
    # lent, or one a call made, held by a `let mut` it may assign whole, which no flag
    # follows (the one not its result would be copied, and a copy would not be that tensor).
    "tests/passes/cases/copy_out_tensors/e5010_maybe_lent_or_made_by_a_call_assigning_it.vx",
    # A string a call computes, printed in the value of an assignment to an element of a
    # tensor the value reads, at an index an operator computes: bind-printed-strings and
    # number-texts leave the program's strings as they are.
    "tests/passes/cases/bind_printed_strings/"
    "e5010_printed_in_an_assignment_to_an_element_its_value_reads_at_a_computed_index.vx",
    # A `let mut` reference chosen at run time between places of a narrow type and of its
    # value type, assigned in a loop, read through in a closure: only statements are
    # written once per storage, and a closure's body is none of its block's.
    "tests/passes/cases/flag_chosen_storages/e5010_read_in_a_closure_in_a_loop.vx",
    # Five references to tensors an `if` chooses between calls' results borrowing only
    # variables the function assigns, given different sums (choose-call-arguments chooses
    # only borrows and literals): each would write the rest of its block once per arm.
    "tests/passes/cases/split_chosen_tensor_references/"
    "e5010_five_references_chosen_between_calls_given_other_sums.vx",
    # Extent arithmetic that might leave i128 (`j * j + 1` of an i64 j, beside a 2): the
    # interpreter's is unbounded.
    "tests/passes/cases/compute_wide_extents/e5010_extent_that_might_leave_i128.vx",
    # A tensor made by ::uninit() a function returns, of `?` extents a call computes, given
    # after an argument calling a closure (no declared type says its result, so
    # name-sizing-calls holds it by no `let`, and no `let` binds the call): its caller
    # cannot size the written-flags before the call.
    "tests/passes/cases/copy_tracked_functions/"
    "e5010_returned_of_extents_a_call_computes_given_after_a_closure_call.vx",
    # A row of a tensor no variable names, given after a variable lent `&mut`, which the
    # statement reads before the tensor's call: name-row-temporaries holds in a `let` what
    # a part computes, not a variable read.
    "tests/passes/cases/name_row_temporaries/"
    "e5010_row_of_a_temporary_after_a_variable_a_call_may_change.vx",
    # Rows an `if` chooses, one arm a `match` choosing rows, for a closure's parameter of no
    # written type: no type said for a `let` for each arm to bind, and its value would start
    # at a tensor nobody owns.
    "tests/passes/cases/type_scalars/"
    "e5010_rows_chosen_by_an_if_and_a_match_in_its_arm_given_to_a_closure_parameter_of_no_"
    "written_type.vx",
    # A closure binding to a `let mut` an enum it takes a variant of which carries a tensor,
    # assigned in a loop: put together again, its other variants' tensors would be buffers
    # no one drops.
    "tests/passes/cases/split_closure_aggregates/"
    "e5010_enum_parameter_carrying_a_tensor_bound_to_a_mut_assigned_in_a_loop.vx",
    # A closure taking a `&` to an enum a variant of which carries a tensor, handing the
    # reference on to a function: put together again from the parts it takes for the call,
    # its other variants' tensors would be buffers no one drops.
    "tests/passes/cases/split_closure_aggregates/"
    "e5010_enum_reference_carrying_a_tensor_handed_on.vx",
    # A function returning an aggregate holding a tensor of `?` extents beside its result,
    # which prints a tensor a local holds that its literal holds too: no tensor of extents
    # its type says for its out-parameter to start from, a function per part would print
    # twice, and its statements cannot run apart from the literal.
    "tests/passes/cases/scalarize_aggregates/"
    "e5010_two_tensors_of_unknown_extents_returned_by_a_function_printing_a_tensor_they_hold.vx",
    # A query of a closure call's result compared with an option, the closure giving one
    # tensor by a `return` and another as its value: no one space says where it is, which
    # would decide it (check-native-subset).
    "tests/passes/cases/flag_assigned_placement_queries/"
    "e5010_query_of_a_closure_call_returning_early_compared_with_an_option.vx",
    # `&mut`s to two references given to a closure that writes through them, one bound after
    # its first call: no copy of the closure can capture it, and a reference has no cell
    # (type-scalars).
    "tests/passes/cases/inline_borrowed_references/"
    "e5010_mut_references_to_two_references_one_bound_after_the_closures_first_call.vx",
    # A closure dereferencing its untyped parameter, given a chain and called through another
    # closure's parameter holding it: no type says what that call gives it, so every chain
    # stays (type-scalars).
    "tests/passes/cases/collapse_reference_chains/"
    "e5010_closure_dereferencing_an_untyped_parameter_given_a_chain_and_called_through_a_"
    "parameter.vx",
    # A closure returned from the closure around it reading a tensor a `let` of that closure
    # binds, or a tensor parameter of it where a closure assigns the value anew: its copy
    # would be a whole tensor stored through a `&mut` (type-scalars).
    "tests/passes/cases/capture_environments/e5010_tensor_a_makers_let_binds.vx",
    "tests/passes/cases/capture_environments/"
    "e5010_tensor_parameter_of_a_value_a_closure_assigns.vx",
    # A closure returned from the closure around it given to a closure that hands it on to
    # another rather than only calling it: a value of the maker's variable (type-scalars).
    "tests/passes/cases/copy_closures_per_made_argument/e5010_made_closure_handed_on.vx",
    # Two closures of one parameters' types, results of two types, given one closure of no
    # written parameter types: no type tells them apart, so one copy types it once
    # (type-scalars).
    "tests/passes/cases/copy_closures_per_argument_type/"
    "e5010_given_closures_of_one_parameter_type_two_results.vx",
    # A tensor of `?` extents assigned whole through a `&mut` (copy-into-lent-tensors): the
    # new tensor may have other extents, which the buffer the reference refers to cannot.
    "tests/passes/cases/copy_into_lent_tensors/e5010_of_unknown_extents.vx",
    # A tensor assigned whole through a `&mut` parameter whose old tensor a `let` holds
    # (copy-into-lent-tensors): copying into the buffer would change what the `let` holds.
    "tests/passes/cases/copy_into_lent_tensors/e5010_whose_buffer_a_let_holds.vx",
    # One through a `let` of a `&mut` to a row (copy-into-lent-tensors): the row is a view of
    # the variable's buffer, which the pass does not follow for a local reference.
    "tests/passes/cases/copy_into_lent_tensors/e5010_local_reference_to_a_row.vx",
}


def _run(path: str, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([path, *args], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _codes(run: tuple[int, str, str]) -> tuple[int, str, list[str]]:
    """A run with its stderr as the diagnostic codes it reports."""
    return run[0], run[1], _CODES.findall(run[2])


def _after_w5001(err: str) -> str:
    """What a run native code does not lower reports after its W5001 warnings (which come
    first, followed by their count): what the interpreter reports."""
    end = 0
    while m := _W5001.match(err, end):
        end = m.end()
    assert end, "native code now lowers it: take it off NOT_LOWERED"
    n = len(_W5001.findall(err[:end]))
    count = f"{n} warning{'s' if n > 1 else ''} reported\n"
    assert err.startswith(count, end), err
    return err[end + len(count):]


@pytest.mark.slow
@pytest.mark.parametrize("path,args", RUNS, ids=[" ".join((p, *a)) for p, a in RUNS])
def test_native_code_prints_and_ends_as_the_interpreter(path, args, monkeypatch):
    monkeypatch.chdir(ROOT)
    interpreted = _run(path, *args, "--action", "interpret")
    native = _run(path, *args)
    status, printed, err = native
    if path in NOT_LOWERED:
        err = _after_w5001(err)
    assert (status, printed, err) == interpreted


def test_the_programs_native_code_does_not_lower_are_the_ones_listed():
    listed = {path for path, _ in RUNS if path in NOT_LOWERED}
    assert listed == NOT_LOWERED


# A raw pointer is the tensor it points into seen as one dimension, and `p[i]` that view's
# element i, checked as every index is: read or written outside the tensor, native code
# stops with E9003 at the place the interpreter stops, in its own words (docs/backend.md,
# Where native code and the interpreter differ): the only difference between the two reports.
OUTSIDE = Template("""fn get(p: *const i32, i: i32) -> i32 {
  unsafe { p[i] }
}

fn main() {
  let mut t = $made;
  let q = t.as_mut_ptr();
  unsafe { q[2] = 5; }
  print(get(t.as_ptr(), 2));
  print(get(q, $k));
}
""")


@pytest.mark.parametrize("made, size", [("Tensor<i32, [3]>::fill(2)", 3),
                                        ("Tensor<i32, [2, 2]>::fill(2)", 4),
                                        ("Tensor<i32, [?, 3]>::fill([1 + 1, 3], 2)", 6)])
@pytest.mark.parametrize("past", [True, False])
def test_a_pointer_read_outside_its_tensor_stops_native_code_as_the_interpreter(made, size,
                                                                               past, tmp_path):
    index = size if past else -1
    path = tmp_path / "outside.vx"
    path.write_text(OUTSIDE.substitute(made=made, k=index))
    interpreted, native = _run(str(path), "--action", "interpret"), _run(str(path))
    words = f"a read or write through a pointer {index} elements into a tensor of {size}"
    assert words in interpreted[2]
    own = f"index {index} is out of bounds for dimension 0 of extent {size}"
    assert native == (*interpreted[:2], interpreted[2].replace(words, own))
    assert _codes(native) == (1, "5\n", ["E9003"])


# A tensor of `?` extents: native code checks its extents as make_tensor does (each not
# negative, then at most 2**63 elements) and every index against the extent memref.dim reads,
# stopping with the interpreter's words; an enormous tensor is a stop, not an allocation.
DYNAMIC = Template("""fn main() {
  let n: $t = $n;
  let m: $t = $m;
  let mut t = Tensor<u8, [?, ?]>::new([n, m]);
  t[1][0] = 7;
  print(t[1][0]);
  print(t[$i][0]);
}
""")


@pytest.mark.parametrize("t, n, m, i, expected", [
    ("i32", "3", "2", "2", (0, "7\n0\n", [])),
    ("i32", "3", "2", "3", (1, "7\n", ["E9003"])),
    ("u16", "3", "2", "3", (1, "7\n", ["E9003"])),
    ("i32", "0 - 3", "2", "0", (1, "", ["E9006"])),
    ("i32", "3", "0 - 1", "0", (1, "", ["E9006"])),
    ("u32", "4000000000", "4000000000", "0", (1, "", ["E9006"])),
    # Two 64-bit extents: two products, whose product the stop prints past 2**64.
    ("i64", "3", "2", "2", (0, "7\n0\n", [])),
    ("i64", "4294967296", "4294967296", "0", (1, "", ["E9006"])),
    ("u64", "18446744073709551615", "18446744073709551615", "0", (1, "", ["E9006"])),
    ("u64", "0", "18446744073709551615", "0", (1, "", ["E9003"])),
])
def test_a_tensor_of_dynamic_extents_stops_native_code_as_the_interpreter(t, n, m, i, expected,
                                                                          tmp_path):
    path = tmp_path / "dynamic.vx"
    path.write_text(DYNAMIC.substitute(t=t, n=n, m=m, i=i))
    interpreted, native = _run(str(path), "--action", "interpret"), _run(str(path))
    assert native == interpreted and _codes(native) == expected


# A row that starts past a `?` extent prints as a record of its address and extents: where
# it has more elements than a print shows, or its index is outside the tensor, native code
# stops as the interpreter does.
SIZED_ROW = Template("""fn main() {
  let n = $n;
  let mut t = Tensor<u8, [2, ?]>::new([2, n]);
  t[1][0] = 7;
  print(t[$i]);
}
""")


@pytest.mark.parametrize("n, i, expected", [("3", "1", (0, "[7, 0, 0]\n", [])),
                                            ("5000", "1", (1, "", ["E9006"])),
                                            ("3", "2", (1, "", ["E9003"]))])
def test_a_row_past_a_dynamic_extent_prints_and_stops_as_the_interpreter(n, i, expected,
                                                                          tmp_path):
    path = tmp_path / "row.vx"
    path.write_text(SIZED_ROW.substitute(n=n, i=i))
    interpreted, native = _run(str(path), "--action", "interpret"), _run(str(path))
    assert native == interpreted and _codes(native) == expected


# A row printed at an index outside its tensor: the stop points at the row (`t[i]`), not at
# the `print` around it, as the interpreter's does.
ROW = Template("""fn main() {
  let t = Tensor<i32, [2, 3, 4]>::fill(1);
  let mut i = 1;
  i = i + $step;
  print($row);
}
""")


@pytest.mark.parametrize("row, step, caret", [("t[i]", "1", "^^^^"), ("t[1][i]", "2", "^^^^^^^"),
                                              ("t[i - 2][1]", "0", "^^^^^^^^^^^")])
def test_a_row_printed_outside_its_tensor_stops_at_the_row(row, step, caret, tmp_path):
    path = tmp_path / "row.vx"
    path.write_text(ROW.substitute(row=row, step=step))
    interpreted, native = _run(str(path), "--action", "interpret"), _run(str(path))
    assert native == interpreted and _codes(native) == (1, "", ["E9003"])
    assert f"|   print({row});\n  |         {caret}\n" in native[2]


# A tensor no machine holds (10**18 bytes): the interpreter holds one sparsely and runs on,
# native code stops at the constructor with E9006 (docs/backend.md, Where native code and the
# interpreter differ): the only difference between the two.
HUGE = Template("""fn main() {
  let t = Tensor<u8, [1000000, 1000000, 1000000]>::$made;
  print(t[0][0][0]);
}
""")


@pytest.mark.parametrize("made, printed, words", [
    ("new()", "0\n", "cannot allocate `Tensor<u8, [1000000, 1000000, 1000000]>::new()`: "
                     "1000000000000000000 bytes"),
    ("fill(1)", "1\n", "cannot fill `Tensor<u8, [1000000, 1000000, 1000000]>::fill(1)`: "
                       "1000000000000000000 bytes is more than this machine's memory")])
def test_a_tensor_no_machine_holds_stops_native_code_where_the_interpreter_runs_on(
        made, printed, words, tmp_path):
    path = tmp_path / "huge.vx"
    path.write_text(HUGE.substitute(made=made))
    assert _run(str(path), "--action", "interpret") == (0, printed, "")
    caret = "^" * len(f"Tensor<u8, [1000000, 1000000, 1000000]>::{made}")
    assert _run(str(path)) == (1, "", f"""error[E9006]: {words}
 --> {path}:2:11
  |
2 |   let t = Tensor<u8, [1000000, 1000000, 1000000]>::{made};
  |           {caret}

1 error reported
""")


# Tensors of the narrow storage types, which native code stores a byte an element: each value
# written rounds, saturates or becomes NaN as ml_dtypes says (exact values, ties either way,
# subnormals of f8 and of f32, past the largest, infinities and NaN), is read back as an f32
# (an i8 or u8 for i4, u4), through a parameter, a transfer and a compound assignment; a row
# printed. tests/backend/test_narrow_floats.py checks the conversions on every bit pattern.
NARROW = """fn widen_all(t: &Tensor<f8e4m3, [8]>) -> f32 {
  let mut s: f32 = 0.0;
  for i in 0..8 { s = s + t[i]; }
  return s;
}

fn main() {
  let zero: f32 = 0.0;
  let big: f32 = 1.0e30;
  let values = [0.0, -0.0, 1.0, 1.0625, 1.1875, 1.125, 448.0, 464.0, 465.0, 480.0, 57344.0,
                61440.0, 61439.0, 0.001953125, 0.0009765625, 0.0009766, 0.00000001, 1.0e-40,
                3.3, -7.77, 240.5, 0.017578125];
  let mut a = Tensor<f8e4m3, [22]>::new();
  let mut b = Tensor<f8e5m2, [22]>::new();
  for i in 0..22 {
    a[i] = values[i] as f32;
    b[i] = values[i] as f32;
  }
  print(a);
  print(b);
  let mut c = Tensor<f8e4m3, [2, 3]>::fill(big);
  c[0][1] = zero / zero;
  c[1][2] = -big;
  c[1][0] = 2.0;
  c[1][0] *= 1.4;
  print(c);
  print(c[1]);
  let mut d = Tensor<f8e5m2, [3]>::fill(big);
  d[1] = zero / zero;
  d[2] = -big * big;
  print(d);
  let mut lit = Tensor<f8e4m3, [8]>::new();
  for i in 0..8 { lit[i] = (i as f32) * 0.1 + 0.1; }
  print(widen_all(&lit));
  let moved = transfer(lit, Memory::CPU_DRAM);
  print(moved[3]);
  let mut n = Tensor<i4, [5]>::new();
  let mut u = Tensor<u4, [5]>::new();
  let ints = [7, 8, -9, 100, -1];
  for i in 0..5 {
    n[i] = ints[i] as i8;
    u[i] = ints[i] as u8;
  }
  n[0] += 1;
  u[0] += 9;
  print(n);
  print(u);
  print(n[0] + n[1]);
  let mut f = Tensor<f4e2m1, [12]>::new();
  let fours = [0.25, 0.26, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 7.0, -100.0, 0.0, 4.9];
  for i in 0..12 { f[i] = fours[i] as f32; }
  f[10] = zero / zero;
  f[11] -= big;
  print(f);
}
"""


# Narrow tensors in a struct passed to a function and in a tuple printed, and of rank 2.
NARROW_HELD = """struct Layer { w: Tensor<f8e5m2, [3]>, scale: f32 }

fn total(l: Layer) -> f32 {
  return l.w[0] + l.w[1] + l.w[2];
}

fn main() {
  let mut w = Tensor<f8e5m2, [3]>::fill(0.3);
  w[2] = 100.0;
  let l = Layer { w: w, scale: 2.0 };
  print(total(l));
  let pair = (Tensor<u4, [2]>::fill(20), 1);
  print(pair);
  let m = Tensor<f4e2m1, [2, 2]>::fill(2.6);
  let mut s: f32 = 0.0;
  for i in 0..2 { for j in 0..2 { s += m[i][j]; } }
  print(s);
}
"""


# Narrow tensors returned, lent (`&mut` too, and to a generic function), read in a closure,
# compared and cast.
NARROW_LENT = """fn make(v: f32) -> Tensor<f8e4m3, [3]> {
  let mut t = Tensor<f8e4m3, [3]>::fill(v);
  t[1] = v * 10.0;
  return t;
}

fn bump(t: &mut Tensor<i4, [2]>) {
  t[0] += 5;
  t[1] = t[0] * 3;
}

fn first<T>(t: &Tensor<T, [3]>) -> f32 {
  return 1.0;
}

fn main() {
  let a = make(0.7);
  let b = &a;
  print(first(b));
  print(a[0] == a[2]);
  print(a[1] > 6.0);
  let mut q = Tensor<i4, [2]>::fill(3);
  bump(&mut q);
  print(q);
  let f = |k: i32| a[k] * 2.0;
  print(f(1));
  let t = Tensor<f8e5m2, [4]>::fill(1.0);
  let c = t[0] as i32;
  print(c);
  let x: f64 = t[1] as f64 + 0.1;
  print(x);
}
"""


# A sweep: 1200 f32 values of either sign from 1e-12 (below every format's subnormals) up by
# 3.71% a step to past every format's range, written to each narrow float.
NARROW_SWEEP = """fn main() {
  let mut a = Tensor<f8e4m3, [1200]>::new();
  let mut b = Tensor<f8e5m2, [1200]>::new();
  let mut c = Tensor<f4e2m1, [1200]>::new();
  let mut x: f32 = 0.000000000001;
  for i in 0..1200 {
    let v = if i % 2 == 0 { x } else { -x * 1.0001 };
    a[i] = v;
    b[i] = v;
    c[i] = v;
    x = x * 1.0371;
  }
  print(a);
  print(b);
  print(c);
}
"""


@pytest.mark.parametrize("program,shows", [(NARROW, "NaN"), (NARROW_HELD, "([4, 4], 1)"),
                                           (NARROW_LENT, "[-8, -8]"), (NARROW_SWEEP, "inf")])
def test_tensors_of_narrow_types_run_natively_as_interpreted(program, shows, tmp_path):
    path = tmp_path / "narrow.vx"
    path.write_text(program)
    native = _run(str(path))
    assert native[2] == "" and shows in native[1]
    assert native == _run(str(path), "--action", "interpret")


@pytest.mark.parametrize("kernel", ["matmul", "stencil", "reduction", "particles", "generic",
                                    "dispatch", "closure"])
def test_the_benchmark_kernels_compile_to_vector_code_at_O3(kernel):
    out, err = io.StringIO(), io.StringIO()
    path = ROOT / "benchmarks" / "kernels" / f"{kernel}.vx"
    assert main([str(path), "--action", "emit-llvm", "-O3"], stdout=out, stderr=err) == 0
    assert not err.getvalue() and re.search(r"<\d+ x (float|double|i64)>", out.getvalue())

"""copy-tracked-functions: each function given or returning a tensor made by `::uninit()` is
called in a copy of its own, opened by a `WrittenCopy` that says which of its parameters are
given one and whether its callers keep the flags of what it returns; a function called only
through its copies goes. A call returning such a tensor that its statement (a condition, a
return) computes first, or after an operation's left operand computed into a `let` first, or
right of `&&` or `||` (computed first as the `if` it means), is named by a `let` of its own;
one computed later otherwise (a later argument),
and a function that returns one it made and is still called itself, are refused (E5010): the
default action runs the program in the interpreter. The copies print what the functions
printed, and native code stops where the interpreter stops."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.passes.copy_tracked_functions import copy_tracked_functions
from front import (_printed, assert_interpreted_after_w5001, assert_native_as_interpreted,
                   assert_prints_the_same, assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "copy_tracked_functions"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = sorted(n for n in NAMES if n.startswith("e5010_") and not n.endswith("_repaired"))
COPIED = [n for n in NAMES if n not in REFUSED]
SAYS = "a use of a tensor made by ::uninit() whose written-flags it does not follow"


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_tracked_functions)
    assert to_text(ran.after) + ran.diagnostics.render() == snapshot_txt


@pytest.mark.parametrize("case", COPIED)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_tracked_functions)


@pytest.mark.parametrize("case", COPIED)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_stops_where_the_interpreter_stops(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


@pytest.mark.parametrize("case", REFUSED)
def test_a_result_whose_flags_no_caller_keeps_is_refused_and_its_repair_copied(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", copy_tracked_functions, "E5010", SAYS)


@pytest.mark.parametrize("case", REFUSED)
def test_the_default_action_then_stops_as_the_interpreter_does(case):
    assert_interpreted_after_w5001(CASES / f"{case}.vx", "E9005")


def test_a_function_given_tracked_tensors_is_copied_once_and_dropped_when_called_no_more():
    items = "fn get(t: &Tensor<i32, [3]>, i: i32) -> i32 {\n    t[i]\n}\n"
    ran = run_front(f"{items}fn main() {{\n    let mut t = Tensor<i32, [3]>::uninit();\n"
                    "    t[1] = 4;\n    print(get(&t, 1));\n    print(get(&t, 1));\n}\n",
                    copy_tracked_functions)
    fns = {i.name: i for i in ran.after.items if i._prod == "Fn"}
    assert list(fns) == ["main", "get$written"]
    mark = fns["get$written"].body.stmts[0]
    assert (mark._prod, mark.returned) == ("WrittenCopy", False)
    assert len(mark.given) == 1


def test_a_call_of_something_else_is_left_as_it_is():
    ran = run_front("fn main() {\n    let mut t = Tensor<i32, [3]>::uninit();\n    t[0] = 1;\n"
                    "    let f = |i: i32| i + 1;\n    print(f(t[0]));\n}\n",
                    copy_tracked_functions)
    assert ran.diagnostics.codes() == []
    assert ran.after is ran.before


MAKE = "fn make() -> Tensor<i32, [3]> {\n  let mut t = Tensor<i32, [3]>::uninit();\n" \
       "  t[0] = 1;\n  t\n}\n"


@pytest.mark.parametrize("items, body", [
    # Given after another argument.
    (MAKE + "fn add(a: i32, b: i32) -> i32 {\n  a + b\n}\n",
     "let t = make();\nprint(add(t[0], make()[1]));"),
])
def test_a_result_no_let_can_name_is_refused(items, body):
    ran = run_front(f"{items}fn main() {{\n{body}\n}}\n", copy_tracked_functions)
    assert ran.diagnostics.codes() == ["E5010"]


def _returning(params: str, extents: str) -> list:
    """The codes copy-tracked-functions reports of a function returning a tensor of `?`
    extents it makes, called from a `let`."""
    ran = run_front(f"fn make({params}) -> Tensor<i8, [?, 3]> {{\n"
                    f"  let mut t = Tensor<i8, [?, 3]>::uninit([{extents}, 3]);\n"
                    f"  t[0][0] = 1;\n  t\n}}\n"
                    "fn main() {\n  let a = make(2);\n  print(a[0][0]);\n}\n",
                    copy_tracked_functions)
    return ran.diagnostics.codes()


def test_a_result_of_unknown_extents_is_copied_where_its_caller_can_size_its_flags():
    # a parameter, whose count (31 and 2 bits) cannot pass 2^63: the flags never stop first
    assert _returning("n: i32", "n") == []


@pytest.mark.parametrize("params, extents", [
    ("n: i64", "n"),  # 63 and 2 bits: the flags could stop (E9006) where the tensor does
    ("n: i32", "n + 1"),  # computed: might stop before the function runs
])
def test_a_result_whose_caller_cannot_size_its_flags_first_is_refused(params, extents):
    assert _returning(params, extents) == ["E5010"]


# Hand-written Lsplit: a function returning a tensor it made, called from a `let`, and a
# function given one, called twice alike: one copy each, the functions themselves gone.
BOTH = """
    // IL: Lsplit
    fn make() -> Tensor<i32, [2], Memory::CPU_DRAM> {
        let mut t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::uninit();
        t[0] = 3;
        return t;
    }

    fn first(u: &Tensor<i32, [2], Memory::CPU_DRAM>) -> i32 {
        return u[0];
    }

    fn main() {
        let a: Tensor<i32, [2], Memory::CPU_DRAM> = @make();
        @print(@first(&a));
        @print(@first(&a) + 1);
    }
"""


def test_handwritten_a_copy_for_a_result_and_one_for_a_parameter(run_pass):
    ran = run_pass("copy-tracked-functions", BOTH)
    assert ran.codes == []
    assert ran.text.startswith("// IL: Lcopied\n")
    assert "let a: Tensor<i32, [2], Memory::CPU_DRAM> = @make$written();" in ran.dump
    assert ran.dump.count("@first$written(&a)") == 2
    assert "written copy () -> returned;" in ran.dump
    assert "written copy (u);" in ran.dump
    assert "fn make(" not in ran.dump and "fn first(" not in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "3\n4\n"

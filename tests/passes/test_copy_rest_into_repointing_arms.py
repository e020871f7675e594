"""copy-rest-into-repointing-arms: what follows an `if` statement an arm of which makes a
`let mut` reference to a struct or tuple holding a tensor refer elsewhere is copied into
each arm, the assignment a `let` of its own (the `if` the block's value where it has one);
the program prints what it printed, and native code runs it as the interpreter does."""

from pathlib import Path

import pytest

from nano_vx.dump.text import to_text
from nano_vx.nanopass import descendants
from nano_vx.passes.copy_rest_into_repointing_arms import copy_rest_into_repointing_arms
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "copy_rest_into_repointing_arms"
SCALARIZE = Path(__file__).parent / "cases" / "scalarize_aggregates"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", copy_rest_into_repointing_arms)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", copy_rest_into_repointing_arms)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_no_reference_to_a_tensor_holder_is_assigned_any_more():
    for case in NAMES:
        after = run_front(CASES / f"{case}.vx", copy_rest_into_repointing_arms).after
        assert not [n for n in descendants(after) if n._prod == "Assign"
                    and n.target._prod == "Local" and n.target.name.startswith("r")], case


def test_the_arm_assigning_binds_a_let_the_rest_of_it_reads():
    main = to_text(run_front(CASES / "made_to_refer_elsewhere_beside_an_else.vx",
                             copy_rest_into_repointing_arms).after.items[-1])
    assert "    let r: ~&mut Grid = &mut a;\n    if b.width > 5 {\n" \
           "        let r#1: ~&mut Grid = &mut b;\n        r#1.cells = " in main
    assert "    } else {\n        @print(0);\n        r.cells = " in main


def test_an_assignment_after_the_if_binds_a_let_in_each_arm():
    main = to_text(run_front(SCALARIZE / "tensor_assigned_whole_through_a_reference_made_to_"
                             "refer_elsewhere_twice.vx",
                             copy_rest_into_repointing_arms).after.items[-1])
    assert "        let r#1: ~&mut Grid = &mut b;\n        r#1.cells = " in main
    assert "        let r#2: ~&mut Grid = &mut a;\n        r#2.cells = " in main
    assert "    } else {\n        r.cells = Tensor<i32, [2]>::fill(5);\n" \
           "        let r#3: ~&mut Grid = &mut a;\n        r#3.cells = " in main


def test_a_later_if_assigning_it_is_written_again_in_each_copy():
    main = to_text(run_front(CASES / "made_to_refer_elsewhere_in_three_ifs.vx",
                             copy_rest_into_repointing_arms).after.items[-1])
    # the arm of the second `if` not assigning it borrows again what the first's arm did
    assert "        let r#1: ~&mut Inner = &mut b;\n        r#1.cells = Tensor<i32, [2]>::fill(4);\n" \
        "        if c.n > 5 {\n            let r#3: ~&mut Inner = &mut b;\n" in main
    assert "            let r#4: ~&mut Inner = &mut c;\n" in main
    assert main.count("let r#") == 10


def test_a_parameters_struct_is_borrowed_again_in_the_arm_of_a_later_if():
    pick = to_text(run_front(CASES / "parameters_struct_made_to_refer_elsewhere_in_two_ifs_"
                             "called_in_a_loop.vx", copy_rest_into_repointing_arms).after.items[1])
    # the arm not assigning it borrows again what the `let` borrowed: `*g`, still g's
    assert "    } else {\n        let r#2: ~&mut Grid = &mut (*g);\n" in pick
    assert "let r#3: ~&mut Grid = &mut (*g);" in pick and "r = " not in pick


# Made to refer elsewhere in a loop's turn after an `if`, in a loop's turn, or read by a
# closure, or its tensor only written by elements: left as it is.
@pytest.mark.parametrize("lines", [
    "if c { r = &mut b; }\n  r.cells = t;\n  while c { r = &mut a; }",
    "while c { r = &mut b; }\n  r.cells = t;",
    "if c { r = &mut b; }\n  r.cells = t;\n  let w = || r.width;\n  print(w());",
    "if c { r = &mut b; }\n  r.cells[0] = t[1];",
])
def test_a_reference_made_to_refer_elsewhere_otherwise_is_left_as_it_is(lines):
    ran = run_front("struct Grid { cells: Tensor<i32, [2]>, width: i32 }\nfn main() {\n"
                    "  let mut a = Grid { cells: Tensor<i32, [2]>::fill(1), width: 1 };\n"
                    "  let mut b = Grid { cells: Tensor<i32, [2]>::fill(3), width: 2 };\n"
                    "  let t = Tensor<i32, [2]>::fill(5);\n  let c = a.width > 4;\n"
                    f"  let mut r = &mut a;\n  {lines}\n  print(b);\n}}\n",
                    copy_rest_into_repointing_arms)
    assert ran.after is ran.before


# Hand-written Lmatched: a tuple holding a tensor, the rest's own local renamed in the second
# arm's copy, the reference's reads after the assignment its `let`'s.
HANDWRITTEN = """
// IL: Lmatched
fn main() {
    let mut a: (Tensor<i32, [2], Memory::CPU_DRAM>, i32) = (Tensor<i32, [2]>::fill(1), 1);
    let mut b: (Tensor<i32, [2], Memory::CPU_DRAM>, i32) = (Tensor<i32, [2]>::fill(2), 2);
    let mut r: &mut (Tensor<i32, [2], Memory::CPU_DRAM>, i32) = &mut a;
    if b.1 > 1 {
        r = &mut b;
    }
    let k: i32 = r.1 + 1;
    r.0 = Tensor<i32, [2]>::fill(k);
    @print(a.0);
    @print(b.0);
}
"""


def test_handwritten_the_copy_of_the_rest_binds_its_own_names(run_pass, snapshot_txt):
    ran = run_pass("copy-rest-into-repointing-arms", HANDWRITTEN)
    assert ran.codes == []
    assert "        let r#2: &mut (Tensor<i32, [2], Memory::CPU_DRAM>, i32) = &mut b;\n" \
           "        let k: i32 = r#2.1 + 1;\n        r#2.0 = Tensor<i32, [2]>::fill(k);\n" \
           in ran.dump
    assert "    } else {\n        let k#1: i32 = r.1 + 1;\n" in ran.dump
    assert _printed(ran.before) == _printed(ran.tree) == "[1, 1]\n[3, 3]\n"
    assert ran.dump == snapshot_txt

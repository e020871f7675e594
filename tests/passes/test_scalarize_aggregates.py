"""scalarize-aggregates: each struct, tuple and enum value is the scalars it is made of; a
function returning one writes out-parameters; a `match` on an enum is an `if` chain on its
tag; `print` is given the literal rebuilt; the program prints what it printed, and native
code prints it too."""

import io
from pathlib import Path

import pytest

from nano_vx.cli import main
from nano_vx.dump.text import to_text
from nano_vx.passes.scalarize_aggregates import scalarize_aggregates
from front import _printed, assert_prints_the_same, assert_refused_then_repaired, run_front

CASES = Path(__file__).parent / "cases" / "scalarize_aggregates"
NAMES = sorted(p.stem for p in CASES.glob("*.vx") if not p.stem.startswith("e5010"))
# Outside a `print`, no aggregate is left: only scalars, tensors and references to scalars.
GONE = {"FieldGet", "TupleGet", "MatchValue"}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", scalarize_aggregates)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert not {n._prod for n in ran.nodes()} & GONE
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", scalarize_aggregates)


def _run(path, *args):
    out, err = io.StringIO(), io.StringIO()
    return main([str(path), *args], stdout=out, stderr=err), out.getvalue(), err.getvalue()


@pytest.mark.parametrize("case", NAMES)
def test_native_code_prints_what_the_interpreter_prints(case):
    native = _run(CASES / f"{case}.vx")
    assert "W5001" not in native[2]
    assert native == _run(CASES / f"{case}.vx", "--action", "interpret")


def test_a_program_without_aggregates_comes_out_as_it_went_in():
    ran = run_front("fn main() { print(1); }\n", scalarize_aggregates)
    assert ran.after is ran.before


def test_a_struct_returned_is_written_through_out_parameters():
    ran = run_front(CASES / "structs.vx", scalarize_aggregates)
    shifted = next(i for i in ran.after.items if i.name == "shifted")
    assert [p.name for p in shifted.params] == ["p_x", "p_y", "d", "ret_x", "ret_y"]
    assert shifted.ret is None


def test_a_call_before_the_aggregate_in_its_statement_is_refused_then_repaired():
    assert_refused_then_repaired(CASES / "e5010_call_before.vx", scalarize_aggregates,
                                 "E5010", "after a call of the same statement")


def test_refused_the_program_runs_in_the_interpreter_in_order():
    status, out, err = _run(CASES / "e5010_call_before.vx")
    assert (status, out) == (0, "1\n2\n3\n")
    assert "warning[W5001]" in err


def test_a_record_print_site_prints_its_line_through_every_lowered_il(tmp_path):
    case = CASES / "enums.vx"
    assert main([str(case), "--dump-after", "select-instructions", "--dump-dir",
                 str(tmp_path), "--action", "emit-mlir"], stdout=io.StringIO(),
                stderr=io.StringIO()) == 0
    [dump] = tmp_path.iterdir()
    assert 'record "Shape::Circle({f32})"' in dump.read_text()
    expected = _run(case, "--action", "interpret")
    assert _run(dump) == _run(dump, "--action", "interpret") == expected


def test_a_record_print_site_whose_text_is_no_line_of_holes_is_refused(tmp_path):
    out = tmp_path / "out"
    main([str(CASES / "enums.vx"), "--dump-after", "select-instructions", "--dump-dir",
          str(out), "--action", "emit-mlir"], stdout=io.StringIO(), stderr=io.StringIO())
    [dump] = out.iterdir()
    bad = tmp_path / "bad.txt"
    bad.write_text(dump.read_text().replace("Shape::Circle({f32})", "Shape::Circle({xx})"))
    status, printed, err = _run(bad)
    assert (status, printed) == (1, "") and "error[E1007]" in err
    assert "a record print site whose text" in err


# Hand-written Lassumed: a local already named `p_x`, the name the pass gives the field x of
# a struct p; resolve-names never makes one that could collide, a dump edited by hand may.
NAME_TAKEN = """
    // IL: Lassumed
    struct Point {
        x: i32,
        y: i32,
    }

    fn main() {
        let p_x: i32 = 5;
        let p: Point = Point { y: 2, x: 1 };
        @print(p.x + p_x);
        @print(p);
    }
"""


def test_handwritten_a_field_takes_a_name_not_bound_yet(run_pass):
    ran = run_pass("scalarize-aggregates", NAME_TAKEN)
    assert ran.codes == []
    lets = [s.name for s in ran.tree.items[1].body.stmts if s._prod == "Let"]
    assert lets == ["p_x", "p_x#1", "p_y"]
    assert _printed(ran.before) == _printed(ran.tree) == "6\nPoint { x: 1, y: 2 }\n"

"""Lmlir reads back: its MLIR text (a `--dump-dir` file, `--action emit-mlir`'s output, any
`.mlir` file) is parsed and verified by MLIR, walked into the same module, and runs; what MLIR
refuses, what Lmlir cannot say and what the runtime would take on trust is E1007 where the
text shows it (nano_vx/resume/mlir.py)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from lmlir_samples import every_op

from nano_vx.backend.mlir import mlir_context
from nano_vx.cli import main
from nano_vx.diagnostics import Diagnostics
from nano_vx.dump.mlir_text import read_sites, site_comments, string, to_mlir_text, unstring
from nano_vx.resume.read import read_dump

PROGRAM = """\
fn main() {
    let x = 7;
    print(x * 6);
    print(10 / (x - 7));
}
"""


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def same_module(a: str, b: str) -> bool:
    """Whether two MLIR texts are one module, as MLIR prints it (its own value names)."""
    from mlir import ir

    with mlir_context():
        return str(ir.Module.parse(a)) == str(ir.Module.parse(b))


@pytest.fixture
def dump(tmp_path) -> Path:
    program = tmp_path / "p.vx"
    program.write_text(PROGRAM)
    run(program, "--dump-after", "select-instructions", "--dump-dir", tmp_path / "d",
        "--action", "check")
    [path] = (tmp_path / "d").iterdir()
    return path


def edited(dump: Path, old: str, new: str) -> Path:
    text = dump.read_text()
    assert old in text, old
    path = dump.with_name("edited.mlir")
    path.write_text(text.replace(old, new, 1))
    return path


def refused(path: Path) -> str:
    code, out, err = run(path)
    assert (code, out) == (1, ""), err
    assert err.startswith("error[E1007]: ") and "Traceback" not in err
    return err


def test_every_operation_reads_back_as_the_module_it_was():
    text = to_mlir_text(every_op())
    diagnostics = Diagnostics()
    language, back = read_dump("// IL: Lmlir\n" + text, "every.txt", diagnostics)
    assert language.name == "Lmlir", diagnostics.render()
    assert same_module(to_mlir_text(back), text)
    assert site_comments(back) == site_comments(every_op())


def test_the_site_comments_read_back_as_written():
    sites = [item for item in every_op().items if item._prod in ("PrintSite", "StopSite")]
    text = "\n".join(site_comments(every_op()))
    read = read_sites(text)
    assert [prod for _, prod, _ in read] == [s._prod for s in sites]
    assert [fields["id"] for _, _, fields in read] == [s.id for s in sites]
    assert read_sites('// vx_stop site 3: E9001 "unclosed')[0][2] is None


@pytest.mark.parametrize("text", ["plain", 'a "quoted" \\ back', "ünï\tcode\n"])
def test_a_string_reads_back_as_written(text):
    assert unstring(string(text)) == text


def test_a_dump_after_select_instructions_runs_as_the_program(dump, tmp_path):
    whole = run(dump.parent.parent / "p.vx")
    assert whole[:2] == (1, "42\n")
    assert run(dump)[:2] == whole[:2]
    assert run(dump, "--start-after", "select-instructions")[:2] == whole[:2]
    assert run(dump, "--action", "interpret")[:2] == whole[:2]
    # The stop is reported at its site's comment, the place in the dump that says it.
    err = run(dump)[2]
    assert err.startswith("error[E9001]: attempt to divide 10 by zero (i32)\n")
    assert '// vx_stop site 1: E9001 "attempt to divide {a} by zero (i32)"' in err


def test_emit_mlir_output_runs_as_a_mlir_file(dump, tmp_path):
    code, text, _ = run(dump.parent.parent / "p.vx", "--action", "emit-mlir")
    path = tmp_path / "p.mlir"
    path.write_text(text)
    assert run(path)[:2] == (1, "42\n")
    assert same_module(text, dump.read_text())


def test_start_after_another_pass_is_a_usage_error(dump):
    assert run(dump, "--start-after", "insert-drops") == (
        2, "", "nano-vx: error: --start-after=insert-drops: insert-drops produces Ldrops, but "
               "the input is in Lmlir\n")


def test_mlir_that_does_not_parse_is_e1007_at_mlirs_place(dump):
    err = refused(edited(dump, " : i32\n", " : i32 +\n"))
    assert err.startswith("error[E1007]: MLIR: expected operation name in quotes\n")
    assert "edited.mlir:" in err.split("\n")[1]


def test_mlir_that_does_not_verify_is_e1007(dump):
    err = refused(edited(dump, "arith.muli %x, %1 : i32", "arith.muli %x, %1 : i64"))
    assert err.startswith("error[E1007]: MLIR: use of value '%x' expects different type")


def test_a_call_of_a_function_the_module_does_not_have_is_e1007(dump):
    err = refused(edited(dump, "func.call @vx_print(", "func.call @vx_printf("))
    assert err.startswith("error[E1007]: MLIR: 'func.call' op 'vx_printf' does not reference "
                          "a valid function\n")


def test_a_function_the_runtime_does_not_provide_is_e1007(dump):
    text = dump.read_text().replace("@vx_print", "@puts")
    path = dump.with_name("puts.mlir")
    path.write_text(text)
    err = refused(path)
    assert err.startswith("error[E1007]: the Lmlir dump is not well formed: a declaration of "
                          "puts, which the runtime does not provide; it provides "
                          "vx_print(i32, i64), ")
    assert run(dump)[1] == "42\n"  # as select-instructions declares it


def test_what_lmlir_does_not_carry_is_e1007(dump):
    err = refused(edited(dump, "arith.muli %x, %1 : i32", "arith.muli %x, %1 overflow<nsw> : "
                                                           "i32"))
    assert err.startswith("error[E1007]: 'arith.muli' as written here carries what Lmlir does "
                          "not (overflowFlags = #arith.overflow<nsw>)\n")


def test_an_operation_lmlir_has_not_is_e1007(dump):
    err = refused(edited(dump, "    %x = arith.constant 7 : i32\n",
                         "    %x = arith.constant 7 : i32\n    %z = arith.ceildivsi %x, %x : "
                         "i32\n"))
    assert err.startswith("error[E1007]: 'arith.ceildivsi' here is no operation of Lmlir")
    assert "edited.mlir:13:10" in err


def test_a_runtime_call_naming_no_site_of_its_kind_is_e1007(dump):
    text = dump.read_text()
    assert "// vx_print site 0: int i32\n" in text
    err = refused(edited(dump, "// vx_print site 0: int i32\n", "// vx_print site 9: int i32\n"))
    assert "a call of vx_print whose first argument is not a constant naming a PrintSite" in err


def test_a_site_comment_that_does_not_read_is_e1007(dump):
    err = refused(edited(dump, "// vx_print site 0: int i32", "// vx_print site 0: integer"))
    assert err.startswith("error[E1007]: a PrintSite comment does not read as one\n")


def test_a_main_the_run_cannot_call_is_e1007(dump):
    err = refused(edited(dump, "func.func @main() {\n  ^bb0:", "func.func @main(%q: i32) {"))
    assert "a `main` that takes arguments" in err


def test_a_site_declared_twice_is_e1007(dump):
    err = refused(edited(dump, "// vx_print site 3: int i32", "// vx_print site 0: int i32"))
    assert "the Lmlir dump is not well formed: a second site 0" in err


def test_text_nesting_deeper_than_any_module_is_e1007_before_mlir_reads_it(tmp_path):
    # MLIR's parser would overflow the stack on it.
    path = tmp_path / "deep.mlir"
    path.write_text("module {\n  func.func @main() {\n" + "  scf.execute_region {\n" * 100_000
                    + "}" * 100_000 + "\n  }\n}\n")
    err = refused(path)
    assert err.startswith("error[E1007]: the text nests more than 256 brackets deep, deeper "
                          "than any Lmlir module\n")
    path.write_text('// "{{{{" in a comment\nmodule {\n  func.func @main() -> i32 {\n'
                    '    %0 = arith.constant 0 : i32\n    func.return %0 : i32\n  }\n}\n')
    assert run(path) == (0, "", "")


def test_a_type_lmlir_has_not_is_e1007(tmp_path):
    path = tmp_path / "bools.mlir"
    path.write_text("module {\n  func.func @main() -> i32 {\n    %n = arith.constant 4 : index\n"
                    "    %m = memref.alloc(%n) : memref<?xi1>\n"
                    "    %0 = arith.constant 0 : i32\n    func.return %0 : i32\n  }\n}\n")
    err = refused(path)
    assert err.startswith("error[E1007]: 'memref.alloc' here holds what Lmlir does not "
                          "(Alloc.type: expected mtype, got str 'memref<?xi1>')\n")
    path.write_text(path.read_text().replace("memref<?xi1>", "memref<?xi32>"))
    assert run(path) == (0, "", "")


def test_a_json_dump_of_lmlir_mlir_refuses_is_e1007(tmp_path):
    # The tree reader reads a JSON dump; MLIR checks the module it prints as.
    program = tmp_path / "p.vx"
    program.write_text(PROGRAM)
    run(program, "--dump-after", "select-instructions", "--dump-dir", tmp_path / "d",
        "--dump-format", "json", "--action", "check")
    [path] = (tmp_path / "d").iterdir()
    text = path.read_text()
    assert run(path)[:2] == (1, "42\n")
    good = '"op": "muli", "lhs": "x", "rhs": "1", "type": "i32"'
    assert good in text
    path.write_text(text.replace(good, good.replace("i32", "i64")))
    err = refused(path)
    assert err.startswith("error[E1007]: the Lmlir dump is not well formed: MLIR refuses the "
                          "module it prints as: use of value '%x' expects different type")


def test_a_cell_of_dynamic_size_is_e1007_and_a_buffer_of_one_reads_back(tmp_path):
    # Lmlir's memref.alloca is a variable's cell, of static size: its sizes are not said.
    path = tmp_path / "cell.mlir"
    path.write_text("module {\n  func.func @main() -> i32 {\n    %n = arith.constant 4 : index\n"
                    "    %m = memref.alloca(%n) : memref<?xi32>\n"
                    "    %0 = arith.constant 0 : i32\n    func.return %0 : i32\n  }\n}\n")
    assert "incorrect number of dynamic sizes" in refused(path)
    path.write_text(path.read_text().replace("memref.alloca(%n)", "memref.alloc(%n)"))
    assert run(path) == (0, "", "")


def test_pointers_seen_flat_read_back_and_run(tmp_path):
    # A pointer into a tensor of rank 2, of `?` extents or of rank 0 is a view of one `?`
    # extent: memref.collapse_shape or memref.expand_shape, then memref.cast.
    case = Path(__file__).parents[1] / "passes/cases/erase_raw_pointers/flattened_pointers.vx"
    code, text, _ = run(case, "--action", "emit-mlir")
    assert code == 0 and "memref.expand_shape" in text and "to memref<?xf32>" in text
    path = tmp_path / "p.mlir"
    path.write_text(text)
    assert run(path) == run(case, "--action", "interpret")


# A row lent to a function (select-instructions' Row: a subview and its descriptor moved to
# the row's first element, nine operations) reads back as one Row, and runs in both the
# Lmlir interpreter and native code; its descriptor taken from elsewhere is refused.
LENT_ROW = Path(__file__).parents[1] / "passes" / "cases" / "select_instructions" / \
    "lent_rows.vx"


@pytest.fixture
def row_dump(tmp_path) -> Path:
    run(LENT_ROW, "--dump-after", "select-instructions", "--dump-dir", tmp_path / "d",
        "--action", "check")
    [path] = (tmp_path / "d").iterdir()
    return path


def test_a_lent_row_reads_back_as_one_row_and_runs(row_dump):
    diagnostics = Diagnostics()
    language, back = read_dump(row_dump.read_text(), row_dump.name, diagnostics)
    assert language.name == "Lmlir", diagnostics.render()
    rows = [op for item in back.items if item._prod == "Func" for block in item.blocks
            for op in block.ops if op._prod == "Row"]
    assert len(rows) == 4
    expected = run(LENT_ROW, "--action", "interpret")
    assert run(row_dump) == run(row_dump, "--action", "interpret") == expected


def test_a_row_whose_descriptor_is_not_its_subviews_is_refused(row_dump):
    row = re.search(r"%(row\d+)_own = llvm\.insertvalue", row_dump.read_text()).group(1)
    wrong = edited(row_dump, f"%{row}_own = llvm.insertvalue %{row}_zero, %{row}_moved[2]",
                   f"%{row}_own = llvm.insertvalue %{row}_zero, %{row}_d[2]")
    assert "a row whose descriptor is not its subview's" in refused(wrong)

"""drop-imports: each `import` goes, with W1031; a name used from one is E2001 later."""

from pathlib import Path

import pytest

from nano_vx.cli import main as cli_main
from nano_vx.dump.text import to_text
from nano_vx.passes.drop_imports import drop_imports
from front import _printed, run_front

CASES = Path(__file__).parent / "cases" / "drop_imports"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", drop_imports)
    assert not list(ran.nodes("Import"))
    assert to_text(ran.after) + ran.diagnostics.render() == snapshot_txt


def test_each_import_is_one_warning_naming_its_path():
    ran = run_front(CASES / "unused.vx", drop_imports)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("W1031", "`import std::math;` brings nothing: nano-vx compiles one file"),
        ("W1031", "`import kernels;` brings nothing: nano-vx compiles one file")]
    assert ran.prints() == ("2\n", "2\n")


def test_a_name_used_from_an_import_is_undefined_where_it_is_used(capsys):
    assert cli_main([str(CASES / "used.vx"), "--action", "check"]) == 1
    err = capsys.readouterr().err
    assert "warning[W1031]" in err and "error[E2001]: cannot find value 'hypot'" in err


def test_handwritten_import_inside_a_block(run_pass, snapshot_txt):
    # An `import` as a statement: Lsrc's ItemStmt holds any item, the parser reads none in a
    # block (E1001). The statement goes with it, or the ItemStmt would hold nothing.
    ran = run_pass("drop-imports", """
        // IL: Lsrc
        fn main() {
            import std::math;
            print(1);
        }
    """)
    assert ran.codes == ["W1031"]
    assert _printed(ran.tree) == "1\n"
    assert ran.dump == snapshot_txt

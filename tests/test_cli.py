"""The `nano-vx` command as a user types it."""

import io
import json
import shutil
import subprocess

import pytest

from nano_vx.cli import main
from nano_vx.nanopass import Pass, Pipeline
from nano_vx.pipeline import PIPELINE

HELLO = """\
fn main() -> i32 {
    let x: i32 = 40;
    print(x + 2);
    return 0;
}
"""


def run(*argv, files=None, tmp_path=None):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def prog(tmp_path):
    def write(text, name="prog.vx"):
        path = tmp_path / name
        path.write_text(text) if isinstance(text, str) else path.write_bytes(text)
        return path

    return write


def test_help_names_the_dump_options():
    code, out, _ = run("--help")
    assert code == 0 and "--dump-after" in out and "--error-format" in out


def test_the_console_script_is_installed():
    exe = shutil.which("nano-vx")
    assert exe, "pip install -e '.[test]' installs the nano-vx command"
    done = subprocess.run([exe, "--list-passes"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "resolve-names" in done.stdout


def test_a_program_runs_and_prints(prog):
    code, out, err = run(prog(HELLO))
    assert (code, out, err) == (0, "42\n", "")


def test_the_exit_status_is_mains_return_value(prog):
    code, _, _ = run(prog("fn main() -> i32 { return 3; }"))
    assert code == 3


def test_explain_prints_a_codes_paragraph():
    code, out, _ = run("explain", "E2001")
    assert code == 0 and out.startswith("E2001: undefined name")
    code, out, _ = run("explain")
    assert "E1001" in out and "E9001" in out
    code, _, err = run("explain", "E0000")
    assert code == 1 and "no diagnostic code" in err


def test_list_passes_prints_the_table_with_languages_and_facts():
    code, out, _ = run("--list-passes")
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == [
        "pass", "kind", "input", "output", "requires", "provides", "summary"]
    assert [line.split()[0] for line in lines[1:]] == PIPELINE.names()
    assert lines[1].split()[:6] == ["parse", "rewrite", "text", "Lsrc", "-", "-"]
    rows = {line.split()[0]: line.split()[:6] for line in lines[1:]}
    assert rows["summarize-working-sets"] == [
        "summarize-working-sets", "analysis", "Lrouted", "Lrouted", "model", "working_sets"]
    assert rows["check-capacity"][4:] == ["model,working_sets", "-"]


def test_languages_are_listed_shown_and_diffed():
    code, out, _ = run("--list-languages")
    assert code == 0 and "Lhoisted (extends Lsrc)" in out
    code, out, _ = run("--show-language=Lsrc")
    assert "ItemStmt(item: Item)" in out
    code, out, _ = run("--diff-language=Lsrc,Lhoisted")
    assert "- Stmt ::= ItemStmt(item: Item)" in out
    code, _, err = run("--show-language=Lnope")
    assert code == 2 and "no language 'Lnope'" in err


def test_a_syntax_error_is_reported_with_file_line_column_and_caret(prog):
    path = prog("fn main() {\n    let x = ;\n}\n")
    code, out, err = run(path)
    assert code == 1 and out == ""
    assert "error[E1001]" in err and f"{path}:2:" in err and "^" in err


def test_an_undefined_name_is_e2001_and_the_fixed_program_runs(prog):
    code, _, err = run(prog("fn main() { print(y); }"))
    assert code == 1 and "error[E2001]" in err and "'y'" in err
    code, out, _ = run(prog("fn main() { let y = 1; print(y); }"))
    assert (code, out) == (0, "1\n")


def test_a_program_with_no_main_is_e2002_when_run_and_fine_when_checked(prog):
    path = prog("fn helper() -> i32 { return 1; }")
    code, _, err = run(path)
    assert code == 1 and "error[E2002]" in err
    assert run(path, "--action", "check")[0] == 0
    assert run(prog("fn helper() -> i32 { return 1; }\nfn main() {}"))[0] == 0


def test_a_run_time_stop_is_reported_after_the_output_so_far(prog):
    code, out, err = run(prog("fn main() { let z = 0; print(1); print(7 / z); }"))
    assert code == 1 and out == "1\n" and "error[E9001]" in err


def test_binary_input_gets_a_diagnostic(prog):
    code, _, err = run(prog(b"\x00\xff\xfe garbage"))
    assert code == 1 and "E1004" in err and "Traceback" not in err


def test_a_missing_file_is_an_error_not_a_traceback(tmp_path):
    code, _, err = run(tmp_path / "nope.vx")
    assert code == 1 and "cannot read" in err


def test_dump_after_all_prints_every_il_between_banners(prog):
    code, out, _ = run(prog(HELLO), "--dump-after=all", "--action", "check")
    banners = [line for line in out.splitlines() if line.startswith("*** IR Dump After")]
    assert code == 0 and [b.split()[4] for b in banners] == PIPELINE.names()
    assert "*** IR Dump After hoist-nested-items (Lsrc -> Lhoisted) ***" in banners


def test_dump_before_parse_shows_the_source_text(prog):
    code, out, _ = run(prog(HELLO), "--dump-before=parse", "--action", "parse")
    assert code == 0 and out == "*** IR Dump Before parse (text -> Lsrc) ***\n" + HELLO


def test_dump_changed_skips_passes_that_changed_nothing(prog):
    code, out, _ = run(prog(HELLO), "--dump-changed", "--action", "check")
    assert code == 0 and "hoist-nested-items" not in out and "resolve-names" in out


def test_dump_diff_shows_what_a_pass_changed(prog):
    code, out, _ = run(prog("fn main() { let a = 1; let a = a + 1; print(a); }"),
                       "--dump-diff", "--dump-after=resolve-names", "--action", "check")
    assert code == 0 and "*** IR Diff resolve-names" in out
    assert any(line.startswith("+") and "a#1" in line for line in out.splitlines())


@pytest.mark.parametrize("fmt,marker", [("dot", "digraph"), ("svg", "<svg"), ("json", '"node"')])
def test_dump_formats(prog, fmt, marker):
    code, out, _ = run(prog(HELLO), "--dump-after=resolve-names", f"--dump-format={fmt}",
                       "--action", "check")
    assert code == 0 and marker in out
    if fmt == "json":
        body = out.split("\n", 1)[1]
        assert json.loads(body)["node"] == "Program"


def test_dump_dir_writes_numbered_files(prog, tmp_path):
    where = tmp_path / "dumps"
    code, out, _ = run(prog(HELLO), f"--dump-dir={where}", "--action", "check")
    names = sorted(p.name for p in where.iterdir())
    assert code == 0 and out == ""
    assert names == [f"{i:02d}-after-{n}.txt" for i, n in enumerate(PIPELINE.names(), 1)]


def test_stop_after_stops_the_pipeline_and_does_not_run(prog):
    code, out, _ = run(prog(HELLO), "--stop-after=hoist-nested-items", "--dump-after=all")
    assert code == 0 and "resolve-names" not in out and "42" not in out


def test_an_unknown_pass_name_is_a_usage_error(prog):
    code, _, err = run(prog(HELLO), "--dump-after=no-such-pass")
    assert code == 2 and "no pass named no-such-pass" in err


def test_timing_prints_each_pass_on_stderr(prog):
    code, out, err = run(prog(HELLO), "--timing")
    assert code == 0 and out == "42\n"
    assert all(name in err for name in PIPELINE.names()) and "total" in err


def test_error_format_json(prog):
    code, _, err = run(prog("fn main() { print(y); }"), "--error-format=json")
    doc = json.loads(err)
    assert code == 1 and doc["diagnostics"][0]["code"] == "E2001"
    assert doc["diagnostics"][0]["span"]["line"] == 1


def test_an_exception_in_a_pass_is_an_internal_error_naming_the_pass(prog, monkeypatch, tmp_path):
    lang = PIPELINE.passes[0].output
    broken = Pass("explode", lang, lang, "raises, to test the internal-error path")

    @broken.on("Program")
    def _(run_, node):
        raise ValueError("boom")

    monkeypatch.setattr("nano_vx.compile.PIPELINE", Pipeline([PIPELINE.passes[0], broken]))
    monkeypatch.chdir(tmp_path)
    code, _, err = run(prog(HELLO))
    assert code == 70 and "internal compiler error in pass explode" in err
    saved = (tmp_path / "nano-vx-ice-explode.txt").read_text()
    assert "ValueError: boom" in saved and "fn main" in saved


def test_a_reader_that_goes_away_early_gets_no_traceback(tmp_path):
    big = tmp_path / "big.vx"
    big.write_text("fn main() {\n" + "    print(1);\n" * 3000 + "}\n")
    proc = subprocess.Popen([shutil.which("nano-vx"), str(big), "--dump-after=all",
                             "--action", "check"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err

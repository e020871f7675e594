"""The `nano-vx` command as a user types it."""

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from nano_vx.cli import main
from nano_vx.nanopass import Pass, Pipeline
from nano_vx.pipeline import BACK_END, PIPELINE
from nano_vx.spatial_pipeline import SPATIAL_PIPELINE

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


@pytest.mark.slow
def test_the_console_script_is_installed():
    exe = shutil.which("nano-vx")
    assert exe, "pip install -e '.[test]' installs the nano-vx command"
    done = subprocess.run([exe, "--list-passes"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "resolve-names" in done.stdout


@pytest.mark.slow
def test_python_dash_m_runs_the_command(prog):
    done = subprocess.run([sys.executable, "-m", "nano_vx", str(prog(HELLO))],
                          capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "42\n", "")


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
    assert (code, err) == (2, "nano-vx: error: no diagnostic code 'E0000'; `nano-vx "
                              "explain` lists them all\n")


def test_list_passes_prints_the_table_with_languages_and_facts():
    code, out, _ = run("--list-passes")
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == [
        "pass", "kind", "input", "output", "requires", "provides", "summary"]
    front = lines[1:lines.index("")]
    assert [line.split()[0] for line in front] == PIPELINE.names()
    assert lines[1].split()[:6] == ["parse", "rewrite", "text", "Lsrc", "-", "-"]
    rows = {line.split()[0]: line.split()[:6] for line in front}
    assert rows["summarize-working-sets"] == [
        "summarize-working-sets", "analysis", "Lrouted", "Lrouted", "model",
        "working_sets,call_sites"]
    assert rows["check-capacity"][4:] == ["model,working_sets", "-"]
    assert rows["check-method-calls"] == [
        "check-method-calls", "analysis", "Lresolved", "Lresolved", "-", "-"]
    assert rows["check-dangling-references"] == [
        "check-dangling-references", "analysis", "Lrouted", "Lrouted", "-", "-"]
    assert rows["type-generic-field-literals"] == [
        "type-generic-field-literals", "rewrite", "Lresolved", "Lresolved", "-", "-"]
    assert rows["type-array-literals"] == [
        "type-array-literals", "rewrite", "Lresolved", "Lresolved", "-", "-"]
    assert rows["check-struct-instances"] == [
        "check-struct-instances", "analysis", "Lresolved", "Lresolved", "-", "-"]


def test_list_passes_prints_the_spatial_lane_after_the_front_end():
    _, out, _ = run("--list-passes")
    lane = out.split("\nthe spatial lane (nano-vx spatial PROGRAM --target TARGET; a Vx "
                     "program starts at from-vx, after the front end):\n")[1]
    rows = [line.split()[:6] for line in lane.splitlines()[1:]]
    assert [r[0] for r in rows] == ["from-vx", *SPATIAL_PIPELINE.names()]
    assert rows[0] == ["from-vx", "rewrite", "Lfolded", "Sdataflow", "-", "-"]
    assert rows[1] == ["tile", "rewrite", "Sdataflow", "Stiled", "target", "-"]
    assert rows[-1][:4] == ["schedule", "rewrite", "Shandshaked", "Schoreographed"]


def test_list_passes_prints_the_back_end_between_the_front_end_and_the_spatial_lane():
    _, out, _ = run("--list-passes")
    back = out.split("\nthe back end (native code: the default run, --action emit-mlir, "
                     "emit-llvm):\n")[1].split("\n\n")[0]
    rows = [line.split()[:4] for line in back.splitlines()[1:]]
    assert [r[0] for r in rows] == [p.name for p in BACK_END]
    names = [r[0] for r in rows]
    assert rows[:17] == [["delay-lending-closures", "rewrite", "Lassumed", "Lassumed"],
                         ["copy-closures-per-lent-reference", "rewrite", "Lassumed", "Lassumed"],
                         ["capture-lent-references", "rewrite", "Lassumed", "Lassumed"],
                         ["inline-borrowed-references", "rewrite", "Lassumed", "Lassumed"],
                         ["return-assigned-references", "rewrite", "Lassumed", "Lassumed"],
                         ["copy-closures-given-chains", "rewrite", "Lassumed", "Lassumed"],
                         ["collapse-reference-chains", "rewrite", "Lassumed", "Lassumed"],
                         ["index-chosen-constant-elements", "rewrite", "Lassumed",
                          "Lassumed"],
                         ["split-computed-constants", "rewrite", "Lassumed", "Lconstparts"],
                         ["hoist-constant-tensors", "rewrite", "Lconstparts", "Lconstparts"],
                         ["inline-aggregate-constants", "rewrite", "Lconstparts", "Lconstparts"],
                         ["dereference-constants", "rewrite", "Lconstparts", "Lconstparts"],
                         ["inline-reference-constant-lets", "rewrite", "Lconstparts",
                          "Lconstparts"],
                         ["hold-borrowed-constant-literals", "rewrite", "Lconstparts",
                          "Lconstparts"],
                         ["outline-constant-values", "rewrite", "Lconstparts", "Lconstparts"],
                         ["call-functions-by-name", "rewrite", "Lconstparts", "Lconstparts"],
                         ["expand-lazy-conditions", "rewrite", "Lconstparts", "Lconstparts"]]
    held = names.index("hold-states-by-reference")
    assert rows[held:held + 9] == [
        ["hold-states-by-reference", "rewrite", "Lconstparts", "Lheld"],
        ["halt-state-prints", "rewrite", "Lheld", "Lheld"],
        ["lower-state-tuples", "rewrite", "Lheld", "Lread"],
        ["lower-pins", "rewrite", "Lread", "Ltaken"],
        ["lower-pin-matches", "rewrite", "Ltaken", "Lpinned"],
        ["spread-hardware-states", "rewrite", "Lpinned", "Lpinned"],
        ["copy-rest-into-closure-assigning-arms", "rewrite", "Lpinned", "Lpinned"],
        ["rebind-assigned-closure-variables", "rewrite", "Lpinned", "Lpinned"],
        ["copy-closures-per-argument-kind", "rewrite", "Lpinned", "Lpinned"]]
    assert rows[names.index("lower-matches")] == ["lower-matches", "rewrite", "Lpinned",
                                                  "Lmatched"]
    assert rows[names.index("lower-matches") + 1:names.index("lower-matches") + 3] == [
        ["halt-unit-operations", "rewrite", "Lmatched", "Lmatched"],
        ["erase-unit-lets", "rewrite", "Lmatched", "Lmatched"]]
    unit = names.index("erase-unit-lets")
    assert rows[unit + 1:unit + 12] == [
        ["bind-chosen-closure-arguments", "rewrite", "Lmatched", "Lmatched"],
        ["inline-identity-closures", "rewrite", "Lmatched", "Lmatched"],
        ["wrap-aggregate-function-values", "rewrite", "Lmatched", "Lmatched"],
        ["number-aggregate-function-values", "rewrite", "Lmatched", "Lmatched"],
        ["split-closure-results", "rewrite", "Lmatched", "Lmatched"],
        ["rebind-moved-enum-locals", "rewrite", "Lmatched", "Lmatched"],
        ["rename-moved-enum-parameters", "rewrite", "Lmatched", "Lmatched"],
        ["choose-given-variants", "rewrite", "Lmatched", "Lmatched"],
        ["name-given-aggregates", "rewrite", "Lmatched", "Lmatched"],
        ["split-closure-aggregates", "rewrite", "Lmatched", "Lmatched"],
        ["instantiate-aggregate-forms", "rewrite", "Lmatched", "Lmatched"]]
    assert rows[names.index("expand-aggregate-prints") - 1] == [
        "state-block-prints", "rewrite", "Lmatched", "Lmatched"]
    assert rows[names.index("expand-aggregate-prints") + 1:
                names.index("expand-aggregate-prints") + 4] == [
        ["give-early-return-conditions", "rewrite", "Lmatched", "Lmatched"],
        ["defer-early-returned-references", "rewrite", "Lmatched", "Lmatched"],
        ["split-choice-statements", "rewrite", "Lmatched", "Lmatched"]]
    inline = names.index("inline-aggregate-references")
    assert rows[inline - 5:inline + 3] == [
        ["split-choice-statements", "rewrite", "Lmatched", "Lmatched"],
        ["split-returned-references", "rewrite", "Lmatched", "Lmatched"],
        ["inline-returned-references", "rewrite", "Lmatched", "Lmatched"],
        ["copy-rest-into-repointing-arms", "rewrite", "Lmatched", "Lmatched"],
        ["split-repointed-references", "rewrite", "Lmatched", "Lmatched"],
        ["inline-aggregate-references", "rewrite", "Lmatched", "Lmatched"],
        ["copy-read-kernel-aggregates", "rewrite", "Lmatched", "Lmatched"],
        ["split-kernel-aggregates", "rewrite", "Lmatched", "Lmatched"]]
    split = names.index("split-kernel-aggregates")
    assert rows[split:split + 17] == [
        ["split-kernel-aggregates", "rewrite", "Lmatched", "Lmatched"],
        ["check-aggregate-function-values", "analysis", "Lmatched", "Lmatched"],
        ["cast-printed-literals", "rewrite", "Lmatched", "Lmatched"],
        ["cast-returned-generic-fields", "rewrite", "Lmatched", "Lmatched"],
        ["return-assigned-tensor-fields", "rewrite", "Lmatched", "Lmatched"],
        ["copy-held-tensor-fields", "rewrite", "Lmatched", "Lmatched"],
        ["split-result-statements", "rewrite", "Lmatched", "Lmatched"],
        ["split-pure-aggregate-results", "rewrite", "Lmatched", "Lmatched"],
        ["scalarize-aggregates", "rewrite", "Lmatched", "Lparted"],
        ["write-out-kernel-values", "rewrite", "Lparted", "Lparted"],
        ["hold-operands-before-kernel-moved-reads", "rewrite", "Lparted", "Lparted"],
        ["defer-kernel-moves", "rewrite", "Lparted", "Lparted"],
        ["return-kernel-tensors", "rewrite", "Lparted", "Lparted"],
        ["return-kernel-pointers", "rewrite", "Lparted", "Lparted"],
        ["flag-maybe-lent-tensors", "rewrite", "Lparted", "Lparted"],
        ["hand-on-lent-tensors", "rewrite", "Lparted", "Lparted"],
        ["renew-taken-tensors", "rewrite", "Lparted", "Lparted"]]
    assert rows[names.index("lend-uninit-pointers")] == [
        "lend-uninit-pointers", "rewrite", "Lcopied", "Lcopied"]
    assert rows[names.index("index-uninit-pointers")] == [
        "index-uninit-pointers", "rewrite", "Lcopied", "Lcopied"]
    marked = names.index("mark-uninit-closures")
    assert rows[marked:marked + 12] == [
        ["mark-uninit-closures", "rewrite", "Lcopied", "Lcopied"],
        ["branch-closure-operands", "rewrite", "Lcopied", "Lcopied"],
        ["name-closure-temporaries", "rewrite", "Lcopied", "Lcopied"],
        ["make-all-set-flags", "rewrite", "Lcopied", "Lallset"],
        ["read-printed-elements", "rewrite", "Lallset", "Lallset"],
        ["name-sizing-arguments", "rewrite", "Lallset", "Lallset"],
        ["flag-uninit-constants", "rewrite", "Lallset", "Lallset"],
        ["check-uninit-element-indices", "rewrite", "Lallset", "Lallset"],
        ["inline-uninit-element-references", "rewrite", "Lallset", "Lallset"],
        ["copy-into-assigned-uninit-tensors", "rewrite", "Lallset", "Lallset"],
        ["rebind-assigned-uninit-tensors", "rewrite", "Lallset", "Lallset"],
        ["track-uninit-elements", "rewrite", "Lallset", "Lwritten"]]
    assert rows[names.index("copy-tracked-functions")] == [
        "copy-tracked-functions", "rewrite", "Lsplit", "Lcopied"]
    assert rows[names.index("copy-tracked-functions") - 3:
                names.index("copy-tracked-functions")] == [
        ["name-sizing-calls", "rewrite", "Lsplit", "Lsplit"],
        ["split-sizing-calls", "rewrite", "Lsplit", "Lsplit"],
        ["hoist-sizing-lets", "rewrite", "Lsplit", "Lsplit"]]
    gate = names.index("check-native-subset")
    assert rows[gate] == ["check-native-subset", "analysis", "Lsplit", "Lsplit"]
    assert rows[gate - 8:gate] == [
        ["wrap-function-values", "rewrite", "Lsplit", "Lsplit"],
        ["bind-assigning-closures-again", "rewrite", "Lsplit", "Lsplit"],
        ["delay-assigning-closures", "rewrite", "Lsplit", "Lsplit"],
        ["copy-closures-per-argument-type", "rewrite", "Lsplit", "Lsplit"],
        ["cast-plain-values", "rewrite", "Lsplit", "Lsplit"],
        ["return-bound-closures", "rewrite", "Lsplit", "Lsplit"],
        ["bind-called-closure-values", "rewrite", "Lsplit", "Lsplit"],
        ["copy-closures-per-made-argument", "rewrite", "Lsplit", "Lsplit"]]
    assert rows[names.index("hold-operands-before-extent-literals") - 2:
                names.index("bind-extent-literals")] == [
        ["drop-unread-closure-parameters", "rewrite", "Lsplit", "Lsplit"],
        ["drop-uncalled-closures", "rewrite", "Lsplit", "Lsplit"],
        ["hold-operands-before-extent-literals", "rewrite", "Lsplit", "Lsplit"]]
    extents = names.index("erase-variable-extents")
    assert rows[extents - 1:extents + 3] == [
        ["bind-extent-literals", "rewrite", "Lsplit", "Lsplit"],
        ["erase-variable-extents", "rewrite", "Lsplit", "Lsplit"],
        ["compute-wide-extents", "rewrite", "Lsplit", "Lsplit"],
        ["erase-unaddressable-extents", "rewrite", "Lsplit", "Lsplit"]]
    assert names.index("compute-wide-extents") < gate
    assert rows[names.index("specialize-storages") - 5:names.index("specialize-storages") + 1] \
        == [["copy-rest-into-assigning-arms", "rewrite", "Lsplit", "Lsplit"],
            ["rebind-chosen-references", "rewrite", "Lsplit", "Lsplit"],
            ["bind-chosen-storage-heads", "rewrite", "Lsplit", "Lsplit"],
            ["flag-chosen-storages", "rewrite", "Lsplit", "Lsplit"],
            ["split-chosen-storages", "rewrite", "Lsplit", "Lsplit"],
            ["specialize-storages", "rewrite", "Lsplit", "Lsplit"]]
    assert names.index("specialize-storages") < names.index("number-texts") < gate
    assert rows[names.index("number-texts") - 2:names.index("number-texts") + 1] == [
        ["move-printing-loop-conditions", "rewrite", "Lsplit", "Lsplit"],
        ["bind-printed-strings", "rewrite", "Lsplit", "Lsplit"],
        ["number-texts", "rewrite", "Lsplit", "Lsplit"]]
    assert rows[names.index("assign-chosen-tensors") - 4:names.index("assign-chosen-tensors") + 3] \
        == [["return-chosen-rows", "rewrite", "Lsplit", "Lsplit"],
            ["index-chosen-rows", "rewrite", "Lsplit", "Lsplit"],
            ["name-row-temporaries", "rewrite", "Lsplit", "Lsplit"],
            ["choose-call-arguments", "rewrite", "Lsplit", "Lsplit"],
            ["assign-chosen-tensors", "rewrite", "Lsplit", "Lsplit"],
            ["bind-chosen-row-arguments", "rewrite", "Lsplit", "Lsplit"],
            ["split-chosen-tensor-references", "rewrite", "Lsplit", "Lsplit"]]
    chosen = names.index("choose-closures-in-kernels")
    assert rows[chosen - 4:chosen + 2] == [
        ["assign-chosen-closures", "rewrite", "Lpinned", "Lpinned"],
        ["delay-launching-closures", "rewrite", "Lpinned", "Lpinned"],
        ["bind-launching-closures-again", "rewrite", "Lpinned", "Lpinned"],
        ["hoist-lets-of-chosen-closures", "rewrite", "Lpinned", "Lpinned"],
        ["choose-closures-in-kernels", "rewrite", "Lpinned", "Lpinned"],
        ["copy-closures-into-kernels", "rewrite", "Lpinned", "Lpinned"]]
    decided = names.index("decide-placement-queries")
    assert rows[decided - 1:decided + 2] == [
        ["flag-assigned-placement-queries", "rewrite", "Lpinned", "Lpinned"],
        ["decide-placement-queries", "rewrite", "Lpinned", "Lpinned"],
        ["tag-places", "rewrite", "Lpinned", "Lpinned"]]
    held = names.index("hold-operands-before-moved-reads")
    assert rows[held:held + 2] == [
        ["hold-operands-before-moved-reads", "rewrite", "Lsafe", "Lsafe"],
        ["track-moved-captures", "rewrite", "Lsafe", "Lsafe"]]
    typed = names.index("type-scalars")
    assert rows[typed:typed + 2] == [
        ["type-scalars", "rewrite", "Lsafe", "Lscalars"],
        ["start-chosen-references", "rewrite", "Lscalars", "Lscalars"]]
    starts = names.index("bind-assigned-starts")
    assert rows[starts - 1:starts + 3] == [
        ["copy-out-tensors", "rewrite", "Lparted", "Lsplit"],
        ["bind-assigned-starts", "rewrite", "Lsplit", "Lsplit"],
        ["drop-unread-closure-parameters", "rewrite", "Lsplit", "Lsplit"],
        ["drop-uncalled-closures", "rewrite", "Lsplit", "Lsplit"]]
    drops = names.index("insert-drops")
    assert rows[drops:drops + 8] == [
        ["insert-drops", "rewrite", "Lcells", "Ldrops"],
        ["drop-replaced-buffers", "rewrite", "Ldrops", "Ldrops"],
        ["drop-made-flagged-results", "rewrite", "Ldrops", "Ldrops"],
        ["drop-unreturned-arguments", "rewrite", "Ldrops", "Ldrops"],
        ["drop-chosen-placeholders", "rewrite", "Ldrops", "Ldrops"],
        ["drop-last-buffers", "rewrite", "Ldrops", "Ldrops"],
        ["drop-flagged-takers", "rewrite", "Ldrops", "Ldrops"],
        ["explicate-calls", "rewrite", "Ldrops", "Lcalls"]]
    assert rows[-1] == ["select-instructions", "rewrite", "Lcalls", "Lmlir"]


def test_the_default_run_is_native_and_interpret_asks_for_the_interpreter(prog):
    path = prog("fn main() -> i32 { let x: u8 = 250; print(x + 10); return 7; }")
    assert run(path) == (7, "4\n", "")
    assert run(path, "--action", "interpret") == (7, "4\n", "")
    code, _, err = run(path, "--timing")
    assert code == 7 and "native code: built in" in err and "select-instructions" in err


def test_emit_mlir_and_emit_llvm_print_the_module_and_O_sets_the_level(prog):
    code, out, err = run(prog(HELLO), "--action", "emit-mlir")
    assert code == 0 and not err and "func.func @main() -> i32" in out
    path = prog("fn main() { let mut s = 0; for i in 0..10 { s += i; } print(s); }")
    code, o0, _ = run(path, "--action", "emit-llvm", "-O0")
    code3, o3, _ = run(path, "--action", "emit-llvm", "-O3")
    assert code == code3 == 0 and "icmp slt i32" in o0 and "br i1" in o0
    assert "icmp" not in o3 and "call void @vx_print(i32 0, i64 45)" in o3  # the loop folded
    assert run(path, "-O4")[0] == 2


def test_a_program_native_code_does_not_lower_runs_in_the_interpreter_after_w5001(prog):
    path = prog("""fn show(last: i64) {
  for j in -3..last {
    print(Tensor<i32, [j * j * j + 28]>::new().extent(0));
  }
}

fn main() {
  show(0);
}""")
    code, out, err = run(path)
    assert (code, out) == (0, "1\n20\n27\n") and "warning[W5001]" in err
    assert run(path, "--action", "interpret") == (0, "1\n20\n27\n", "")
    code, out, err = run(path, "--action", "emit-mlir")
    assert (code, out) == (1, "") and "error[E5010]" in err


def test_a_dump_of_a_back_end_pass_runs_the_back_end_whatever_the_action(prog):
    code, out, _ = run(prog(HELLO), "--action", "check", "--dump-after=select-instructions")
    assert code == 0 and "*** IR Dump After select-instructions (Lcalls -> Lmlir) ***" in out
    assert "module {" in out


def test_languages_are_listed_shown_and_diffed():
    code, out, _ = run("--list-languages")
    assert code == 0 and "Lhoisted (extends Lunpacked)" in out
    code, out, _ = run("--show-language=Lsrc")
    assert "ItemStmt(item: Item)" in out
    code, out, _ = run("--diff-language=Lsrc,Lhoisted")
    assert "- Stmt ::= ItemStmt(item: Item)" in out
    code, out, _ = run("--list-languages")
    assert "Schoreographed (extends Shandshaked)" in out
    code, out, _ = run("--diff-language=Ssized,Sfused")
    assert code == 0 and "Group(name: name, stage: name, streams: name*)" in out
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
    assert code == 2 and "cannot read" in err


def test_dump_after_all_prints_every_il_between_banners(prog):
    code, out, _ = run(prog(HELLO), "--dump-after=all", "--action", "check")
    banners = [line for line in out.splitlines() if line.startswith("*** IR Dump After")]
    assert code == 0 and [b.split()[4] for b in banners] == PIPELINE.names()
    assert "*** IR Dump After hoist-nested-items (Lunpacked -> Lhoisted) ***" in banners


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


def test_dump_changed_with_dump_diff_diffs_only_the_passes_that_changed(prog):
    code, out, _ = run(prog(HELLO), "--dump-changed", "--dump-diff", "--action", "check")
    assert code == 0 and "(no change)" not in out
    assert out.count("*** IR Diff") == 1 and out.startswith("*** IR Diff resolve-names")


def test_a_dot_dump_follows_its_banner_and_the_program_runs(prog):
    code, out, _ = run(prog(HELLO), "--dump-after=resolve-names", "--dump-format=dot")
    banner, rest = out.split("\n", 1)
    assert code == 0 and banner.startswith("*** IR Dump After resolve-names")
    assert rest.startswith("digraph IR {") and rest.endswith("}\n42\n")


def test_a_json_dump_on_stdout_is_one_json_document(prog):
    code, out, _ = run(prog(HELLO), "--dump-after=resolve-names", "--dump-format=json")
    assert code == 0 and json.loads(out)["node"] == "Program"  # no banner, no `42`


def test_an_svg_dump_on_stdout_is_one_svg_document(prog):
    code, out, _ = run(prog(HELLO), "--dump-before=infer-placement", "--dump-format=svg")
    assert code == 0 and ET.fromstring(out).tag == "{http://www.w3.org/2000/svg}svg"


def test_a_document_dump_on_stdout_still_reports_the_programs_errors(prog):
    code, out, err = run(prog("fn main() { print(y); }"), "--dump-after=parse",
                         "--dump-format=json")
    assert code == 1 and json.loads(out)["node"] == "Program" and "E2001" in err


@pytest.mark.parametrize("argv, says", [
    (["--dump-after=all", "--dump-format=json"], "name one pass"),
    (["--dump-after=parse,resolve-names", "--dump-format=svg"], "--dump-dir=DIR"),
    (["--dump-after=parse", "--dump-before=parse", "--dump-format=json"], "name one pass"),
    (["--dump-changed", "--dump-format=json"], "name one pass"),
    (["--dump-before=parse", "--dump-format=json"], "only the program text"),
    (["--dump-after=parse", "--dump-format=json", "--action", "run"], "use --dump-dir"),
    (["--dump-diff", "--dump-format=json"], "--dump-diff writes text diffs"),
    (["--dump-diff", "--dump-format=text,dot", "--dump-dir=d"], "--dump-diff writes text diffs"),
])
def test_stdout_cannot_hold_a_document_and_something_else(prog, argv, says):
    code, out, err = run(prog(HELLO), *argv)
    assert code == 2 and out == "" and says in err
    assert err.count("\n") == 1, "a usage error is one line"


def test_several_document_dumps_go_to_a_directory(prog, tmp_path):
    where = tmp_path / "dumps"
    code, out, _ = run(prog(HELLO), "--dump-after=all", "--dump-format=json",
                       f"--dump-dir={where}")
    assert code == 0 and out == "42\n"
    roots = {p.name.split("-after-")[1]: json.loads(p.read_text())["node"]
             for p in where.iterdir()}
    assert roots.pop("select-instructions.json") == "Module"  # an MLIR module
    assert set(roots.values()) == {"Program"}


def test_several_dump_formats_write_a_file_in_each_from_one_run(prog, tmp_path):
    where, alone = tmp_path / "dumps", tmp_path / "alone"
    code, out, _ = run(prog(HELLO), "--dump-after=parse,resolve-names", f"--dump-dir={where}",
                       "--dump-format=json,dot,text,svg", "--action", "check")
    assert code == 0 and out == ""
    n = position("resolve-names")
    assert sorted(p.name for p in where.iterdir()) == sorted(
        f"{i}b-after-{name}.{suffix}" for i, name in (("01", "parse"), (n, "resolve-names"))
        for suffix in ("txt", "dot", "svg", "json"))
    for fmt in ("text", "dot", "svg", "json"):  # each the file a run in that format writes
        run(prog(HELLO), "--dump-after=parse,resolve-names", f"--dump-dir={alone / fmt}",
            f"--dump-format={fmt}", "--action", "check")
        for file in (alone / fmt).iterdir():
            assert file.read_text() == (where / file.name).read_text(), file.name


@pytest.mark.parametrize("value, says", [
    ("text,pdf", "no format 'pdf'; the formats are text, dot, svg, json"),
    ("dot,,json", "no format ''"),
    ("text,dot,text", "names a format twice: 'text,dot,text'"),
])
def test_a_dump_format_that_is_not_one_is_a_usage_error(prog, value, says):
    code, out, err = run(prog(HELLO), f"--dump-format={value}", "--dump-after=parse")
    assert (code, out) == (2, "") and f"--dump-format: {says}" in err


def test_several_dump_formats_need_a_directory(prog):
    code, out, err = run(prog(HELLO), "--dump-after=parse", "--dump-format=text,dot")
    assert (code, out) == (2, "")
    assert err == ("nano-vx: error: --dump-format=text,dot writes a file in each format: give "
                   "--dump-dir=DIR\n")


def test_dump_dir_writes_numbered_files(prog, tmp_path):
    where = tmp_path / "dumps"
    code, out, _ = run(prog(HELLO), f"--dump-dir={where}", "--action", "check")
    names = sorted(p.name for p in where.iterdir())
    assert code == 0 and out == ""
    assert names == [f"{i:02d}b-after-{n}.txt" for i, n in enumerate(PIPELINE.names(), 1)]


def position(name):
    return f"{PIPELINE.names().index(name) + 1:02d}"


def test_a_pass_gets_the_same_dump_file_whatever_else_is_dumped(prog, tmp_path):
    alone, every = tmp_path / "alone", tmp_path / "every"
    run(prog(HELLO), "--dump-after=resolve-names", f"--dump-dir={alone}")
    run(prog(HELLO), f"--dump-dir={every}")
    [name] = [p.name for p in alone.iterdir()]
    assert name == f"{position('resolve-names')}b-after-resolve-names.txt"
    assert (alone / name).read_text() == (every / name).read_text()


def test_before_after_and_diff_files_sort_in_the_order_they_happen(prog, tmp_path):
    where = tmp_path / "dumps"
    run(prog(HELLO), "--dump-before=parse,resolve-names", "--dump-after=resolve-names",
        f"--dump-dir={where}", "--dump-format=json")
    run(prog(HELLO), "--dump-diff", "--dump-after=resolve-names", f"--dump-dir={where}")
    n = position("resolve-names")
    assert sorted(p.name for p in where.iterdir()) == [
        "01a-before-parse.vx",  # before parse there is only the program text
        f"{n}a-before-resolve-names.json", f"{n}b-after-resolve-names.json",
        f"{n}c-diff-resolve-names.diff"]
    assert (where / "01a-before-parse.vx").read_text() == HELLO


def unusable_dir(kind, tmp_path):
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    if kind == "read-only":
        where = tmp_path / "read-only"
        where.mkdir(mode=0o555)
        if os.access(where, os.W_OK):
            pytest.skip("this user (root) writes in a read-only directory")
        return where
    return {"a file": a_file, "under a file": a_file / "dumps",
            "under /proc": Path("/proc/nano-vx-dumps")}[kind]


@pytest.mark.parametrize("kind, reason", [
    ("a file", "is not a directory"),
    ("under a file", "cannot create the directory"),
    ("under /proc", "cannot create the directory"),
    ("read-only", "cannot write in the directory"),
])
def test_an_unusable_dump_dir_is_a_one_line_usage_error(prog, tmp_path, kind, reason):
    if kind == "under /proc" and not Path("/proc/self").is_dir():
        pytest.skip("needs Linux's /proc")
    where = unusable_dir(kind, tmp_path)
    code, out, err = run(prog(HELLO), f"--dump-dir={where}")
    assert code == 2 and out == ""
    assert err.startswith("nano-vx: error: --dump-dir: ") and err.count("\n") == 1
    assert repr(str(where)) in err and reason in err


def test_a_dump_file_that_cannot_be_written_is_an_error_not_a_traceback(prog, tmp_path):
    where = tmp_path / "dumps"
    (where / "01b-after-parse.txt").mkdir(parents=True)  # a directory where the file goes
    code, out, err = run(prog(HELLO), f"--dump-dir={where}")
    assert code == 1 and out == ""
    assert err.startswith(f"nano-vx: error: cannot write the dump {where}/01b-after-parse.txt: ")
    assert err.count("\n") == 1


def test_stop_after_stops_the_pipeline_and_does_not_run(prog):
    code, out, _ = run(prog(HELLO), "--stop-after=hoist-nested-items", "--dump-after=all")
    assert code == 0 and "resolve-names" not in out and "42" not in out


def test_an_unknown_pass_name_is_a_usage_error(prog):
    code, _, err = run(prog(HELLO), "--dump-after=no-such-pass")
    assert code == 2 and "no pass named no-such-pass (the passes, in order: parse," in err
    code, _, err = run(prog(HELLO), "--dump-after=desugar-comptim")
    assert code == 2 and "no pass named desugar-comptim; did you mean desugar-comptime? (" in err


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
    monkeypatch.setattr("nano_vx.compile.NATIVE", Pipeline([PIPELINE.passes[0], broken]))
    monkeypatch.chdir(tmp_path)
    code, _, err = run(prog(HELLO))
    assert code == 70 and "internal compiler error in pass explode" in err
    saved = (tmp_path / "nano-vx-ice-explode.txt").read_text()
    assert "ValueError: boom" in saved and "fn main" in saved


@pytest.mark.slow
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


MACHINES = Path(__file__).resolve().parent.parent / "machines"


@pytest.mark.parametrize("flag", ["--machine", "--host"])
def test_a_repeated_machine_or_host_is_a_usage_error_naming_both(prog, flag):
    first, second = MACHINES / "a100-40.vx", MACHINES / "a100-80.vx"
    code, out, err = run(prog(HELLO), flag, first, flag, second)
    assert code == 2 and out == ""
    assert f"argument {flag}: given twice ({str(first)!r} and {str(second)!r})" in err
    code, out, _ = run(prog(HELLO), "--machine", first, "--host", "default")
    assert (code, out) == (0, "42\n")


def test_help_explains_the_dump_notation_and_the_stdout_rule():
    _, out, _ = run("--help")
    flat = " ".join(out.split())
    assert "`@name` is a global" in flat and "`x#1` a local" in flat and "the type `_`" in flat
    assert "An svg or json dump on stdout is one document" in flat


def start(*argv, **popen):
    return subprocess.Popen([shutil.which("nano-vx"), *map(str, argv)],
                            stderr=subprocess.PIPE, **popen)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.slow
def test_a_full_stdout_is_a_one_line_error(prog):
    with open("/dev/full", "w") as full:
        proc = start(prog(HELLO), stdout=full)
        err = proc.communicate(timeout=60)[1].decode()
    assert proc.returncode == 1
    assert err == "nano-vx: error: cannot write to stdout: No space left on device\n"


@pytest.mark.slow
def test_a_closed_stdout_is_a_one_line_error_when_something_is_printed(prog):
    path = prog(HELLO)
    proc = start(path, preexec_fn=lambda: os.close(1))
    err = proc.communicate(timeout=60)[1].decode()
    assert (proc.returncode, err) == (1, "nano-vx: error: cannot write to stdout: it is closed\n")
    proc = start(path, "--action", "check", preexec_fn=lambda: os.close(1))
    assert proc.communicate(timeout=60)[1] == b"" and proc.returncode == 0


FOREVER = """\
fn main() {
    print(1);
    let mut i: i64 = 0;
    while true {
        i = i + 1;
    }
}
"""


@pytest.mark.slow
def test_ctrl_c_says_interrupted_and_exits_130(prog):
    # SIGINT back to its default in the child (a shell's background job ignores it), stdout
    # unbuffered so that the first line says the program is running: the signal then
    # arrives while nano-vx runs it, not while Python is still starting.
    proc = start(prog(FOREVER), stdout=subprocess.PIPE,
                   env={**os.environ, "PYTHONUNBUFFERED": "1"},
                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout.readline() == b"1\n"
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert (proc.returncode, out, err) == (130, b"", b"nano-vx: interrupted\n")


def test_a_diagnostic_shows_the_control_bytes_of_its_line_escaped(prog):
    code, _, err = run(prog(b'fn main() {\n    let s = "\x1b[2J"; print(y);\n}\n'))
    assert code == 1 and "\x1b" not in err
    assert '2 |     let s = "\\u{1b}[2J"; print(y);\n  |              ^^^^^^\n' in err
    code, _, err = run(prog(b'fn main() {\n    let s = "\x1b[2J"; print(y);\n}\n'),
                       "--error-format=json")
    assert json.loads(err)["diagnostics"][0]["code"] == "E1004"


def test_a_text_dump_after_a_pass_that_provides_facts_shows_them_as_comments():
    case = Path(__file__).parent / "passes" / "cases" / "fold_working_sets" / "held_across.vx"
    code, out, _ = run(str(case), "--action", "check",
                       "--dump-after=check-memory-declarations,summarize-working-sets")
    assert code == 1  # the fold refuses the path; the dumps come before it
    assert "// facts provided by check-memory-declarations:\n// model:\n" in out
    assert "//   memory W: capacity 4194304 B, within NPU_HBM, managed explicit\n" in out
    assert ("// call_sites:\n//   call main -> stage at 15:5, point 5: holds W 3145728 bytes\n"
            in out)
    # A pass that provides nothing adds nothing after its IR.
    _, plain, _ = run(str(case), "--action", "check", "--dump-after=check-capacity")
    assert "// facts" not in plain


def test_an_svg_renderer_that_fails_is_one_line_not_a_traceback(prog, monkeypatch, capsys):
    import nano_vx.dump.render as render

    monkeypatch.setattr(render, "find_renderer", lambda: "/nonexistent/dot")
    code = main([str(prog(HELLO)), "--dump-after=parse", "--dump-format=svg"])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("nano-vx: error: /nonexistent/dot -Tsvg could not run")
    assert "Traceback" not in err


GEMV = Path(__file__).resolve().parent.parent / "examples" / "spatial" / "gemv.sdf"


@pytest.mark.parametrize("argv", [
    ["{prog}", "--dump-after=resolve-names"],
    ["spatial", str(GEMV), "--target", "gpu-sm", "--dump-after=place"],
])
def test_a_dump_that_breaks_is_an_internal_error_not_a_traceback(argv, prog, monkeypatch,
                                                                 tmp_path):
    def broken(*args):
        raise RuntimeError("the printer broke")

    monkeypatch.chdir(tmp_path)  # where the report of the internal error goes
    monkeypatch.setattr("nano_vx.driver.render", broken)
    path = prog(HELLO)
    code, _, err = run(*(a.format(prog=path) for a in argv))
    assert code == 70
    assert "internal compiler error in pass" in err and "RuntimeError: the printer broke" in err


def _modules_after(*argvs) -> list[set]:
    """The heavy modules imported after each command line, run one after the other in a
    fresh interpreter (one interpreter: a module stays imported, so a command line that
    imports none adds none to what the next one shows)."""
    check = ("import io, sys; from nano_vx.cli import main\n"
             f"for argv in {[[str(a) for a in argv] for argv in argvs]!r}:\n"
             "    main(argv, stdout=io.StringIO())\n"
             "    print(sorted(m for m in ('mlir', 'llvmlite', 'z3') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                          check=True)
    return [set(eval(line)) for line in done.stdout.splitlines()]  # noqa: S307 - our print


@pytest.mark.slow  # a fresh interpreter: what a process imports
def test_mlir_and_llvmlite_are_imported_only_for_native_code(prog):
    path = prog(HELLO)
    assert _modules_after([path, "--action", "check"], [path, "--action", "interpret"],
                          [path]) == [set(), set(), {"mlir", "llvmlite"}]


# -- the commands and their options ------------------------------------------------------------

DUMPS = {"--dump-after", "--dump-before", "--dump-changed", "--dump-diff", "--dump-dir",
         "--dump-format"}
OUTPUT = {"--timing", "--error-format", "--color"}
# Each command line by its first word (None: `nano-vx FILE`), and the options it takes.
COMMANDS = {
    None: {"-h", "--help", "--action", "-O", "--machine", "--host", "--verify-seams",
           "--emit-seam-certs", *DUMPS, "--list-passes", "--list-languages",
           "--show-language", "--diff-language", "--format", "--stop-after", "--start-after",
           "--start-before", "--passes", *OUTPUT, "--no-verify", "--no-verify-contracts",
           "--contract-timeout-ms", "--check-contracts"},
    "spatial": {"-h", "--help", "--target", "--math-fidelity", "--kernel", "--inputs",
                "--seed", "--corpus", "--no-validate", "--no-verify", "--certificate", "--lower", "--lower-dir",
                *DUMPS, "--stop-after", *OUTPUT},
    "explore": {"-h", "--help", "-o", "--output", "--no-graphs", "--machine", "--host",
                "--target", "--no-verify", "--color"},
    "explain": {"-h", "--help"},
    "check-certificate": {"-h", "--help"},
}


def label(command):
    return f"nano-vx {command or 'FILE'}"


def listed_options(help_text: str) -> set:
    """The options --help lists, one entry each (`-o PAGE.html, --output PAGE.html`), not
    those its prose mentions."""
    entries = [re.split(r"\s{2,}", line.strip())[0] for line in help_text.splitlines()
               if re.match(r"  -", line)]
    return {form.split()[0] for entry in entries for form in entry.split(", ")}


@pytest.mark.parametrize("command", COMMANDS, ids=label)
def test_each_commands_help_lists_only_its_options(command):
    code, out, err = run(*filter(None, [command]), "--help")
    assert (code, err) == (0, "")
    assert out.startswith(f"usage: {label(command).replace(' FILE', '')} ")
    assert listed_options(out) == COMMANDS[command]


@pytest.mark.parametrize("command", COMMANDS, ids=label)
def test_an_option_of_another_command_is_a_usage_error_naming_both(command):
    given = [*filter(None, [command]), "an-argument"]
    others = set().union(*COMMANDS.values()) - COMMANDS[command]
    assert others
    for flag in sorted(others):
        owners = [label(c) for c, flags in COMMANDS.items() if flag in flags]
        belongs = (" and ".join([", ".join(owners[:-1]), owners[-1]]) if len(owners) > 1
                   else owners[0])
        code, out, err = run(*given, flag)
        assert (code, out) == (2, ""), flag
        assert err == (f"{label(command).replace(' FILE', '')}: error: {flag} is not an "
                       f"option of {label(command)} (it belongs to {belongs})\n")


def test_a_program_named_like_a_command_is_reached_through_its_directory(tmp_path,
                                                                         monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spatial").write_text(HELLO)
    assert run("./spatial") == (0, "42\n", "")
    code, out, err = run("spatial")  # the command, which needs a target
    assert (code, out) == (2, "") and "spatial: no --target" in err
    code, out, err = run("--timing", "spatial", "gemv.sdf")
    assert (code, out) == (2, "")
    assert err == ("nano-vx: error: unexpected argument 'gemv.sdf' (a command is the first "
                   "word: nano-vx spatial ...; a program file named spatial is ./spatial)\n")


def test_an_unknown_option_is_argparses_usage_error(prog):
    code, out, err = run(prog(HELLO), "--no-such-option")
    assert (code, out) == (2, "")
    assert err.startswith("usage: nano-vx ")
    assert err.endswith("nano-vx: error: unrecognized arguments: --no-such-option\n")
    code, _, err = run("explain", "E2001", "E2002")
    assert (code, err) == (2, "nano-vx explain: error: unexpected argument 'E2002'\n")


def test_the_help_says_the_plain_run_compiles_to_native_code():
    _, out, _ = run("--help")
    flat = " ".join(out.split())
    assert "is compiled to native code, and runs" in flat
    assert "runs in the reference interpreter instead, after the warning W5001" in flat
    for command in COMMANDS:
        if command:
            assert f"nano-vx {command} " in flat


@pytest.mark.parametrize("command", [c for c in COMMANDS if c], ids=label)
def test_the_cli_page_names_every_option_of_each_command(command):
    _, out, _ = run(command, "--help")
    page = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text()
    missing = [flag for flag in sorted(listed_options(out)) if f"`{flag}" not in page]
    assert missing == [], f"docs/cli.md does not describe {missing}"

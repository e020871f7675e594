"""The pipeline resumes from any IL: a dump file `--dump-dir` writes runs on, through
`nano-vx FILE`, to what the whole run prints; --passes, --start-after and --start-before pick
the passes; what a resumed run cannot do is a usage error or a diagnostic naming why."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from nano_vx.cli import main
from compiled import share_native_builds
from dump_files import dump_file
from test_examples import PROMISES

ROOT = Path(__file__).resolve().parent.parent


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def dumps_of(example: str, args: tuple[str, ...], directory: Path) -> list[Path]:
    """Every dump file of the example's front end (with --dump-after=PASS, that pass's
    only), as --dump-dir writes them."""
    kept = list(args)
    if "--action" in kept:
        at = kept.index("--action")
        del kept[at:at + 2]
    code, _, err = run(ROOT / "examples" / example, *kept, "--dump-dir", directory,
                       "--action", "check")
    assert code in (0, 1), err
    return sorted(directory.iterdir())


def _language_changes(files: list[Path]) -> list[Path]:
    """The last dump of each IL: where a resumed run rebuilds the most."""
    last = {}
    for f in files:
        last[f.read_text().split("\n", 1)[0]] = f
    return sorted(last.values())


def _pass_of(dump: Path) -> str:
    return dump.stem.split("-", 2)[2]  # 07b-after-check-value-types -> check-value-types


# One promise of each example is resumed from every dump; the others (other machines, other
# flags) from the last dump of each IL.
FIRST = {}
for _promise in PROMISES:
    FIRST.setdefault(_promise.example, _promise)


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("promise", PROMISES, ids=lambda p: f"{p.example} {' '.join(p.args)}")
def test_every_dump_resumes_to_what_the_whole_run_prints(promise, tmp_path, monkeypatch):
    # Resumed to the end from the last dump of each IL, where a resumed run rebuilds the
    # most. The first promise of an example is also resumed from every dump, one pass at a
    # time (below), so that resuming from dump k costs one pass, not the rest of the pipeline.
    monkeypatch.chdir(ROOT)  # the examples' arguments name machines/ from the root
    share_native_builds(monkeypatch)  # each resumed run lowers the whole run's program
    whole = run(ROOT / "examples" / promise.example, *promise.args)
    files = dumps_of(promise.example, promise.args, tmp_path / "whole")
    assert files  # at least parse's
    for f in _language_changes(files):
        resumed = run(f, *promise.args)
        assert resumed[:2] == whole[:2], f"{f.name}: {resumed[2]}"
    if FIRST[promise.example] is promise:
        _every_dump_resumes_to_the_next(promise, files, tmp_path / "steps")


def _every_dump_resumes_to_the_next(promise, files: list[Path], directory: Path) -> None:
    """Each dump, resumed through the next pass, writes that pass's dump as the whole run
    wrote it: the tree byte for byte, the facts its pass provides, the carried facts and every
    diagnostic reported so far (placed in the dump it read, not in the program). The resumed
    run plans the rest of the pipeline, back end included, so the facts every later pass
    needs are rebuilt from the dump's tree (or refused) as a run to the end would. With the
    last dump of each IL resumed to the end, every dump resumes to what the whole run prints,
    by induction, in one pass per dump instead of the rest of the pipeline per dump."""
    for i, (dump, following) in enumerate(zip(files, files[1:])):
        where = directory / str(i)
        step = _pass_of(following)
        # The promise's own action: a run plans the back end too, and --stop-after cuts it.
        code, _, err = run(dump, *promise.args, "--stop-after", step, "--dump-after", step,
                           "--dump-dir", where)
        assert code in (0, 1), f"{dump.name}: {err}"
        assert [f.name for f in where.iterdir()] == [following.name], dump.name
        assert _placeless((where / following.name).read_text()) == \
            _placeless(following.read_text()), \
            f"{dump.name} resumed through {step} wrote another {following.name}"


_SPAN = re.compile(r'"span": \{[^{}]*\}')
_LINE_COLUMN = re.compile(r"\b\d+:\d+\b")


def _placeless(dump: str) -> str:
    """The dump with the places in its comments left out: a resumed run reads the dump's text,
    so what its passes report and describe is placed in that file, not in the program."""
    return "".join(_LINE_COLUMN.sub("L:C", _SPAN.sub('"span": {}', line))
                   if line.startswith("//") else line
                   for line in dump.splitlines(keepends=True))


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("promise", PROMISES, ids=lambda p: f"{p.example} {' '.join(p.args)}")
def test_the_lmlir_dump_resumes_to_what_the_whole_run_prints(promise, tmp_path, monkeypatch):
    # The back end's last IL is MLIR text, which MLIR reads back (nano_vx/resume/mlir.py).
    monkeypatch.chdir(ROOT)
    share_native_builds(monkeypatch)
    whole = run(ROOT / "examples" / promise.example, *promise.args)
    files = dumps_of(promise.example, (*promise.args, "--dump-after", "select-instructions"),
                     tmp_path)
    if not files:  # the front end refused the program, or native code does not lower it
        return
    [dump] = files
    assert dump.read_text().startswith("// IL: Lmlir\n")
    for resumed in (run(dump, *promise.args),
                    run(dump, *promise.args, "--start-after", "select-instructions")):
        assert resumed[:2] == whole[:2], resumed[2]


CAPACITY = ROOT / "examples/correlation/06_capacity_against_a_declared_machine.vx"
SMALL = ("--host", "default", "--machine", ROOT / "machines/a100-40.vx")


@pytest.fixture(scope="module")
def capacity_dumps(tmp_path_factory):
    directory = tmp_path_factory.mktemp("capacity")
    run(CAPACITY, *SMALL, "--dump-dir", directory, "--action", "check")
    return {f.name.split("-", 2)[2].rsplit(".", 1)[0]: f for f in directory.iterdir()
            if "-after-" in f.name}


def test_a_dump_ends_with_where_it_was_taken_and_what_was_reported(capacity_dumps):
    text = capacity_dumps["check-capacity"].read_text()
    tail = text.splitlines()[-3:]
    assert tail[:2] == ["// after: check-capacity", "// fact proved_requires: {}"]
    assert tail[2].startswith('// reported by check-capacity: {') and '"code": "E6009"' in tail[2]


def test_a_dump_taken_where_the_run_stopped_stops_there_again(capacity_dumps):
    code, out, err = run(capacity_dumps["check-capacity"])
    assert (code, out) == (1, "")
    assert err.startswith("error[E6009]: ")
    assert "06_capacity_against_a_declared_machine.vx:16:17" in err  # where it was reported


def test_a_fact_a_later_pass_needs_is_rebuilt_from_the_tree(capacity_dumps):
    # fold-working-sets needs the working sets and the model: summarize-working-sets runs
    # again on the Lrouted tree, the model is read from the declarations in it.
    code, _, err = run(capacity_dumps["summarize-working-sets"], "--action", "check")
    assert code == 1 and "error[E6009]" in err and "capacity_against" not in err.split("\n")[1]


def test_a_dump_edited_by_hand_runs_as_edited(capacity_dumps, tmp_path):
    # 50 GiB of f16 does not fit the 40 GB part; 50 MiB does.
    text = capacity_dumps["infer-placement"].read_text()
    assert text.count("[51200, 524288]") == 3
    edited = tmp_path / "edited.txt"
    edited.write_text(text.replace("[51200, 524288]", "[51200, 512]"))
    assert run(edited, "--action", "check")[:2] == (0, "")


def test_start_after_names_the_pass_whose_output_the_file_is(capacity_dumps):
    dump = capacity_dumps["check-visibility"]
    code, _, err = run(dump, "--start-after", "infer-placement")
    assert code == 2
    assert err == ("nano-vx: error: --start-after=infer-placement: infer-placement produces "
                   "Ltyped, but the input is in Lrouted\n")
    assert run(dump, "--start-after", "check-value-types", "--action", "check")[0] == 1


def test_start_before_runs_the_named_pass_first(capacity_dumps, tmp_path):
    dump = capacity_dumps["check-capacity"]
    code, _, err = run(dump, "--start-before", "check-capacity", "--action", "check",
                       "--dump-dir", tmp_path)
    assert code == 1 and err.count("error[E6009]") == 1  # reported once, by the pass re-run
    assert sorted(f.name for f in tmp_path.iterdir())[0] == dump_file("check-capacity")


def test_passes_runs_exactly_the_named_passes(capacity_dumps, tmp_path):
    dump = capacity_dumps["resolve-sub-space-ancestors"]
    code, _, err = run(dump, "--passes",
                       "check-value-types,summarize-working-sets,check-capacity",
                       "--dump-dir", tmp_path)
    assert code == 1 and "error[E6009]" in err
    assert [f.name for f in sorted(tmp_path.iterdir())] == [
        dump_file("check-value-types"), dump_file("summarize-working-sets"),
        dump_file("check-capacity")]


def test_passes_whose_ils_do_not_line_up_are_a_usage_error(capacity_dumps):
    dump = capacity_dumps["resolve-sub-space-ancestors"]
    assert run(dump, "--passes", "check-value-types,outline-kernels") == (
        2, "", "nano-vx: error: --passes: check-value-types produces Lrouted, but "
               "outline-kernels reads Lscheduled\n")
    assert run(dump, "--passes", "infer-placement") == (
        2, "", "nano-vx: error: --passes: infer-placement reads Lmono, but the input is in "
               "Lrouted\n")
    code, _, err = run(dump, "--passes", "check-tyeps")
    assert code == 2 and err.startswith("nano-vx: error: no pass named check-tyeps; ")


def test_passes_and_a_start_are_one_too_many(capacity_dumps):
    code, _, err = run(capacity_dumps["check-value-types"], "--passes", "check-returns",
                       "--start-after", "check-value-types")
    assert code == 2 and "--passes names every pass to run" in err


def test_a_program_runs_from_a_pass_on_with_passes(tmp_path):
    program = tmp_path / "p.vx"
    program.write_text("fn main() { print(1 + 2); }\n")
    assert run(program, "--passes", "parse,drop-imports", "--action", "check") == (0, "", "")
    code, _, err = run(program, "--passes", "drop-imports")
    assert code == 2 and "drop-imports reads Lsrc, but the input is in the program's text" in err


def test_a_carried_fact_missing_from_a_hand_written_dump_is_named(tmp_path):
    dump = tmp_path / "kernels.txt"
    dump.write_text("// IL: Lkernels\nfn main() {}\n")
    code, _, err = run(dump, "--action", "check")
    assert code == 2
    assert err == ("nano-vx: error: insert-seam-assumes needs the fact 'proved_requires', "
                   "which verify-contracts provides; a Lkernels tree does not hold it and the "
                   "dump does not carry it (a `// fact proved_requires: ...` line, as "
                   "--dump-dir writes after verify-contracts)\n")
    dump.write_text("// IL: Lkernels\nfn main() {}\n// fact proved_requires: {}\n")
    assert run(dump, "--action", "check") == (0, "", "")


def test_a_state_line_that_does_not_read_is_e1007(tmp_path):
    dump = tmp_path / "bad.txt"
    dump.write_text('// IL: Lkernels\nfn main() {}\n// fact proved_requires: {"main": 1}\n')
    code, _, err = run(dump)
    assert code == 1
    assert err.startswith("error[E1007]: the state line '// fact proved_requires:' does not "
                          'read: expected {"function": [requires index, ...], ...}\n'
                          " --> ")


def test_a_spatial_program_is_sent_to_the_spatial_command(tmp_path):
    from nano_vx.dump.json_form import dumps_json
    from nano_vx.spatial.parse import parse_spatial
    from nano_vx.spatial.text import language_of

    graph = parse_spatial((ROOT / "examples/spatial/gemm.sdf").read_text(), "gemm.sdf")
    dump = tmp_path / "gemm.json"
    dump.write_text(dumps_json(graph, language=language_of(graph)))
    assert run(dump) == (2, "", f"nano-vx: error: {dump} is a spatial program (Sdataflow): run "
                                f"it with `nano-vx spatial {dump} --target TARGET`\n")


def test_an_inferred_type_reads_back_as_inferred(tmp_path):
    # `let s = 0.0;` is any float it meets; `let s: f64 = 0.0;` is an f64. A dump says which.
    program = tmp_path / "p.vx"
    program.write_text("fn main() {\n    let x: f32 = 1.5;\n    let mut s = 0.0;\n"
                       "    s += x;\n    print(s);\n}\n")
    run(program, "--dump-dir", tmp_path / "d", "--action", "check")
    dump = tmp_path / "d" / dump_file("infer-placement")
    assert "    let mut s: ~f64 = 0.0;\n" in dump.read_text()
    assert run(dump) == (0, "1.5\n", "")
    written = tmp_path / "written.txt"
    written.write_text(dump.read_text().replace("~f64", "f64"))
    code, _, err = run(written)
    assert code == 1 and err.startswith("error[E3004]: `+=` is given f64 and f32")


def test_a_dump_before_a_pass_resumes_with_that_pass(tmp_path):
    run(CAPACITY, *SMALL, "--dump-before", "check-capacity", "--dump-dir", tmp_path,
        "--action", "check")
    dump = tmp_path / dump_file("check-capacity", "before")
    assert dump.read_text().splitlines()[-2:] == ["// before: check-capacity",
                                                  "// fact proved_requires: {}"]
    code, _, err = run(dump, "--action", "check")
    assert code == 1 and err.count("error[E6009]") == 1


def test_a_program_of_dynamic_extents_resumes_from_the_last_dump_of_each_il(tmp_path):
    # A `?` tensor's constructor gives its extents first: each IL's check of a dump counts
    # them apart from its values, and Lscalars' Extent and Lmlir's memref.dim read back; a
    # parameter Lcalls marks noalias binds its name as any parameter does.
    program = ROOT / "tests/passes/cases/select_instructions/dynamic_extents.vx"
    whole = run(program)
    run(program, "--dump-dir", tmp_path, "--dump-after", "all", "--action", "emit-mlir")
    for f in _language_changes(sorted(tmp_path.iterdir())):
        assert run(f)[:2] == whole[:2], f.name


def test_the_uninitialized_globals_of_vector_and_tensor_constants_read_back(tmp_path):
    # A vector's or a tensor's constant global starts `uninitialized` (a unit attribute, not
    # a dense value): the first read stores it.
    for program in (ROOT / "tests/passes/cases/type_scalars/vector_constant_calling_a_function.vx",
                    ROOT / "tests/passes/cases/type_scalars/constant_holding_a_tensor.vx"):
        whole = run(program)
        mlir = tmp_path / f"{program.stem}.mlir"
        code, text, _ = run(program, "--action", "emit-mlir")
        assert code == 0 and "= uninitialized" in text
        mlir.write_text(text)
        assert run(mlir)[:2] == whole[:2]

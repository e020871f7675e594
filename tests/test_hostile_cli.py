"""A hostile command line: every flag misused is a usage error or a failure said one way,
with its exit status (docs/cli.md), in text and, under --error-format=json, as one JSON
document; never a traceback, never work done on an output that cannot be written."""

import io
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from nano_vx.cli import main

# Slow (the whole suite's, not the inner loop's): the command line's failures. A pass's codes
# are in its own tests and docs/diagnostics.md's examples.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
GEMV = ROOT / "examples" / "spatial" / "gemv.sdf"
HELLO = "fn main() {\n    print(42);\n}\n"


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def run_json(*argv):
    """The command under --error-format=json: its status and stderr's one document."""
    code, out, err = run(*argv, "--error-format=json")
    return code, out, json.loads(err)


@pytest.fixture
def hello(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # an internal error's report goes to the current directory
    path = tmp_path / "hello.vx"
    path.write_text(HELLO)
    return path


@pytest.fixture
def dump(hello):
    """A dump of the program after parse, to resume from."""
    code, _, _ = run(hello, "--dump-dir=ir", "--action=check")
    assert code == 0
    return hello.parent / "ir" / "01b-after-parse.txt"


# -- --passes and empty values -----------------------------------------------------------

def test_passes_naming_a_pass_twice_is_a_usage_error(dump):
    code, _, err = run(dump, "--passes=load-machine-files,load-machine-files")
    assert (code, err) == (2, "nano-vx: error: --passes names load-machine-files twice; a "
                              "pass runs once in a pipeline\n")


def test_passes_naming_a_pass_once_each_runs(dump):
    code, _, err = run(dump, "--passes=load-machine-files,drop-imports")
    assert (code, err) == (0, "")


@pytest.mark.parametrize("flag", ["--passes=", "--dump-after=", "--dump-before=",
                                  "--stop-after=", "--machine=", "--show-language=",
                                  "--dump-dir= "])
def test_an_empty_value_is_a_usage_error_not_the_default(hello, flag):
    code, out, err = run(hello, flag)
    name = flag.split("=")[0]
    assert (code, out, err) == (2, "", f"nano-vx: error: {name} was given an empty value\n")


def test_an_empty_output_of_explore_is_a_usage_error_and_nothing_is_written(hello):
    code, _, err = run("explore", hello, "-o", "")
    assert (code, err) == (2, "nano-vx explore: error: -o/--output was given an empty "
                              "value\n")
    assert not (hello.parent / "hello.html").exists()


@pytest.mark.parametrize("flag", ["--passes=,", "--dump-after= , "])
def test_a_list_of_no_pass_is_a_usage_error(hello, flag):
    code, out, err = run(hello, flag)
    assert code == 2 and out == "" and "names no pass; the passes are parse," in err


# -- files: read and written, checked before any work ----------------------------------

@pytest.mark.parametrize("argv, message", [
    (["nope.vx"], "nano-vx: error: cannot read 'nope.vx': No such file or directory\n"),
    (["."], "nano-vx: error: cannot read '.': Is a directory\n"),
    (["hello.vx", "--machine=nope.vx"],
     "nano-vx: error: --machine: cannot read 'nope.vx': No such file or directory\n"),
    (["spatial", "nope.sdf", "--target", "wormhole"],
     "nano-vx spatial: error: cannot read 'nope.sdf': No such file or directory\n"),
    (["explore", "nope.vx"],
     "nano-vx explore: error: cannot read 'nope.vx': No such file or directory\n"),
    (["check-certificate", "."],
     "nano-vx check-certificate: error: cannot read '.': Is a directory\n"),
])
def test_an_input_that_cannot_be_read_is_a_usage_error(hello, argv, message):
    assert run(*argv) == (2, "", message)


def test_explore_refuses_to_write_the_page_over_its_program(hello):
    code, _, err = run("explore", hello, "-o", hello)
    assert (code, err) == (2, f"nano-vx explore: error: -o '{hello}' is the program "
                              f"'{hello}': writing it would destroy the input; name another "
                              f"file\n")
    assert hello.read_text() == HELLO


def test_explore_refuses_a_default_page_that_is_its_program(hello):
    page = hello.with_suffix(".html")
    page.write_text(HELLO)
    code, _, err = run("explore", page.name)
    assert code == 2 and "is the program 'hello.html'" in err and page.read_text() == HELLO


def test_explore_refuses_to_write_the_page_over_its_machine_file(hello):
    machine = hello.parent / "m.vx"
    machine.write_text("")
    code, _, err = run("explore", hello, "--machine", machine, "-o", machine)
    assert code == 2 and "is the --machine file" in err


def test_the_same_file_under_another_name_is_the_same_file(hello):
    os.link(hello, hello.parent / "alias.vx")
    code, _, err = run("explore", hello, "-o", "alias.vx")
    assert code == 2 and "is the program" in err and hello.read_text() == HELLO


@pytest.mark.parametrize("where, why", [("/", "Is a directory"),
                                        ("no/such/dir/page.html", "No such file or directory")])
def test_an_unwritable_page_is_refused_before_any_pass_runs(hello, where, why):
    code, _, err = run("explore", hello, "-o", where)
    assert (code, err) == (2, f"nano-vx explore: error: -o: cannot write {where!r}: {why}\n")


def test_checking_a_page_leaves_no_file_behind(hello):
    code, _, _ = run("explore", hello, "--machine", "nope.vx", "-o", "page.html")
    assert code == 2 and not (hello.parent / "page.html").exists()


def test_a_certificate_over_the_program_is_refused(hello):
    program = hello.parent / "gemv.sdf"
    program.write_text(GEMV.read_text())
    code, _, err = run("spatial", program, "--target", "wormhole", "--certificate", program)
    assert code == 2 and "--certificate" in err and "is the program" in err
    assert program.read_text() == GEMV.read_text()


def test_an_unwritable_lower_dir_is_a_usage_error_before_the_lane_runs(hello):
    (hello.parent / "file").write_text("")
    code, out, err = run("spatial", GEMV, "--target", "wormhole", "--lower", "tenstorrent",
                         "--lower-dir", hello.parent / "file" / "out")
    assert (code, out) == (2, "")
    assert err.startswith("nano-vx spatial: error: --lower-dir: cannot create the directory ")


def test_a_lower_dir_that_fails_while_writing_is_one_line_exit_1(hello, monkeypatch):
    from nano_vx.spatial_backend import output

    def full(*args):
        raise OSError(28, "No space left on device", "out/census.txt")

    monkeypatch.setattr(output, "lower_program", full)
    code, _, err = run("spatial", GEMV, "--target", "wormhole", "--lower", "tenstorrent",
                       "--lower-dir", "out")
    assert (code, err) == (1, "nano-vx: error: cannot write the tenstorrent program's file "
                              "out/census.txt: No space left on device\n")


# -- numbers with a documented range ----------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["hello.vx", "--contract-timeout-ms=600001"], "argument --contract-timeout-ms: expected "
     "a positive whole number, not '600001' (milliseconds, at most 600,000)"),
    (["hello.vx", "--contract-timeout-ms=99999999999999999999"],
     "not '99999999999999999999' (milliseconds, at most 600,000)"),
    (["hello.vx", "--contract-timeout-ms=0"], "expected a positive whole number, not '0'"),
    (["hello.vx", "--contract-timeout-ms=١٠"], "expected a positive whole number, not '١٠'"),
    (["spatial", GEMV, "--target", "wormhole", "--seed=-1"],
     "argument --seed: expected a non-negative whole number, not '-1' (at most "
     "4,294,967,295)"),
    (["spatial", GEMV, "--target", "wormhole", "--corpus=100000000"],
     "argument --corpus: expected a positive whole number, not '100000000' (inputs, at most "
     "16)"),
])
def test_a_number_out_of_its_range_is_a_usage_error(hello, argv, message):
    code, out, err = run(*argv)
    last = err.splitlines()[-1]
    assert code == 2 and out == "" and last.startswith("nano-vx") and message in last
    assert "Traceback" not in err


def test_the_largest_contract_timeout_is_taken(hello):
    assert run(hello, "--contract-timeout-ms=600000", "--action=check") == (0, "", "")


def test_z3_is_bounded_in_memory():
    from nano_vx.solver import MEMORY_MB, z3

    assert z3().get_param("memory_max_size") == str(MEMORY_MB)


# -- --error-format=json: stderr is one JSON document, whatever stops the command ---------

def error_of(doc):
    assert doc["version"] == 1 and "messages" not in doc  # no line of text got in
    return doc.get("error")


@pytest.mark.parametrize("argv, kind, status, message", [
    (["hello.vx", "--bogus"], "usage", 2, "unrecognized arguments: --bogus"),
    (["hello.vx", "-O9"], "usage", 2, "argument -O: invalid choice: 9 (choose from 0, 1, 2, 3)"),
    (["hello.vx", "--passes=nope"], "usage", 2, "no pass named nope (the passes, in order: parse,"),
    (["hello.vx", "--target", "wormhole"], "usage", 2, "--target is not an option of nano-vx "
                                                       "FILE"),
    (["hello.vx", "--passes="], "usage", 2, "--passes was given an empty value"),
    (["nope.vx"], "usage", 2, "cannot read 'nope.vx': No such file or directory"),
    (["."], "usage", 2, "cannot read '.': Is a directory"),
    (["hello.vx", "--dump-dir=hello.vx"], "usage", 2, "--dump-dir: 'hello.vx' is not a "
                                                      "directory"),
    (["spatial", "nope.sdf", "--target", "wormhole"], "usage", 2, "cannot read 'nope.sdf'"),
    (["spatial", GEMV], "usage", 2, "spatial: no --target"),
    (["spatial", GEMV, "--target", "wormhole", "--corpus=0"], "usage", 2,
     "argument --corpus: expected a positive whole number"),
])
def test_a_usage_error_is_the_documents_error(hello, argv, kind, status, message):
    code, out, doc = run_json(*argv)
    error = error_of(doc)
    assert (code, out, doc["diagnostics"]) == (status, "", [])
    assert (error["kind"], error["exit"]) == (kind, status) and error["message"].startswith(
        message)


@pytest.mark.parametrize("flag", ["--error-format=json", "--error-f=json"])
def test_json_is_asked_for_before_the_line_parses(hello, flag):
    code, _, err = run(hello, "--bogus", *flag.split(" "))
    assert code == 2 and json.loads(err)["error"]["kind"] == "usage"


def test_json_given_as_two_words_is_json_too(hello):
    code, _, err = run(hello, "--bogus", "--error-format", "json")
    assert code == 2 and json.loads(err)["error"]["kind"] == "usage"


def test_a_refused_program_has_no_error_only_its_diagnostics(hello):
    hello.write_text("fn main() { print(y); }")
    code, _, doc = run_json(hello)
    assert code == 1 and error_of(doc) is None and doc["diagnostics"][0]["code"] == "E2001"


def test_a_bug_outside_any_pass_is_an_internal_error_without_python_text(hello, monkeypatch):
    def broken(*args):
        raise ValueError("too many values to unpack (expected 2)")

    monkeypatch.setattr("nano_vx.compile.compile_file", broken)
    code, _, err = run(hello)
    saved = hello.parent / "nano-vx-ice-command.txt"
    assert (code, err) == (70, "nano-vx: internal compiler error: ValueError: too many values "
                               "to unpack (expected 2)\n"
                               f"nano-vx: the traceback is in {saved}\n"
                               "nano-vx: this is a bug in nano-vx, not in your program\n")
    assert "Traceback (most recent call last)" in saved.read_text()
    code, _, doc = run_json(hello)
    assert code == 70 and error_of(doc) == {
        "kind": "internal", "exit": 70, "ir_file": str(saved),
        "message": "internal compiler error: ValueError: too many values to unpack "
                   "(expected 2)"}


def test_a_bug_in_a_pass_is_an_internal_error_naming_the_pass(hello, monkeypatch):
    from nano_vx.nanopass import Pass, Pipeline
    from nano_vx.pipeline import PIPELINE

    lang = PIPELINE.passes[0].output
    broken = Pass("explode", lang, lang, "raises, to test the internal-error path")

    @broken.on("Program")
    def _(run_, node):
        raise IndexError("list assignment index out of range")

    monkeypatch.setattr("nano_vx.compile.NATIVE", Pipeline([PIPELINE.passes[0], broken]))
    code, _, doc = run_json(hello)
    error = error_of(doc)
    assert code == 70 and (error["kind"], error["pass"]) == ("internal", "explode")
    assert error["ir_file"] == str(hello.parent / "nano-vx-ice-explode.txt")


def test_a_dump_that_cannot_be_written_is_an_environment_error(hello, monkeypatch):
    import builtins

    real_open = builtins.open

    def full(path, mode="r", *args, **kwargs):
        if "w" in mode and str(path).startswith("ir"):
            raise OSError(28, "No space left on device")
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", full)
    code, _, doc = run_json(hello, "--dump-dir=ir")
    assert code == 1 and error_of(doc) == {
        "kind": "environment", "exit": 1,
        "message": f"cannot write the dump {os.path.join('ir', '01b-after-parse.txt')}: No "
                   f"space left on device"}


def test_a_full_stdout_is_an_environment_error_in_the_document(hello):
    from nano_vx.cli.streams import GuardedStream

    class Full(io.StringIO):
        def write(self, text):
            raise OSError(28, "No space left on device")

    err = io.StringIO()
    code = main([str(hello), "--error-format=json"], stdout=GuardedStream(Full(), "stdout"),
                stderr=err)
    doc = json.loads(err.getvalue())
    assert code == 1 and error_of(doc) == {
        "kind": "environment", "exit": 1,
        "message": "cannot write to stdout: No space left on device"}


def test_a_binary_spatial_program_is_e7001_not_python_text(hello):
    program = hello.parent / "bin.sdf"
    program.write_bytes(b"\x00\xff")
    code, out, doc = run_json("spatial", program, "--target", "wormhole")
    assert (code, out, error_of(doc)) == (1, "", None)
    [d] = doc["diagnostics"]
    assert (d["code"], d["message"]) == ("E7001", "the program is not UTF-8 text: byte 0xff "
                                                  "at offset 1")


def test_an_unknown_target_alone_is_json_too(hello):
    code, _, doc = run_json("spatial", "--target", "nowhere")
    assert code == 1 and doc["diagnostics"][0]["code"] == "E7004"


def test_timing_in_json_is_part_of_the_document(hello):
    code, out, doc = run_json(hello, "--timing")
    assert (code, out, error_of(doc)) == (0, "42\n", None)
    assert [t["pass"] for t in doc["timings"]][:2] == ["parse", "load-machine-files"]
    assert all(t["ms"] >= 0 for t in doc["timings"])
    assert set(doc["native"]) == {"opt_level", "build_ms", "run_ms"}


def test_timing_of_the_spatial_lane_in_json(hello):
    code, _, doc = run_json("spatial", GEMV, "--target", "wormhole", "--timing")
    assert code == 0 and [t["pass"] for t in doc["timings"]][0] == "tile"


# -- inputs that never end ---------------------------------------------------------------

@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("argv, prog", [(["/dev/zero"], "nano-vx"),
                                        (["spatial", "/dev/zero", "--target", "wormhole"],
                                         "nano-vx spatial"),
                                        (["hello.vx", "--machine=/dev/zero"], "nano-vx")])
def test_a_device_is_refused_not_read_for_ever(hello, argv, prog):
    code, _, err = run(*argv)
    assert code == 2 and err.startswith(f"{prog}: error: ") and "'/dev/zero' is a device, " \
        "not a file" in err


def test_a_file_over_the_input_limit_is_refused_before_it_is_read(hello, monkeypatch):
    monkeypatch.setattr("nano_vx.cli.paths.INPUT_LIMIT", 10)
    code, _, err = run(hello.name)
    assert (code, err) == (2, f"nano-vx: error: 'hello.vx' is {len(HELLO)} bytes; nano-vx "
                              f"reads files of at most 10 bytes\n")


def test_a_pipe_is_read_only_up_to_the_input_limit(hello, monkeypatch):
    monkeypatch.setattr("nano_vx.compile.INPUT_LIMIT", 10)
    read, write = os.pipe()
    os.write(write, HELLO.encode())
    os.close(write)
    try:
        code, _, err = run(f"/dev/fd/{read}")
    finally:
        os.close(read)
    assert code == 2 and "holds more than 10 bytes" in err


# -- where the run starts and stops ------------------------------------------------------

@pytest.mark.parametrize("argv", [["hello.vx", "--stop-after=parse,check-value-types"],
                                  ["hello.vx", "--start-before=parse,drop-imports"],
                                  ["spatial", GEMV, "--target", "wormhole",
                                   "--stop-after=tile,place"]])
def test_a_list_where_one_pass_is_named_is_a_usage_error(hello, argv):
    code, out, err = run(*argv)
    flag, value = argv[-1].split("=")
    assert (code, out) == (2, "")
    assert err.endswith(f"error: argument {flag}: names one pass, not a list: {value!r}\n")


def test_stop_after_given_twice_is_a_usage_error(hello):
    code, _, err = run(hello, "--stop-after=parse", "--stop-after=drop-imports")
    assert code == 2 and err.endswith("error: argument --stop-after: given twice ('parse' and "
                                      "'drop-imports'); it takes one value per run\n")


@pytest.mark.parametrize("argv, runs", [
    (["--passes=parse", "--stop-after=check-value-types"], "parse"),
    (["--start-before=drop-imports", "--stop-after=parse"], None),
])
def test_stop_after_a_pass_the_run_does_not_reach_is_a_usage_error(hello, dump, argv, runs):
    source = hello if runs == "parse" else dump
    code, out, err = run(source, *argv)
    stop = argv[-1].split("=")[1]
    assert (code, out) == (2, "")
    assert err.startswith(f"nano-vx: error: --stop-after={stop}: the run does not reach it")


def test_stop_after_a_dumps_own_pass_is_a_usage_error(dump):
    code, _, err = run(dump, "--stop-after=parse")
    assert (code, err) == (2, "nano-vx: error: --stop-after=parse: the run does not reach it "
                              "(it runs load-machine-files to select-instructions)\n")


def test_stop_after_a_pass_the_resumed_run_reaches_stops_there(dump):
    assert run(dump, "--stop-after=drop-imports") == (0, "", "")


# -- --inputs of the spatial lane: its E7002, in words, never Python's ------------------

@pytest.mark.parametrize("content, why", [
    (None, "no such file or directory"),
    (b"garbage", "they are not an .npz archive of numeric arrays (numpy.savez writes one)"),
    (b"PK\x03\x04junk", "they are not an .npz archive of numeric arrays (numpy.savez writes one)"),
])
def test_unreadable_inputs_say_why_in_words(hello, content, why):
    given = hello.parent / "given.npz"
    if content is not None:
        given.write_bytes(content)
    code, out, doc = run_json("spatial", GEMV, "--target", "wormhole", "--inputs", given)
    [d] = doc["diagnostics"]
    assert (code, out, d["code"]) == (1, "", "E7002")
    assert d["message"] == f"cannot read the inputs {str(given)!r}: {why}"


# -- the real streams: the console script --------------------------------------------------

FOREVER = "fn main() {\n    print(1);\n    let mut i: i64 = 0;\n    while true {\n" \
          "        i = i + 1;\n    }\n}\n"


def start(*argv, **popen):
    return subprocess.Popen([shutil.which("nano-vx"), *map(str, argv)],
                            stderr=subprocess.PIPE, **popen)


def test_stdout_appended_to_the_program_is_refused(hello):
    with open(hello, "a") as same:
        proc = start(hello, stdout=same)
        err = proc.communicate(timeout=60)[1].decode()
    assert (proc.returncode, err) == (2, f"nano-vx: error: stdout is the program '{hello}': "
                                         f"writing it would destroy the input; redirect "
                                         f"stdout to another file\n")
    assert hello.read_text() == HELLO


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_under_json_is_the_documents_error(hello):
    with open("/dev/full", "w") as full:
        proc = start(hello, "--error-format=json", stdout=full)
        err = proc.communicate(timeout=60)[1].decode()
    assert proc.returncode == 1 and json.loads(err)["error"] == {
        "kind": "environment", "exit": 1,
        "message": "cannot write to stdout: No space left on device"}


def test_ctrl_c_under_json_is_the_documents_error(hello):
    hello.write_text(FOREVER)
    proc = start(hello, "--error-format=json", stdout=subprocess.PIPE,
                 env={**os.environ, "PYTHONUNBUFFERED": "1"},
                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout.readline() == b"1\n"
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert (proc.returncode, out) == (130, b"")
    assert json.loads(err)["error"] == {"kind": "interrupted", "message": "interrupted",
                                        "exit": 130}


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("argv, flag", [
    (["spatial", GEMV, "--target", "/dev/zero"], "--target"),
    (["spatial", "--target", "/dev/zero"], "--target"),
    (["spatial", GEMV, "--target", "wormhole", "--inputs", "/dev/zero"], "--inputs"),
])
def test_a_device_as_a_target_or_inputs_is_refused(hello, argv, flag):
    assert run(*argv) == (2, "", f"nano-vx spatial: error: {flag}: '/dev/zero' is a device, "
                                 f"not a file\n")


def test_a_missing_target_file_is_still_e7004(hello):
    code, _, doc = run_json("spatial", GEMV, "--target", "nope.toml")
    assert code == 1 and doc["diagnostics"][0]["code"] == "E7004" and "error" not in doc


def test_a_certificate_over_the_inputs_is_refused(hello):
    import numpy as np

    np.savez(hello.parent / "given.npz", X=np.zeros(3))
    code, _, err = run("spatial", GEMV, "--target", "wormhole", "--inputs", "given.npz",
                       "--certificate", "given.npz")
    assert (code, err) == (2, "nano-vx spatial: error: --certificate 'given.npz' is the "
                              "--inputs file 'given.npz': writing it would destroy the input; "
                              "name another file\n")


@pytest.mark.parametrize("formats, json_mode", [(["json", "human"], False),
                                                (["human", "json"], True)])
def test_the_last_error_format_given_is_the_one(hello, formats, json_mode):
    hello.write_text("fn main() { print(y); }")
    code, _, err = run(hello, *[f"--error-format={f}" for f in formats])
    assert code == 1
    if json_mode:
        assert json.loads(err)["diagnostics"][0]["code"] == "E2001"
    else:
        assert err.startswith("error[E2001]")


def test_a_page_written_to_a_named_pipe_reaches_its_reader(hello):
    pipe = hello.parent / "page.fifo"
    os.mkfifo(pipe)
    with open(hello.parent / "read.html", "wb") as read:
        reader = subprocess.Popen(["cat", str(pipe)], stdout=read)
        try:
            code, _, err = run("explore", hello, "-o", pipe, "--no-graphs")
            reader.wait(timeout=60)
        finally:
            reader.kill()
    page = (hello.parent / "read.html").read_bytes()
    assert code == 0 and page.startswith(b"<!DOCTYPE html>") and page.rstrip().endswith(
        b"</html>")


def test_a_pipe_is_read_only_up_to_the_input_limit_by_the_spatial_lane(hello, monkeypatch):
    monkeypatch.setattr("nano_vx.compile.INPUT_LIMIT", 10)
    read, write = os.pipe()
    os.write(write, GEMV.read_bytes()[:4096])
    os.close(write)
    try:
        code, _, err = run("spatial", f"/dev/fd/{read}", "--target", "wormhole")
    finally:
        os.close(read)
    assert code == 2 and "holds more than 10 bytes" in err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_explore_refuses_a_device_as_the_target(hello):
    code, _, err = run("explore", GEMV, "--target", "/dev/zero", "-o", "page.html")
    assert (code, err) == (2, "nano-vx explore: error: --target: '/dev/zero' is a device, not "
                              "a file\n")


def test_dump_after_given_twice_dumps_after_both(hello):
    code, out, _ = run(hello, "--dump-after=parse", "--dump-after=drop-imports",
                       "--action=check")
    banners = [line for line in out.splitlines() if line.startswith("*** IR Dump")]
    assert code == 0 and [b.split()[4] for b in banners] == ["parse", "drop-imports"]


def test_an_empty_dump_after_among_others_is_still_refused(hello):
    code, _, err = run(hello, "--dump-after=parse", "--dump-after=")
    assert (code, err) == (2, "nano-vx: error: --dump-after was given an empty value\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv, status", [(["nope.vx"], 2),
                                          (["hello.vx", "--error-format=json"], 1)])
def test_a_full_stderr_leaves_the_status_to_tell(hello, argv, status):
    with open("/dev/full", "w") as full:
        proc = subprocess.Popen([shutil.which("nano-vx"), *argv], stdout=subprocess.PIPE,
                                stderr=full)
        proc.communicate(timeout=60)
    assert proc.returncode == status

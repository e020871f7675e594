"""A hostile command line: every flag misused is a usage error or a failure said one way,
with its exit status (docs/cli.md), in text and, under --error-format=json, as one JSON
document; never a traceback, never work done on an output that cannot be written."""

import io
import json
import os
from pathlib import Path

import pytest

from nano_vx.cli import main

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

"""Hostile programs and files, second round: each is refused with its diagnostic and exit
status, or accepted in bounded time, never a traceback, a hang or unbounded work; and the
repaired program is accepted."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from nano_vx.cli import main


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def program(tmp_path: Path, text: str, name: str = "prog.vx") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def chain(n: int) -> str:
    """n constants, each naming the one before three times: evaluated naively, 3**n reads."""
    lines = ["const K0: i64 = 1;"]
    lines += [f"const K{i}: i64 = K{i - 1} + K{i - 1} - K{i - 1};" for i in range(1, n)]
    return "\n".join(lines) + f"\nfn main() {{\n    print(K{n - 1});\n}}\n"


# -- constants built in a chain ----------------------------------------------------------

def test_a_chain_of_constants_is_checked_without_3_to_the_60_reads(tmp_path):
    """Naive evaluation would not end before the test's time limit; benchmarks/refusals.py
    measures how long it takes."""
    path = program(tmp_path, chain(60))
    code, _, err = run(path, "--action=check")
    assert (code, err) == (0, "")


def test_a_chain_of_constants_folds_into_an_extent(tmp_path):
    text = chain(60).replace("fn main() {", "fn main() {\n    let t = Tensor<f32, [K59]>::new();"
                                            "\n    print(t.extent(0));")
    code, out, err = run(program(tmp_path, text), "--action=interpret")
    assert (code, out, err) == (0, "1\n1\n", "")


# -- lists of what a tensor does not hold ------------------------------------------------

@pytest.mark.parametrize("action", ["check", "interpret", "run"])
def test_a_list_of_strings_is_refused_before_it_runs(tmp_path, action):
    path = program(tmp_path, 'fn main() {\n    let t = ["a", "b"];\n    print(t[0]);\n}\n')
    code, out, err = run(path, f"--action={action}")
    assert (code, out) == (1, "")
    assert err.startswith("error[E3018]: a tensor holds numbers or bools, but this element is "
                          "str\n")
    assert "Traceback" not in err and "internal" not in err


def test_a_list_of_numbers_is_admitted(tmp_path):
    path = program(tmp_path, "fn main() {\n    let t = [1, 2];\n    print(t[0]);\n}\n")
    assert run(path, "--action=interpret") == (0, "1\n", "")


# -- what would stop only when the program ran -------------------------------------------

@pytest.mark.parametrize("body, repaired, message", [
    ('let t = Tensor<f32, [2]>::fill("a"); print(t);',
     "let t = Tensor<f32, [2]>::fill(0.5); print(t);",
     "error[E3003]: the value of `::fill` is str, but the tensor holds f32"),
    ("let a = 1; let b = 2; print(a, b);", "let a = 1; let b = 2; print(a); print(b);",
     "error[E3010]: 'print' takes 1 argument, but this call passes 2"),
    ("print();", "print(0);", "error[E3010]: 'print' takes 1 argument, but this call passes 0"),
])
def test_a_fault_the_run_would_stop_on_is_refused_by_the_checks(tmp_path, body, repaired,
                                                                  message):
    code, out, err = run(program(tmp_path, f"fn main() {{\n    {body}\n}}\n"), "--action=check")
    assert (code, out) == (1, "")
    assert err.splitlines()[0] == message
    code, _, err = run(program(tmp_path, f"fn main() {{\n    {repaired}\n}}\n", "fixed.vx"),
                       "--action=interpret")
    assert (code, err) == (0, "")


# -- nano-vx explain ---------------------------------------------------------------------

@pytest.mark.parametrize("asked, shown", [("UNKNOWN", "UNKNOWN"), ("E" * 5000, "E" * 40 + "..")])
def test_explaining_a_code_there_is_not_is_a_usage_error(asked, shown):
    assert run("explain", asked) == (2, "", f"nano-vx: error: no diagnostic code "
                                            f"'{shown}'; `nano-vx explain` lists them all\n")


def test_explaining_a_code_there_is_prints_it():
    code, out, err = run("explain", "E3018")
    assert (code, err) == (0, "") and out.startswith("E3018: ")


# -- nano-vx explore reading a pipe ------------------------------------------------------

HELLO = "fn main() {\n    print(42);\n}\n"


def _explore_pipe(tmp_path, text: str):
    read, write = os.pipe()
    os.write(write, text.encode())
    os.close(write)
    try:
        return run("explore", f"/dev/fd/{read}", "-o", tmp_path / "page.html", "--no-graphs")
    finally:
        os.close(read)


def test_explore_reads_a_pipe_only_up_to_the_input_limit(tmp_path, monkeypatch):
    monkeypatch.setattr("nano_vx.compile.INPUT_LIMIT", 10)
    code, out, err = _explore_pipe(tmp_path, HELLO)
    assert (code, out) == (2, "")
    assert err.startswith("nano-vx: error: '/dev/fd/")
    assert err.endswith("' holds more than 10 bytes; nano-vx reads files of at most 10 bytes\n")
    assert not (tmp_path / "page.html").exists()


def test_explore_reads_a_pipe_within_the_limit(tmp_path):
    code, _, err = _explore_pipe(tmp_path, HELLO)
    assert code == 0 and err.endswith("passes\n")
    assert (tmp_path / "page.html").read_text().startswith("<!DOCTYPE html>")

"""docs/tutorial.md runs as printed, as docs/cli.md does (tests/test_user_docs.py): every `$`
line of its `console` blocks is run in a directory holding the files the page defines
(`<!-- file: NAME -->` blocks, the hand-edited dumps among them), machines/ and examples/, and
prints what the page shows under it. A hand-edited dump differs from the dump nano-vx wrote
only by its edit, so the page cannot keep a dump of a text form that has since changed."""

from __future__ import annotations

import difflib
from pathlib import Path

import test_user_docs as docs
from dump_files import dump_file

PAGE = "tutorial.md"

# The fixture of tests/test_user_docs.py: a directory where machines/ and examples/ are at hand.
workdir = docs.workdir

# Each edited file: the dump it was copied from and the (lines removed, lines added) of its edit.
EDITS = {
    "draft.txt": ("p1/" + dump_file("resolve-sub-space-ancestors"), (1, 2)),
    "repaired.txt": ("p1/" + dump_file("resolve-sub-space-ancestors"), (1, 2)),
    "hbm-64.txt": ("p6/" + dump_file("check-visibility"), (1, 1)),
}


def edit_size(original: str, edited: str) -> tuple[int, int]:
    delta = list(difflib.ndiff(original.splitlines(), edited.splitlines()))
    return sum(d.startswith("- ") for d in delta), sum(d.startswith("+ ") for d in delta)


def test_the_tutorial_runs_as_printed(workdir):
    files = docs.cli_files(PAGE)
    assert sorted(files) == sorted(EDITS)
    for name, body in files.items():
        (workdir / name).write_text(body)
    status = 0
    steps = docs.cli_sessions(PAGE)
    assert len(steps) >= 20
    for line, command, shown in steps:
        status, printed = docs.run_step(command, status)
        assert docs.shown_matches(shown, printed), (
            f"{PAGE}:{line}: `{command}` printed\n" + "\n".join(printed))
    for name, (dump, size) in EDITS.items():
        assert edit_size(Path(dump).read_text(), files[name]) == size, (
            f"{PAGE}: {name} is no longer {dump} with one edit")


def test_the_tutorial_walks_programs_1_and_6():
    commands = " ".join(command for _, command, _ in docs.cli_sessions(PAGE))
    for program in ("01_residency_across_a_call.vx", "06_capacity_against_a_declared_machine.vx"):
        assert f"examples/correlation/{program}" in commands

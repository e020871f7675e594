"""Every example says in its header what nano-vx answers today, and does.

Each program under examples/ carries one line or more of the form

    // nano-vx today[ ARGS]: OUTCOME

where ARGS are the command line's arguments after the file (run from the repository's root)
and OUTCOME is one of

    exit N, prints nothing          the program is admitted, runs, prints nothing, exits N
    exit N, prints "TEXT"           ... prints TEXT (JSON escapes, `\\n` between lines)
    exit N, prints FILE             ... prints what FILE holds (a path from the root)
    error CODE at L:C[, CODE at L:C]  refused: exactly these errors, in source order

This test runs every such line through the command line and compares. What an example will
answer once a later issue lands is prose in the same header, and not checked.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from nano_vx.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

_TODAY = re.compile(r"^// nano-vx today((?: [^ :]+)*): (.+)$", re.M)
_EXIT = re.compile(r'exit (\d+), prints (nothing|"(?:[^"\\]|\\.)*"|\S+)\Z')
_ERRORS = re.compile(r"errors? ([EW]\d{4} at \d+:\d+(?:, [EW]\d{4} at \d+:\d+)*)\Z")


@dataclass(frozen=True)
class Promise:
    """One `nano-vx today` line of an example: the arguments, and what they make happen."""

    example: str  # the program's path from examples/
    args: tuple[str, ...]
    status: int  # the exit status
    prints: str | None  # what stdout holds when the program runs (None: refused)
    errors: tuple[tuple[str, int, int], ...]  # (code, line, column) of each error

    @property
    def options(self) -> dict:
        """The compilation's options the arguments name (`machine=`, `host=`,
        `verify_seams=`, `emit_seam_certs=`)."""
        options: dict = {}
        for flag, value in zip(self.args, self.args[1:]):
            if flag in ("--machine", "--host"):
                options[flag[2:]] = value if value == "default" else str(ROOT / value)
        if "--verify-seams" in self.args:
            options["verify_seams"] = True
        if "--emit-seam-certs" in self.args:
            options["emit_seam_certs"] = True
        return options

    def __str__(self) -> str:
        return " ".join((self.example, *self.args))


def _promise(example: str, args: str, outcome: str) -> Promise:
    args_ = tuple(args.split())
    if m := _EXIT.match(outcome):
        shown = m.group(2)
        if shown == "nothing":
            prints = ""
        elif shown.startswith('"'):
            prints = json.loads(shown) + "\n"
        else:
            prints = (ROOT / shown).read_text()
        return Promise(example, args_, int(m.group(1)), prints, ())
    if m := _ERRORS.match(outcome):
        errors = []
        for item in m.group(1).split(", "):
            code, _, where = item.split(" ")
            line, col = where.split(":")
            errors.append((code, int(line), int(col)))
        return Promise(example, args_, 1, None, tuple(errors))
    raise ValueError(f"{example}: cannot read `nano-vx today: {outcome}`")


def promises(path: Path) -> list[Promise]:
    """The `nano-vx today` lines of one example."""
    example = str(path.relative_to(EXAMPLES))
    return [_promise(example, args, outcome)
            for args, outcome in _TODAY.findall(path.read_text())]


PROGRAMS = sorted(EXAMPLES.rglob("*.vx"))
PROMISES = [p for path in PROGRAMS for p in promises(path)]


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_every_example_says_what_nano_vx_answers_today(path):
    assert promises(path), f"{path.name} has no `// nano-vx today: ...` line"


@pytest.mark.parametrize("promise", PROMISES, ids=str)
def test_the_example_does_what_its_header_says(promise, monkeypatch):
    monkeypatch.chdir(ROOT)
    argv = [str(Path("examples") / promise.example), *promise.args]
    if promise.prints is not None:
        out, err = io.StringIO(), io.StringIO()
        status = main(argv, stdout=out, stderr=err)
        assert (status, out.getvalue(), err.getvalue()) == (promise.status, promise.prints, "")
        return
    out, err = io.StringIO(), io.StringIO()
    status = main([*argv, "--error-format=json"], stdout=out, stderr=err)
    reported = [(d["code"], d["span"]["line"], d["span"]["column"])
                for d in json.loads(err.getvalue())["diagnostics"] if d["severity"] == "error"]
    assert (status, out.getvalue(), reported) == (promise.status, "", list(promise.errors))


def test_the_header_lines_are_read_as_written():
    [refused, admitted, bare] = promises(
        EXAMPLES / "correlation" / "06_capacity_against_a_declared_machine.vx")
    assert refused.args == ("--action", "check", "--host", "default", "--machine",
                            "machines/a100-40.vx")
    assert refused.errors == (("E6009", 16, 17),) and refused.status == 1
    assert refused.options == {"host": "default",
                               "machine": str(ROOT / "machines" / "a100-40.vx")}
    assert (admitted.status, admitted.prints) == (0, "")
    assert bare.options == {} and bare.errors[0][0] == "E2001"
    with pytest.raises(ValueError, match="cannot read"):
        _promise("x.vx", "", "exits politely")

"""The README's examples run as printed: every `$ nano-vx ...` line in it is run, and every
line printed under it (up to the next `$` line or the end of the block; `...` stands for lines
left out) must appear in what the command printed, in order. `$ echo $?` shows the status of
the command before it."""

import io
import re
import shlex
from pathlib import Path

import pytest

from nano_vx.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def sessions():
    """(command, expected lines, expected status or None) for each `$` line of the README."""
    out = []
    for block in re.findall(r"```\n(.*?)```", README, flags=re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("$ nano-vx "):
                continue
            shown = []
            for after in lines[i + 1:]:
                if after.startswith("$ "):
                    break
                shown.append(after)
            status = None
            nxt = i + 1 + len(shown)
            if nxt < len(lines) and lines[nxt] == "$ echo $?":
                status = int(lines[nxt + 1])
            out.append((line[2:], [s for s in shown if s not in ("...", "")], status))
    return out


SESSIONS = sessions()


def test_the_readme_shows_some_sessions():
    assert len(SESSIONS) >= 3


@pytest.mark.parametrize("command,shown,status", SESSIONS, ids=[c for c, _, _ in SESSIONS])
def test_a_readme_session_prints_what_the_readme_shows(command, shown, status, monkeypatch):
    monkeypatch.chdir(ROOT)
    out, err = io.StringIO(), io.StringIO()
    code = main(shlex.split(command)[1:], stdout=out, stderr=err)
    printed = (out.getvalue() + err.getvalue()).splitlines()
    at = 0
    for line in shown:
        assert line in printed[at:], f"{line!r} is not printed by `{command}`"
        at = printed.index(line, at) + 1
    if status is not None:
        assert code == status

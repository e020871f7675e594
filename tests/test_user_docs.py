"""The user documentation says what nano-vx does today, and a clone carries all of it.

- Every example of docs/language.md and docs/diagnostics.md is a fenced `vx` block after a
  marker `<!-- example: OUTCOME [escaped] [ARGS] -->`, or a fenced `sdf` block (a spatial
  program) after `<!-- example: OUTCOME spatial ARGS -->`; a block marked `spatial` (a Vx
  kernel too) is run by `nano-vx spatial`. Each compiles and runs to OUTCOME:
  `admitted` (exit status 0, nothing reported) or a code (every diagnostic reported has that
  code). ARGS are more command-line arguments (`--machine machines/h100-sxm.vx`, run where
  the repository's machines/ is at hand); `escaped` means the block spells bytes as
  `\\xNN`. A `text` block after `<!-- output -->` is what the program prints, exactly; one
  after `<!-- reports -->` is the first line of each diagnostic, exactly.
- Every session of docs/cli.md (a `console` block of `$ nano-vx ...` lines, each followed by
  what it prints, `...` standing for lines left out and `text...` for a line cut short) runs
  as printed, in a directory holding the files the page defines (`<!-- file: NAME -->`
  before a `vx` block) and the repository's machines/ and examples/.
- docs/diagnostics.md documents exactly the codes of nano_vx/codes.py, each under its
  registered title with a program that triggers it and one that repairs it.
- No file of the repository links to the specification, which a clone does not have.
"""

from __future__ import annotations

import codecs
import functools
import glob
import io
import json
import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from nano_vx.cli import main
from nano_vx.codes import CODES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLE_PAGES = ("language.md", "diagnostics.md")

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)
_MARKER = re.compile(r"<!-- (example|file): ([^>]*?) -->\n")
_AFTER = re.compile(r"\n*<!-- (output|reports) -->\n```text\n(.*?)^```\n", re.S | re.M)
_CODE = re.compile(r"[EW]\d{4}")


@dataclass
class Fence:
    line: int
    lang: str
    body: str
    kind: str | None  # "example" or "file", from the marker on the line before
    spec: str | None
    end: int


def fences(text: str) -> list[Fence]:
    found = []
    for m in _FENCE.finditer(text):
        before = text[text.rfind("\n", 0, m.start() - 1) + 1:m.start()]
        marker = _MARKER.fullmatch(before)
        found.append(Fence(text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2),
                           marker and marker.group(1), marker and marker.group(2), m.end()))
    return found


def page(name: str) -> str:
    return (DOCS / name).read_text()


class Example:
    def __init__(self, name: str, fence: Fence):
        words = fence.spec.split()
        self.where = f"{name}:{fence.line}"
        self.outcome = words[0]
        self.escaped = "escaped" in words[1:]
        self.spatial = "spatial" in words[1:]  # run by `nano-vx spatial`
        self.suffix = fence.lang
        self.args = [w for w in words[1:] if w not in ("escaped", "spatial")]
        self.text = fence.body
        self.output: str | None = None
        self.reports: str | None = None

    def source(self) -> bytes:
        return (codecs.escape_decode(self.text.encode())[0] if self.escaped
                else self.text.encode())


def examples(name: str) -> list[Example]:
    text = page(name)
    found = []
    for fence in fences(text):
        if fence.lang not in ("vx", "sdf") or fence.kind != "example":
            continue
        ex, end = Example(name, fence), fence.end
        while (after := _AFTER.match(text, end)) is not None:
            setattr(ex, after.group(1), after.group(2))
            end = after.end()
        found.append(ex)
    return found


EXAMPLES = [ex for name in EXAMPLE_PAGES for ex in examples(name)]


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A directory to run in, where the repository's machines/ and examples/ are at hand."""
    for shared in ("machines", "examples"):
        (tmp_path / shared).symlink_to(ROOT / shared)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def compile_example(ex: Example):
    """(exit status, what the program printed, the diagnostics as JSON entries)."""
    name = f"example.{ex.suffix}"
    Path(name).write_bytes(ex.source())
    out, err = io.StringIO(), io.StringIO()
    command = ["spatial", name] if ex.spatial else [name]
    status = main([*command, "--error-format=json", *ex.args], stdout=out, stderr=err)
    return status, out.getvalue(), json.loads(err.getvalue())["diagnostics"]


# docs/diagnostics.md's examples trigger and repair every code: the inner loop's. The other
# pages' examples run in the whole suite.
@pytest.mark.parametrize("ex", [
    pytest.param(e, id=f"{e.where}-{e.outcome}",
                 marks=() if e.where.startswith("diagnostics.md:") else pytest.mark.slow)
    for e in EXAMPLES])
def test_an_example_does_what_its_marker_says(ex, workdir):
    status, printed, diagnostics = compile_example(ex)
    codes = [d["code"] for d in diagnostics]
    if ex.outcome == "admitted":
        assert (status, codes) == (0, []), f"{ex.where}: expected admitted"
    else:
        assert codes and set(codes) == {ex.outcome}, f"{ex.where}: reported {codes}"
        assert status == (0 if ex.outcome.startswith("W") else 1)
    if ex.output is not None:
        assert printed == ex.output
    if ex.reports is not None:
        shown = [f"{d['severity']}[{d['code']}]: {d['message']}" for d in diagnostics]
        assert shown == ex.reports.splitlines()


@pytest.mark.parametrize("name", EXAMPLE_PAGES)
def test_every_program_on_an_example_page_is_a_marked_example(name):
    for fence in fences(page(name)):
        if fence.lang in ("vx", "sdf"):
            assert fence.kind == "example", f"{name}:{fence.line}: no example marker"
            outcome = fence.spec.split()[0]
            assert fence.lang == "vx" or "spatial" in fence.spec.split(), (
                f"{name}:{fence.line}: an sdf block is marked `spatial`")
            assert outcome == "admitted" or _CODE.fullmatch(outcome), f"{name}:{fence.line}"


def test_the_example_pages_have_examples():
    assert len(examples("language.md")) >= 20
    assert len(examples("diagnostics.md")) >= 2 * len(CODES)


# -- docs/diagnostics.md and the registry ----------------------------------------------------

_HEADING = re.compile(r"### ([EW]\d{4}): (.*)")


@functools.cache
def code_sections() -> tuple[tuple[str, str, str], ...]:
    """(code, title as the page gives it, the section's text) for each `### CODE: title`
    (read once per process: a test for each code reads it)."""
    sections = []
    for part in re.split(r"^(?=##)", page("diagnostics.md"), flags=re.M):
        head = _HEADING.match(part)
        if head is not None:
            sections.append((head.group(1), head.group(2), part))
    return tuple(sections)


def test_the_diagnostics_page_documents_exactly_the_registered_codes():
    sections = code_sections()
    assert sorted(code for code, _, _ in sections) == sorted(CODES), (
        "docs/diagnostics.md and nano_vx/codes.py list different codes")
    for code, title, _ in sections:
        assert title == CODES[code].title, f"{code}: the page says {title!r}"


@pytest.mark.parametrize("code", sorted(CODES))
def test_each_code_has_a_triggering_and_a_repaired_program(code):
    body = next((text for c, _, text in code_sections() if c == code), "")
    outcomes = [m.group(1).split()[0] for m in re.finditer(r"<!-- example: ([^>]*?) -->", body)]
    assert code in outcomes, f"docs/diagnostics.md shows no program that reports {code}"
    assert "admitted" in outcomes, f"docs/diagnostics.md shows no repair for {code}"


# -- docs/cli.md -------------------------------------------------------------------------------


def cli_files(name: str = "cli.md") -> dict[str, str]:
    """The files a page defines: each block after `<!-- file: NAME -->` (every `vx` block is
    one)."""
    files = {}
    for fence in fences(page(name)):
        if fence.lang == "vx" or fence.kind == "file":
            assert fence.kind == "file", f"{name}:{fence.line}: a vx block must be a file"
            files[fence.spec] = fence.body
    return files


def cli_sessions(name: str = "cli.md") -> list[tuple[int, str, list[str]]]:
    """(line, command, the lines printed under it) for each `$` line of the page, in order."""
    steps = []
    for fence in fences(page(name)):
        if fence.lang != "console":
            continue
        for offset, row in enumerate(fence.body.splitlines()):
            if row.startswith("$ "):
                steps.append((fence.line + 1 + offset, row[2:], []))
            else:
                assert steps, f"{name}:{fence.line}: a console block starts with a `$` line"
                steps[-1][2].append(row)
    return steps


# A dump file's number is its pass's place in the pipeline, which moves whenever a pass is
# added: a page shows the number of the day it was written, and any number matches it.
_DUMP_NUMBER = re.compile(r"(?<![\w.-])\d\d(?=[abc]-(?:before|after|diff)-)")


def _shown_line(line: str) -> str:
    return r"\d\d".join(re.escape(part) for part in _DUMP_NUMBER.split(line))


def shown_matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the lines the page shows are the lines printed, `...` standing for any run of
    lines, a line ending in `...` for any line that starts with the rest of it, and a dump
    file's number for any number."""
    pattern = "".join(r"(?:.*\n)*?" if line == "..."
                      else _shown_line(line[:-3]) + r".*\n" if line.endswith("...")
                      else _shown_line(line) + r"\n" for line in shown)
    return re.fullmatch(pattern, "".join(line + "\n" for line in printed)) is not None


def run_step(command: str, status: int) -> tuple[int, list[str]]:
    """Run one `$` line in the current directory: (its exit status, what it printed). A word
    with a `*` is a glob, expanded as a shell does (left as it is when nothing matches)."""
    argv = [found for word in shlex.split(command)
            for found in (sorted(glob.glob(word)) if "*" in word else []) or [word]]
    if argv == ["echo", "$?"]:
        return status, [str(status)]
    if argv[0] == "ls":
        return 0, sorted(os.listdir(argv[1]))
    assert argv[0] == "nano-vx", f"a page runs only nano-vx, echo $? and ls: {command}"
    out = io.StringIO()  # one stream, as a terminal shows them
    return main(argv[1:], stdout=out, stderr=out), out.getvalue().splitlines()


@pytest.mark.slow
def test_the_cli_page_runs_as_printed(workdir):
    for name, body in cli_files().items():
        (workdir / name).write_text(body)
    status = 0
    steps = cli_sessions()
    assert len(steps) >= 15
    for line, command, shown in steps:
        status, printed = run_step(command, status)
        assert shown_matches(shown, printed), (
            f"cli.md:{line}: `{command}` printed\n" + "\n".join(printed))


def test_the_cli_page_names_every_flag_of_help():
    out = io.StringIO()
    main(["--help"], stdout=out, stderr=out)
    text = page("cli.md")
    for flag in sorted(set(re.findall(r"--[a-z][a-z-]+", out.getvalue()))):
        assert f"`{flag}" in text, f"docs/cli.md does not describe {flag}"


# -- no links to the specification -------------------------------------------------------------

_NOT_THE_PROJECT = {".git", ".venv", "venv", "__pycache__", ".pytest_cache", ".hypothesis",
                    "build", "dumps"}


def project_files():
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in _NOT_THE_PROJECT and not d.endswith(".egg-info")]
        for name in files:
            yield Path(folder, name)


def test_no_file_links_to_the_specification_a_clone_does_not_have():
    linking = [str(p.relative_to(ROOT)) for p in project_files()
               if p != Path(__file__) and re.search(rb"\.\./shared|shared/spec", p.read_bytes())]
    assert linking == [], "these files point to ../shared, which a clone does not have"

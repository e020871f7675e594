"""The tables of passes and ILs of the docs (README.md, ARCHITECTURE.md, docs/spatial.md) are
written by nano-vx, not by hand: each is a generated section between markers,

    <!-- passes: LANE -->              pass, IL in -> out, what it does
    <!-- passes: LANE, with facts -->  also each pass's kind and the facts it requires, provides
    <!-- languages: LANE -->           each IL and what it is
    ...
    <!-- end passes -->  (or <!-- end languages -->)

holding what `nano_vx.info.pass_table` and `language_table` make of the pipeline tables and the
docstrings (`nano-vx --list-passes --format=markdown` prints the same tables). A section that
differs fails here; `python -m pytest tests/test_pass_tables.py --snapshot-update` rewrites
every section from the pipelines instead."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from nano_vx import info
from nano_vx.cli import main
from nano_vx.info import language_lanes, language_table, lanes, pass_table
from nano_vx.languages import Lsrc
from nano_vx.nanopass import Pass
from nano_vx.passes.parse import parse_pass

ROOT = Path(__file__).resolve().parents[1]
# The pages of the repository's root and of docs/: any may hold a generated section.
PAGES = [str(p.relative_to(ROOT)) for p in sorted([*ROOT.glob("*.md"), *ROOT.glob("docs/*.md")])]
REGENERATE = "python -m pytest tests/test_pass_tables.py --snapshot-update"
SECTION = re.compile(r"(^<!-- (passes|languages): ([a-z ]+?)(, with facts)? -->\n)(.*?)"
                     r"(<!-- end \2 -->)", re.S | re.M)


def _table(kind: str, lane: str, facts: str | None) -> str:
    if kind == "languages":
        assert lane in language_lanes() and not facts, f"no ILs of a lane {lane!r}"
        return language_table(lane)
    assert lane in lanes(), f"no lane {lane!r}: the lanes are {', '.join(lanes())}"
    return pass_table(lane, facts=bool(facts))


def regenerated(text: str) -> str:
    """The page with every generated section written afresh."""
    return SECTION.sub(lambda m: m[1] + _table(m[2], m[3], m[4]) + m[6], text)


def _sections(text: str) -> set[tuple[str, str]]:
    return {(m[2], m[3]) for m in SECTION.finditer(text)}


@pytest.mark.parametrize("page", PAGES)
def test_the_generated_tables_are_the_pipelines(page, request):
    path = ROOT / page
    text = path.read_text()
    opened = re.findall(r"^<!-- (?:passes|languages): ", text, flags=re.M)
    assert len(opened) == len(SECTION.findall(text)), f"{page}: a marker without its end"
    fresh = regenerated(text)
    if fresh != text and request.config.getoption("--snapshot-update"):
        path.write_text(fresh)
        return
    assert text == fresh, f"{page}: a generated table is stale; run `{REGENERATE}`"


@pytest.mark.parametrize("page", PAGES)
def test_every_table_of_passes_or_ils_is_generated(page):
    """A table whose header starts with `pass` or `IL` lies in a generated section (or in a
    fenced block, which shows what a command prints): none is kept by hand."""
    outside = re.sub(r"```.*?```", "", SECTION.sub("", (ROOT / page).read_text()), flags=re.S)
    heads = [line for line in outside.splitlines() if re.match(r"\| (pass|IL) \|", line)]
    assert heads == [], f"{page}: a table written by hand: {heads}"


def test_every_lane_is_in_the_readme_and_the_architecture():
    assert {"README.md", "ARCHITECTURE.md", "docs/spatial.md"} <= set(PAGES)
    for page in ("README.md", "ARCHITECTURE.md"):
        shown = {lane for kind, lane in _sections((ROOT / page).read_text()) if kind == "passes"}
        assert shown == set(lanes()), page
    assert ("languages", "spatial") in _sections((ROOT / "docs/spatial.md").read_text())


def test_a_row_is_the_docstrings_first_paragraph_on_one_line_its_bars_escaped(monkeypatch):
    pick = Pass("pick-a-or-b", Lsrc, Lsrc, """
    Keep `a|b` where the first
    of the two fits.

    The rest of the docstring is no part of the row.
    """)
    monkeypatch.setattr(info, "lanes", lambda: {"one": ("one pass", [parse_pass, pick])})
    assert pass_table("one").splitlines() == [
        "| pass | IL in -> out | what it does |",
        "| --- | --- | --- |",
        f"| `parse` | text -> `Lsrc` | {parse_pass.summary} |",
        "| `pick-a-or-b` | `Lsrc` -> `Lsrc` | Keep `a\\|b` where the first of the two fits. |",
    ]


def test_the_table_with_facts_names_the_kind_and_the_facts():
    rows = pass_table("front end", facts=True).splitlines()
    assert rows[0] == "| pass | kind | IL in -> out | facts | what it does |"
    capacity = next(row for row in rows if row.startswith("| `check-capacity`"))
    assert capacity.startswith("| `check-capacity` | analysis | `Lrouted` -> `Lrouted` | "
                               "requires `model`, `working_sets` | Refuse tiles")
    summarize = next(row for row in rows if row.startswith("| `summarize-working-sets`"))
    assert "requires `model`; provides `working_sets`, `call_sites`" in summarize


def test_the_language_table_is_each_ils_docstring():
    rows = language_table("spatial").splitlines()
    assert rows[:3] == ["| IL | what it is |", "| --- | --- |",
                        "| `Sdataflow` | stages joined by unbounded streams; rates fix how "
                        "often each stage fires |"]


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()


def test_list_passes_as_markdown_prints_each_lane_with_its_title():
    code, out, err = _run("--list-passes", "--format=markdown")
    assert (code, err) == (0, "")
    expected = "\n".join(f"{title}:\n\n{pass_table(lane, facts=True)}"
                         for lane, (title, _) in lanes().items())
    assert out == expected
    code, out, _ = _run("--list-languages", "--format", "markdown")
    assert code == 0 and language_table("spatial") in out and language_table("vx") in out
    _, both, _ = _run("--list-passes", "--list-languages", "--format=markdown")
    assert both == f"{expected}\n{out}", "a blank line ends the last table of passes"


def test_format_without_a_listing_is_a_usage_error():
    code, out, err = _run("--format=markdown")
    assert (code, out) == (2, "")
    assert "--format says how --list-passes or --list-languages prints" in err

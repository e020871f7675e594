"""The dumps docs/diagnostics.md shows (`<!-- example: OUTCOME dump -->` before a `text`
block) read back as the page says: OUTCOME `admitted`, or a code every diagnostic has, the
first line of each as the `<!-- reports -->` block after it prints them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nano_vx.diagnostics import Diagnostics
from nano_vx.resume.read import read_dump

PAGE = Path(__file__).resolve().parent.parent.parent / "docs" / "diagnostics.md"
_EXAMPLE = re.compile(r"<!-- example: (\S+) dump -->\n```text\n(.*?)^```\n"
                      r"(?:\n*<!-- reports -->\n```text\n(.*?)^```\n)?", re.S | re.M)
EXAMPLES = _EXAMPLE.findall(PAGE.read_text())


def test_the_page_shows_a_refused_dump_and_its_repair():
    assert {outcome for outcome, _, _ in EXAMPLES} >= {"E1007", "admitted"}


@pytest.mark.parametrize("outcome, dump, reports", EXAMPLES,
                         ids=[f"{i}-{e[0]}" for i, e in enumerate(EXAMPLES)])
def test_a_dump_on_the_page_reads_back_as_the_page_says(outcome, dump, reports):
    diagnostics = Diagnostics()
    got = read_dump(dump, "dump.txt", diagnostics)
    codes = [d.code for d in diagnostics.items]
    if outcome == "admitted":
        assert got is not None and codes == []
    else:
        assert got is None and codes and set(codes) == {outcome}
    if reports:
        shown = [f"{d.severity}[{d.code}]: {d.message}" for d in diagnostics.items]
        assert shown == reports.splitlines()

"""Dumps of parsed programs: the text dump reads back as the same tree, and a parsed program
that holds every production dumps in every format (these snapshots show the formats)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from dump_samples import PRECEDENCE, program

from nano_vx.dump import diff_text, dumps_json, from_json, render_svg, to_dot, to_json, to_text
from nano_vx.languages import Lsrc
from nano_vx.parser import parse_text

ROOT = Path(__file__).parent.parent.parent
PROGRAMS = sorted((ROOT / "examples").rglob("*.vx")) + sorted(
    (ROOT / "tests" / "parser" / "cases").glob("*.vx"))


def parse_ok(text: str, name: str = "dump.vx"):
    tree, diagnostics = parse_text(text, name)
    assert not diagnostics.has_errors, diagnostics.render() + "\n" + text
    return tree


def test_text_of_every_production_reads_back():
    assert parse_ok(to_text(program())) == program()


# Negative literals come from folding, not from the parser, which reads `-1` as a Unary.
@pytest.mark.parametrize("tree", [t for t, text in PRECEDENCE if t._nt == "Expr" and "-1" not in text])
def test_parenthesised_expressions_read_back(tree):
    fn = parse_ok(f"fn main() {{ let r = {to_text(tree)}; }}").items[0]
    assert fn.body.stmts[0].value == tree


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_programs_read_back(path):
    # For a case of syntax errors, what did parse reads back.
    tree, _ = parse_text(path.read_text(), path.name)
    if not tree.items:
        assert to_text(tree).strip() == ""
        return
    assert parse_ok(to_text(tree)) == tree


@pytest.mark.parametrize("case", ["every_production"])
def test_every_format(case, snapshot_txt, snapshot_dot):
    tree = parse_ok(to_text(program()))
    source = tree.span.source
    text = to_text(tree)
    assert text == snapshot_txt
    dot = to_dot(tree, title=f"{case} (Lsrc)")
    assert dot == snapshot_dot
    assert ET.fromstring(render_svg(dot).encode()).tag == "{http://www.w3.org/2000/svg}svg"
    data = to_json(tree)
    assert data["span"]["line"] == 1
    back = from_json(data, Lsrc, source)
    assert back == tree and back.items[-1].span == tree.items[-1].span
    assert from_json(json.loads(dumps_json(tree)), Lsrc) == tree
    assert diff_text(text, to_text(back)) == ""

"""`Node._repr_html_`: any node of any IL shows its highlighted text and its picture."""

from __future__ import annotations

from nano_vx.explore import page
from nano_vx.parser import parse_text


def test_a_program_and_one_of_its_expressions_show_text_and_picture():
    program, diagnostics = parse_text("fn main() { let x = 1 + 2u8; print(x); }\n")
    assert not diagnostics.items
    shown = program._repr_html_()
    assert shown.startswith('<div class="nano-vx-node"><style>')
    assert '<div class="note">Program (Program) of Lsrc</div>' in shown
    assert '<pre class="hl"><span class="kd">fn</span>' in shown
    assert '<span class="mi">2</span><span class="kt">u8</span>' in shown
    assert shown.count("<svg") == 1 and "Program" in shown[shown.index("<svg"):]
    binary = program.items[0].body.stmts[0].value
    part = binary._repr_html_()
    assert "Binary (Expr) of Lsrc" in part and "<svg" in part
    assert '<span class="mi">1</span>' in part and "print" not in part


def test_a_tree_too_large_to_draw_says_so_instead(monkeypatch):
    monkeypatch.setattr(page, "MAX_GRAPH_NODES", 5)
    program, _ = parse_text("fn main() { let x = 1 + 2 * 3; print(x); }\n")
    shown = program._repr_html_()
    assert "<svg" not in shown
    assert "more than is drawn here (5)" in shown

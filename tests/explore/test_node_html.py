"""`%load_ext nano_vx.explore.notebook`: any node of any IL shows its highlighted text and its
picture in Jupyter."""

from __future__ import annotations

from IPython.core.interactiveshell import InteractiveShell

from nano_vx.explore import page
from nano_vx.explore.notebook import node_html
from nano_vx.parser import parse_text


def test_a_program_and_one_of_its_expressions_show_text_and_picture():
    program, diagnostics = parse_text("fn main() { let x = 1 + 2u8; print(x); }\n")
    assert not diagnostics.items
    shown = node_html(program)
    assert shown.startswith('<div class="nano-vx-node"><style>')
    assert '<div class="note">Program (Program) of Lsrc</div>' in shown
    assert '<pre class="hl"><span class="kd">fn</span>' in shown
    assert '<span class="mi">2</span><span class="kt">u8</span>' in shown
    assert shown.count("<svg") == 1 and "Program" in shown[shown.index("<svg"):]
    binary = program.items[0].body.stmts[0].value
    part = node_html(binary)
    assert "Binary (Expr) of Lsrc" in part and "<svg" in part
    assert '<span class="mi">1</span>' in part and "print" not in part


def test_the_extension_makes_it_the_html_of_every_node_in_ipython():
    shell = InteractiveShell.instance()
    program, _ = parse_text("fn main() { print(1); }\n")
    assert "text/html" not in shell.display_formatter.format(program)[0]
    shell.run_line_magic("load_ext", "nano_vx.explore.notebook")
    shown = shell.display_formatter.format(program)[0]["text/html"]
    assert shown == node_html(program)


def test_a_tree_too_large_to_draw_says_so_instead(monkeypatch):
    monkeypatch.setattr(page, "MAX_GRAPH_NODES", 5)
    program, _ = parse_text("fn main() { let x = 1 + 2 * 3; print(x); }\n")
    shown = node_html(program)
    assert "<svg" not in shown
    assert "more than is drawn here (5)" in shown

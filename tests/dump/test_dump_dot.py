"""The Graphviz dump: ids, labels, edges, clusters, escaping, rendering to SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from dump_samples import L, block, example, i, program, var
from example_trees import EXAMPLES, trees_after_each_pass

from nano_vx.dump import RenderError, render_svg, to_dot
from nano_vx.dump import render as render_module
from nano_vx.languages import Lsrc

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("name", sorted(Lsrc.nodes))
def test_every_production_is_a_labelled_node(name):
    dot = to_dot(example(name))
    assert dot.startswith("digraph IR {\n") and dot.endswith("}\n")
    assert re.search(rf'^\s*n0 \[label="{name}(\\n|")', dot, re.M)


def test_ids_labels_and_edges():
    let = L["Let"]("x", False, None, L["Binary"]("+", var("a"), i(1)))
    dot = to_dot(let)
    assert '    n0 [label="Let\\nname = x\\nmutable = false"];\n' in dot
    assert '    n1 [label="Binary\\nop = +"];\n' in dot
    assert '    n2 [label="Var\\nname = a"];\n' in dot
    assert '    n3 [label="Int\\nvalue = 1"];\n' in dot
    assert '    n0 -> n1 [label="value"];\n' in dot
    assert '    n1 -> n2 [label="left"];\n' in dot
    assert '    n1 -> n3 [label="right"];\n' in dot


def test_star_fields_are_indexed():
    dot = to_dot(L["Call"](var("f"), (), (var("a"), var("b"))))
    assert 'n0 -> n2 [label="args[0]"]' in dot and 'n0 -> n3 [label="args[1]"]' in dot


def test_blocks_are_clusters_with_a_dashed_control_chain():
    inner = block(L["Break"]())
    loop = L["While"](L["Bool"](True), inner)
    dot = to_dot(block(L["Let"]("x", False, None, i(1)), loop, L["Return"](None), value=var("x")))
    assert dot.count("subgraph cluster_") == 2
    assert "    subgraph cluster_0 {\n        label = \"Block\";\n        n0 [label=\"Block\"];" in dot
    assert "        subgraph cluster_1 {\n            label = \"Block\";\n" in dot
    assert 'n0 -> n1 [label="stmts[0]", style=dashed]' in dot
    assert 'n1 -> n3 [label="next", style=dashed]' in dot  # let -> while
    assert 'n3 -> n5 [label="body"]' in dot
    assert 'n5 -> n6 [label="stmts[0]", style=dashed]' in dot  # inner block -> break
    assert 'n3 -> n7 [label="next", style=dashed]' in dot  # while -> return
    assert 'n0 -> n8 [label="value"]' in dot
    # every edge is at the top level, after every node
    body = dot.splitlines()
    first_edge = next(k for k, line in enumerate(body) if "->" in line)
    assert all("->" in line for line in body[first_edge:-1])
    assert all(line.startswith("    n") and line.count("    ") == 1 for line in body[first_edge:-1])


def test_labels_are_escaped():
    weird = 'q"b\\s<a>{b}|c\nd'
    dot = to_dot(L["Str"](weird), title='title "x"\\')
    assert 'label = "title \\"x\\"\\\\";' in dot
    assert 'n0 [label="Str\\nvalue = \\"q\\\\\\"b\\\\\\\\s<a>{b}|c\\\\nd\\""];' in dot


def test_dot_is_deterministic():
    assert to_dot(program(), title="p") == to_dot(program(), title="p")


def test_deep_trees_need_no_recursion():
    tree = var("x")
    for k in range(5_000):
        tree = L["Unary"]("-", tree)
    assert to_dot(tree).count("->") == 5_000


def test_renders_to_svg_with_the_labels():
    weird = L["Str"]('<&>{|}"\\')
    tree = block(L["ExprStmt"](L["Call"](var("print"), (), (weird,))), value=i(7))
    svg = render_svg(to_dot(tree, title="a <title>"))
    root = ET.fromstring(svg.encode())
    assert root.tag == SVG + "svg"
    texts = {"".join(t.itertext()) for t in root.iter(SVG + "text")}
    assert {"Block", "ExprStmt", "Call", "name = print", "value = 7", "stmts[0]", "args[0]",
            "a <title>", 'value = "<&>{|}\\"\\\\"'} <= texts


def test_whole_program_renders():
    root = ET.fromstring(render_svg(to_dot(program())).encode())
    assert root.tag == SVG + "svg"


@pytest.mark.slow
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_graphviz_draws_every_graph_an_example_dumps(path):
    """Every IL's DOT dump of the example, drawn (tests/test_determinism.py compares the svg
    dumps by the DOT text they draw, without drawing). A dump's title changes no graph, so
    each distinct graph is drawn once: some 300 of the 2,700 trees the examples pass through."""
    graphs = {to_dot(tree) for _, _, tree in trees_after_each_pass(path)}
    for dot in sorted(graphs):
        assert ET.fromstring(render_svg(dot).encode()).tag == f"{SVG}svg"


def test_a_missing_renderer_is_an_error(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(render_module.sys, "executable", str(tmp_path / "python"))
    with pytest.raises(RenderError, match="dot on PATH.*graphviz-pure"):
        render_svg("digraph { a }")


def test_a_refused_graph_is_an_error():
    with pytest.raises(RenderError, match="failed"):
        render_svg("digraph { a -> ")

"""Every IL's text reads back: a random tree of any IL, printed, reads back as an equal tree
that prints the same text (tests/dump/il_trees.py draws the trees from the declarations).
The whole-program property starts from each IL's entry, with the header naming the IL; the
per-production one draws a node of each production, children to a small depth. And every production of every
IL the text dump writes has a form of its own, not only the generic one."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from il_trees import Trees

from nano_vx.diagnostics import Diagnostics
from nano_vx.resume.read import MLIR_TEXT, read_dump, read_tree
from nano_vx.dump.text import to_text
from nano_vx.dump.writer import FORMS
from nano_vx.pipeline import LANGUAGES
from nano_vx.source import Source

# Slow (the whole suite's, not the inner loop's): random trees of every IL. Each pass's
# test_handwritten_* reads its IL's text in the inner loop.
pytestmark = pytest.mark.slow

# Lmlir reads back through MLIR (tests/backend/test_mlir_readback.py), not as a tree.
READABLE = [name for name in LANGUAGES if name not in MLIR_TEXT]
SETTINGS = settings(max_examples=40, deadline=None, database=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))
# A production drawn first, so that every one of an IL's is tried.
NODE_SETTINGS = settings(SETTINGS, max_examples=150)


def test_every_production_of_every_il_has_a_form():
    missing = sorted({f"{name}.{prod}" for name in READABLE
                      for prod, cls in LANGUAGES[name].nodes.items()
                      if (prod, cls._fields) not in FORMS})
    assert missing == [], "productions with no form in nano_vx/dump/text*.py"


@pytest.mark.parametrize("name", READABLE)
def test_a_dump_of_any_tree_reads_back_as_that_tree(name):
    language = LANGUAGES[name]

    @SETTINGS
    @given(Trees(language, depth=5, width=2).entry())
    def check(tree):
        text = to_text(tree, language)
        diagnostics = Diagnostics()
        got = read_dump(text, "dump.txt", diagnostics)
        assert got is not None, text + diagnostics.render()
        assert got[0] is language
        assert to_text(got[1], language) == text
        assert got[1] == tree, text
    check()


@pytest.mark.parametrize("name", READABLE)
def test_a_node_of_any_production_reads_back(name):
    language = LANGUAGES[name]
    trees = Trees(language, depth=3)
    drawn = []
    for prod in sorted(language.nodes):
        nodes = trees.production(prod, 3)
        if nodes is not None:  # read as a node of its nonterminal
            kind = language.productions[prod][0].name
            drawn.append(nodes.map(lambda node, kind=kind: (kind, node)))

    @NODE_SETTINGS
    @given(st.one_of(drawn))
    def check(drawn):
        kind, tree = drawn
        text = to_text(tree)
        diagnostics = Diagnostics()
        got = read_tree(Source("node.txt", text), language, 0, diagnostics, kind)
        assert got is not None, f"{kind}: {text}{diagnostics.render()}"
        assert to_text(got) == text
        assert got == tree, text
    check()


def test_spans_point_into_the_dump():
    text = "// IL: Lresolved\nfn main() {\n    let x = 40;\n}\n"
    _, tree = read_dump(text, "dump.txt")
    let = tree.items[0].body.stmts[0]
    assert let.span.source.name == "dump.txt" and (let.span.line, let.span.col) == (3, 5)
    assert text[let.span.start:let.span.end] == "let x = 40;"
    assert text[let.value.span.start:let.value.span.end] == "40"

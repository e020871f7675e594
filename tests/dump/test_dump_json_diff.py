"""The JSON dump and its round trip, and the text diff."""

from __future__ import annotations

import json

import pytest
from dump_samples import L, example, i, mem, program, var

from nano_vx.dump import diff_text, dumps_json, from_json, to_json, to_text
from nano_vx.dump.json_form import JsonFormError
from nano_vx.languages import Lresolved, Lsrc
from nano_vx.source import Source, Span


def test_shape():
    src = Source("t.vx", "let x = 1;\nlet y = x;\n")
    let = L["Let"]("y", False, None, L["Var"]("x", span=Span(src, 19, 20)),
                   span=Span(src, 11, 21))
    assert to_json(let) == {
        "node": "Let",
        "span": {"line": 2, "column": 1, "end_line": 2, "end_column": 11},
        "fields": {
            "name": "y", "mutable": False, "type": None,
            "value": {"node": "Var",
                      "span": {"line": 2, "column": 9, "end_line": 2, "end_column": 10},
                      "fields": {"name": "x"}},
        },
    }
    assert list(json.loads(dumps_json(let))) == ["node", "span", "fields"]
    back = from_json(to_json(let), Lsrc, src)
    assert back == let and back.span == let.span and back.value.span == let.value.span
    assert from_json(to_json(let), Lsrc).span is None


def test_a_dump_of_an_il_names_it_first():
    data = json.loads(dumps_json(program(), language=Lsrc))
    assert list(data) == ["language", "node", "span", "fields"] and data["language"] == "Lsrc"
    assert from_json(data, Lsrc) == program()


def test_json_that_is_no_tree_of_the_language_is_refused_by_name():
    data = to_json(L["Let"]("y", False, None, var("x")))
    data["fields"]["value"] = {"node": "Break", "span": None, "fields": {}}
    with pytest.raises(JsonFormError) as refused:
        from_json(data, Lsrc)
    assert refused.value.message == "Let.value: expected Expr, not a Break (Stmt)"
    assert refused.value.where is data["fields"]["value"]


def test_star_fields_are_lists():
    data = to_json(L["Call"](var("f"), (), (i(1), i(2))))
    assert data["fields"]["targs"] == [] and len(data["fields"]["args"]) == 2


@pytest.mark.parametrize("name", sorted(Lsrc.nodes))
def test_every_production_round_trips(name):
    tree = example(name)
    assert from_json(to_json(tree), Lsrc) == tree
    assert from_json(json.loads(dumps_json(tree)), Lsrc) == tree


def test_program_round_trips_through_text_json():
    tree = program()
    assert from_json(json.loads(dumps_json(tree, indent=2)), Lsrc) == tree


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), 3.0, 1e300])
def test_floats_round_trip(value):
    assert from_json(json.loads(dumps_json(L["Float"](value))), Lsrc).value == value
    nan = from_json(json.loads(dumps_json(L["Float"](float("nan")))), Lsrc).value
    assert nan != nan


def test_later_ils_round_trip():
    R = Lresolved.nodes
    tree = R["Let"]("x#1", False, None, R["Transfer"](R["Global"]("g"), mem(), "relaxed"))
    assert from_json(to_json(tree), Lresolved) == tree


def test_diff():
    before = to_text(program())
    after = before.replace("let mut x: f32 = 2.5;", "let x = 2.5;")
    diff = diff_text(before, after, "after parse", "after hoist")
    assert diff.startswith("--- after parse\n+++ after hoist\n@@ ")
    assert "\n-    let mut x: f32 = 2.5;\n+    let x = 2.5;\n" in diff
    assert diff_text(before, before, "a", "b") == ""
    assert diff_text("a", "b").endswith("+b\n\\ No newline at end of file\n")

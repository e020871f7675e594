"""Diagnostics: their text and JSON forms, and the registry of codes."""

import json
import re
from pathlib import Path

import pytest

from nano_vx.codes import CODES, explain
from nano_vx.diagnostics import Diagnostic, Diagnostics
from nano_vx.source import Source, Span

TESTS = Path(__file__).resolve().parent


def test_the_text_form_names_file_line_column_and_points_at_the_span():
    src = Source("prog.vx", "fn main() {\n    print(y);\n}\n")
    d = Diagnostics()
    d.error("E2001", Span(src, 22, 23), "cannot find value 'y' in this scope",
            notes=["a note"], help=["a help"])
    assert d.render() == (
        "error[E2001]: cannot find value 'y' in this scope\n"
        " --> prog.vx:2:11\n"
        "  |\n"
        "2 |     print(y);\n"
        "  |           ^\n"
        "  = note: a note\n"
        "  = help: a help\n"
        "\n"
        "1 error reported\n"
    )


def test_warnings_come_before_errors():
    src = Source("p.vx", "a\nb\n")
    d = Diagnostics()
    d.error("E2001", Span(src, 0, 1), "first")
    d.warning("E2001", Span(src, 2, 3), "second")
    assert [x.severity for x in d.sorted()] == ["warning", "error"]
    assert d.render().endswith("1 error and 1 warning reported\n")


def test_a_long_line_is_clipped_around_the_span():
    text = "x" * 5000 + "BAD" + "y" * 5000
    src = Source("long.vx", text)
    rendered = Diagnostic("error", "E1001", "expected ';'", Span(src, 5000, 5003)).render()
    assert len(rendered) < 400
    source_line, caret_line = rendered.splitlines()[3:5]
    at = caret_line.index("^")
    assert source_line[at:at + 3] == "BAD" and caret_line.count("^") == 3


def rendered_line_and_caret(text, start, end, name="p.vx"):
    rendered = Diagnostic("error", "E2001", "msg", Span(Source(name, text), start, end)).render()
    return rendered.splitlines()[3:5]


def under_caret(source_line, caret_line):
    at = caret_line.index("^")
    return source_line[at:at + caret_line.count("^")]


def test_control_characters_of_the_line_are_shown_escaped_with_the_caret_in_place():
    text = 'let s = "\x1b[31mred\x1b[0m\x00\x07\x7f\x9b"; print(y);\n'
    source_line, caret_line = rendered_line_and_caret(text, text.index("y"), text.index("y") + 1)
    assert source_line == '1 | let s = "\\u{1b}[31mred\\u{1b}[0m\\0\\u{7}\\u{7f}\\u{9b}"; print(y);'
    assert under_caret(source_line, caret_line) == "y"
    source_line, caret_line = rendered_line_and_caret(text, 9, 10)  # the span is the ESC
    assert under_caret(source_line, caret_line) == "\\u{1b}"


def test_bidirectional_overrides_and_separators_are_shown_escaped():
    text = 'let s = "\u202eevil\u2066\u2028"; x\n'
    source_line, caret_line = rendered_line_and_caret(text, text.index("x"), text.index("x") + 1)
    assert source_line == '1 | let s = "\\u{202e}evil\\u{2066}\\u{2028}"; x'
    assert under_caret(source_line, caret_line) == "x"


def test_wide_characters_take_two_columns_and_crlf_is_a_line_ending():
    text = 'let s = "中文"; x\r\n'
    source_line, caret_line = rendered_line_and_caret(text, text.index("x"), text.index("x") + 1)
    assert source_line == '1 | let s = "中文"; x'
    assert caret_line == "  | " + " " * (len('let s = "中文"; ') + 2) + "^"


def test_the_message_notes_help_and_file_name_are_shown_escaped():
    src = Source("evil\x1b[2J.vx", "x\n")
    rendered = Diagnostic("error", "E8002", "assert failed: \x1b[31mboom\x00", Span(src, 0, 1),
                          notes=["a\x1bnote"], help=["a\x1bhelp"]).render()
    assert "\x1b" not in rendered and "\x00" not in rendered
    assert "assert failed: \\u{1b}[31mboom\\0" in rendered
    assert "--> evil\\u{1b}[2J.vx:1:1" in rendered and "note: a\\u{1b}note" in rendered


def test_the_json_form_of_control_characters_is_valid_json():
    src = Source("p.vx", "let s = \"\x1b\x00\u202e\"; y\n")
    d = Diagnostics()
    d.error("E2001", Span(src, 14, 15), "cannot find 'y' \x1b\x00", help=["\u2028"])
    text = d.to_json()
    assert "\x1b" not in text and "\x00" not in text and "\u2028" not in text
    [entry] = json.loads(text)["diagnostics"]
    assert entry["message"] == "cannot find 'y' \x1b\x00" and entry["help"] == ["\u2028"]


def test_the_json_form_carries_the_span_and_the_facts():
    src = Source("p.vx", "let x = 1;\n")
    d = Diagnostics()
    d.error("E2001", Span(src, 4, 5), "msg", name="x")
    doc = json.loads(d.to_json())
    [entry] = doc["diagnostics"]
    assert entry["span"] == {"file": "p.vx", "line": 1, "column": 5, "end_line": 1,
                             "end_column": 6}
    assert entry["name"] == "x" and entry["code"] == "E2001"


def test_an_unregistered_code_cannot_be_reported():
    with pytest.raises(ValueError, match="E0000 is not in the registry"):
        Diagnostic("error", "E0000", "nope")


def test_every_code_is_explained():
    for code, entry in CODES.items():
        assert re.fullmatch(r"[EW]\d{4}", code)
        text = explain(code.lower())
        assert text.startswith(f"{code}: {entry.title}") and len(entry.explanation) > 40


def test_every_code_is_triggered_by_some_test():
    """The registry promises a test for every code; a code no test names is a gap."""
    corpus = "\n".join(
        p.read_text() for p in TESTS.rglob("*.py") if p.name != Path(__file__).name
    )
    untested = [code for code in CODES if code not in corpus]
    assert not untested, f"no test names {', '.join(untested)}"

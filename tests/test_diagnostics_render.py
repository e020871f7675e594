"""Diagnostics drawn as rustc draws them: spans over several lines in a margin, secondary
labels, several files, colour, and the versioned JSON form."""

from __future__ import annotations

import io
import json
import re

import pytest

from nano_vx.cli import main, wants_color
from nano_vx.diagnostics import JSON_VERSION, Diagnostic, Diagnostics, Label
from nano_vx.source import Source, Span

TEXT = """fn main() {
    let t = Tensor<f32, [4]>::fill(1.0);
    let u = transfer(t, Memory::GPU_HBM);
    print(t[0]);
    let v = foo(a,
        b, c);
    if x {
        1
    } else {
        2
    }
}
"""
SRC = Source("p.vx", TEXT)


def span(text: str, after: str = "", src: Source = SRC) -> Span:
    at = src.text.index(text, src.text.index(after) + len(after) if after else 0)
    return Span(src, at, at + len(text))


def between(first: str, last: str) -> Span:
    return Span(SRC, TEXT.index(first), TEXT.index(last) + len(last))


def drawn(primary: Span | None, *labels: Label, **more) -> list[str]:
    return Diagnostic("error", "E2001", "msg", primary, labels=list(labels),
                      **more).render().splitlines()


def test_a_secondary_label_is_drawn_with_dashes_under_its_own_line():
    assert drawn(span("t", "print("), Label(span("t", "transfer("), "'t' moved here")) == [
        "error[E2001]: msg",
        " --> p.vx:4:11",
        "  |",
        "3 |     let u = transfer(t, Memory::GPU_HBM);",
        "  |                      - 't' moved here",
        "4 |     print(t[0]);",
        "  |           ^",
    ]


def test_a_span_starting_mid_line_is_drawn_from_an_underscore_corner():
    assert drawn(between("foo(a", "c)")) == [
        "error[E2001]: msg",
        " --> p.vx:5:13",
        "  |",
        "5 |       let v = foo(a,",
        "  |  _____________^",
        "6 | |         b, c);",
        "  | |_____________^",
    ]


def test_a_span_starting_a_line_opens_with_a_slash_and_lines_between_spans_are_elided():
    end = TEXT.index("    }\n}") + 5
    assert drawn(Span(SRC, TEXT.index("if x"), end), Label(span("let u"), "earlier"),
                 Label(span("1", "if x"), "then")) == [
        "error[E2001]: msg",
        "  --> p.vx:7:5",
        "   |",
        "3  |       let u = transfer(t, Memory::GPU_HBM);",
        "   |       ----- earlier",
        "...",
        "7  | /     if x {",
        "8  | |         1",
        "   | |         - then",
        "9  | |     } else {",
        "10 | |         2",
        "11 | |     }",
        "   | |_____^",
    ]


def test_a_long_span_shows_its_first_and_last_lines():
    lines = [f"    s{i};" for i in range(20)]
    src = Source("long.vx", "fn f() {\n" + "\n".join(lines) + "\n}\n")
    rows = Diagnostic("error", "E2001", "msg", Span(src, 0, len(src.text) - 1)).render()
    assert rows.splitlines()[3:] == [
        "1  | / fn f() {",
        "2  | |     s0;",
        "3  | |     s1;",
        "4  | |     s2;",
        "...",
        "21 | |     s19;",
        "22 | | }",
        "   | |_^",
    ]


def test_labels_on_the_primary_line_hang_below_it_right_to_left():
    call = span("foo(a")
    assert drawn(Span(SRC, call.start + 4, call.start + 5), Label(span("foo"), "callee"),
                 Label(span("let v"), "the let"))[3:] == [
        "5 |     let v = foo(a,",
        "  |     -----   --- ^",
        "  |     |       |",
        "  |     |       callee",
        "  |     the let",
    ]
    # The rightmost label, when nothing ends after it, stands beside its dashes.
    assert drawn(span("foo"), Label(span("a", "foo("), "an argument"))[3:] == [
        "5 |     let v = foo(a,",
        "  |             ^^^ - an argument",
    ]


def test_a_label_in_another_file_gets_a_snippet_of_its_own():
    machine = Source("machine.vx", "Memory X {\n  capacity: 1 KiB,\n}\n")
    assert drawn(span("foo"), Label(span("1 KiB", src=machine), "declared here"),
                 notes=["n"]) == [
        "error[E2001]: msg",
        " --> p.vx:5:13",
        "  |",
        "5 |     let v = foo(a,",
        "  |             ^^^",
        " ::: machine.vx:2:13",
        "  |",
        "2 |   capacity: 1 KiB,",
        "  |             ----- declared here",
        "  = note: n",
    ]


def test_a_span_that_ends_with_its_newline_is_a_span_of_one_line():
    line = span("    print(t[0]);\n")
    assert drawn(line)[3:] == ["4 |     print(t[0]);", "  | ^^^^^^^^^^^^^^^^"]


def test_colour_is_rustcs_and_only_asked_for():
    d = Diagnostics()
    d.error("E2001", span("t", "print("), "msg", labels=[Label(span("t", "transfer("), "moved")],
            help=["h"])
    plain, coloured = d.render(), d.render(color=True)
    assert "\x1b" not in plain
    assert coloured.splitlines()[0] == "\x1b[1;31merror[E2001]\x1b[0m\x1b[1m: msg\x1b[0m"
    # The gutter and a secondary label bold blue, the primary span the severity's colour.
    assert coloured.splitlines()[3:8] == [
        "\x1b[1;34m3 |     \x1b[0mlet u = transfer(t, Memory::GPU_HBM);",
        "  \x1b[1;34m|                      - moved\x1b[0m",
        "\x1b[1;34m4 |     \x1b[0mprint(t[0]);",
        "  \x1b[1;34m|           \x1b[0m\x1b[1;31m^\x1b[0m",
        "  \x1b[1;34m= \x1b[0m\x1b[1mhelp\x1b[0m: h",
    ]
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_warning_carets_are_yellow():
    d = Diagnostics()
    d.warning("E2001", span("foo"), "msg")
    assert "\x1b[1;33m^^^\x1b[0m" in d.render(color=True)


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("choice,stream,env,expected", [
    ("always", io.StringIO(), {}, True),
    ("never", Tty(), {}, False),
    ("auto", Tty(), {}, True),
    ("auto", io.StringIO(), {}, False),
    ("auto", Tty(), {"NO_COLOR": "1"}, False),
    ("auto", Tty(), {"TERM": "dumb"}, False),
])
def test_color_auto_means_a_terminal_that_did_not_ask_for_none(choice, stream, env, expected,
                                                                monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert wants_color(choice, stream) is expected


def test_the_command_line_colours_on_request(tmp_path):
    prog = tmp_path / "p.vx"
    prog.write_text("fn main() {\n    print(y);\n}\n")
    for flag, coloured in (("--color=always", True), ("--color=never", False), (None, False)):
        err = io.StringIO()
        argv = [str(prog), "--action", "check"] + ([flag] if flag else [])
        assert main(argv, stdout=io.StringIO(), stderr=err) == 1
        assert ("\x1b[" in err.getvalue()) is coloured
        assert "error[E2001]" in err.getvalue()


def test_the_json_form_has_a_version_and_the_labels():
    d = Diagnostics()
    d.error("E2001", span("t", "print("), "msg", labels=[Label(span("t", "transfer("), "moved")])
    doc = json.loads(d.to_json())
    assert list(doc) == ["version", "diagnostics"] and doc["version"] == JSON_VERSION == 1
    [entry] = doc["diagnostics"]
    assert list(entry) == ["severity", "code", "message", "span", "labels", "notes", "help"]
    assert entry["labels"] == [{"span": {"file": "p.vx", "line": 3, "column": 22,
                                         "end_line": 3, "end_column": 23}, "label": "moved"}]

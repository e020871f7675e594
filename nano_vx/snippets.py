"""Drawing a diagnostic's source lines as rustc draws them.

The primary span is underlined with `^`, each secondary label's span with `-` and its text
beside it; a span over several lines is drawn in a margin left of the source (`/` or `_` where
it starts, `|` down its lines, `|_^` where it ends). Every row is a run of styled cells, so the
same drawing comes out plain or, for a terminal, in colour.

A diagnostic with one single-line span and no labels draws as it always has: the README, the
docs and many tests compare those bytes.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# What a terminal would act on rather than show: control characters (ANSI escapes, NUL,
# C1), format characters (bidirectional overrides, zero-width), line and paragraph
# separators, and lone surrogates, which stderr cannot even encode.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_SHORT = {"\0": "\\0", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
_UNUSUAL = re.compile(r"[^\x20-\x7e]")


def visible(text: str) -> str:
    """`text` with every character a terminal would act on written as Rust's `{:?}` writes
    it (`\\u{1b}`, `\\0`), so that a diagnostic shows a source line rather than replays
    it."""
    def shown(m: re.Match) -> str:
        c = m.group()
        if unicodedata.category(c) not in _HIDDEN:
            return c
        return _SHORT.get(c) or f"\\u{{{ord(c):x}}}"

    return _UNUSUAL.sub(shown, text)


def columns(text: str) -> int:
    """The terminal columns `text` takes: two for a wide character (CJK, most emoji), none
    for a combining mark, so that the caret stands under its span."""
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


SHOWN_COLUMNS = 100


def clip(text: str, col: int, width: int) -> tuple[str, int, int]:
    """A window of a long source line around the span, so that one diagnostic on a
    minified or generated line stays a few lines long, not kilobytes."""
    width = max(1, min(width, SHOWN_COLUMNS // 2))
    if len(text) <= SHOWN_COLUMNS:
        return text, col, width
    start = max(0, col - 1 - SHOWN_COLUMNS // 3)
    window = text[start:start + SHOWN_COLUMNS]
    prefix = "..." if start else ""
    suffix = "..." if start + SHOWN_COLUMNS < len(text) else ""
    return prefix + window + suffix, col - start + len(prefix), width


# ANSI styles, as rustc colours its output.
BOLD, RED, YELLOW, BLUE = "1", "1;31", "1;33", "1;34"
SEVERITY_STYLE = {"error": RED, "warning": YELLOW}
# A span over more lines than this shows its first lines, `...`, and its last two.
LONG_SPAN = 6


class Row:
    """One output line as cells, each a character and a style (None: plain)."""

    def __init__(self, text: str = "", style: str | None = None):
        self.cells: list[tuple[str, str | None]] = [(c, style) for c in text]

    def put(self, at: int, text: str, style: str | None = None) -> "Row":
        while len(self.cells) < at + len(text):
            self.cells.append((" ", None))
        for i, c in enumerate(text):
            self.cells[at + i] = (c, style)
        return self

    def add(self, text: str, style: str | None = None) -> "Row":
        return self.put(len(self.cells), text, style)

    def render(self, color: bool) -> str:
        if not color:
            return "".join(c for c, _ in self.cells)
        out, current = [], None
        for c, style in self.cells:
            if style != current and c != " ":
                out.append("\x1b[0m" if current else "")
                out.append(f"\x1b[{style}m" if style else "")
                current = style
            out.append(c)
        if current:
            out.append("\x1b[0m")
        return "".join(out)


@dataclass
class Mark:
    """One annotation of a snippet: a span (its lines and columns) and how to draw it."""

    start_line: int
    start_col: int
    end_line: int  # the line of the span's last character
    last_col: int  # the column of its last character (its only one when empty)
    width: int  # on one line: the characters it covers
    primary: bool
    label: str
    style: str

    @property
    def multiline(self) -> bool:
        return self.end_line != self.start_line

    @property
    def char(self) -> str:
        return "^" if self.primary else "-"


def mark(span, primary: bool, label: str, style: str) -> Mark:
    src = span.source
    line, col = src.line_col(span.start)
    end_line, end_col = src.line_col(max(span.end, span.start))
    if end_line == line:
        return Mark(line, col, line, max(col, end_col - 1), end_col - col, primary, label, style)
    # A span that runs on past its last character into blanks (its line's newline, the next
    # line's indent) ends, as drawn, at that character; on its first line it is drawn, as it
    # always was, to the end of that line.
    blank = len(src.text[span.start:span.end]) - len(src.text[span.start:span.end].rstrip())
    last_line, last_col = src.line_col(max(span.start, span.end - 1 - blank))
    if last_line == line:
        width = len(_text(src, line)) - col + 1
        return Mark(line, col, line, col + width - 1, width, primary, label, style)
    return Mark(line, col, last_line, last_col, 0, primary, label, style)


def _text(src, line: int) -> str:
    return src.line_text(line).removesuffix("\r").expandtabs(1)


@dataclass
class Line:
    """A source line as shown: the text (clipped when long) and where its columns went."""

    text: str
    shift: int  # added to a column of the source line to find it in `text`

    def at(self, col: int) -> int:
        """The terminal column of source column `col`."""
        return columns(visible(self.text[:max(0, col + self.shift - 1)]))

    def span(self, col: int, width: int) -> int:
        """The terminal columns of `width` characters from `col`, one at least."""
        start = col + self.shift - 1
        return max(1, columns(visible(self.text[start:start + width])))


def _shown(src, number: int, marks: list[Mark]) -> Line:
    """The line clipped around the leftmost annotation that starts or ends on it."""
    cols = [m.start_col for m in marks if m.start_line == number]
    cols += [m.last_col for m in marks if m.multiline and m.end_line == number]
    text = _text(src, number)
    col = min(cols, default=1)
    clipped, at, _ = clip(text, col, 1)
    return Line(clipped, at - col)


def _line_numbers(marks: list[Mark]) -> list[int | None]:
    """The lines to show, in order, None where `...` stands for lines left out."""
    wanted: set[int] = set()
    for m in marks:
        if m.end_line - m.start_line + 1 > LONG_SPAN:
            wanted.update(range(m.start_line, m.start_line + LONG_SPAN - 2))
            wanted.update((m.end_line - 1, m.end_line))
        else:
            wanted.update(range(m.start_line, m.end_line + 1))
    out: list[int | None] = []
    for n in sorted(wanted):
        if out and n == out[-1] + 2:
            out.append(n - 1)  # one line between two shown: show it rather than `...`
        elif out and n > out[-1] + 2:
            out.append(None)
        out.append(n)
    return out


class Snippet:
    """The rows of one file's annotations, under a gutter `width` columns wide."""

    def __init__(self, src, marks: list[Mark], width: int):
        self.src = src
        self.marks = marks
        self.width = width
        self.multi = [m for m in marks if m.multiline]
        self.width_of_margin = len(self.multi) + 1 if self.multi else 0
        self.rows: list[Row] = []

    def gutter(self, number: int | None = None) -> Row:
        row = Row()
        if number is not None:
            row.add(f"{number:<{self.width}}", BLUE)
        else:
            row.add(" " * self.width)
        return row.add(" |", BLUE)

    def body(self, number: int | None, margin: str, styles: list) -> Row:
        """A row: the gutter, a space, then the margin's cells."""
        row = self.gutter(number).add(" ")
        for c, style in zip(margin, styles):
            row.add(c, style if c != " " else None)
        return row

    def margin(self, number: int, phase: str, current: int | None = None) -> tuple[list, list]:
        """The margin's characters and styles on a row of line `number`: its `source` row, a
        row `under` it, or the `start` or `end` corner of `self.multi[current]`. Corners are
        drawn after the rows under a line, starts before ends, each kind in margin order."""
        if not self.multi:
            return [], []
        chars, styles = [], []
        for k, m in enumerate(self.multi):
            if phase == "source":
                c = ("/" if self._flush(m) else " ") if number == m.start_line else \
                    "|" if m.start_line < number <= m.end_line else " "
            else:
                began = m.start_line < number or m.start_line == number and (
                    self._flush(m) or phase == "end" or phase == "start" and k < current)
                ended = m.end_line < number or (m.end_line == number and phase == "end"
                                                and k < current)
                c = "|" if began and not ended else " "
                if k == current:
                    c = " " if phase == "start" else "|"
            chars.append(c)
            styles.append(m.style)
        return chars + [" "], styles + [None]

    def _flush(self, m: Mark) -> bool:
        """Whether nothing but blanks stands before the span on its first line (rustc's `/`)."""
        return not _text(self.src, m.start_line)[:m.start_col - 1].strip()

    def draw(self) -> list[Row]:
        for number in _line_numbers(self.marks):
            if number is None:
                self.rows.append(Row("...", BLUE))
                continue
            line = _shown(self.src, number, self.marks)
            chars, styles = self.margin(number, "source")
            self.rows.append(self.body(number, chars, styles).add(visible(line.text)))
            self._singles(number, line)
            for j, m in enumerate(self.multi):
                if m.start_line == number and not self._flush(m):
                    self._corner(number, line, j, m, m.start_col, "start")
            for j, m in enumerate(self.multi):
                if m.end_line == number:
                    self._corner(number, line, j, m, m.last_col, "end")
        return self.rows

    def _corner(self, number: int, line: Line, j: int, m: Mark, col: int, phase: str) -> None:
        """`  ____^` where a multi-line span starts, `|____^ label` where it ends."""
        chars, styles = self.margin(number, phase, current=j)
        for k in range(j + 1, self.width_of_margin):
            chars[k], styles[k] = "_", m.style
        row = self.body(None, chars, styles)
        row.add("_" * line.at(col), m.style).add(m.char, m.style)
        if phase == "end" and m.label:
            row.add(" " + m.label, m.style)
        self.rows.append(row)

    def _singles(self, number: int, line: Line) -> None:
        """The underline row of the one-line spans of line `number`, then their labels: the
        rightmost beside its underline, the others each on a row of its own below, hanging
        from `|`s."""
        here = [m for m in self.marks if not m.multiline and m.start_line == number]
        if not here:
            return
        chars, styles = self.margin(number, "under")
        row = self.body(None, chars, styles)
        base = len(row.cells)
        starts, ends = {}, {}
        for m in sorted(here, key=lambda m: m.primary):  # the primary's `^` drawn last, on top
            at = line.at(m.start_col)
            size = line.span(m.start_col, max(1, min(m.width, SHOWN_COLUMNS // 2)))
            row.put(base + at, m.char * size, m.style)
            starts[id(m)], ends[id(m)] = at, at + size
        labelled = sorted((m for m in here if m.label), key=lambda m: starts[id(m)])
        if labelled and ends[id(labelled[-1])] == max(ends.values()):
            m = labelled.pop()
            row.add(" " + m.label, m.style)
        self.rows.append(row)
        if not labelled:
            return
        pipes = self.body(None, chars, styles)
        for m in labelled:
            pipes.put(base + starts[id(m)], "|", m.style)
        self.rows.append(pipes)
        for i in range(len(labelled) - 1, -1, -1):
            row = self.body(None, chars, styles)
            for m in labelled[:i]:
                row.put(base + starts[id(m)], "|", m.style)
            m = labelled[i]
            self.rows.append(row.put(base + starts[id(m)], m.label, m.style))


def _groups(diag) -> list[tuple[object, list[Mark]]]:
    """The annotations by file, the primary span's file first and the primary first in it."""
    style = SEVERITY_STYLE[diag.severity]
    spans = [(diag.span, True, "", style)] if diag.span is not None else []
    spans += [(label.span, False, label.text, BLUE) for label in diag.labels]
    groups: dict[int, tuple[object, list[Mark]]] = {}
    for span, primary, text, how in spans:
        src = span.source
        groups.setdefault(id(src), (src, []))[1].append(mark(span, primary, text, how))
    return list(groups.values())


def draw(diag, color: bool = False) -> str:
    """The text of a diagnostic: its header, the snippet of each file it points into, its
    notes and help; with `color`, styled for a terminal as rustc styles it."""
    rows = [Row(f"{diag.severity}[{diag.code}]", SEVERITY_STYLE[diag.severity])
            .add(f": {visible(diag.message)}", BOLD)]
    groups = _groups(diag)
    width = max((len(str(n)) for _, marks in groups for n in _line_numbers(marks) if n),
                default=0)
    gutter = " " * width
    for i, (src, marks) in enumerate(groups):
        first = marks[0]
        rows.append(Row(gutter).add("-->" if i == 0 else ":::", BLUE)
                    .add(f" {visible(src.name)}:{first.start_line}:{first.start_col}"))
        rows.append(Row(gutter + " |", BLUE))
        rows += Snippet(src, marks, width).draw()
    for kind, texts in (("note", diag.notes), ("help", diag.help)):
        rows += [Row(gutter).add(" =", BLUE).add(f" {kind}", BOLD).add(f": {visible(text)}")
                 for text in texts]
    return "\n".join(row.render(color) for row in rows)

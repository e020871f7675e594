"""Source text and spans: offsets into a text, turned into line and column on demand."""

from __future__ import annotations

from bisect import bisect_right

# The largest file nano-vx reads (a program, a dump, a machine file, a certificate): a
# larger one is refused on the command line, before it is read into memory.
INPUT_LIMIT = 64 << 20


class Source:
    """One input text. Line and column come from a table of line starts (not from
    counting newlines each time, which turns quadratic on large files)."""

    def __init__(self, name: str, text: str):
        self.name = name
        self.text = text
        starts = [0]
        find = text.find
        i = find("\n")
        while i >= 0:
            starts.append(i + 1)
            i = find("\n", i + 1)
        self.line_starts = starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        line = bisect_right(self.line_starts, offset) - 1
        return line + 1, offset - self.line_starts[line] + 1

    def line_text(self, line: int) -> str:
        start = self.line_starts[line - 1]
        end = self.line_starts[line] - 1 if line < len(self.line_starts) else len(self.text)
        return self.text[start:end]

    def __repr__(self) -> str:
        return f"<Source {self.name}>"


class Span:
    """A range of characters [start, end) in a Source."""

    __slots__ = ("source", "start", "end")

    def __init__(self, source: Source, start: int, end: int):
        self.source = source
        self.start = start
        self.end = end

    @property
    def line(self) -> int:
        return self.source.line_col(self.start)[0]

    @property
    def col(self) -> int:
        return self.source.line_col(self.start)[1]

    def to(self, other: "Span | None") -> "Span":
        """The span from the start of this one to the end of `other`."""
        if other is None or other.source is not self.source:
            return self
        return Span(self.source, min(self.start, other.start), max(self.end, other.end))

    def __str__(self) -> str:
        line, col = self.source.line_col(self.start)
        return f"{self.source.name}:{line}:{col}"

    def __repr__(self) -> str:
        return f"Span({self})"

    def __eq__(self, other):
        return (
            isinstance(other, Span)
            and self.source is other.source
            and (self.start, self.end) == (other.start, other.end)
        )

    def __hash__(self):
        return hash((id(self.source), self.start, self.end))

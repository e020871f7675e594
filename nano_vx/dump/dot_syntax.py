"""What every Graphviz dump writes the same way (the tree, the control-flow graph, the spatial
program's graph): the graph's header lines, its title and DOT's quoting.

A graph is written in two parts, its opening and the rest, its title going between: what it
draws depends on the tree alone, so a tree dumped after several passes is drawn once (the
driver's Dumper) and titled for each."""

from __future__ import annotations

INDENT = "    "
HEADER = (
    "graph [ordering=out];",
    'node [shape=box, fontname="Helvetica", fontsize=10];',
    'edge [fontname="Helvetica", fontsize=9];',
)


def dot_quote(text: str) -> str:
    """A DOT double-quoted string whose label shows `text` literally, one line per `\\n`.

    Backslashes are doubled so that `\\l`, `\\N` and the like in a value stay text; `<>{}|`
    need no escape because no node uses a record shape."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def dot_heading(title: str | None) -> str:
    """The lines of the graph's title, which go between its parts; none without a title."""
    if title is None:
        return ""
    return f"{INDENT}label = {dot_quote(title)};\n{INDENT}labelloc = t;\n"


def joined(opening: list[str], rest: list[str]) -> tuple[str, str]:
    """The lines before and after the title as a graph's parts."""
    return "\n".join(opening) + "\n", "\n".join(rest) + "\n"

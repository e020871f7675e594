"""What every Graphviz dump writes the same way (the tree, the control-flow graph, the spatial
program's graph): the graph's header lines and DOT's quoting."""

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

"""The explorer's page: one HTML file holding a recording as data, and the CSS and script that
show it. Nothing is fetched when the page is viewed: the highlighted text, the diffs' line
pairings and the Graphviz pictures (SVG) are computed here and written into the page.

Each distinct IL text is stored once (a pass that changes nothing shares its input's), as
highlighted lines; a pass refers to its before and after texts by number and carries the
opcodes of their line diff.
"""

from __future__ import annotations

import difflib
import html
import json
import re

from ..driver import render
from ..dump.render import RenderError
from ..nanopass import diff_languages, show_language
from .assets import CSS, SCRIPT

# A picture of more nodes than this takes Graphviz long and a browser longer: the page says
# how to draw it instead.
MAX_GRAPH_NODES = 1500
# A node statement of the dot text (an edge statement has `->` before its attributes).
_NODE = re.compile(r'\s*(?:\w+|"[^"]*")\s*\[')


class Versions:
    """The distinct IL texts of a recording, each highlighted once and drawn once."""

    def __init__(self, graphs: bool):
        self.graphs = graphs
        self.index: dict[str, int] = {}
        self.items: list[dict] = []
        self.plain: list[list[str]] = []

    def add(self, tree, language: str | None) -> int:
        from ..highlight import highlight_lines

        text = render(tree, "text", "")
        found = self.index.get(text)
        if found is not None:
            return found
        self.index[text] = len(self.items)
        item = {"language": language or "text", "lines": highlight_lines(text, language)}
        if language is not None:
            item.update(self._graph(tree, language))
        self.items.append(item)
        self.plain.append(text.splitlines())
        return len(self.items) - 1

    def _graph(self, tree, language: str) -> dict:
        if not self.graphs:
            return {"svg_note": "pictures were not drawn (--no-graphs)"}
        svg, note = picture(tree, language)
        return {"svg": svg} if svg is not None else {"svg_note": note}


def count_nodes(dot: str) -> int:
    return sum(1 for line in dot.splitlines() if _NODE.match(line))


def picture(tree, title: str) -> tuple[str | None, str | None]:
    """(the tree's Graphviz picture as inline SVG, None), or (None, why there is none)."""
    from ..dump.dot import to_dot
    from ..dump.render import render_svg

    dot = to_dot(tree, title=title)
    nodes = count_nodes(dot)
    if nodes > MAX_GRAPH_NODES:
        return None, (f"the graph has {nodes} nodes, more than is drawn here "
                      f"({MAX_GRAPH_NODES}): nano-vx PROGRAM --dump-after=PASS "
                      f"--dump-format=svg draws it")
    try:
        svg = render_svg(dot)
    except RenderError as err:
        return None, f"no picture: {err}"
    return svg[svg.index("<svg"):], None  # inline: no XML declaration, no doctype


def _diagnostic(d) -> dict:
    out = {"severity": d.severity, "code": d.code, "message": d.message, "text": d.render(),
           "places": []}
    spans = ([(d.span, "")] if d.span is not None else []) + \
        [(label.span, label.text) for label in d.labels]
    for span, label in spans:
        line, col = span.source.line_col(span.start)
        out["places"].append({"file": span.source.name, "line": line, "column": col,
                              "label": label})
    return out


def _languages(step, flats: dict) -> dict:
    out = {}
    for key, lang in (("input_flat", step.input_language), ("output_flat", step.output_language)):
        if lang is not None:
            flats.setdefault(lang.name, show_language(lang))
            out[key] = lang.name
    if step.input_language is None:
        out["delta"] = "(parse reads text: its output IL is the first, shown flat)"
    elif step.input_language is step.output_language:
        out["delta"] = f"(no change: {step.output} is the pass's input IL)"
    else:
        out["delta"] = diff_languages(step.input_language, step.output_language)
    return out


def page_data(recording, graphs: bool = True) -> dict:
    """Everything the page shows, as JSON-able data."""
    from ..highlight import highlight_lines

    versions = Versions(graphs)
    flats: dict[str, str] = {}
    passes, own = [], set()
    for i, step in enumerate(recording.steps, 1):
        entry = {"index": i, "name": step.name, "kind": step.kind, "input": step.input,
                 "output": step.output, "doc": step.doc, "ran": step.ran,
                 "ms": round(step.seconds * 1000, 3), "facts": step.facts,
                 "diagnostics": [_diagnostic(d) for d in step.diagnostics]}
        own.update(id(d) for d in step.diagnostics)
        entry.update(_languages(step, flats))
        if step.ran:
            before = versions.add(step.before, None if step.input == "text" else step.input)
            after = versions.add(step.after, step.output)
            matcher = difflib.SequenceMatcher(None, versions.plain[before],
                                              versions.plain[after], autojunk=False)
            entry.update(before=before, after=after, changed=before != after,
                         ops=[list(op) for op in matcher.get_opcodes()])
        passes.append(entry)
    source_language = "Sdataflow" if recording.lane == "spatial" else None
    return {
        "program": recording.source.name,
        "lane": recording.lane,
        "stopped_at": recording.stopped_at,
        "source": highlight_lines(recording.source.text, source_language),
        "passes": passes,
        "versions": versions.items,
        "languages": flats,
        "unplaced": [_diagnostic(d) for d in recording.diagnostics if id(d) not in own],
        "total_ms": round(sum(s.seconds for s in recording.steps) * 1000, 3),
    }


def page_html(recording, graphs: bool = True) -> str:
    """The whole page: self-contained, nothing to fetch."""
    from ..highlight import style_css

    data = json.dumps(page_data(recording, graphs), separators=(",", ":"))
    # Inside <script>, `</` could close the element early: JSON lets `/` be escaped.
    data = data.replace("</", "<\\/").replace("<!--", "<\\u0021--")
    title = html.escape(f"nano-vx explore: {recording.source.name}")
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{title}</title>\n<style>\n{CSS}\n{style_css('.hl')}\n</style>\n</head>\n"
            f"<body>\n<script id=\"data\" type=\"application/json\">{data}</script>\n"
            f"<script>\n{SCRIPT}\n</script>\n</body>\n</html>\n")

"""Dumps of any IL: text (Rust-like surface syntax), Graphviz DOT and SVG, JSON, and diffs."""

from .diff import diff_text
from .dot import to_dot
from .json_form import dumps_json, from_json, to_json
from .render import RenderError, render_svg
from .text import to_text

__all__ = ["diff_text", "to_dot", "dumps_json", "from_json", "to_json", "RenderError",
           "render_svg", "to_text"]

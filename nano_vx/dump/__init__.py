"""Dumps of any IL: text (Rust-like surface syntax) and JSON, both of which read back, Graphviz
DOT and SVG, and diffs."""

from .diff import diff_text
from .dot import to_dot
from .json_form import dumps_json, from_json, to_json
from .read import read_dump
from .render import RenderError, render_svg
from .text import to_text

__all__ = ["diff_text", "to_dot", "dumps_json", "from_json", "to_json", "read_dump",
           "RenderError", "render_svg", "to_text"]

"""Dumps of any IL: text (Rust-like surface syntax) and JSON, both of which read back, Graphviz
DOT and SVG, and diffs. Reading a dump file whose IL is not known yet (its header names it) is
`nano_vx.resume.read`, above the pipelines whose ILs it looks the name up in."""

from .diff import diff_text
from .dot import to_dot
from .json_form import dumps_json, from_json, to_json
from .render import RenderError, render_svg
from .text import to_text

__all__ = ["diff_text", "to_dot", "dumps_json", "from_json", "to_json", "RenderError",
           "render_svg", "to_text"]

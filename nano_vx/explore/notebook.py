"""How an IL node shows itself in Jupyter: its text dump, highlighted, and its Graphviz picture
as inline SVG. Any node of any IL, a whole program or one expression.

An IPython extension: `%load_ext nano_vx.explore.notebook` registers `node_html` as the HTML
form of every `Node`. The framework's node classes know nothing of notebooks (the framework is
the bottom layer, the explorer the top), so the display is registered from above.
"""

from __future__ import annotations

import html

from .page import picture

STYLE = """<style>
.nano-vx-node pre.hl { padding: .5em; background: #f6f8fa; border-radius: 4px;
                       font-size: 12px; line-height: 1.4; overflow-x: auto; }
.nano-vx-node .svg { overflow: auto; max-height: 60em; }
.nano-vx-node .svg svg { max-width: 100%; height: auto; }
.nano-vx-node .note { color: #6e7781; font-size: 12px; }
"""


def load_ipython_extension(ipython) -> None:
    """`%load_ext nano_vx.explore.notebook`: every IL node displays as `node_html`."""
    from ..nanopass.nodes import Node

    ipython.display_formatter.formatters["text/html"].for_type(Node, node_html)


def node_html(node) -> str:
    """The HTML of `node`: a caption (production, IL), the highlighted text and the picture."""
    from ..dump.text import to_text
    from ..highlight import highlight_html, style_css

    language = node._language.name if node._language is not None else None
    caption = f"{node._prod} ({node._nt}) of {language}" if language else node._prod
    text = highlight_html(to_text(node), language).replace(
        '<pre class="highlight">', '<pre class="hl">', 1)
    return (f'<div class="nano-vx-node">{STYLE}{style_css(".nano-vx-node .hl")}</style>'
            f'<div class="note">{html.escape(caption)}</div>{text}'
            f'<details open><summary>Graphviz</summary>{_picture(node, language)}</details>'
            f"</div>")


def _picture(node, language: str | None) -> str:
    svg, note = picture(node, language)
    if svg is None:
        return f'<div class="note">{html.escape(note)}</div>'
    return f'<div class="svg">{svg}</div>'

"""How an IL node shows itself in Jupyter (`Node._repr_html_`): its text dump, highlighted, and
its Graphviz picture as inline SVG. Any node of any IL, a whole program or one expression.

Imported by the node's method only when a notebook asks for the HTML, so neither Pygments nor
the dump package is loaded by the compiler itself.
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

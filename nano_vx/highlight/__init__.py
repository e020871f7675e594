"""Syntax highlighting of Vx, its IL dumps and spatial programs, as HTML.

Pygments is imported only here, inside the functions, so nothing the CLI loads at start-up
pays for it.
"""

from __future__ import annotations

import html

STYLE = "default"


def lexer_for(language: str | None):
    """The lexer of an IL's text dump: MLIR for Lmlir, the spatial text form for the spatial
    lane's ILs (named S...), Vx for the rest and for source text (None)."""
    from .lexer import MlirLexer, SdfLexer, VxLexer

    if language == "Lmlir":
        return MlirLexer()
    if language is not None and language[:1] == "S":
        return SdfLexer()
    return VxLexer()


def highlight_lines(text: str, language: str | None = None) -> list[str]:
    """One HTML fragment per line of `text`, each a run of `<span class=..>` tokens (Pygments'
    short class names), so that a page can number, link and diff lines one by one."""
    from pygments.token import STANDARD_TYPES, Token

    lines: list[list[str]] = [[]]
    for kind, value in lexer_for(language).get_tokens(text):
        while kind not in STANDARD_TYPES:  # a token type of the lexer's own: its parent's class
            kind = kind.parent
        css = STANDARD_TYPES[kind]
        for i, piece in enumerate(value.split("\n")):
            if i:
                lines.append([])
            if piece:
                escaped = html.escape(piece, quote=False)
                lines[-1].append(f'<span class="{css}">{escaped}</span>' if css and
                                 kind is not Token.Text else escaped)
    if text.endswith("\n") and not lines[-1]:
        lines.pop()
    return ["".join(parts) for parts in lines]


def highlight_html(text: str, language: str | None = None) -> str:
    """`text` as one `<pre class="highlight">` block."""
    return '<pre class="highlight">' + "\n".join(highlight_lines(text, language)) + "</pre>"


def style_css(scope: str = ".highlight") -> str:
    """The CSS of the token classes, scoped to `scope`."""
    from pygments.formatters import HtmlFormatter

    return HtmlFormatter(style=STYLE).get_style_defs(scope)

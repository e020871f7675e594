"""The machinery of the text dump: a writer, the table of forms, the generic form.

Forms are looked up by production name *and* field names, so a later IL that changes a
production's fields (say `Transfer` gaining `mark`) never goes through a form written for
the old shape and silently drops a field: an unknown shape prints in the generic form
`Prod(field: value, ...)`, from the node's declared fields, and reads back from it. Output
goes into one list of strings joined at the end, so printing is linear in the size of the
output.
"""

from __future__ import annotations

import re

from ..nanopass.nodes import Node

INDENT = "    "

# Precedence, loosest first. Block-like expressions (`spawn`, `comptime`) sit below every
# operator so that they are parenthesised as operands (`(comptime { .. }) + 1` would otherwise
# read as a statement followed by `+1`), and a closure swallows everything to its right.
CLOSURE, BLOCKLIKE, CAST, UNARY, POSTFIX, ATOM = 0, 1, 11, 12, 13, 14
BINARY_PREC = {
    "||": 2, "&&": 3,
    "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
    "|": 5, "^": 6, "&": 7, "<<": 8, ">>": 8,
    "+": 9, "-": 9,
    "*": 10, "/": 10, "%": 10,
}
# Conditions and `for` bounds are followed by a block, so a block-like operand there is
# parenthesised too.
HEADER = BLOCKLIKE + 1
# What an operand in parentheses binds as, when read back: tighter than any position needs.
GROUPED = 99

_ESCAPES = {ord("\\"): "\\\\", ord('"'): '\\"', ord("\n"): "\\n", ord("\t"): "\\t",
            ord("\r"): "\\r", ord("\0"): "\\0"}
_ESCAPES.update({c: f"\\u{{{c:x}}}" for c in [*range(0x20), 0x7F] if c not in _ESCAPES})
_BARE = re.compile(r"[^\s,:()\[\]{}\"]+\Z")


def quote(text: str) -> str:
    """A string literal as Vx writes it. Other control characters print as Rust's `\\u{..}`,
    which the Vx lexer does not read (yet): no other escape could show them."""
    return '"' + text.translate(_ESCAPES) + '"'


def terminal_text(value, kind: str) -> str:
    """A terminal value in the generic forms (text fallback, Graphviz labels)."""
    if value is None:
        return "_"
    if type(value) is bool:
        return "true" if value else "false"
    if type(value) is float:
        return repr(value)
    if type(value) is str:
        # Names, operators, units print bare; string literals and anything that would not
        # read back as one token are quoted.
        return value if kind != "string" and _BARE.match(value) else quote(value)
    if type(value) is tuple:
        return "[" + ", ".join(terminal_text(v, kind) for v in value) + "]"
    return str(value)


def is_terminal(node_cls, field) -> bool:
    return field.kind in node_cls._language.terminals


# (production, field names) -> its Form (forms.py): how a node of that shape is written and
# read. A shape with no form, or a node its form does not fit, is written in the generic form.
FORMS: dict[tuple[str, tuple[str, ...]], object] = {}


def shape(node: Node) -> tuple[str, tuple[str, ...]]:
    return node._prod, node._fields


def form_of(node: Node):
    """The form `node` is written in, or None for the generic form."""
    form = FORMS.get((node._prod, node._fields))
    return form if form is not None and form.fits(node) else None


class Writer:
    def __init__(self):
        self.parts: list[str] = []
        self.depth = 0

    def put(self, *text: str) -> None:
        self.parts.extend(text)

    def newline(self) -> None:
        self.parts.append("\n" + INDENT * self.depth)

    def node(self, node: Node, min_prec: int = CLOSURE) -> None:
        """`node` inline, parenthesised when it binds looser than its position needs."""
        form = form_of(node)
        if form is None:
            generic(self, node)
        elif not form.line and form.prec_of(node) < min_prec:
            self.put("(")
            form.emit(self, node)
            self.put(")")
        else:
            form.emit(self, node)

    def stmt(self, node: Node) -> None:
        """`node` as a whole line: statements and items print themselves, anything else is
        an expression statement."""
        form = form_of(node)
        if form is not None and form.line:
            form.emit(self, node)
        else:
            self.node(node)
            self.put(";")

    def commas(self, nodes, min_prec: int = CLOSURE) -> None:
        for i, n in enumerate(nodes):
            if i:
                self.put(", ")
            self.node(n, min_prec)


def generic(w: Writer, node: Node) -> None:
    """`Prod(field: value, ...)` for a production no printer knows."""
    w.put(node._prod, "(")
    cls = type(node)
    for i, f in enumerate(cls._declared):
        if i:
            w.put(", ")
        w.put(f.name, ": ")
        value = getattr(node, f.name)
        if is_terminal(cls, f):
            w.put(terminal_text(value, f.kind))
        elif value is None:
            w.put("_")
        elif f.mult == "*":
            w.put("[")
            w.commas(value)
            w.put("]")
        elif f.mult == "?" and value._prod == "OpaqueType":
            generic(w, value)  # its own text, `_`, is what an absent optional reads as
        else:
            w.node(value)
    w.put(")")


HEADER_PREFIX = "// IL: "


def il_header(language) -> str:
    """The line a dump of `language` (a Language or its name) starts with."""
    return f"{HEADER_PREFIX}{getattr(language, 'name', language)}\n"

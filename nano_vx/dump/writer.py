"""The machinery of the text dump: a writer, the table of printers, the generic form.

Printers are looked up by production name *and* field names, so a later IL that changes a
production's fields (say `Transfer` gaining `mark`) never goes through a printer written for
the old shape and silently drops a field: an unknown shape prints in the generic form
`Prod(field: value, ...)`, from the node's declared fields. Output goes into one list of
strings joined at the end, so printing is linear in the size of the output.
"""

from __future__ import annotations

import re

from ..languages.l0_source import is_valued_if
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


# (production, field names) -> printer(writer, node). LINE printers write whole statements or
# items (with their own `;`); EXPR printers write inline and carry a precedence (a number, or a
# function of the node when it depends on an operator or a sign).
LINE: dict[tuple[str, tuple[str, ...]], object] = {}
EXPR: dict[tuple[str, tuple[str, ...]], tuple[object, object]] = {}


def line(prod: str, fields: str = ""):
    def register(fn):
        LINE[(prod, tuple(fields.split()))] = fn
        return fn
    return register


def expr(prod: str, fields: str = "", prec=ATOM):
    def register(fn):
        EXPR[(prod, tuple(fields.split()))] = (prec, fn)
        return fn
    return register


BLOCK = ("Block", ("stmts", "value"))  # the block shape `braced` lays out


_IF_STMT = ("If", ("cond", "comptime", "then", "orelse"))


def _reads_as_value(stmt: Node) -> bool:
    return shape(stmt) == _IF_STMT and is_valued_if(stmt)


def shape(node: Node) -> tuple[str, tuple[str, ...]]:
    return node._prod, node._fields


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
        key = shape(node)
        if key in EXPR:
            prec, fn = EXPR[key]
            if callable(prec):
                prec = prec(node)
            if prec < min_prec:
                self.put("(")
                fn(self, node)
                self.put(")")
            else:
                fn(self, node)
        elif key in LINE:
            LINE[key](self, node)
        else:
            generic(self, node)

    def stmt(self, node: Node) -> None:
        """`node` as a whole line: statements and items print themselves, anything else is
        an expression statement."""
        fn = LINE.get(shape(node))
        if fn is not None:
            fn(self, node)
        else:
            self.node(node)
            self.put(";")

    def opt(self, prefix: str, node: Node | None, min_prec: int = CLOSURE) -> None:
        if node is not None:
            self.put(prefix)
            self.node(node, min_prec)

    def commas(self, nodes, min_prec: int = CLOSURE) -> None:
        for i, n in enumerate(nodes):
            if i:
                self.put(", ")
            self.node(n, min_prec)

    def braced(self, block: Node, head: str = "") -> None:
        """A block in braces, one statement a line; `head` goes after the `{` (the `|i|` of
        `unroll across`). A block of an unknown shape prints generically inside the braces."""
        if shape(block) != BLOCK:
            self.put("{", head, " ")
            self.node(block)
            self.put(" }")
            return
        if not block.stmts and block.value is None:
            self.put("{", head, "}")
            return
        self.put("{", head)
        self.depth += 1
        for s in block.stmts:
            self.newline()
            self.stmt(s)
        if block.value is None and block.stmts and _reads_as_value(block.stmts[-1]):
            self.put(";")  # else the `if` reads back as the block's value
        if block.value is not None:
            self.newline()
            self.node(block.value)
        self.depth -= 1
        self.newline()
        self.put("}")


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
        else:
            w.node(value)
    w.put(")")

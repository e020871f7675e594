"""The Graphviz dump: one graph node per IR node, written as DOT text.

Node ids are `n0, n1, ...` in preorder, so the same tree always gives the same bytes. Tree
edges (operands, children) are solid and labelled with the field (`args[1]`); the statements
of a block are a control chain instead, dashed: block -> first statement -> next statement.
A block is a cluster holding its whole subtree, so nested blocks show as nested boxes.

The walk uses an explicit stack: the picture of a deep tree needs no deep recursion.
"""

from __future__ import annotations

from ..nanopass.nodes import Node
from ..spatial import is_spatial_program
from .cfg_dot import cfg_dot_parts, has_blocks
from .dot_syntax import HEADER, INDENT, dot_quote, dot_heading, joined
from .spatial_dot import spatial_dot_parts
from .writer import is_terminal, terminal_text

_CLOSE = object()  # stack marker: the cluster opened by a block ends here


def label(node: Node) -> str:
    """The production, then `field = value` for each terminal field that has a value."""
    cls = type(node)
    lines = [node._prod]
    for f in cls._declared:
        value = getattr(node, f.name)
        if value is not None and is_terminal(cls, f):
            lines.append(f"{f.name} = {terminal_text(value, f.kind)}")
    return "\n".join(lines)


def _children(node: Node, own_id: str):
    """(child, source cell, edge label, dashed?, own cell) for each child, in field order.

    A cell is a one-element list holding a node id; a statement's cell is filled when it is
    visited, which in preorder is before its successor needs it as the edge's source."""
    here = [own_id]
    cls = type(node)
    for f in cls._declared:
        if is_terminal(cls, f):
            continue
        value = getattr(node, f.name)
        if f.mult != "*":
            if value is not None:
                yield value, here, f.name, False, None
        elif f.kind == "Stmt":
            prev = here
            for i, child in enumerate(value):
                cell = [None]
                yield child, prev, f"{f.name}[{i}]" if i == 0 else "next", True, cell
                prev = cell
        else:
            for i, child in enumerate(value):
                yield child, here, f"{f.name}[{i}]", False, None


def to_dot(node: Node, title: str | None = None) -> str:
    opening, rest = dot_parts(node)
    return opening + dot_heading(title) + rest


def dot_parts(node: Node) -> tuple[str, str]:
    """The graph without its title, in its two parts (dot_syntax)."""
    if is_spatial_program(node):
        return spatial_dot_parts(node)
    if has_blocks(node):  # a program of basic blocks is drawn as its control-flow graph
        return cfg_dot_parts(node)
    opening = ["digraph IR {", *(INDENT + h for h in HEADER)]
    out: list[str] = []
    edges: list[str] = []
    count = 0
    clusters = 0
    depth = 1
    stack: list = [(node, None, None, False, None)]
    while stack:
        entry = stack.pop()
        if entry is _CLOSE:
            depth -= 1
            out.append(INDENT * depth + "}")
            continue
        child, source, edge_label, dashed, cell = entry
        ident = f"n{count}"
        count += 1
        if cell is not None:
            cell[0] = ident
        if source is not None:
            style = ", style=dashed" if dashed else ""
            edges.append(f"{INDENT}{source[0]} -> {ident} [label={dot_quote(edge_label)}{style}];")
        if child._nt == "Block":
            out.append(f"{INDENT * depth}subgraph cluster_{clusters} {{")
            out.append(f"{INDENT * (depth + 1)}label = {dot_quote(child._prod)};")
            clusters += 1
            depth += 1
            stack.append(_CLOSE)
        out.append(f"{INDENT * depth}{ident} [label={dot_quote(label(child))}];")
        stack.extend(reversed(list(_children(child, ident))))
    # Edges go last, at the top level: an edge written inside a cluster would pull its
    # endpoints into that cluster.
    out += edges
    out.append("}")
    return joined(opening, out)

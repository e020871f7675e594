"""Spans for nodes a pass makes up (an inferred type has no text of its own)."""

from __future__ import annotations

from .nodes import Node


def with_span(node: Node, span) -> Node:
    """`node` with `span` given to every node of it that has none, so a diagnostic about an
    inferred part can still point at the source it was inferred from. Nodes that already have
    a span, and subtrees with none missing, are kept as they are."""
    changes = {}
    for f in type(node)._declared:
        value = getattr(node, f.name)
        if f.mult == "*":
            new = tuple(with_span(v, span) if isinstance(v, Node) else v for v in value)
            if any(a is not b for a, b in zip(value, new)):
                changes[f.name] = new
        elif isinstance(value, Node):
            new = with_span(value, span)
            if new is not value:
                changes[f.name] = new
    if node.span is None:
        changes["span"] = span
    return node.replace(**changes) if changes else node

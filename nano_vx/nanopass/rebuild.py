"""Rebuild a tree with some of its subtrees replaced, sharing what is left as it was."""

from __future__ import annotations


def rebuild(node, replace):
    """`node` with each subtree for which `replace` gives a node replaced by it (`replace`
    may rebuild below it); what nothing replaced is shared, not copied."""
    new = replace(node)
    if new is not None:
        return new
    changed = {}
    for f in node._fields:
        v = getattr(node, f)
        if hasattr(v, "_prod"):
            r = rebuild(v, replace)
            if r is not v:
                changed[f] = r
        elif type(v) is tuple and v and hasattr(v[0], "_prod"):
            r = tuple(rebuild(x, replace) for x in v)
            if any(a is not b for a, b in zip(r, v)):
                changed[f] = r
    return node.replace(**changed) if changed else node

"""Check a whole tree against a language, without recursion (trees can be deep)."""

from __future__ import annotations

from .nodes import Node


class VerifyError(Exception):
    """A tree that is not a sentence of the language it claims to be in."""

    def __init__(self, message: str, node: Node | None = None):
        super().__init__(message)
        self.node = node


def children(node: Node):
    """(field name, index or None, child) for every child node of `node`."""
    for f in type(node)._declared:
        value = getattr(node, f.name)
        if f.mult == "*":
            for i, v in enumerate(value):
                if isinstance(v, Node):
                    yield f.name, i, v
        elif isinstance(value, Node):
            yield f.name, None, value


def path_to(tree: Node, target: Node) -> str:
    """'Program.items[0]:Fn.body:Block...' from the root to `target` (found by identity)."""
    stack = [(tree, tree._prod)]
    while stack:
        node, path = stack.pop()
        if node is target:
            return path
        for name, i, child in children(node):
            idx = "" if i is None else f"[{i}]"
            stack.append((child, f"{path}.{name}{idx}:{child._prod}"))
    return target._prod


def verify(tree: Node, language) -> None:
    """Raise VerifyError naming the production, the field and the path of the first bad node."""
    if not isinstance(tree, Node) or tree._nt not in language.accepts[language.entry]:
        raise VerifyError(f"{language.name}: the root is not a {language.entry}: {tree!r:.80}")
    nodes, terminals, accepts = language.nodes, language.terminals, language.accepts
    stack = [tree]
    while stack:
        node = stack.pop()
        cls = type(node)
        if nodes.get(cls._prod) is not cls:
            how = "with these fields " if cls._prod in nodes else ""
            raise VerifyError(
                f"{language.name}: {path_to(tree, node)}: production {cls._prod} "
                f"is not in this language {how}(it belongs to {cls._language.name})",
                node,
            )
        for f in cls._declared:
            value = getattr(node, f.name)
            if f.mult == "*":
                items = value
            elif value is None and f.mult == "?":
                continue
            else:
                items = (value,)
            term = terminals.get(f.kind)
            if term is not None:
                for v in items:
                    if not term.predicate(v):
                        raise VerifyError(
                            f"{language.name}: {path_to(tree, node)}.{f.name}: "
                            f"{v!r:.60} is not a {f.kind}",
                            node,
                        )
                continue
            ok = accepts[f.kind]
            for v in items:
                if not isinstance(v, Node) or v._nt not in ok:
                    got = v._prod if isinstance(v, Node) else type(v).__name__
                    raise VerifyError(
                        f"{language.name}: {path_to(tree, node)}.{f.name}: "
                        f"expected {f.kind}, got {got}",
                        node,
                    )
                stack.append(v)

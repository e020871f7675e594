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


_CHILD_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}
# The same fields, last first: what `descendants` pushes on its stack.
_REVERSED_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _child_fields(cls) -> tuple[tuple[str, bool], ...]:
    """(field, is a sequence) for the fields of a node class that hold nodes."""
    kinds = cls._language.nonterminals
    fields = tuple((f.name, f.mult == "*") for f in cls._declared if f.kind in kinds)
    _CHILD_FIELDS[cls] = fields
    _REVERSED_FIELDS[cls] = fields[::-1]
    return fields


def child_nodes(node: Node) -> list[Node]:
    """The child nodes of `node`, in field order (the fast form of `children`, for walks that
    need neither field names nor indexes)."""
    cls = type(node)
    fields = _CHILD_FIELDS.get(cls)
    if fields is None:  # (a leaf's fields are an empty tuple: compare with None, not truth)
        fields = _child_fields(cls)
    out: list[Node] = []
    for name, many in fields:
        value = getattr(node, name)
        if many:
            out.extend(value)
        elif value is not None:
            out.append(value)
    return out


def descendants(root: Node):
    """Every node of the tree, `root` first, in source order, without recursion."""
    # child_nodes inlined, each node's children pushed last first: a compile walks millions
    # of nodes here.
    stack = [root]
    pop, push, extend = stack.pop, stack.append, stack.extend
    reversed_fields = _REVERSED_FIELDS
    while stack:
        node = pop()
        yield node
        cls = type(node)
        fields = reversed_fields.get(cls)
        if fields is None:
            _child_fields(cls)
            fields = reversed_fields[cls]
        for name, many in fields:
            value = getattr(node, name)
            if many:
                extend(value[::-1])
            elif value is not None:
                push(value)


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
    """Raise VerifyError naming the path of the first node that is not in `language`.

    Every node checked its own fields when it was built, against the accept sets and
    terminal predicates of the language that declared its class; a class is shared between
    two languages only when those are identical. So a tree is a sentence of `language`
    exactly when its root is of the entry nonterminal and every node's class is one of the
    language's own classes, which is what this walk checks (iteratively: trees can be deep).
    """
    if not isinstance(tree, Node) or tree._nt not in language.accepts[language.entry]:
        raise VerifyError(f"{language.name}: the root is not a {language.entry}: {tree!r:.80}")
    members = language.child_fields
    stack = [tree]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node = pop()
        fields = members.get(type(node))
        if fields is None:
            raise _not_a_member(tree, node, language)
        for name, many in fields:
            value = getattr(node, name)
            if many:
                extend(value)
            elif value is not None:
                push(value)


def _not_a_member(tree: Node, node: Node, language) -> VerifyError:
    cls = type(node)
    if not isinstance(node, Node):
        return VerifyError(f"{language.name}: {node!r:.60} is not a node")
    how = "with these fields " if cls._prod in language.nodes else ""
    return VerifyError(
        f"{language.name}: {path_to(tree, node)}: production {cls._prod} "
        f"is not in this language {how}(it belongs to {cls._language.name})",
        node,
    )

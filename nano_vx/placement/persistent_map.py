"""A persistent map: `set` and `remove` return a new map and leave the old one as it was.

A flow analysis keeps one map per program point and hands a copy to each branch of an `if`;
copying a dict there costs its size, so a function with many moves and many branches took
time quadratic in its length. Here a map is a trie of fixed depth on the keys' hashes: an
update copies one path (a few small tuples) and shares the rest, and the union or comparison
of two maps that grew from the same one enters only the paths where they differ.
(pyrsistent's `pmap`, which the token semantics uses for its vectors, shares structure too,
but its union and its equality visit every key, which is the cost this map is for.)
"""

from __future__ import annotations

_BITS = 5
_WIDTH = 1 << _BITS
_MASK = _WIDTH - 1
_DEPTH = 3  # 2^15 leaves, each a small dict of the keys whose hashes share those bits


class PersistentMap:
    """An immutable map of hashable keys to values (None is not a value: `get` returns it
    for a missing key)."""

    __slots__ = ("_root",)

    def __init__(self, _root=None):
        self._root = _root  # a tuple of _WIDTH children, a leaf dict at depth 0, None if empty

    def get(self, key):
        node, h = self._root, hash(key)
        for _ in range(_DEPTH):
            if node is None:
                return None
            node = node[h & _MASK]
            h >>= _BITS
        return None if node is None else node.get(key)

    def __contains__(self, key) -> bool:
        return self.get(key) is not None

    def __bool__(self) -> bool:
        return self._root is not None  # an emptied path is pruned, so no empty node remains

    def set(self, key, value) -> PersistentMap:
        return PersistentMap(_put(self._root, hash(key), _DEPTH, key, value))

    def remove(self, key) -> PersistentMap:
        return PersistentMap(_put(self._root, hash(key), _DEPTH, key, None)) \
            if key in self else self

    def union(self, other: PersistentMap) -> PersistentMap:
        """Every key of either map; a key in both keeps this map's value."""
        return PersistentMap(_union(self._root, other._root, _DEPTH))

    def __eq__(self, other) -> bool:
        return isinstance(other, PersistentMap) and _equal(self._root, other._root, _DEPTH)

    __hash__ = None


def _put(node, h: int, depth: int, key, value):
    """`node` with `key` set to `value` (None: removed), a new node on the key's path only."""
    if depth == 0:
        leaf = dict(node) if node is not None else {}
        if value is None:
            leaf.pop(key, None)
        else:
            leaf[key] = value
        return leaf or None
    children = list(node) if node is not None else [None] * _WIDTH
    i = h & _MASK
    children[i] = child = _put(children[i], h >> _BITS, depth - 1, key, value)
    if child is None and children.count(None) == _WIDTH:
        return None
    return tuple(children)


def _union(a, b, depth: int):
    if a is b or b is None:
        return a
    if a is None:
        return b
    if depth == 0:
        return {**b, **a}
    return tuple(_union(x, y, depth - 1) for x, y in zip(a, b))


def _equal(a, b, depth: int) -> bool:
    if a is b:
        return True
    if a is None or b is None:
        return False
    if depth == 0:
        return a == b
    return all(_equal(x, y, depth - 1) for x, y in zip(a, b))

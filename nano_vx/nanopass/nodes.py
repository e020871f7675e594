"""Node classes generated from a language's productions.

Nodes are immutable. Every field is checked when a node is built, and a wrong field fails at
once with the production, the field, what was expected, and the pass that was running. Two
languages that declare a production identically (same fields, same accepted kinds) share one
node class, which is what lets a pass return an unchanged subtree as it is instead of copying.

Each node carries a source `span` (not part of its value: equality ignores it).
"""

from __future__ import annotations

import contextvars

from .generated import define

current_pass: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "current_pass", default=None
)


class NodeError(TypeError):
    """A node built with a field its production does not allow."""


class Node:
    __slots__ = ("span", "_hash")
    _prod: str = "Node"
    _nt: str = ""
    _fields: tuple[str, ...] = ()
    _declared = ()  # the production's Field objects
    _language = None  # the first language that declared this shape

    def __setattr__(self, name, value):
        raise AttributeError(f"{self._prod} nodes are immutable; use .replace({name}=...)")

    def __delattr__(self, name):
        raise AttributeError(f"{self._prod} nodes are immutable")

    def values(self) -> tuple:
        """The field values in order; a production with a field named `values` hides this
        method, so the framework itself reads them through `field_values`."""
        return field_values(self)

    def replace(self, **changes) -> "Node":
        """A copy with some fields changed; the span is kept unless given."""
        span = changes.pop("span", self.span)
        unknown = set(changes) - set(self._fields)
        if unknown:
            raise NodeError(f"{self._prod} has no field {', '.join(sorted(unknown))}")
        return type(self)(*(changes.get(f, getattr(self, f)) for f in self._fields), span=span)

    def __eq__(self, other):
        if self is other:
            return True
        if type(other) is not type(self):
            return NotImplemented if not isinstance(other, Node) else False
        return field_values(self) == field_values(other)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        try:
            return object.__getattribute__(self, "_hash")
        except AttributeError:
            h = hash((self._prod, field_values(self)))
            object.__setattr__(self, "_hash", h)
            return h

    def __repr__(self):
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{self._prod}({inner})"


def field_values(node: Node) -> tuple:
    """A node's field values in order, whatever its fields are called."""
    return tuple(getattr(node, f) for f in node._fields)


def _describe(value) -> str:
    if isinstance(value, Node):
        return f"a {value._prod} node ({value._nt})"
    return f"{type(value).__name__} {value!r}"[:120]


def field_error(prod: str, fname: str, expected: str, value) -> NodeError:
    where = current_pass.get()
    during = f" in pass {where}" if where else ""
    return NodeError(
        f"{prod}.{fname}{during}: expected {expected}, got {_describe(value)}"
    )


_class_cache: dict[tuple, type] = {}


def node_class(language, nonterminal, production) -> type:
    """The node class for `production` in `language`, shared with any identical declaration."""
    shape = []
    for f in production.fields:
        if f.kind in language.terminals:
            shape.append((f.name, f.mult, "t", language.terminals[f.kind].predicate))
        else:
            shape.append((f.name, f.mult, "n", language.accepts[f.kind]))
    key = (nonterminal.name, production.name, tuple(shape))
    cls = _class_cache.get(key)
    if cls is None:
        cls = _make_class(language, nonterminal, production)
        _class_cache[key] = cls
    return cls


def _make_class(language, nonterminal, production) -> type:
    names = tuple(f.name for f in production.fields)
    # Builtins go by names no field can have (a field may well be called `type`).
    env: dict[str, object] = {"_err_": field_error, "_tuple_": tuple, "_list_": list,
                              "_type_": type, "_getattr_": getattr}
    lines = [f"def __init__(self, {''.join(n + ', ' for n in names)}*, span=None):"]
    for i, f in enumerate(production.fields):
        expected = f"{f.kind}{f.mult}"
        env[f"x{i}"] = expected
        if f.kind in language.terminals:
            env[f"p{i}"] = language.terminals[f.kind].predicate
            ok = f"p{i}(v)"
        else:
            env[f"a{i}"] = language.accepts[f.kind]
            ok = f"_getattr_(_type_(v), '_nt', None) in a{i}"
        n = f.name
        bad = f"raise _err_({production.name!r}, {n!r}, x{i}, {{}})"
        if f.mult == "*":
            lines += [
                f"    if _type_({n}) is not _tuple_:",
                f"        if _type_({n}) is not _list_: {bad.format(n)}",
                f"        {n} = _tuple_({n})",
                f"    for v in {n}:",
                f"        if not ({ok}): {bad.format('v')}",
            ]
        elif f.mult == "?":
            lines += [f"    v = {n}", f"    if v is not None and not ({ok}): {bad.format('v')}"]
        else:
            lines += [f"    v = {n}", f"    if not ({ok}): {bad.format('v')}"]
        lines.append(f"    _set_{n}(self, {n})")
    lines.append("    _set_span(self, span)")
    src = "\n".join(lines)

    cls = type(
        production.name,
        (Node,),
        {
            "__slots__": names,
            "_prod": production.name,
            "_nt": nonterminal.name,
            "_fields": names,
            "_declared": production.fields,
            "_language": language,
            "__doc__": production.doc or production.signature(),
        },
    )
    for n in names:
        env[f"_set_{n}"] = getattr(cls, n).__set__
    env["_set_span"] = Node.span.__set__
    cls.__init__ = define(src, f"<node {production.name}>", "__init__", env)
    return cls

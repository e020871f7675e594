"""tag-places: Lpinned -> Lpinned.

Same IL: what it writes is integers, bools, strings and `halt`, so the interpreter runs the output as
it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.aggregates import Names, Refused
from ..values.places import Topo


FAMILY = {"topology": "topology", "memory": "memory", "some": "option", "none": "option"}


@dataclass
class State:
    tags: dict = field(default_factory=dict)  # a place value's key -> its tag, program-wide
    keys: dict = field(default_factory=dict)  # family -> the program's place values of it
    places: dict = field(default_factory=dict)  # the function's place locals -> their keys
    chosen: dict = field(default_factory=dict)  # its locals whose place is chosen as it runs
    tuples: dict = field(default_factory=dict)  # its tuples -> their place elements' keys
    names: Names | None = None


tag_places = Pass("tag-places", L, L, """
Make each variable bound to a topology, a memory space, `Some(Topology::X)` or `None` a small
integer tag, and its comparisons and prints what that tag says (E5010 for one used otherwise).

`let t = Topology::NPU[1];` is `let t = 2;`, 2 the tag of that value in the program (each
distinct value its own). A variable bound once to a value written out holds that value, so `t
== Topology::GPU` is `false` and `print(t)` is `print("Topology::NPU[1]")`, what the
interpreter prints, decided while compiling. One whose value is chosen as the program runs (by
an `if`, or assigned to a `let mut`) holds its tag then: `==` compares tags, and `print` is an
`if` chain on the tag over the program's values of its kind. A tuple a `let` binds holds the
tags of its place elements, each read (`p.0`) as a variable holding it would be, and a copy
of it the same tags; a `let mut` one's are chosen as the program runs, by the tuples written
out assigned to it, of places of the same kinds where it holds them. `print(m)` of a memory
space is `halt`, the stop (E9006) the interpreter makes there, whichever space `m` holds. A
place value used otherwise (indexed by a variable, printed inside a larger expression, given
to `transfer` or `try_pin` from a variable, in a tuple used whole or assigned another tuple's
value) is left as it was, and the native-code gate refuses it.
""", state=State)


@tag_places.on("Program")
def _program(run, program):
    keys = run.state.keys
    for node in descendants(program):
        key = _key(run, node) if node._prod in ("TopoRef", "MemRef", "SomeTopo", "NoneTopo") \
            else None
        if key is not None:
            keys.setdefault(FAMILY[key[0]], {})[key] = None
    return run.rebuild(program)


@tag_places.on("Fn")
def _fn(run, fn):
    st = run.state
    st.places, st.chosen, st.tuples, st.names = {}, {}, {}, Names(fn)
    try:
        return run.rebuild(fn)
    except Refused as bad:
        refuse(run.ctx.diagnostics, fn.name, bad.node, bad.what)
        return fn


def _key(run, e):
    """The place value `e` is, as a key (kind, ...), or None: a topology whose index is a
    number, a memory space, `Some` of such a topology, `None`, or a place local."""
    p = e._prod
    if p == "TopoRef":
        bounds = (e.index, e.end)
        if any(b is not None and b._prod != "Int" for b in bounds):
            return None
        return ("topology", e.name, *(b.value if b is not None else None for b in bounds))
    if p == "MemRef":
        return ("memory", e.name)
    if p == "SomeTopo":
        inner = _key(run, e.topo)
        return ("some", inner) if inner is not None else None
    if p == "NoneTopo":
        return ("none",)
    if p == "Local":
        return run.state.places.get(e.name)
    held = _element(run, e)
    return held if isinstance(held, tuple) else None


def _element(run, e):
    """What the place element `e` of a tuple holds: its key, or its family when it is chosen
    as the program runs; None when `e` is no such element."""
    if e._prod != "TupleGet" or e.base._prod != "Local":
        return None
    return run.state.tuples.get(e.base.name, {}).get(e.index)


def _family(run, e):
    """The kind of place value `e` is ("topology", "memory", "option"), known or chosen as it
    runs (a chosen local, an `if` between place values), or None."""
    key = _key(run, e)
    if key is not None:
        return FAMILY[key[0]]
    if e._prod == "Local":
        return run.state.chosen.get(e.name)
    if e._prod == "TupleGet":
        return _element(run, e)
    if e._prod == "IfExpr" and e.then.value is not None and e.orelse.value is not None:
        return _family(run, e.then.value) or _family(run, e.orelse.value)
    return None


def _tag(run, e):
    """The place value `e` as its tag: a number, a chosen local, an `if` between tags."""
    key = _key(run, e)
    if key is not None:
        return L["Int"](run.state.tags.setdefault(key, len(run.state.tags)), span=e.span)
    if e._prod in ("Local", "TupleGet"):
        return e
    then, orelse = (run.walk(b.replace(value=None)).replace(value=_tag(run, b.value))
                    for b in (e.then, e.orelse))
    return e.replace(cond=run.walk(e.cond), then=then, orelse=orelse)


def _shown(key) -> str | None:
    """What `print` shows of the place value `key`, as the interpreter does; None for a
    memory space, which it does not print."""
    if key[0] == "topology":
        return str(Topo(*key[1:]))
    if key[0] == "some":
        return f"Some({_shown(key[1])})"
    return "None" if key[0] == "none" else None


@tag_places.on("Let")
def _let(run, node):
    key = _key(run, node.value) if not node.mutable else None
    st, span = run.state, node.span
    if node.value._prod == "Local" and node.value.name in st.tuples and not node.mutable:
        st.tuples[node.name] = st.tuples[node.value.name]  # a copy: the same tags
        return node.replace(type=L["OpaqueType"](span=span))
    if node.value._prod == "Tuple":
        # A `let mut` one's elements are chosen as the program runs: a later tuple assigned.
        held = {i: (_family if node.mutable else _key)(run, v) or _family(run, v)
                for i, v in enumerate(node.value.elems)}
        held = {i: h for i, h in held.items() if h is not None}
        if held:
            st.tuples[node.name] = held
            return node.replace(type=L["OpaqueType"](span=span),
                                value=_tagged(run, node.value, held))
    if key is not None:
        st.places[node.name] = key
        return node.replace(type=L["OpaqueType"](span=span), value=_tag(run, node.value))
    family = _family(run, node.value)
    if family is None:
        return run.rebuild(node)
    value = _tag(run, node.value)
    st.chosen[node.name] = family
    return node.replace(type=L["OpaqueType"](span=span), value=value)


def _tagged(run, tuple_, held):
    """A tuple literal with its place elements, those `held` names, as their tags."""
    return tuple_.replace(elems=tuple(_tag(run, v) if i in held else run.walk(v)
                                      for i, v in enumerate(tuple_.elems)))


@tag_places.on("Assign")
def _assign(run, node):
    target, st, value = node.target, run.state, node.value
    held = st.tuples.get(target.name) if target._prod == "Local" else None
    if held is not None and node.op == "=" and value._prod == "Tuple":
        # Each element chosen as the program runs (a family, not a key): new tags fit.
        families = {i: _family(run, v) for i, v in enumerate(value.elems)}
        if all(isinstance(h, str) for h in held.values()) and \
                {i: f for i, f in families.items() if f is not None} == held:
            return node.replace(value=_tagged(run, value, held))
    if target._prod != "Local" or target.name not in st.chosen:
        return run.rebuild(node)
    return node.replace(value=_tag(run, node.value))


@tag_places.on("Binary")
def _binary(run, e):
    if e.op in ("==", "!=") and _family(run, e.left) and _family(run, e.right):
        left, right = _key(run, e.left), _key(run, e.right)
        if left is not None and right is not None:
            return L["Bool"]((left == right) == (e.op == "=="), span=e.span)
        return e.replace(left=_tag(run, e.left), right=_tag(run, e.right))
    return run.rebuild(e)


def _printed(run, e):
    """The place value `print(e)` prints, or None."""
    printed = e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" \
        and len(e.args) == 1
    return e.args[0] if printed and _family(run, e.args[0]) else None


@tag_places.on("Call")
def _call(run, e):
    value = _printed(run, e)
    if value is None:
        return run.rebuild(e)
    key = _key(run, value)
    if key is None:
        raise Refused(e, "a `print` of a place value inside a larger expression")
    return e.replace(args=(_said(e, key),))


def _said(e, key):
    text = _shown(key)
    if text is None:
        raise Refused(e, "a `print` of a memory space inside a larger expression")
    return L["Str"](text, span=e.args[0].span)


@tag_places.on("ExprStmt", splice=True)
def _print_chosen(run, node):
    """`print(t)` of a `t` chosen as the program runs: an `if` chain on its tag; of a memory
    space, the stop the interpreter makes there, whichever space it holds."""
    e, st = node.expr, run.state
    value = _printed(run, e)
    family, span, before = value is not None and _family(run, value), node.span, ()
    if family == "memory":
        return (L["Halt"]("E9006", "cannot print a value of type memory space", span=e.span),)
    if value is None or _key(run, value) is not None:
        return (run.rebuild(node),)
    if value._prod != "Local":
        name = st.names.fresh("place")
        before = (L["Let"](name, False, L["OpaqueType"](span=span), _tag(run, value),
                           span=span),)
        value = L["Local"](name, span=span)
    chain = None
    for key in reversed(st.keys.get(family, ())):
        said = L["Block"]((node.replace(expr=e.replace(args=(_said(e, key),))),), None,
                          span=span)
        if chain is None:
            chain = said
            continue
        tag = L["Int"](st.tags.setdefault(key, len(st.tags)), span=span)
        test = L["Binary"]("==", value, tag, span=span)
        chain = L["Block"]((L["If"](test, False, said, chain, span=span),), None, span=span)
    return (*before, *chain.stmts)


@tag_places.on("TupleGet")
def _tuple_get(run, e):
    """An element of a tuple holding places: one not a place is read as it was."""
    if e.base._prod != "Local" or e.base.name not in run.state.tuples:
        return run.rebuild(e)
    if _element(run, e) is not None:
        raise Refused(e, "a topology or memory-space value used other than compared or "
                         "printed")
    return e


@tag_places.on("Local")
def _local(run, e):
    st = run.state
    if e.name in st.tuples:
        raise Refused(e, "a tuple holding a topology or memory space used other than by its "
                         "elements")
    if e.name in st.places or e.name in st.chosen:
        raise Refused(e, "a topology or memory-space value used other than compared or "
                         "printed")
    return e

"""tag-places: Lpinned -> Lpinned.

Same IL: what it writes is integers, bools and strings, so the interpreter runs the output as
it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..nanopass import Pass
from ..scalars import refuse
from ..scalars.aggregates import Refused
from ..values.places import Topo


@dataclass
class State:
    tags: dict = field(default_factory=dict)  # a place value's key -> its tag, program-wide
    places: dict = field(default_factory=dict)  # the function's place locals -> their keys


tag_places = Pass("tag-places", L, L, """
Make each variable bound to a topology, a memory space, `Some(Topology::X)` or `None` a small
integer tag, and decide its comparisons and prints while compiling (E5010 for one used
otherwise).

`let t = Topology::NPU[1];` is `let t = 2;`, 2 the tag of that value in the program (each
distinct value its own). A variable bound once holds one value, so `t == Topology::GPU` is
`false` and `print(t)` is `print("Topology::NPU[1]")`, what the interpreter prints. A place
value used otherwise (given to a function, returned, bound with `let mut`, indexed by a
variable, a memory space printed, which the interpreter stops on) is left as it was, and the
native-code gate refuses it.
""", state=State)


@tag_places.on("Fn")
def _fn(run, fn):
    run.state.places = {}
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
    return None


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
    if key is None:
        return run.rebuild(node)
    tags, span = run.state.tags, node.span
    run.state.places[node.name] = key
    tag = tags.setdefault(key, len(tags))
    return node.replace(type=L["OpaqueType"](span=span), value=L["Int"](tag, span=node.value.span))


@tag_places.on("Binary")
def _binary(run, e):
    if e.op in ("==", "!="):
        left, right = _key(run, e.left), _key(run, e.right)
        if left is not None and right is not None:
            return L["Bool"]((left == right) == (e.op == "=="), span=e.span)
    return run.rebuild(e)


@tag_places.on("Call")
def _call(run, e):
    printed = e.callee._prod == "Global" and e.callee.name == "print" and len(e.args) == 1
    key = _key(run, e.args[0]) if printed else None
    if key is None:
        return run.rebuild(e)
    text = _shown(key)
    if text is None:
        raise Refused(e, "a `print` of a memory space")
    return e.replace(args=(L["Str"](text, span=e.args[0].span),))


@tag_places.on("Local")
def _local(run, e):
    if e.name in run.state.places:
        raise Refused(e, "a topology or memory-space value used other than compared or "
                         "printed")
    return e

"""rename-moved-enum-parameters: Lmatched -> Lmatched.

Same IL: the local and the parameter it took hold the same value (neither is assigned, and
the parameter is moved, so nothing reads it after the `let`), so the interpreter runs the
output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants
from ..scalars.closure_parts import Parts, taken_type


@dataclass
class State:
    parts: Parts | None = None  # the program's structs and enums, as closures take them apart
    renamed: dict = field(default_factory=dict)  # a local moved a parameter -> the parameter


rename_moved_enum_parameters = Pass("rename-moved-enum-parameters", L, L, """
Make each local a closure's body binds by a `let` (not `mut`) to an enum parameter a variant
of which carries a tensor, moving it whole, borrowing it or reading what a `&` one refers
to, that parameter: `|b: Buf| { let c = b; size(c) }` is `|b: Buf| size(b)`.

split-closure-aggregates reads such a parameter only by its parts (put together again, the
value would hold, for each variant but the one held, a tensor no one drops), so a `let`
binding it whole would leave the closure whole, for scalarize-aggregates to refuse. The
`let` moves the parameter, which nothing assigns, so nothing reads it after: the local is
the parameter under another name. A `let` of such a local is one of the parameter too
(`let d = c;`). So is one of `&b`, or of `*b` for b a `&` parameter, as lower-matches binds
`match &b` and `match *b` (the interpreter's `*b` holds b's tensors, not copies), where the
local is read only by the variant it holds, what that carries or a field: read so, a
reference and the value it refers to read alike.
""", state=State)


@rename_moved_enum_parameters.on("Program")
def _program(run, program):
    run.state.parts = Parts(program)
    return run.rebuild(program)


@rename_moved_enum_parameters.on("Closure")
def _closure(run, closure):
    st = run.state
    around = st.renamed
    st.renamed = around | _moved(closure, st.parts)
    made = run.rebuild(closure)
    st.renamed = around
    return made


def _moved(closure, parts: Parts) -> dict:
    """The locals closure's body binds to a parameter of it described above (or to such a
    local) -> that parameter."""
    owner = {p.name: p.name for p in closure.params if parts.carries_tensor(taken_type(p.type))}
    assigned = {_root(n.target) for n in descendants(closure.body) if n._prod == "Assign"} | \
        {_root(n.value) for n in descendants(closure.body) if n._prod == "Borrow" and n.mutable}
    through = {id(n.base) for n in descendants(closure.body)
               if n._prod in ("FieldGet", "TupleGet", "VariantIs", "VariantField")}
    found = {}
    for n in descendants(closure.body):
        named = _named(n.value, closure) if n._prod == "Let" and not n.mutable else None
        if named is not None and named.name in owner and owner[named.name] not in assigned \
                and (named is n.value or all(id(x) in through for x in descendants(closure.body)
                                             if x._prod == "Local" and x.name == n.name)) \
                and (n.type is None or n.type._prod == "OpaqueType" or
                     parts.enum(taken_type(n.type)) == _enum(closure, owner[named.name])):
            owner[n.name] = found[n.name] = owner[named.name]
    return found


def _named(value, closure):
    """The local value names the value of: itself, or what `&` borrows of it, or what `*`
    reads through a `&` parameter of closure; else None."""
    if value._prod == "Local":
        return value
    inner = value.value if value._prod in ("Borrow", "Deref") else None
    if inner is None or inner._prod != "Local" or value._prod == "Borrow" and value.mutable:
        return None
    if value._prod == "Deref" and not any(p.name == inner.name and taken_type(p.type) is not
                                          p.type for p in closure.params):
        return None
    return inner


def _enum(closure, name: str):
    return next(taken_type(p.type).name for p in closure.params if p.name == name)


def _root(e):
    """The local e assigns or lends a part of, else None."""
    while e._prod in ("FieldGet", "TupleGet", "Index", "VariantField", "Deref"):
        e = getattr(e, "base", None) or e.value
    return e.name if e._prod == "Local" else None


@rename_moved_enum_parameters.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    return block.replace(stmts=tuple(s for s in block.stmts if not (
        s._prod == "Let" and s.name in run.state.renamed)))


@rename_moved_enum_parameters.on("Local")
def _local(run, local):
    return local.replace(name=run.state.renamed.get(local.name, local.name))

"""Ownership: which values a call moves, and which are copied (Rust's `Copy`).

A tensor owns its elements, and so does any value holding one (a tuple of one, a tensor pinned
to a topology); a struct moves unless the program implements `Copy` for it (desugar-traits
marks it, and refuses Copy for one holding a tensor). Passing such a value by value to a
function of the program moves it, and the caller's variable is gone, as after `transfer`.
Scalars, references and enums that carry nothing that moves are copied (a `&mut T` argument is reborrowed, as in Rust,
so the caller keeps its reference). The builtins (`print`) read their arguments and move nothing.
"""

from __future__ import annotations

from ..languages.lresolved import display_name
from ..languages.linstances import generic_of

# Types that hold a value of their `inner` type and own what it owns.
_HOLDERS = frozenset({"PinnedType", "VerifiedType", "RefType", "HardwareStateType"})


def owns_data(ty, types: dict) -> bool:
    """Whether a value of type `ty` (None: unknown) moves when passed by value; `types`
    maps a struct's (or an enum's) name to its declaration. An enum moves when what a
    variant carries does."""
    stack, seen = [ty], set()
    while stack:
        t = stack.pop()
        if t is None:
            continue
        kind = t._prod
        if kind == "TensorType":
            return True
        if kind in _HOLDERS:
            stack.append(t.inner)
        elif kind == "TupleType":
            stack.extend(t.elems)
        elif kind == "NamedType" and t.name in types and t.name not in seen:
            seen.add(t.name)
            decl = types[t.name]
            if decl._prod == "EnumDecl":
                stack.extend(f for v in decl.variants for f in v.fields)
            elif not decl.copy:
                return True
    return False


class Movers:
    """What the calls of one program move: `moved(call, types)` are the arguments passed by
    value that own data, each a local, given the types of the locals in scope."""

    def __init__(self, program):
        items = program.items
        self.types = {i.name: i for i in items if i._prod in ("StructDecl", "EnumDecl")}
        self.functions = frozenset(i.name for i in items if i._prod == "Fn")

    def takes_ownership(self, call) -> bool:
        """A call of a function of the program or of a closure; a builtin only reads."""
        callee = call.callee
        return callee._prod == "Local" or callee._prod == "Global" \
            and callee.name in self.functions


def callee_name(call) -> str:
    """The function a call calls, as the programmer wrote it (`stage`, not `stage$i32`)."""
    callee = call.callee
    if callee._prod == "Global":
        return generic_of(callee.name)
    return display_name(callee.name) if callee._prod == "Local" else "a function"

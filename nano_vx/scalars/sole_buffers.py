"""The tensors a function may give back through an out-parameter by copying them into its
caller's: those no one else can hold, so that the caller's copy reads and writes as the buffer
itself would (copy-out-tensors copies each tensor scalarize-aggregates gives back whole)."""

from __future__ import annotations

from collections import Counter

from ..nanopass import descendants
from .aggregates import is_tensor

MADE = frozenset({"TensorNew", "TensorLit", "Transfer"})  # a new buffer, of no other local


def keeping_functions(program) -> frozenset:
    """The functions whose result is a tensor, which might be an argument's."""
    return frozenset(i.name for i in program.items if i._prod == "Fn" and is_tensor(i.ret))


def sole_buffers(fn, keeping: frozenset) -> frozenset:
    """The locals of fn (split into scalars) that a `let` binds to a tensor it makes, never
    assigned whole, and read only where nothing keeps the buffer: an element read or written,
    an argument (or `&` of one) of a call of a function not in `keeping`, a `GiveBack`, the
    local fn returns assigned (the function ends with it), or a `let` whose local is read so."""
    body = tuple(descendants(fn.body))
    made = {n.name for n in body if n._prod == "Let" and n.value._prod in MADE}
    result = fn.body.value.name if fn.body.value is not None and \
        fn.body.value._prod == "Local" else None
    safe, aliases = set(), {}

    def read(x):
        if x._prod == "Borrow":
            x = x.value
        if x._prod == "Local":
            safe.add(id(x))
    for n in body:
        p = n._prod
        if p == "Index":
            read(n.base)
        elif p == "Call" and n.callee._prod == "Global" and n.callee.name not in keeping:
            for a in n.args:
                read(a)
        elif p == "GiveBack" or p == "Assign" and n.op == "=" and \
                n.target._prod == "Local" and n.target.name == result:
            read(n.value)
        elif p == "Let" and n.value._prod == "Local":
            aliases[n.name] = n.value
    uses = Counter(n.name for n in body if n._prod == "Local" and id(n) not in safe)
    # A `let` of a local read only safely reads it safely (scalarize-aggregates computes
    # each field so before writing any); later lets name earlier ones, so backwards.
    for name, x in reversed(aliases.items()):
        if not uses[name]:
            uses[x.name] -= 1
    return frozenset(name for name in made if not uses[name])

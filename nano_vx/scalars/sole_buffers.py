"""The tensors a function may return in an aggregate by copying them into its caller's: those
no one else can hold, so that the caller's copy reads and writes as the buffer itself would
(scalarize-aggregates copies every tensor of a returned aggregate but the first)."""

from __future__ import annotations

from collections import Counter

from ..nanopass import descendants
from .aggregates import is_tensor

MADE = frozenset({"TensorNew", "TensorLit", "Transfer"})  # a new buffer, of no other local
_LITERALS = {"StructLit": lambda e: [f.value for f in e.fields],
             "Tuple": lambda e: list(e.elems), "EnumValue": lambda e: list(e.args)}


def keeping_functions(program, sigs: dict) -> frozenset:
    """The functions whose result holds a tensor (a tensor, or an aggregate holding one,
    `sigs` the Sig of each), which might be an argument's."""
    def holds(fn):
        out = sigs[fn.name].out
        return is_tensor(fn.ret) or any(map(is_tensor, out.leaves() if out else ()))
    return frozenset(i.name for i in program.items if i._prod == "Fn" and holds(i))


def sole_buffers(fn, keeping: frozenset) -> frozenset:
    """The locals of fn that a `let` binds to a tensor it makes, never assigned whole, and
    read only where nothing keeps the buffer: an element read or written, an argument (or
    `&` of one) of a call of a function not in `keeping` (those whose result holds a tensor,
    which might be the argument's), a part of an aggregate literal fn returns."""
    made = {n.name for n in descendants(fn.body) if n._prod == "Let" and n.value._prod in MADE}
    returned, safe = _returned_literals(fn), set()

    def read(x):
        if x._prod == "Borrow":
            x = x.value
        if x._prod == "Local":
            safe.add(id(x))
    for n in descendants(fn.body):
        p = n._prod
        if p == "Index":
            read(n.base)
        elif p == "Call" and n.callee._prod == "Global" and n.callee.name not in keeping:
            for a in n.args:
                read(a)
        elif p in _LITERALS and id(n) in returned:
            for x in _LITERALS[p](n):
                read(x)
    unsafe = Counter(n.name for n in descendants(fn.body)
                     if n._prod == "Local" and id(n) not in safe)
    return frozenset(name for name in made if not unsafe[name])


def _returned_literals(fn) -> set:
    """The ids of the aggregate literals fn's result is, or holds, as written."""
    found, stack = set(), [fn.body.value] + [n.value for n in descendants(fn.body)
                                             if n._prod == "Return"]
    while stack:
        e = stack.pop()
        if e is None:
            continue
        p = e._prod
        if p in _LITERALS:
            found.add(id(e))
            stack += _LITERALS[p](e)
        elif p == "IfExpr":
            stack += [e.then.value, e.orelse.value]
        elif p == "MatchValue":
            stack += [c.body.value for c in e.cases]
    return found

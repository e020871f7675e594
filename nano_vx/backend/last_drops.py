"""The drops a pass places just before a function's `return` (Ldrops), its value computed
first where it reads a local dropped there."""

from __future__ import annotations

from ..languages.ldrops import Ldrops
from ..nanopass import descendants

Drop, Let, Local = (Ldrops[p] for p in ("Drop", "Let", "Local"))


def dropped_before_return(fn, b, dropped, names):
    """Block b, whose exit is a `return`, dropping the locals `dropped` before it: its value,
    where it reads one, computed first into a `let` of its own (`names`: the function's
    Names)."""
    ret, stmts = b.exit, list(b.stmts)
    value = ret.value
    if value is not None and any(n._prod == "Local" and n.name in dropped
                                 for n in descendants(value)):
        name = names.fresh("returned")
        stmts.append(Let(name, False, fn.ret, value, span=ret.span))
        ret = ret.replace(value=Local(name, span=ret.span))
    stmts += [Drop(n, span=ret.span) for n in dropped]
    return b.replace(stmts=tuple(stmts), exit=ret)

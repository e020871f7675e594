"""An index checked as the interpreter checks it where an element or a row is taken, before
the element is read (index-chosen-rows, check-uninit-element-indices), and the check
recognised where a `let` binds it (inline-uninit-element-references)."""

from __future__ import annotations

from ..languages.lsplit import Lsplit as L


def _message(dim: int, extent: int) -> str:
    return f"index {{a}} is out of bounds for dimension {dim} of extent {extent}"


def checked_index(index, dim: int, extent: int, span):
    """The index, stopping as the interpreter does when it is out of dimension `dim` of
    `extent`, at `span` (the element or row taken, or its borrow): `if k < 0 {
    halt_with("E9003", .., k) } else if k as u64 >= extent { .. } else { k }`. The index is
    computed again for each comparison, so it computes nothing that could differ."""
    message = _message(dim, extent)

    def stop_if(op, value, bound, rest):
        test = L["Binary"](op, value, L["Int"](bound, span=span), span=span)
        halt = L["HaltWith"]("E9003", message, index, span=span)
        return L["IfExpr"](test, False, L["Block"]((), halt, span=span),
                           L["Block"]((), rest, span=span), span=span)
    # compared as a u64 once not negative: the extent, a literal, may not fit its type (u8)
    wide = L["Cast"](index, L["Scalar"]("u64", span=span), span=span)
    return stop_if("<", index, 0, stop_if(">=", wide, extent, index))


def checked_local(value, dim: int, extent: int) -> bool:
    """Whether value is checked_index of a local for dimension `dim` of `extent`: its value,
    when it has one, is that local's, within the extent."""
    def stop_if(e, op, bound):
        if e._prod != "IfExpr" or e.comptime or e.then.stmts or e.orelse.stmts or \
                e.cond._prod != "Binary" or e.cond.op != op or e.cond.right._prod != "Int" or \
                e.cond.right.value != bound:
            return None
        halt = e.then.value
        if halt is None or halt._prod != "HaltWith" or halt.code != "E9003" or \
                halt.message != _message(dim, extent):
            return None
        return e.cond.left, halt.value, e.orelse.value
    outer = stop_if(value, "<", 0)
    inner = stop_if(outer[2], ">=", extent) if outer is not None and \
        outer[2] is not None else None
    if inner is None or inner[0]._prod != "Cast":
        return False
    seen = (outer[0], outer[1], inner[0].value, inner[1], inner[2])
    return all(e is not None and e._prod == "Local" and e.name == seen[0].name for e in seen)

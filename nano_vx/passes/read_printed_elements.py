"""read-printed-elements: Lallset -> Lallset.

Same IL: the reads it makes before a print are elements, indexed as any."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..languages.lallset import Lallset
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.tensor_names import (element_of, extent_reads, flagged_tensors, printed_tensor,
                                    reindexed, settled)
from ..values.tensors import PRINT_LIMIT


@dataclass
class _Printed:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    types: dict = field(default_factory=dict)  # a local whose flags are kept -> its type
    ranks: dict = field(default_factory=dict)  # such a local -> its tensor's rank
    used: Names | None = None  # the function's names, for the new ones


read_printed_elements = Pass("read-printed-elements", Lallset, Lallset, """
Make each print of a tensor whose written-flags track-uninit-elements keeps, whole or a row, read first each element it prints, in order, so that the first never written stops the program at the print, as it does in the interpreter.

`print(t)` reads every element of t in order, and `print(t[i])` every element of its row:
`for at in 0..n { t[at]; }` before it, each read at the print, which track-uninit-elements
checks against t's flags as any. A row's index is read again for each element, or, one that
might compute otherwise (a call, an element), once into a `let` first. What the interpreter
refuses to print for its size (E9006) it reads nothing of: the reads run only for what it
prints, decided as the program runs for `?` extents. A print a block gives as its value
(`|| print(t[1])`) is made a statement first, the block giving nothing. A print of a tensor
of rank 0, which has no element to index, is left to track-uninit-elements, which refuses it.
""", state=_Printed)


@read_printed_elements.on("Program")
def _program(run, program):
    run.state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    return run.rebuild(program)


@read_printed_elements.on("Fn")
def _fn(run, fn):
    state = run.state
    state.types = flagged_tensors(fn, list(descendants(fn.body)), state.fns)
    if not state.types:
        return fn
    state.ranks = {name: len(t.dims) for name, t in state.types.items()}
    state.used = Names(fn)
    return run.rebuild(fn)


@read_printed_elements.on("Block")
def _block(run, b):
    """A block whose value prints such a tensor or a row of one (`|| print(t[1])`) gives
    nothing: it prints by a statement, before which the elements are read."""
    if b.value is not None and printed_tensor(b.value, run.state.ranks) is not None:
        b = b.replace(stmts=b.stmts + (Lallset["ExprStmt"](b.value, span=b.value.span),),
                      value=None)
    return run.rebuild(b)


@read_printed_elements.on("ExprStmt", splice=True)
def _print(run, s):
    call, state = s.expr, run.state
    t = printed_tensor(call, state.ranks)
    if t is None:
        return run.rebuild(s)
    _, indices = element_of(call.args[0])
    lets, kept = settled(indices, set(state.ranks), state.used.fresh, run.walk)
    row = reindexed(call.args[0], kept)
    printed = s.replace(expr=call.replace(args=(row,))) if lets else s
    span = call.span
    extents = extent_reads(state.types[t.name].dims, t.name, span)[len(indices):]
    static = all(n._prod == "Int" for n in extents)
    if static and math.prod(n.value for n in extents) > PRINT_LIMIT:
        return (*lets, printed)
    names = [state.used.fresh("at") for _ in extents]
    element = row
    for name in names:
        element = Lallset["Index"](element, Lallset["Local"](name, span=span), span=span)
    read = Lallset["ExprStmt"](element, span=span)
    for name, n in reversed(list(zip(names, extents))):
        read = Lallset["For"](name, Lallset["Int"](0, span=span), n,
                              Lallset["Block"]((read,), None, span=span), span=span)
    if not static:
        read = Lallset["If"](_printable(extents, span), False,
                             Lallset["Block"]((read,), None, span=span), None, span=span)
    return (*lets, read, printed)


def _printable(extents: list, span):
    """Whether the interpreter prints a tensor of these extents, not past PRINT_LIMIT: each
    extent, and the count up to it, at most the limit (so the count never overflows)."""
    limit = Lallset["Int"](PRINT_LIMIT, span=span)
    count = cond = None
    for n in extents:
        count = n if count is None else Lallset["Binary"]("*", count, n, span=span)
        fits = Lallset["Binary"]("<=", count, limit, span=span)
        if count is not n:
            fits = Lallset["Binary"]("&&", Lallset["Binary"]("<=", n, limit, span=span), fits,
                                     span=span)
        cond = fits if cond is None else Lallset["Binary"]("&&", cond, fits, span=span)
    return cond

"""compute-wide-extents: Lsplit -> Lsplit.

Same IL: the extent erase-variable-extents left because its arithmetic might leave i64
becomes a `?` one given as erase-variable-extents gives the others, computed in i128, an
integer type Lsplit has and no program names; checked by Lsplit's `HaltWith`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass
from ..nanopass.verify import descendants
from ..scalars.extents import (I128, VARIABLE, Extents, any_extents, extents_of, fitting,
                               is_number, rebuilt_twice, wide_number)
from ..values.numbers import INT_TYPES

U64 = INT_TYPES["u64"]


@dataclass
class State:
    consts: dict = field(default_factory=dict)  # int_consts of the program
    extents: Extents | None = None  # what the extents of the function being rebuilt read
    # function -> {local: its integer type}, of the locals whose type the front end left to
    # inference, as native code's inference settles it; None while drafting (see _program)
    settled: dict | None = None


compute_wide_extents = Pass("compute-wide-extents", L, L, """
Compute in i128 the extent erase-variable-extents left because its arithmetic might leave
i64 (`[2 * j + 6]` of an i64 j), checked as the interpreter checks it, and give it as a u64.

The one extent naming variables of a constructor computing no other argument but a number,
beside numbers above 0, dividing nowhere, whose arithmetic might leave i64 but not i128
(the bounds of its names' types, and of a loop's variable its range's, as
erase-variable-extents reads them), is computed in i128 (which no program names) and
checked as the interpreter checks it once the constructor's arguments are computed, a
negative one stopping, then one past u64 (its count past 2**63), showing the count, before
it is given as a u64, whose count the constructor checks: `Tensor<i32, [?]>::new([(if x <
0 { halt_with(..) } else if x > u64::MAX { halt_with(.., x * others) } else { x }) as
u64])`. Any other extent stays as written, which type-scalars refuses (E5010): one whose
arithmetic might leave i128 (`[j * j + 1, 2]` of an i64 j), one that divides (native
code's division stops show an i64), one beside an argument computed otherwise. A pass of
its own: erase-variable-extents computes every other extent in a type of at most 64 bits,
where its arithmetic wraps nowhere, and this one is the only extent computed wider, with
checks of its own.
""", state=State)


@compute_wide_extents.on("Program")
def _program(run, program):
    """The program rebuilt twice, as erase-variable-extents rebuilds it: first as a draft,
    each name of an inferred type read as a number of one byte (cast to i128, which fixes
    nothing of the name's type), so that native code's inference types the whole program
    and settles those names' types, as it settled them for erase-variable-extents; then for
    real, with them."""
    return rebuilt_twice(run, program)


@compute_wide_extents.on("Fn")
def _fn(run, fn):
    run.state.extents = extents_of(fn, run.state.consts, run.state.settled)
    return run.rebuild(fn)


@compute_wide_extents.on("TensorNew")
def _tensor_new(run, new):
    ty, args = new.type, tuple(run.walk(a) for a in new.args)
    if ty._prod != "TensorType" or not any(d._prod in VARIABLE for d in ty.dims) or \
            any(d._prod == "DimAny" for d in ty.dims):
        return new.replace(args=args)
    wide = _wide(run, new, args)
    return new.replace(args=args) if wide is None else \
        new.replace(type=any_extents(ty), args=(wide, *args))


def _wide(run, new, args):
    """The list of extents of a constructor whose one extent that is not a number might
    leave i64, that extent computed in i128 and checked (a negative one stops, then a count
    past 2**63) before it is given as a u64; None where the other extents are not all
    numbers above 0, the constructor computes an argument that is not a number, the extent
    divides, or the arithmetic, or the count, might leave i128."""
    ty, span, bounds = new.type, new.span, run.state.extents
    wide = [d for d in ty.dims if d._prod != "DimInt"]
    others = math.prod(d.value for d in ty.dims if d._prod == "DimInt")
    if len(wide) != 1 or any(d._prod == "DimInt" and d.value <= 0 for d in ty.dims) or \
            others > U64.hi or not all(is_number(a) for a in args) or \
            any(n._prod == "DimBinary" and n.op == "/" for n in descendants(wide[0])):
        return None
    d, steps = wide[0], []
    extent = bounds.steps(d, steps)
    if extent is None or fitting(steps + [(extent[0] * others, extent[1] * others)],
                                 (I128,)) is None:
        return None

    def check(cond, message, shown, rest):
        halt = L["HaltWith"]("E9006", message, shown, span=span)
        return L["IfExpr"](cond, False, L["Block"]((), halt, span=span),
                           L["Block"]((), rest, span=span), span=span)
    count = bounds.computed(d, I128) if others == 1 else \
        L["Binary"]("*", bounds.computed(d, I128), wide_number(others, span), span=span)
    checked = check(L["Binary"](">", bounds.computed(d, I128), wide_number(U64.hi, span),
                                span=span),
                    "a tensor of {a} elements is too large to address", count,
                    bounds.computed(d, I128))
    checked = check(L["Binary"]("<", bounds.computed(d, I128), wide_number(0, span),
                                span=span),
                    "a tensor extent must not be negative, found {a}",
                    bounds.computed(d, I128), checked)
    given = L["Cast"](checked, L["Scalar"](U64.name, span=span), span=span)
    return L["ArrayLit"](tuple(given if x is d else bounds.computed(x, U64) for x in ty.dims),
                         span=span)

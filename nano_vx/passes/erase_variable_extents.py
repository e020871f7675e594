"""erase-variable-extents: Lsplit -> Lsplit.

Same IL: a tensor sized by a variable becomes one of `?` extents given them as it is made
(`Tensor<i32, [?]>::fill([n], v)`), a form Lsplit has, a division by a variable checked by
Lsplit's `HaltWith`; an extent the pass leaves (a literal's) still names its variable, so no
production goes."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass
from ..scalars.aggregates import Names
from ..scalars.extents import (VARIABLE, Extents, any_extents, extents_of, fitting,
                               is_number, rebuilt_twice)
from ..values.numbers import INT_TYPES

I64 = INT_TYPES["i64"]


@dataclass
class State:
    consts: dict = field(default_factory=dict)  # int_consts of the program
    extents: Extents | None = None  # what the extents of the function being rebuilt read
    names: Names | None = None  # fresh names of the function being rebuilt
    # function -> {local: its integer type}, of the locals whose type the front end left to
    # inference, as native code's inference settles it; None while drafting (see _program)
    settled: dict | None = None


erase_variable_extents = Pass("erase-variable-extents", L, L, """
Make each extent that names a variable (`Tensor<i32, [n, 3]>`, `[n * 2]`) a `?` extent, and
give its constructor the extent as the interpreter computes it: `Tensor<i32, [?,
3]>::fill([n, 3], v)`, `::fill([n as i64 * 2], v)`.

The interpreter computes such an extent when the constructor runs, before the constructor's
other arguments, reading the variable then (one assigned later does not change the tensor),
with unbounded integers. A `?` constructor's list of extents is computed at the same point
in the same order, and native code already reads a `?` extent from the buffer, checks it
before allocating as the interpreter does (E9006) and bounds-checks, prints and frees the
tensor by it; so the variable extent needs no lowering of its own. Arithmetic is computed
in i32, or else i64, or else u64, where the bounds of the names' types show that no step of
it leaves that type (so it wraps nowhere, as unbounded integers do not; a loop's variable
nothing assigns or borrows `&mut` is at least its range's start and below its end, where
each is a number or a local a `let` (not `mut`) binds to one, so `2 * j` of an i64 j from 1
is computed in u64, and `2 * j + 6` of j in `-3..last` of a `let last: i64 = 2;` in i32),
over names of fixed types of at most 64 bits; so are names of several types in one list, which holds one type, and
names beside a number their type does not hold (`[n, 3000000000]` of an i32 n is `[n as
i64, 3000000000 as i64]`: a number past i32 alone is an i32, and wraps). A division by other than a number but 0 computes its dividend, then
its divisor (each with its own stops), then compares the divisor with 0 and stops as the
interpreter does, in its words, showing the dividend: `[n / (if m == 0 { halt_with("E9006",
"extent arithmetic {a} / 0 divides by zero", n) } else { m })]`. Any other extent stays as
written: the one whose arithmetic might leave i64 but not i128, compute-wide-extents
computes next; any other, type-scalars refuses (E5010). A name's type is its declaration's, or, for a
`let` whose type the front end left to inference (`let n = 3;`, i32 but for what the program
does with it) and a loop's variable, the one native code's inference settles on, which is
that of the value the interpreter holds in it; an integer `const` no local hides (one
fold-const-extents left, its value not above 0) is read from the item (`@N`), its type the
item's and its bounds its value.
Elsewhere (a `let`'s or a parameter's type) an extent is not computed by the interpreter,
only written, and becomes `?` alike. Native code lowers only literals of known extents: a
tensor literal of one extent that names a variable, its elements numbers as written, is
the literal of the extent its elements give, its first element checking, as the
interpreter does once the elements are computed, that the extent is not negative and gives
the elements' count (`Tensor<i32, [n]>([1, 2])` is `Tensor<i32, [2]>([if n < 0 { halt_with(
..) } else if n != 2 { halt_with(..) } else { 1 }, 2])`), and a `let` of it is of that type.
The `let` of a literal of several such extents, its elements numbers (which do not say its
extents: the interpreter reads them as one row-major list), is the statements computing
what the interpreter computes, in its order and words: each extent bound to a local, each
checked not negative, their count checked to be the elements' (before anything is
allocated), then the `let` of `::new([extent, extent#1])`, then a write of each element
(`t[k / extent#1][k % extent#1] = ..`). Any other literal stays as written.
""", state=State)


@erase_variable_extents.on("StructDecl", "EnumDecl")
def _declaration(run, decl):
    """An extent of a field names the declaration's const parameter, no variable (a field of
    a value is a local of its own since scalarize-aggregates)."""
    return decl


@erase_variable_extents.on("Program")
def _program(run, program):
    """The program rebuilt twice: first as a draft, each name of an inferred type read as a
    number of one byte (cast to the type computing its extent, which fixes nothing of the
    name's type) and an extent no type up to u64 holds computed in i64 all the same, so
    that native code's inference, which types no extent naming a variable, types the whole
    program and settles those names' types; then for real, with them. A function the
    inference refuses (for another reason) settles none: its extents over them stay as
    written."""
    return rebuilt_twice(run, program)


@erase_variable_extents.on("Fn")
def _fn(run, fn):
    run.state.extents = extents_of(fn, run.state.consts, run.state.settled)
    run.state.names = Names(fn)
    return run.rebuild(fn)


@erase_variable_extents.on("TensorType")
def _tensor_type(run, ty):
    ty = run.rebuild(ty)
    if not any(d._prod in VARIABLE for d in ty.dims):
        return ty
    return any_extents(ty)


@erase_variable_extents.on("Let")
def _let(run, let):
    """A `let` of a literal whose extents _checked_literal made known is of those extents."""
    let = run.rebuild(let)
    lit, ty = let.value, let.type
    if lit._prod == "TensorLit" and ty._prod == "TensorType" and \
            all(d._prod == "DimInt" for d in lit.type.dims) and \
            any(d._prod == "DimAny" for d in ty.dims):
        return let.replace(type=ty.replace(dims=lit.type.dims))
    return let


@erase_variable_extents.on("Block")
def _block(run, block):
    stmts = []
    for stmt in block.stmts:
        spread = _spread(run, stmt)
        stmts += [run.walk(stmt)] if spread is None else spread
    value = run.walk(block.value) if block.value is not None else None
    return block.replace(stmts=tuple(stmts), value=value)


def _spread(run, let):
    """A `let` of a literal of several extents naming variables, its elements numbers, as
    the statements computing what the interpreter computes, in its order and words: each
    extent (with its stops) bound to a local, each checked not negative, their count
    checked to be the elements' (stops as the interpreter's, all before anything is
    allocated), then the `let` of the tensor `::new()` makes of the extents, then a write of
    each element (`t[k / m][k % m] = ..`). None for any other statement (a literal of one
    such extent is _checked_literal's; one elsewhere, of elements other than numbers, or of
    a count that might pass i64 stays as written)."""
    lit = let.value if let._prod == "Let" else None
    if lit is None or lit._prod != "TensorLit" or \
            sum(d._prod in VARIABLE for d in lit.type.dims) < 2 or \
            lit.type.elem.name not in _ELEMENTS or not lit.elems or \
            not all(is_number(e) for e in lit.elems):
        return None
    ty, span, steps = lit.type, lit.span, []
    bounds = [run.state.extents.steps(d, steps) for d in ty.dims]
    if None in bounds:
        return None
    # the count, once no extent was found negative
    t = fitting(steps + [(0, math.prod(max(hi, 0) for _, hi in bounds))])
    if t is None:
        return None
    # each extent: its number as written, else the local it is bound to
    names = [d.value if d._prod == "DimInt" else run.state.names.fresh("extent")
             for d in ty.dims]

    def extents(names):
        return _product([L["Int"](x, span=span) if isinstance(x, int) else
                         L["Local"](x, span=span) for x in names], span)
    stmts = [L["Let"](name, False, L["Scalar"](t.name, span=span), run.state.extents.computed(d, t),
                      span=span) for name, d in zip(names, ty.dims) if isinstance(name, str)]
    stmts += [_stop(L["Binary"]("<", extents([name]), L["Int"](0, span=span), span=span),
                    "a tensor extent must not be negative, found {a}", extents([name]), span)
              for name, (lo, _) in zip(names, bounds) if lo < 0]
    n = len(lit.elems)
    stmts.append(_stop(L["Binary"]("!=", extents(names), L["Int"](n, span=span), span=span),
                       f"this list has {n} element(s), but the tensor has {{a}}",
                       extents(names), span))
    given = L["ArrayLit"](tuple(extents([name]) for name in names), span=span)
    stmts.append(let.replace(type=run.walk(let.type),
                             value=L["TensorNew"](run.walk(ty), "new", (given,), span=span)))
    for k, e in enumerate(lit.elems):
        target = L["Local"](let.name, span=span)
        for j, name in enumerate(names):
            index = L["Int"](k, span=span) if j == len(names) - 1 else \
                L["Binary"]("/", L["Int"](k, span=span), extents(names[j + 1:]), span=span)
            if j:  # the first index is below its extent: k is below the count
                index = L["Binary"]("%", index, extents([name]), span=span)
            target = L["Index"](target, index, span=span)
        stmts.append(L["Assign"](target, "=", e, span=e.span))
    return stmts


def _stop(cond, message: str, value, span):
    """`if cond { halt_with("E9006", message, value); }`."""
    halt = L["ExprStmt"](L["HaltWith"]("E9006", message, value, span=span), span=span)
    return L["ExprStmt"](L["IfExpr"](cond, False, L["Block"]((halt,), None, span=span),
                                     L["Block"]((), None, span=span), span=span), span=span)


def _product(factors: list, span):
    """factors multiplied, 1 for none."""
    if not factors:
        return L["Int"](1, span=span)
    out = factors[0]
    for f in factors[1:]:
        out = L["Binary"]("*", out, f, span=span)
    return out


@erase_variable_extents.on("TensorLit")
def _tensor_lit(run, lit):
    elems = tuple(run.walk(e) for e in lit.elems)
    checked = _checked_literal(run, lit, elems)
    return lit.replace(elems=elems) if checked is None else checked


def _checked_literal(run, lit, elems):
    """A literal of one extent that names a variable, its elements numbers: the literal of
    the extent its elements give, its first element checking, as the interpreter checks once
    they are computed, that the extent is not negative and gives their count; None for any
    other (it stays as written, which type-scalars refuses)."""
    ty = lit.type
    variable = [d for d in ty.dims if d._prod != "DimInt"]
    if len(variable) != 1 or variable[0]._prod not in VARIABLE or ty.elem.name not in _ELEMENTS \
            or not all(is_number(e) for e in elems):
        return None
    d, others = variable[0], math.prod(x.value for x in ty.dims if x._prod == "DimInt")
    steps = []
    extent = run.state.extents.steps(d, steps)
    if others == 0 or not elems or len(elems) % others or extent is None:
        return None
    # the count, in i64 at most, is below 2**63: never the interpreter's stop of too many
    steps.append((extent[0] * others, extent[1] * others))
    t = fitting(steps)
    if t is None:
        return None

    def stop(cond, message, value):
        halt = L["HaltWith"]("E9006", message, value, span=ty.span)
        halt = L["Binary"]("!=", halt, L["Int"](0, span=ty.span), span=ty.span) \
            if ty.elem.name == "bool" else \
            L["Cast"](halt, L["Scalar"](ty.elem.name, span=ty.span), span=ty.span)
        return lambda rest: L["IfExpr"](cond, False, L["Block"]((), halt, span=ty.span),
                                        L["Block"]((), rest, span=ty.span), span=ty.span)

    def count():
        n = run.state.extents.computed(d, t)
        return n if others == 1 else \
            L["Binary"]("*", n, L["Int"](others, span=ty.span), span=ty.span)
    checks = [stop(L["Binary"]("!=", count(), L["Int"](len(elems), span=ty.span),
                               span=ty.span),
                   f"this list has {len(elems)} element(s), but the tensor has {{a}}", count())]
    if extent[0] < 0:
        checks.insert(0, stop(L["Binary"]("<", run.state.extents.computed(d, t), L["Int"](0, span=ty.span),
                                          span=ty.span),
                              "a tensor extent must not be negative, found {a}",
                              run.state.extents.computed(d, t)))
    first = elems[0]
    for check in reversed(checks):
        first = check(first)
    given = L["DimInt"](len(elems) // others, span=d.span)
    return lit.replace(type=ty.replace(dims=tuple(given if x is d else x for x in ty.dims)),
                       elems=(first, *elems[1:]))


# Element types a number converts to (`as`), or compares to 0 (bool).
_ELEMENTS = frozenset(INT_TYPES) | frozenset({"f64", "f32", "f16", "bf16", "bool"})


@erase_variable_extents.on("TensorNew")
def _tensor_new(run, new):
    ty, args = new.type, tuple(run.walk(a) for a in new.args)
    if ty._prod != "TensorType" or not any(d._prod in VARIABLE for d in ty.dims):
        return new.replace(type=run.walk(ty), args=args)
    if any(d._prod == "DimAny" for d in ty.dims):  # the list gives every extent already
        return new.replace(type=run.walk(ty), args=args)
    # one list holds one type: names of several types, or a number their type does not
    # hold (`[n, 3000000000]` of an i32 n, `[b, 300]` of a u8 b), are computed in the
    # narrower of i32 and i64 that holds them all
    bounds = run.state.extents
    types = {bounds.types.get(d.name) for d in ty.dims if d._prod == "DimName"}
    held = len(types) == 1 and all(
        None in types or next(iter(types)).lo <= d.value <= next(iter(types)).hi
        for d in ty.dims if d._prod == "DimInt")
    if any(d._prod == "DimBinary" for d in ty.dims) or not held:
        steps = []
        known = all(bounds.steps(d, steps) for d in ty.dims)
        within = fitting(steps) if known else None
        if within is None:
            # compute-wide-extents' (as written, for the types the draft settles), or one
            # type-scalars refuses; the draft, which only settles names' types (a cast fixes
            # nothing of a name's type), computes it in i64 so as not to make the inference
            # refuse its function
            if run.state.settled is not None or not known:
                return new.replace(args=args)
            within = I64
        extents = tuple(bounds.computed(d, within) for d in ty.dims)
    else:  # each read as the interpreter reads it, whatever its integer type
        extents = tuple(bounds.read(d) if d._prod == "DimName" else L["Int"](d.value, span=d.span)
                        for d in ty.dims)
    given = L["ArrayLit"](extents, span=ty.span)
    return new.replace(type=run.walk(ty), args=(given, *args))




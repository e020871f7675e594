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
from ..nanopass.verify import descendants
from ..placement.typer import written
from ..scalars import infer_program
from ..scalars.aggregates import Names
from ..scalars.terms import decide
from ..values.constants import const_item_value
from ..values.numbers import INT_TYPES, truncating

VARIABLE = frozenset({"DimName", "DimBinary"})


@dataclass
class State:
    types: dict = field(default_factory=dict)  # a local's name -> its fixed integer type
    # an integer const item's name -> (its type, its value or None): an extent naming one
    # that fold-const-extents left (a value not above 0) is read from the item as the
    # interpreter reads it
    consts: dict = field(default_factory=dict)
    globals: dict = field(default_factory=dict)  # those no local of the function hides
    names: Names | None = None  # fresh names of the function being rebuilt
    # function -> {local: its integer type}, of the locals whose type the front end left to
    # inference, as native code's inference settles it; None while drafting (see _program)
    settled: dict | None = None
    floors: dict = field(default_factory=dict)  # a loop variable's name -> its range's start
    ceilings: dict = field(default_factory=dict)  # -> its range's end, less 1


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
"extent arithmetic {a} / 0 divides by zero", n) } else { m })]`. The one extent naming
variables of a constructor computing no other argument but a number, beside numbers above
0, dividing nowhere, whose arithmetic might leave i64 but not i128 (`[2 * j + 6]` of an i64
j), is computed in i128 (which no program names) and checked as the interpreter checks it
once the constructor's arguments are computed, a negative one stopping, then one past u64
(its count past 2**63), showing the count, before it is given as a u64, whose count the
constructor checks (_wide). Any other extent stays as written, which type-scalars refuses
(E5010). A name's type is its declaration's, or, for a
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
    name's type), so that native code's inference, which types no extent naming a variable,
    types the whole program and settles those names' types; then for real, with them. A
    function the inference refuses (for another reason) settles none: its extents over
    them stay as written."""
    if not any(node._prod in VARIABLE for node in descendants(program)):
        return program
    items = {i.name: i for i in program.items if i._prod == "ConstItem"}
    run.state.consts = {name: (INT_TYPES[i.type.name], const_item_value(name, items))
                        for name, i in items.items()
                        if i.type._prod == "Scalar" and i.type.name in INT_TYPES}
    run.state.settled = None
    inferred = infer_program(run.rebuild(program), texts=True)
    run.state.settled = {
        name: {local: INT_TYPES.get(decide(t)) for local, t in infer.env.items()}
        for name, infer in inferred.items.items() if name not in inferred.refused}
    return run.rebuild(program)


@erase_variable_extents.on("Fn")
def _fn(run, fn):
    run.state.types, run.state.names = _types(fn), Names(fn)
    bound = {n.name for n in descendants(fn) if n._prod in ("Param", "Let")} | \
        {n.var for n in descendants(fn) if n._prod == "For"}
    run.state.globals = {name: c for name, c in run.state.consts.items() if name not in bound}
    run.state.types.update({name: t for name, (t, _) in run.state.globals.items()})
    run.state.floors, run.state.ceilings = _loop_bounds(fn)
    settled = run.state.settled
    for name, t in run.state.types.items():
        if t is _INFERRED:
            run.state.types[name] = _DRAFT if settled is None else \
                settled.get(fn.name, {}).get(name)
    return run.rebuild(fn)


def _loop_bounds(fn) -> tuple[dict, dict]:
    """Each loop variable's least and greatest value, its range's start and its end less 1,
    where that is a number, or a local a `let` (not `mut`) binds to one, and nothing assigns
    the variable (or borrows it `&mut`): `for j in 1..n` holds j >= 1, and `for j in
    -3..last` of a `let last: i64 = 2;` holds j <= 1."""
    nodes = list(descendants(fn))
    changed = {n.target.name for n in nodes if n._prod == "Assign" and
               n.target._prod == "Local"} | \
        {n.value.name for n in nodes if n._prod == "Borrow" and n.mutable and
         n.value._prod == "Local"}
    # names are unique in a function: a `let` not `mut` of a number holds it wherever read
    numbers = {n.name: value for n in nodes if n._prod == "Let" and not n.mutable and
               (value := _number_at(n.value)) is not None}
    floors, ceilings = {}, {}
    for node in nodes:
        if node._prod == "For" and node.var not in changed:
            for bound, found, less in ((node.start, floors, 0), (node.end, ceilings, 1)):
                value = numbers.get(bound.name) if bound._prod == "Local" else \
                    _number_at(bound)
                if value is not None:
                    found[node.var] = value - less
    return floors, ceilings


def _number_at(e) -> int | None:
    """The number e is as written (`3`, `-3`, `1i64` in its type's range), else None."""
    ty = None
    if e._prod == "Cast" and e.type._prod == "Scalar" and e.type.name in INT_TYPES:
        e, ty = e.value, INT_TYPES[e.type.name]
    sign = 1
    if e._prod == "Unary" and e.op == "-":
        e, sign = e.operand, -1
    if e._prod == "Int" and (ty is None or ty.lo <= sign * e.value <= ty.hi):
        return sign * e.value
    return None


_INFERRED = object()  # a name whose type the front end left to inference
_DRAFT = INT_TYPES["i8"]  # such a name's type in the draft: one no extent is computed in


def _types(fn) -> dict:
    """Each parameter's and `let`'s integer type as written (names are unique in a
    function), _INFERRED for a loop variable's and a `let`'s whose type the front end left
    to inference (`~i32`), which native code's inference may settle otherwise (a `let mut`
    later assigned an `i64`)."""
    types = {}
    for node in descendants(fn):
        if node._prod in ("Param", "Let") and node.type is not None:
            if node.type._prod != "Scalar":
                types[node.name] = None
            elif node._prod == "Param" or written(node):
                types[node.name] = INT_TYPES.get(node.type.name)
            else:
                types[node.name] = _INFERRED
        elif node._prod == "For":
            types[node.var] = _INFERRED
    return types


@erase_variable_extents.on("TensorType")
def _tensor_type(run, ty):
    ty = run.rebuild(ty)
    if not any(d._prod in VARIABLE for d in ty.dims):
        return ty
    return ty.replace(dims=tuple(L["DimAny"](span=d.span) if d._prod in VARIABLE else d
                                 for d in ty.dims))


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
            not all(_number(e) for e in lit.elems):
        return None
    ty, span, steps = lit.type, lit.span, []
    bounds = [_steps(run, d, steps) for d in ty.dims]
    if None in bounds:
        return None
    # the count, once no extent was found negative
    t = _fitting(steps + [(0, math.prod(max(hi, 0) for _, hi in bounds))])
    if t is None:
        return None
    # each extent: its number as written, else the local it is bound to
    names = [d.value if d._prod == "DimInt" else run.state.names.fresh("extent")
             for d in ty.dims]

    def extents(names):
        return _product([L["Int"](x, span=span) if isinstance(x, int) else
                         L["Local"](x, span=span) for x in names], span)
    stmts = [L["Let"](name, False, L["Scalar"](t.name, span=span), _computed(run, d, t),
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
            or not all(_number(e) for e in elems):
        return None
    d, others = variable[0], math.prod(x.value for x in ty.dims if x._prod == "DimInt")
    steps = []
    extent = _steps(run, d, steps)
    if others == 0 or not elems or len(elems) % others or extent is None:
        return None
    # the count, in i64 at most, is below 2**63: never the interpreter's stop of too many
    steps.append((extent[0] * others, extent[1] * others))
    t = _fitting(steps)
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
        n = _computed(run, d, t)
        return n if others == 1 else \
            L["Binary"]("*", n, L["Int"](others, span=ty.span), span=ty.span)
    checks = [stop(L["Binary"]("!=", count(), L["Int"](len(elems), span=ty.span),
                               span=ty.span),
                   f"this list has {len(elems)} element(s), but the tensor has {{a}}", count())]
    if extent[0] < 0:
        checks.insert(0, stop(L["Binary"]("<", _computed(run, d, t), L["Int"](0, span=ty.span),
                                          span=ty.span),
                              "a tensor extent must not be negative, found {a}",
                              _computed(run, d, t)))
    first = elems[0]
    for check in reversed(checks):
        first = check(first)
    given = L["DimInt"](len(elems) // others, span=d.span)
    return lit.replace(type=ty.replace(dims=tuple(given if x is d else x for x in ty.dims)),
                       elems=(first, *elems[1:]))


# Element types a number converts to (`as`), or compares to 0 (bool).
_ELEMENTS = frozenset(INT_TYPES) | frozenset({"f64", "f32", "f16", "bf16", "bool"})


def _number(e) -> bool:
    """Whether e is a number or bool as written (negated or not): computing it can neither
    stop nor see what the checks before it do."""
    if e._prod == "Unary" and e.op == "-":
        e = e.operand
    return e._prod in ("Int", "Float", "Bool")


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
    types = {run.state.types.get(d.name) for d in ty.dims if d._prod == "DimName"}
    held = len(types) == 1 and all(
        None in types or next(iter(types)).lo <= d.value <= next(iter(types)).hi
        for d in ty.dims if d._prod == "DimInt")
    if any(d._prod == "DimBinary" for d in ty.dims) or not held:
        within = _within(run, ty.dims)
        if within is None:
            wide = _wide(run, new, args)
            return new.replace(args=args) if wide is None else \
                new.replace(type=run.walk(ty), args=(wide, *args))
        extents = tuple(_computed(run, d, within) for d in ty.dims)
    else:  # each read as the interpreter reads it, whatever its integer type
        extents = tuple(_read(run, d) if d._prod == "DimName" else L["Int"](d.value, span=d.span)
                        for d in ty.dims)
    given = L["ArrayLit"](extents, span=ty.span)
    return new.replace(type=run.walk(ty), args=(given, *args))


I128 = INT_TYPES["i128"]


def _wide(run, new, args):
    """The list of extents of a constructor whose one extent that is not a number might
    leave i64 (`[2 * j + 6]` of an i64 j), that extent computed in i128 and checked as the
    interpreter checks it once the constructor's arguments are computed (a negative one
    stops, then a count past 2**63), before it is given as a u64, whose count the
    constructor checks again: `[if x < 0 { halt_with(..) } else if x > u64::MAX {
    halt_with(.., x * others) } else { x } as u64]`. None where the other extents are not
    all numbers above 0, the constructor computes an argument that is not a number, the
    extent divides (native code's division stops show an i64), or the arithmetic, or the
    count, might leave i128."""
    ty, span = new.type, new.span
    wide = [d for d in ty.dims if d._prod != "DimInt"]
    others = math.prod(d.value for d in ty.dims if d._prod == "DimInt")
    if len(wide) != 1 or any(d._prod == "DimInt" and d.value <= 0 for d in ty.dims) or \
            others > INT_TYPES["u64"].hi or not all(_number(a) for a in args) or \
            any(n._prod == "DimBinary" and n.op == "/" for n in descendants(wide[0])):
        return None
    d, steps = wide[0], []
    extent = _steps(run, d, steps)
    if extent is None or _fitting(steps + [(extent[0] * others, extent[1] * others)],
                                  (I128,)) is None:
        return None
    u64 = INT_TYPES["u64"]

    def check(cond, message, shown, rest):
        halt = L["HaltWith"]("E9006", message, shown, span=span)
        return L["IfExpr"](cond, False, L["Block"]((), halt, span=span),
                           L["Block"]((), rest, span=span), span=span)
    count = _computed(run, d, I128) if others == 1 else \
        L["Binary"]("*", _computed(run, d, I128), _wide_number(others, span), span=span)
    checked = check(L["Binary"](">", _computed(run, d, I128), _wide_number(u64.hi, span),
                                span=span),
                    "a tensor of {a} elements is too large to address", count,
                    _computed(run, d, I128))
    checked = check(L["Binary"]("<", _computed(run, d, I128), _wide_number(0, span), span=span),
                    "a tensor extent must not be negative, found {a}",
                    _computed(run, d, I128), checked)
    given = L["Cast"](checked, L["Scalar"](u64.name, span=span), span=span)
    return L["ArrayLit"](tuple(given if x is d else _computed(run, x, u64) for x in ty.dims),
                         span=span)


def _wide_number(n: int, span):
    """The number n (of at most 64 bits, not negative) as an i128: a literal is typed by its
    cast, one past i64 as a u64's, which is extended."""
    n = L["Cast"](L["Int"](n, span=span), L["Scalar"]("u64" if n > INT_TYPES["i64"].hi
                                                      else "i64", span=span), span=span)
    return L["Cast"](n, L["Scalar"](I128.name, span=span), span=span)


def _number_of(d):
    """The number of DimInt d, an i64 past i32 (a literal alone is an i32, and wraps)."""
    n = L["Int"](d.value, span=d.span)
    if d.value <= INT_TYPES["i32"].hi:
        return n
    return L["Cast"](n, L["Scalar"]("i64", span=d.span), span=d.span)


def _within(run, dims):
    """i32 or i64, the narrower in which every step of computing the extents `dims` stays,
    so that it computes them as the interpreter's unbounded integers do (every extent of one
    list is of one type); None when neither holds them or one is not known."""
    steps = []
    for d in dims:
        if not _steps(run, d, steps):
            return None
    return _fitting(steps)


def _fitting(steps, types=(INT_TYPES["i32"], INT_TYPES["i64"], INT_TYPES["u64"])):
    """The first of `types` (i32, i64, u64) that holds each (least, greatest) of `steps`;
    None when none does."""
    for t in types:
        if all(t.lo <= lo and hi <= t.hi for lo, hi in steps):
            return t
    return None


def _steps(run, d, steps: list):
    """The least and greatest value of dimension d, added to `steps` with those of each of
    its operands; None when a name's type is not known."""
    if d._prod == "DimInt":
        span = (d.value, d.value)
    elif d._prod == "DimName":
        t = run.state.types.get(d.name)
        if t is None:
            return None
        value = run.state.globals.get(d.name, (t, None))[1]
        floor = max(t.lo, run.state.floors.get(d.name, t.lo))
        ceiling = min(t.hi, run.state.ceilings.get(d.name, t.hi))
        span = (floor, max(floor, ceiling)) if value is None else (value, value)
    else:
        left, right = _steps(run, d.left, steps), _steps(run, d.right, steps)
        if left is None or right is None:
            return None
        if d.op in ("+", "-"):
            sign = 1 if d.op == "+" else -1
            ends = [a + sign * b for a in left for b in right]
        elif d.op == "*":
            ends = [a * b for a in left for b in right]
        elif not _checked(d):  # `/` (the parser writes no other operator) by a number
            ends = [truncating("/", a, d.right.value) for a in left]  # monotonic in a
        else:  # a quotient by a divisor other than 0 is no larger than its dividend
            most = max(abs(a) for a in left)
            ends = [-most, most]
        span = (min(ends), max(ends))
    steps.append(span)
    return span


def _checked(d) -> bool:
    """Whether d, a DimBinary, divides by something other than a number but 0, which the
    interpreter checks as it computes it (a division by zero stops)."""
    return d.op == "/" and not (d.right._prod == "DimInt" and d.right.value != 0)


def _computed(run, d, t):
    """Dimension d as an expression of type t computing the value the interpreter gives it:
    a division by a divisor that may be 0 computes the dividend, then the divisor, each with
    its own stops, as the interpreter does, and then compares the divisor with 0 and stops
    as the interpreter does, showing the dividend (computed again: it reads only locals, and
    stopped the first time if it stops): `n / (if m == 0 { halt_with(.., n) } else { m })`."""
    if d._prod == "DimInt":
        return _wide_number(d.value, d.span) if t is I128 else _number_of(d)
    if d._prod == "DimName":
        local = _read(run, d)
        if run.state.types[d.name] is t:
            return local
        return L["Cast"](local, L["Scalar"](t.name, span=d.span), span=d.span)
    left, right = _computed(run, d.left, t), _computed(run, d.right, t)
    if _checked(d):
        zero = L["Binary"]("==", right, L["Int"](0, span=d.span), span=d.span)
        halt = L["HaltWith"]("E9006", "extent arithmetic {a} / 0 divides by zero",
                             _computed(run, d.left, t), span=d.span)
        right = L["IfExpr"](zero, False, L["Block"]((), halt, span=d.span),
                            L["Block"]((), _computed(run, d.right, t), span=d.span),
                            span=d.span)
    return L["Binary"](d.op, left, right, span=d.span)



def _read(run, d):
    """The expression reading the name of DimName d: its local, else the const item."""
    return L["Global" if d.name in run.state.globals else "Local"](d.name, span=d.span)

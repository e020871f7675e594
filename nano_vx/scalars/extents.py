"""Extents that name variables, computed as the interpreter computes them: the bounds of each
name an extent reads in one function, the range of each step of its arithmetic, the type
that holds them all, and the expression computing it in that type (erase-variable-extents,
and compute-wide-extents for the one it computes in i128)."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lsplit import Lsplit as L
from ..nanopass.verify import descendants
from ..placement.typer import written
from ..values.constants import const_item_value
from ..values.numbers import INT_TYPES, truncating
from . import infer_program
from .terms import decide

VARIABLE = frozenset({"DimName", "DimBinary"})
I128 = INT_TYPES["i128"]
INFERRED = object()  # a name whose type the front end left to inference
DRAFT = INT_TYPES["i8"]  # such a name's type in a draft: one no extent is computed in


def int_consts(program) -> dict:
    """Each integer const item's name -> (its type, its value or None): an extent naming one
    that fold-const-extents left (a value not above 0) is read from the item as the
    interpreter reads it."""
    items = {i.name: i for i in program.items if i._prod == "ConstItem"}
    return {name: (INT_TYPES[i.type.name], const_item_value(name, items))
            for name, i in items.items()
            if i.type._prod == "Scalar" and i.type.name in INT_TYPES}


def any_extents(ty):
    """TensorType ty with each extent naming a variable made `?`."""
    return ty.replace(dims=tuple(L["DimAny"](span=d.span) if d._prod in VARIABLE else d
                                 for d in ty.dims))


@dataclass
class Extents:
    """What the extents of one function read."""
    types: dict  # a local's (or a const's) name -> its fixed integer type, None if not known
    globals: dict  # an integer const no local of the function hides -> (its type, value)
    floors: dict  # a loop variable's name -> its range's start
    ceilings: dict  # -> its range's end, less 1

    def within(self, dims):
        """i32 or i64 (or u64), the narrowest in which every step of computing the extents
        `dims` stays, so that it computes them as the interpreter's unbounded integers do
        (every extent of one list is of one type); None when none holds them or one is not
        known."""
        steps = []
        for d in dims:
            if not self.steps(d, steps):
                return None
        return fitting(steps)

    def steps(self, d, steps: list):
        """The least and greatest value of dimension d, added to `steps` with those of each
        of its operands; None when a name's type is not known."""
        if d._prod == "DimInt":
            span = (d.value, d.value)
        elif d._prod == "DimName":
            t = self.types.get(d.name)
            if t is None:
                return None
            value = self.globals.get(d.name, (t, None))[1]
            floor = max(t.lo, self.floors.get(d.name, t.lo))
            ceiling = min(t.hi, self.ceilings.get(d.name, t.hi))
            span = (floor, max(floor, ceiling)) if value is None else (value, value)
        else:
            left, right = self.steps(d.left, steps), self.steps(d.right, steps)
            if left is None or right is None:
                return None
            if d.op in ("+", "-"):
                sign = 1 if d.op == "+" else -1
                ends = [a + sign * b for a in left for b in right]
            elif d.op == "*":
                ends = [a * b for a in left for b in right]
            elif not checked(d):  # `/` (the parser writes no other operator) by a number
                ends = [truncating("/", a, d.right.value) for a in left]  # monotonic in a
            else:  # a quotient by a divisor other than 0 is no larger than its dividend
                most = max(abs(a) for a in left)
                ends = [-most, most]
            span = (min(ends), max(ends))
        steps.append(span)
        return span

    def computed(self, d, t):
        """Dimension d as an expression of type t computing the value the interpreter gives
        it: a division by a divisor that may be 0 computes the dividend, then the divisor,
        each with its own stops, as the interpreter does, and then compares the divisor with
        0 and stops as the interpreter does, showing the dividend (computed again: it reads
        only locals, and stopped the first time if it stops): `n / (if m == 0 {
        halt_with(.., n) } else { m })`."""
        if d._prod == "DimInt":
            return wide_number(d.value, d.span) if t is I128 else _number_of(d)
        if d._prod == "DimName":
            local = self.read(d)
            if self.types[d.name] is t:
                return local
            return L["Cast"](local, L["Scalar"](t.name, span=d.span), span=d.span)
        left, right = self.computed(d.left, t), self.computed(d.right, t)
        if checked(d):
            zero = L["Binary"]("==", right, L["Int"](0, span=d.span), span=d.span)
            halt = L["HaltWith"]("E9006", "extent arithmetic {a} / 0 divides by zero",
                                 self.computed(d.left, t), span=d.span)
            right = L["IfExpr"](zero, False, L["Block"]((), halt, span=d.span),
                                L["Block"]((), self.computed(d.right, t), span=d.span),
                                span=d.span)
        return L["Binary"](d.op, left, right, span=d.span)

    def read(self, d):
        """The expression reading the name of DimName d: its local, else the const item."""
        return L["Global" if d.name in self.globals else "Local"](d.name, span=d.span)


def extents_of(fn, consts: dict, settled: dict | None) -> Extents:
    """The extents of function fn: `consts` as int_consts gives them, `settled` each
    function's locals of an inferred type -> the type native code's inference settles on
    (None while drafting: each such name is DRAFT)."""
    types = _types(fn)
    bound = {n.name for n in descendants(fn) if n._prod in ("Param", "Let")} | \
        {n.var for n in descendants(fn) if n._prod == "For"}
    globals_ = {name: c for name, c in consts.items() if name not in bound}
    types.update({name: t for name, (t, _) in globals_.items()})
    floors, ceilings = _loop_bounds(fn)
    for name, t in types.items():
        if t is INFERRED:
            types[name] = DRAFT if settled is None else settled.get(fn.name, {}).get(name)
    return Extents(types, globals_, floors, ceilings)


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


def _types(fn) -> dict:
    """Each parameter's and `let`'s integer type as written (names are unique in a
    function), INFERRED for a loop variable's and a `let`'s whose type the front end left
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
                types[node.name] = INFERRED
        elif node._prod == "For":
            types[node.var] = INFERRED
    return types


def fitting(steps, types=(INT_TYPES["i32"], INT_TYPES["i64"], INT_TYPES["u64"])):
    """The first of `types` (i32, i64, u64) that holds each (least, greatest) of `steps`;
    None when none does."""
    for t in types:
        if all(t.lo <= lo and hi <= t.hi for lo, hi in steps):
            return t
    return None


def checked(d) -> bool:
    """Whether d, a DimBinary, divides by something other than a number but 0, which the
    interpreter checks as it computes it (a division by zero stops)."""
    return d.op == "/" and not (d.right._prod == "DimInt" and d.right.value != 0)


def is_number(e) -> bool:
    """Whether e is a number or bool as written (negated or not): computing it can neither
    stop nor see what the checks before it do."""
    if e._prod == "Unary" and e.op == "-":
        e = e.operand
    return e._prod in ("Int", "Float", "Bool")


def wide_number(n: int, span):
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


def rebuilt_twice(run, program):
    """`program` rebuilt by the pass `run` runs, whose state holds `consts` (int_consts) and
    `settled`: first as a draft, `settled` None (each name of an inferred type DRAFT), then
    for real, `settled` each function's locals of an inferred type -> the integer type
    native code's inference settles on in the draft; a function it refuses settles none.
    The program itself where no extent names a variable."""
    if not any(node._prod in VARIABLE for node in descendants(program)):
        return program
    run.state.consts, run.state.settled = int_consts(program), None
    inferred = infer_program(run.rebuild(program), texts=True)
    run.state.settled = {
        name: {local: INT_TYPES.get(decide(t)) for local, t in infer.env.items()}
        for name, infer in inferred.items.items() if name not in inferred.refused}
    return run.rebuild(program)

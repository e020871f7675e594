"""desugar-unroll-across: Lpaths -> Lunrolled (and the small constant folder for its bounds)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Lpaths, Lunrolled
from ..nanopass import Pass, descendants
from ..values.constants import written


@dataclass
class State:
    consts: dict = field(default_factory=dict)  # const item name -> its value expression
    fn: object = None  # the function being walked
    hidden: frozenset | None = None  # the names it binds, once a bound asks (see _hidden)
    nest: list[tuple[int, int]] = field(default_factory=list)  # the ranges being unrolled


desugar_unroll_across = Pass("desugar-unroll-across", Lpaths, Lunrolled, """
Replace `unroll across(Topology::N[a..b]) { |i| S }` by one `spawn on` per index (E3050 for
bounds that are not constants, E3051 for too many copies).

For each k in a..b-1 the block becomes `spawn on(Topology::N[k]) { let i = k; S }` as an
expression statement. The index is evaluated in the calling scope, so the spawned topology's
index is the literal k. `Topology::N[a]` (no range end) is the single index a. The bounds must
be compile-time integers: literals, `const` items, and + - * of those; anything else is E3050
and the statement is dropped (a const generic parameter too, whose value only an instance
knows, made later: the message says so). A body is copied once per index of its own range times the
indices of every `unroll across` around it: more than 4096 copies, counted before any is
made, is E3051 (three nested ranges of 64 would make 262,144).
""", state=State)

# Each index copies the body, and each copy of an enclosing unroll copies it again, so a huge
# constant range, or a nest of modest ones, would grow the program without bound.
MAX_COPIES = 4096


@desugar_unroll_across.on("Program")
def _program(run, node):
    # A const without a value (check-constants refuses it later) folds to nothing.
    run.state.consts = {i.name: i.value for i in node.items
                        if i._prod == "ConstItem" and i.value is not None}
    return run.rebuild(node)


@desugar_unroll_across.on("Fn")
def _fn(run, node):
    run.state.fn, run.state.hidden = node, None
    out = run.rebuild(node)
    run.state.fn = None
    return out


def _hidden(run) -> frozenset:
    """The names the current function binds: a local (or const generic) named like a const
    item hides it. Found at most once per function, and only when a bound names a const."""
    if run.state.hidden is None:
        fn = run.state.fn
        run.state.hidden = binders(fn) if fn is not None else frozenset()
    return run.state.hidden


@desugar_unroll_across.on("UnrollAcross", splice=True)
def _unroll(run, node):
    """The spawns, spliced into the enclosing block; none after E3050."""
    topo = node.topo
    if topo.index is None:
        run.ctx.diagnostics.error(
            "E3050", topo.span,
            f"`unroll across(Topology::{topo.name})` needs an index range such as "
            f"`Topology::{topo.name}[0..4]`", topology=topo.name)
        return ()
    bounds = []
    for expr in (topo.index, topo.end):
        if expr is None:  # `N[a]`: the range a..a+1
            bounds.append(bounds[0] + 1)
            continue
        value = fold(expr, run.state.consts, lambda: _hidden(run))
        if value is None:
            _not_constant(run, expr)
            return ()
        bounds.append(value)
    start, end = bounds
    if start > end:
        run.ctx.diagnostics.error(
            "E3050", topo.span,
            f"the range {start}..{end} of `unroll across` starts after it ends",
            start=start, end=end)
        return ()
    if _too_many(run, topo, start, end):
        return ()
    run.state.nest.append((start, end))
    body = run.walk(node.body)
    run.state.nest.pop()
    out = []
    for k in range(start, end):
        # The copies share the body's nodes: nodes are immutable, and what a later pass
        # records by node identity holds of every copy alike, so a shared subtree is as good
        # as a copy and costs nothing. (A check finds a fault in every copy at once: it
        # reports it once, with lunrolled.copies_note.)
        k_lit = Lunrolled["Int"](k, span=topo.index.span)
        let = Lunrolled["Let"](node.var, False, None, k_lit, span=node.span)
        block = Lunrolled["Block"]((let, *body.stmts), body.value, span=body.span)
        where = Lunrolled["TopoRef"](topo.name, k_lit, None, span=topo.span)
        spawn = Lunrolled["Spawn"](where, block, span=node.span)
        out.append(Lunrolled["ExprStmt"](spawn, span=node.span))
    return tuple(out)


def _too_many(run, topo, start: int, end: int) -> bool:
    """E3051 when this body would be copied more than MAX_COPIES times: once per index of
    its range and of each enclosing one. Judged before the body is walked, so a refused
    nest makes no copy of the body at all."""
    ranges = [*run.state.nest, (start, end)]
    copies = 1
    for a, b in ranges:
        copies *= b - a
    if copies <= MAX_COPIES:
        return False
    if len(ranges) == 1:
        message = (f"`unroll across` over {start}..{end} would make {copies} copies of its "
                   f"body, more than the {MAX_COPIES} it unrolls")
    else:
        shown = [f"{a}..{b}" for a, b in ranges]
        product = " x ".join(str(b - a) for a, b in ranges)
        message = (f"nested `unroll across` over {', '.join(shown[:-1])} and {shown[-1]} "
                   f"would make {copies} copies ({product}) of the innermost body, more "
                   f"than the {MAX_COPIES} a nest unrolls")
    run.ctx.diagnostics.error("E3051", topo.span, message, start=start, end=end,
                              copies=copies, ranges=[list(r) for r in ranges])
    return True


# -- compile-time integer bounds: literals, `const` items, + - * of those --------------------

_OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}


def fold(expr, consts, hidden, _seen=frozenset()):
    """The integer value of `expr`, or None when it is not a compile-time integer.

    `consts` maps const item names to their value expressions; `hidden()` gives the locals
    that shadow a const item; `_seen` stops a const defined in terms of itself.
    """
    kind = expr._prod
    if kind == "Int":
        return expr.value
    if kind == "Unary" and expr.op == "-":  # a negative literal
        inner = fold(expr.operand, consts, hidden, _seen)
        return None if inner is None else -inner
    if kind == "Binary" and expr.op in _OPS:
        left = fold(expr.left, consts, hidden, _seen)
        right = fold(expr.right, consts, hidden, _seen)
        return None if left is None or right is None else _OPS[expr.op](left, right)
    if kind == "Var" and expr.name in consts and expr.name not in _seen | hidden():
        # A const item's value lives at the top level, where no local hides anything.
        return fold(consts[expr.name], consts, frozenset, _seen | {expr.name})
    return None


def _not_constant(run, expr) -> None:
    fn = run.state.fn
    generics = {g.name for g in fn.generics if g._prod == "ConstParam"} if fn else set()
    named = [n.name for n in descendants(expr) if n._prod == "Var" and n.name in generics]
    if not named:
        run.ctx.diagnostics.error(
            "E3050", expr.span,
            f"the bound `{written(expr)}` of `unroll across` is not a compile-time integer "
            f"constant", bound=written(expr))
        return
    # A const generic is known while compiling, but only per instance, and the copies are
    # made before monomorphize makes the instances.
    run.ctx.diagnostics.error(
        "E3050", expr.span,
        f"the bound `{written(expr)}` of `unroll across` names the const parameter "
        f"'{named[0]}' of '{fn.name}', which is not known yet where the copies are made",
        notes=["`unroll across` makes its copies before each instance of a generic function "
               "is made, so its bounds are literals, `const` items and arithmetic on them"],
        help=["write the bounds with literals or `const` items, or write a `for` loop "
              "around a `spawn on` (its unit is then 0, W1030)"],
        bound=written(expr), parameter=named[0])


def binders(fn):
    """Every name a function binds anywhere: const generics, params, lets, fors, closures."""
    names = {g.name for g in fn.generics if g._prod == "ConstParam"}
    for node in descendants(fn):
        if node._prod in ("Param", "Let"):
            names.add(node.name)
        elif node._prod in ("For", "UnrollAcross"):
            names.add(node.var)
    return frozenset(names)

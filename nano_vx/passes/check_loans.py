"""check-loans: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..diagnostics import Label
from ..languages.lsrc import DESCRIPTIONS
from ..languages.lunrolled import OncePerPlace
from ..languages.lresolved import display_name
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis
from ..placement.loans import Holdings, Loan, line_col
from ..placement.ownership import Movers, callee_name, owns_data
from ..placement.references import overlap, place_path, root, shown_place
from ..values.constants import written


@dataclass
class State:
    movers: Movers | None = None
    holdings: Holdings = field(default_factory=Holdings)  # the loans the variables hold
    temporary: list[Loan] = field(default_factory=list)  # lent to the calls being evaluated
    releasing: list[str] = field(default_factory=list)  # the variables `x = ..` is assigning
    reported: OncePerPlace = field(default_factory=OncePerPlace)


check_loans = Analysis("check-loans", Lrouted, """
Refuse conflicting loans (E4002, E4003) and changes to a lent variable (E4004).

A loan is what `&x` or `&mut x` takes of a variable x, or of a part of it: `&s.v` takes the
field v of s (and what is in it), which a loan of s or of s.v.x overlaps and one of s.w does
not, as in Rust; `&t[i]` takes all of t, as Rust's indexing borrows the whole (`&s.t[i]` all
of s.t); `&*p` reborrows through p, a loan of p. A borrow also
carries the loans of what it reaches: what the reference p holds for `&*p`, what x holds for
`&x` when x is a reference or holds one. How long a loan lasts is lexical, read off the
text:

- a loan that a `let` binds (`let p = &mut x;`, also through a call that returns a
  reference, `let r = first(&t);`, a copy of a reference, `let q = p;`, or an `if` or
  `match` whose value is one) is held by that variable from the `let` to the end of the block
  the `let` is in; `p = &y;` gives up p's loans for the new one, which lasts to the end of
  the block p was declared in;
- any other loan (an argument `f(&mut x)`, `print(&x)`) lasts while the rest of the call's
  arguments are evaluated and the call runs, and ends when it returns.

While a loan of x (of a part overlapping the one at hand) lasts, as in Rust's borrow checker: a `&mut x` while a mutable loan lasts
is E4002 (Rust's E0499); a `&x` while the loan is mutable is E4003 (E0502); assigning to x or
to part of it (`x = ..`, `x += ..`, `x[i] = ..`), moving it or a part that owns data (by
`transfer`, passing it by value to a function, `let u = x;`, `u = x;`, `(x, 1)`), or taking `&mut x` while only shared loans last (a way to write to x under
them: Rust's E0502 for a mutable borrow) is E4004 (E0506, E0505). A write through a reference
(`*p = ..`) changes what p names, not p. Each message names the loan in the way and how long it lasts. Reads of a
lent variable are not refused: with loans that last to the end of their block, that would
refuse `let p = &mut x; *p = 5; print(x);`, which Rust admits because p is not used again.

A struct or a tuple holds the loans of its fields' values (`Holder { t: &mut x }`, `(&x, 1)`),
and assigning a part of a variable (`h.t = &mut y;`) adds the value's loans to those the
variable holds. When a block ends, so do the loans of the variables it declared (a reference
that still holds one, read after, is check-dangling-references' E4005).
""", skip=DESCRIPTIONS, state=State)


# -- loans that last here -------------------------------------------------------------------


def _live(st: State, x: str, path: tuple = ()) -> list[Loan]:
    """The loans of `x` that last here and overlap its part `path`, oldest first (not those
    of a variable being given a new value: they end with the assignment)."""
    return [loan for loans in (*st.holdings.frames, st.temporary) for loan in loans
            if loan.root == x and overlap(loan.path, path) and loan.held_by not in st.releasing]


# -- the walk --------------------------------------------------------------------------------


@check_loans.on("Program")
def _program(run, node):
    st = run.state
    st.movers = Movers(node)
    st.holdings = Holdings.of(node)
    for fn in (item for item in node.items if item._prod == "Fn"):
        st.holdings.enter(fn)
        run.walk(fn.body)
    st.reported.note_copies()


@check_loans.on("Block")
def _block(run, node):
    holdings = run.state.holdings
    holdings.open(node)
    run.descend(node)
    holdings.close()


@check_loans.on("Closure")
def _closure(run, node):
    run.state.holdings.types.bind(node.params)
    run.descend(node)


@check_loans.on("Let")
def _let(run, node):
    run.walk(node.value)
    _moves(run, node.value, f"into '{display_name(node.name)}'")
    run.state.holdings.let(node)


@check_loans.on("Assign")
def _assign(run, node):
    st = run.state
    target = node.target
    fresh = target._prod == "Local" and node.op == "="
    if fresh:  # `p = &mut x;` may take again what p held: p's old loans end here
        st.releasing.append(target.name)
    run.walk(node.value)  # first, as Rust does: `x = f(&x)` lends x only for the call
    if node.op == "=":
        _moves(run, node.value, f"into `{_text(target)}`")
    if fresh:
        st.releasing.pop()
    else:
        run.walk(target)  # the indices, and what they borrow
    x = root(target)
    if x is not None and st.holdings.types.through(target) is None:
        what = f"'{display_name(x)}'" if target._prod == "Local" else f"`{_text(target)}`"
        _changed(run, target, x, f"assign to {what}", place_path(target))
    st.holdings.assigned(node)


@check_loans.on("Call")
def _call(run, node):
    st = run.state
    run.walk(node.callee)
    takes = st.movers.takes_ownership(node)
    lent = len(st.temporary)
    for arg in node.args:
        run.walk(arg)
        if takes:
            _moves(run, arg, f"into the call of '{callee_name(node)}'")
        ends = f"lent to `{_text(node)}` until it returns"
        st.temporary.extend(replace(loan, ends=ends) for loan in st.holdings.carried(arg))
    del st.temporary[lent:]


@check_loans.on("StructLit", "Tuple")
def _aggregate(run, node):
    """`(t, 1)` and `S { f: t }` move each part that owns data into the value they make."""
    into = f"into the '{node.name}' value" if node._prod == "StructLit" else "into the tuple"
    for part in [f.value for f in node.fields] if node._prod == "StructLit" else node.elems:
        run.walk(part)
        _moves(run, part, into)


@check_loans.on("Transfer")
def _transfer(run, node):
    run.walk(node.value)
    if node.value._prod == "Local":
        x = node.value.name
        _changed(run, node.value, x, f"move '{display_name(x)}' to Memory::{node.dest.name}")


@check_loans.on("Borrow")
def _borrow(run, node):
    st = run.state
    run.descend(node)
    x = root(node.value)
    if x is None:
        return
    path = place_path(node.value)
    live = _live(st, x, path)
    shown = shown_place(display_name(x), path)
    mutable = [loan for loan in live if loan.mutable]
    if node.mutable and live:
        # Against shared loans only, `&mut x` is the start of a write to their owner: E4004.
        _conflict(run, "E4002" if mutable else "E4004", node, (mutable or live)[0],
                  f"cannot borrow '{shown}' as mutable")
    elif not node.mutable:
        if mutable:
            _conflict(run, "E4003", node, mutable[0], f"cannot borrow '{shown}' as shared")


def _moves(run, value, into: str) -> None:
    """E4004 when `value` is a variable, or a part of one, that owns data (so it is moved
    `into` where it goes) while a loan of it lasts; a part read through a reference is no
    variable's."""
    st = run.state
    x = root(value)
    if value._prod not in ("Local", "FieldGet", "TupleGet") or x is None \
            or st.holdings.types.through(value) is not None \
            or not owns_data(st.holdings.part_type(value), st.movers.types):
        return
    path = place_path(value)
    _changed(run, value, x, f"move '{shown_place(display_name(x), path)}' {into}", path)


# -- reports ----------------------------------------------------------------------------------


def _changed(run, at, x: str, what: str, path: tuple = ()) -> None:
    """E4004 at `at` when a loan of `x` overlapping its part `path` lasts here."""
    live = _live(run.state, x, path)
    if live:
        _conflict(run, "E4004", at, live[0], f"cannot {what}")


def _conflict(run, code: str, at, loan: Loan, what: str) -> None:
    """`code` at `at`, naming `loan`, the one in the way; once for all the copies `unroll
    across` made of it."""
    key = (at.span if at.span is not None else id(at), code)
    said = run.state.reported
    if said.again(key, copy=loan.root):
        return
    x = shown_place(display_name(loan.root), loan.path)
    kind = "mutable" if loan.mutable else "shared"
    line, col = line_col(loan.borrow)
    taken = f"`{_text(loan.borrow)}`"
    if loan.held_by is None:
        repair = f"the loan {taken} ends when its call returns: do this after the call"
    else:
        repair = (f"end the loan {taken} before this: put it and the uses of "
                  f"'{display_name(loan.held_by)}' in a block `{{ .. }}` of their own")
    run.ctx.diagnostics.error(
        code, at.span, f"{what}: '{x}' is already borrowed ({kind}) at line {line}, column {col}",
        notes=[f"the loan {taken} is {loan.ends}"],
        labels=[Label(loan.borrow.span, f"'{x}' borrowed here ({kind})")]
        if loan.borrow.span is not None else [],
        help=[repair],
        name=x, borrowed_at={"line": line, "column": col}, loan=kind)
    said.said(key, run.ctx.diagnostics.items[-1], copy=loan.root)


def _text(node) -> str:
    return written(node).strip()

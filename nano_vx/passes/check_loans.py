"""check-loans: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..diagnostics import Label
from ..languages.lsrc import DESCRIPTIONS
from ..languages.lunrolled import OncePerPlace
from ..languages.lresolved import display_name
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis
from ..nanopass.verify import child_nodes
from ..placement.ownership import Movers, callee_name
from ..placement.references import DeclaredTypes, root
from ..values.constants import written


@dataclass(frozen=True)
class Loan:
    root: str  # the unique name of the borrowed variable
    mutable: bool
    borrow: object  # the Borrow node that took it
    held_by: str | None = None  # the variable that holds it, else a temporary
    ends: str = ""  # where it ends, as a note says it


@dataclass
class Turns:
    """An open loop: the frame of its body, and the holders a `continue` or a `break` leaves
    dangling (for the next turn, or after the loop)."""
    at: int
    next: dict = field(default_factory=dict)
    after: dict = field(default_factory=dict)


@dataclass
class State:
    movers: Movers | None = None
    types: DeclaredTypes = field(default_factory=DeclaredTypes)
    frames: list[list[Loan]] = field(default_factory=list)  # per open block, the loans held
    declared: dict[str, int] = field(default_factory=dict)  # local -> the frame declaring it
    blocks: list = field(default_factory=list)  # the open Block nodes, as frames
    temporary: list[Loan] = field(default_factory=list)  # lent to the calls being evaluated
    releasing: list[str] = field(default_factory=list)  # the variables `x = ..` is assigning
    structs: dict = field(default_factory=dict)  # struct -> its fields' types, by name
    loops: list[Turns] = field(default_factory=list)  # the open loops, innermost last
    dangling: dict[str, tuple] = field(default_factory=dict)  # holder -> (loan, its end)
    written: object = None  # the variable an assignment gives a part of, which it does not read
    reported: OncePerPlace = field(default_factory=OncePerPlace)


check_loans = Analysis("check-loans", Lrouted, """
Refuse conflicting loans (E4002, E4003), changes to a lent variable (E4004), and a reference
read after the variable it names has gone (E4005).

A loan is what `&x` or `&mut x` takes of a variable x (`&t[i]` and `&t.f` take all of t, as
Rust's indexing borrows the whole; `&*p` reborrows through p, a loan of p). A borrow also
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

While a loan of x lasts, as in Rust's borrow checker: a `&mut x` while a mutable loan lasts
is E4002 (Rust's E0499); a `&x` while the loan is mutable is E4003 (E0502); assigning to x or
to part of it (`x = ..`, `x += ..`, `x[i] = ..`), moving it by `transfer`, passing it by value
to a function, or taking `&mut x` while only shared loans last (a way to write to x under
them: Rust's E0502 for a mutable borrow) is E4004 (E0506, E0505). A write through a reference
(`*p = ..`) changes what p names, not p. Each message names the loan in the way and how long it lasts. Reads of a
lent variable are not refused: with loans that last to the end of their block, that would
refuse `let p = &mut x; *p = 5; print(x);`, which Rust admits because p is not used again.

A struct or a tuple holds the loans of its fields' values (`Holder { t: &mut x }`, `(&x, 1)`),
and assigning a part of a variable (`h.t = &mut y;`) adds the value's loans to those the
variable holds. When a block ends, a loan of a variable it declared that a variable of an
outer block still holds dangles: a later read of that holder is E4005 (Rust's E0597), and so
is a read of it in a loop the block is inside, which the next turn reaches first, unless the
loop's body gives the holder a new value (`h = ..`) before. Giving the holder a new value
ends the dangling loan; a borrow through a reference (`&*p`, `&p[i]`) names what p names, so
it does not dangle with p. Each way counts on its own: what one branch of an `if` or a
`match` leaves dangling dangles after it whatever another branch does (not what a branch
that returns or leaves the loop does), a `continue` carries what it leaves dangling to the
next turn and a `break` past the loop, and a loop that may not run keeps what dangled before.
""", skip=DESCRIPTIONS, state=State)


# -- loans: what a borrow takes, what a value carries ---------------------------------------


def _carried(st: State, e) -> list[Loan]:
    """The loans the value of `e` carries: a borrow's own (and those of what it reaches), a
    reference variable's, those a call returning a reference takes from its arguments, a
    struct's or tuple's parts', those of the branch values of an `if` or `match`."""
    kind = e._prod
    if kind == "Borrow":  # and what is reached through it: what x or the reference holds
        x = root(e.value)
        ref = st.types.through(e.value)
        return ([Loan(x, e.mutable, e)] if x is not None else []) + \
            (_carried(st, ref) if ref is not None else _held(st, x))
    if kind == "Local":
        return _held(st, e.name)
    if kind == "Call":
        ret = st.types.results.get(e.callee.name) if e.callee._prod == "Global" else None
        if ret is None or ret._prod != "BorrowType":
            return []
        return [loan for a in e.args for loan in _carried(st, a)]
    if kind in ("StructLit", "Tuple"):
        parts = (f.value for f in e.fields) if kind == "StructLit" else e.elems
        return [loan for part in parts for loan in _carried(st, part)]
    if kind in ("FieldGet", "TupleGet"):  # a part of a holder: what the holder holds, if any
        return _carried(st, e.base) if _refers(st, _part_type(st, e)) else []
    if kind in ("Match", "MatchValue"):
        return [loan for arm in (e.arms if kind == "Match" else e.cases)
                if arm.body.value is not None for loan in _carried(st, arm.body.value)]
    return [loan for child in child_nodes(e) if child._prod == "Block"
            and child.value is not None for loan in _carried(st, child.value)]


def _held(st: State, name: str | None) -> list[Loan]:
    return [loan for frame in st.frames for loan in frame if loan.held_by == name] \
        if name is not None else []


def _part_type(st: State, e):
    """The declared type of a variable or of a part of one (`h.t`, `p.0`), else None."""
    if e._prod == "Local":
        return st.types.locals.get(e.name)
    base = _part_type(st, e.base) if e._prod in ("FieldGet", "TupleGet") else None
    if base is not None and e._prod == "TupleGet" and base._prod == "TupleType":
        return base.elems[e.index] if e.index < len(base.elems) else None
    if base is not None and e._prod == "FieldGet" and base._prod == "NamedType":
        return st.structs.get(base.name, {}).get(e.field)
    return None


def _refers(st: State, t, seen: frozenset = frozenset()) -> bool:
    """Whether a value of type `t` may hold a reference."""
    if t is None:
        return False
    if t._prod == "BorrowType":
        return True
    if t._prod == "TupleType":
        return any(_refers(st, elem, seen) for elem in t.elems)
    fields = st.structs.get(t.name, {}) if t._prod == "NamedType" and t.name not in seen else {}
    return any(_refers(st, ft, seen | {t.name}) for ft in fields.values())


def _live(st: State, x: str) -> list[Loan]:
    """The loans of `x` that last here, oldest first (not those of a variable being given a
    new value: they end with the assignment)."""
    return [loan for loans in (*st.frames, st.temporary) for loan in loans
            if loan.root == x and loan.held_by not in st.releasing]


# -- the walk --------------------------------------------------------------------------------


@check_loans.on("Program")
def _program(run, node):
    st = run.state
    st.movers = Movers(node)
    st.types = DeclaredTypes.of(node)
    st.structs = {item.name: {f.name: f.type for f in item.fields}
                  for item in node.items if item._prod == "StructDecl"}
    for fn in (item for item in node.items if item._prod == "Fn"):
        st.types.enter(fn)
        st.declared = {p.name: 0 for p in fn.params}
        st.dangling = {}
        run.walk(fn.body)
    st.reported.note_copies()


@check_loans.on("Block")
def _block(run, node):
    st = run.state
    st.frames.append([])
    st.blocks.append(node)
    run.descend(node)
    _outlived(run, len(st.frames) - 1)
    st.blocks.pop()
    st.frames.pop()


@check_loans.on("While", "For")
def _loop(run, node):
    st = run.state
    if node._prod == "For":
        st.declared[node.var] = len(st.frames)  # the loop's variable lives in its body
    before = dict(st.dangling)
    st.loops.append(Turns(len(st.frames)))
    run.descend(node)
    turns = st.loops.pop()
    # The next turn reads what this one left dangling unless it gives the holder a new value
    # first; after the loop, what any turn (or none) left dangles.
    for holder, dangling in {**turns.next, **st.dangling}.items():
        if st.declared.get(holder, 0) < turns.at:
            read, _ = _first_read((node.body,) if node._prod == "For" else
                                  (node.cond, node.body), holder)
            if read is not None:
                _dangles(run, read, holder, dangling, "the next turn reads it")
    st.dangling = {**turns.after, **before, **st.dangling}


@check_loans.on("Break", "Continue")
def _leave(run, node):
    st = run.state
    turns = st.loops[-1]
    leaving = {loan.held_by: (loan, _end(st, st.declared[loan.root]))
               for frame in st.frames[:turns.at] for loan in frame
               if st.declared.get(loan.root, -1) >= turns.at and _names_root(st, loan)}
    (turns.next if node._prod == "Continue" else turns.after).update(
        {**leaving, **st.dangling})


@check_loans.on("If", "IfExpr", "Match", "MatchValue")
def _branches(run, node):
    """What a branch leaves dangling dangles after the `if` or `match`, whatever another
    branch gives the holder; not what one that leaves (`return`, `break`) does."""
    st = run.state
    run.walk(node.scrutinee if node._prod in ("Match", "MatchValue") else node.cond)
    before, after = st.dangling, {}
    ways = {"Match": "arms", "MatchValue": "cases"}.get(node._prod)
    for way in (getattr(node, ways) if ways else [node.then, node.orelse]):
        if way is not None:
            st.dangling = dict(before)
            run.walk(way)
            body = way.body if ways else way
            if not (body.value is None and body.stmts and body.stmts[-1]._prod in _LEAVES):
                after.update(st.dangling)
    st.dangling = {**before, **after} if ways is None and node.orelse is None else after


@check_loans.on("Local")
def _local(run, node):
    st = run.state
    if node.name in st.dangling and node is not st.written:
        _dangles(run, node, node.name, st.dangling[node.name])


@check_loans.on("Closure")
def _closure(run, node):
    run.state.types.bind(node.params)
    run.descend(node)


@check_loans.on("Let")
def _let(run, node):
    st = run.state
    run.walk(node.value)
    st.types.locals[node.name] = node.type
    st.declared[node.name] = len(st.frames) - 1
    _hold(st, node.name, _carried(st, node.value))


def _hold(st: State, name: str, loans: list[Loan], keep: bool = False) -> None:
    """`name` holds `loans` (and, unless it `keep`s them, no longer those it held) to the end
    of its block."""
    if not keep:
        st.dangling.pop(name, None)
        for frame in st.frames:
            frame[:] = [loan for loan in frame if loan.held_by != name]
    depth = st.declared.get(name, len(st.frames) - 1)
    line, col = _end(st, depth)
    ends = f"held by '{display_name(name)}' until the end of its block, at {line}:{col}"
    st.frames[depth].extend(replace(loan, held_by=name, ends=ends) for loan in loans)


@check_loans.on("Assign")
def _assign(run, node):
    st = run.state
    target = node.target
    fresh = target._prod == "Local" and node.op == "="
    if fresh:  # `p = &mut x;` may take again what p held: p's old loans end here
        st.releasing.append(target.name)
    run.walk(node.value)  # first, as Rust does: `x = f(&x)` lends x only for the call
    if fresh:
        st.releasing.pop()
    else:
        # `h.t = ..` writes a part of h without reading h; `h.t[i] = ..` reads h.t.
        st.written = _part_of(target) if node.op == "=" else None
        run.walk(target)  # the indices, and what they borrow
        st.written = None
    x = root(target)
    if x is not None and st.types.through(target) is None:
        what = f"'{display_name(x)}'" if target._prod == "Local" else f"`{_text(target)}`"
        _changed(run, target, x, f"assign to {what}")
    if fresh:
        _hold(st, target.name, _carried(st, node.value))
    elif (whole := _part_of(target)) is not None and whole is not target:
        _hold(st, whole.name, _carried(st, node.value), keep=True)


def _part_of(place):
    """The variable `place` is, or a field or a tuple's element of (`h`, `h.t`, `p.0.f`),
    else None."""
    while place._prod in ("FieldGet", "TupleGet"):
        place = place.base
    return place if place._prod == "Local" else None


@check_loans.on("Call")
def _call(run, node):
    st = run.state
    run.walk(node.callee)
    movers = st.movers.moved(node, st.types.locals)
    lent = len(st.temporary)
    for arg in node.args:
        run.walk(arg)
        if arg in movers:
            _changed(run, arg, arg.name, f"move '{display_name(arg.name)}' into the call of "
                                         f"'{callee_name(node)}'")
        ends = f"lent to `{_text(node)}` until it returns"
        st.temporary.extend(replace(loan, ends=ends) for loan in _carried(st, arg))
    del st.temporary[lent:]


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
    live = _live(st, x)
    shown = display_name(x)
    mutable = [loan for loan in live if loan.mutable]
    if node.mutable and live:
        # Against shared loans only, `&mut x` is the start of a write to their owner: E4004.
        _conflict(run, "E4002" if mutable else "E4004", node, (mutable or live)[0],
                  f"cannot borrow '{shown}' as mutable")
    elif not node.mutable:
        if mutable:
            _conflict(run, "E4003", node, mutable[0], f"cannot borrow '{shown}' as shared")


# -- references outliving what they name -------------------------------------------------------


def _outlived(run, depth: int) -> None:
    """The block of frame `depth` ends: each loan of a variable it declared that a variable
    of an outer block holds dangles."""
    st = run.state
    ends = _end(st, depth)
    for frame in st.frames[:depth]:
        gone = [loan for loan in frame if st.declared.get(loan.root) == depth
                and _names_root(st, loan)]
        frame[:] = [loan for loan in frame if loan not in gone]
        for loan in gone:
            st.dangling.setdefault(loan.held_by, (loan, ends))


def _names_root(st: State, loan: Loan) -> bool:
    """Whether `loan` names its root variable: a borrow through a reference p (`&*p`,
    `&p[i]`) names what p names, whose loans it carries, and does not end with p."""
    return st.types.through(loan.borrow.value) is None


_LEAVES = frozenset({"Return", "Break", "Continue"})
_UNSURE = frozenset({"Binary", "Closure", "While", "For", "Spawn"})  # may not run a part


def _first_read(parts, name: str):
    """The first read of `name` running `parts` in turn may make before it gives `name` a
    new value (`name = ..`) or leaves, and whether every way through them does one of those:
    (the read or None, surely given)."""
    for part in parts:
        read, given = _first_read_in(part, name)
        if read is not None or given:
            return read, given
    return None, False


def _first_read_in(node, name: str):
    kind = node._prod
    if kind == "Local":
        return (node if node.name == name else None), False
    if kind in _LEAVES:
        return _first_read(child_nodes(node), name)[0], True
    if kind == "Assign":
        read, given = _first_read((node.value,), name)
        if read is not None or given:
            return read, given
        whole = _part_of(node.target) if node.op == "=" else None
        if whole is None:  # `x += ..`, `t[i] = ..` read the target
            return _first_read((node.target,), name)
        # `h.t = ..` writes a part of h without reading it, and gives h no new value whole.
        return None, whole is node.target and whole.name == name
    if kind in ("If", "IfExpr", "Match", "MatchValue"):
        read, given = _first_read((node.cond if kind.startswith("If") else node.scrutinee,),
                                  name)
        if read is not None or given:
            return read, given
        ways = ([node.then, node.orelse] if kind.startswith("If") else
                [arm.body for arm in (node.arms if kind == "Match" else node.cases)])
        found = [_first_read((way,), name) if way is not None else (None, False)
                 for way in ways]
        read = next((r for r, _ in found if r is not None), None)
        return read, read is None and bool(found) and all(given for _, given in found)
    if kind == "Block":
        return _first_read((*node.stmts, *([node.value] if node.value is not None else [])),
                           name)
    read, given = _first_read(child_nodes(node), name)
    return read, given and kind not in _UNSURE


def _dangles(run, at, holder: str, dangling: tuple, read: str = "it is read") -> None:
    """E4005 at `at`, a read of `holder`, which holds `dangling`, a loan of a variable that
    has gone, and where its block ends."""
    st = run.state
    loan, (line, col) = dangling
    key = (loan.borrow.span if loan.borrow.span is not None else id(loan.borrow), "E4005")
    if st.reported.again(key, copy=loan.root):
        return
    x, h = display_name(loan.root), display_name(holder)
    at_line, at_col = _line_col(at)
    run.ctx.diagnostics.error(
        "E4005", at.span,
        f"'{x}' does not live long enough: its block ends at {line}:{col}, and '{h}' still "
        f"holds `{_text(loan.borrow)}` when {read}, at {at_line}:{at_col}",
        labels=[Label(loan.borrow.span, f"'{x}' borrowed here")]
        if loan.borrow.span is not None else [],
        help=[f"declare '{x}' in the block of '{h}' (or an outer one), or give '{h}' a new "
              f"value before the end of the block of '{x}'"],
        name=x, holder=h, ends={"line": line, "column": col})
    st.reported.said(key, run.ctx.diagnostics.items[-1], copy=loan.root)


# -- reports ----------------------------------------------------------------------------------


def _changed(run, at, x: str, what: str) -> None:
    """E4004 at `at` when a loan of `x` lasts here."""
    live = _live(run.state, x)
    if live:
        _conflict(run, "E4004", at, live[0], f"cannot {what}")


def _conflict(run, code: str, at, loan: Loan, what: str) -> None:
    """`code` at `at`, naming `loan`, the one in the way; once for all the copies `unroll
    across` made of it."""
    key = (at.span if at.span is not None else id(at), code)
    said = run.state.reported
    if said.again(key, copy=loan.root):
        return
    x = display_name(loan.root)
    kind = "mutable" if loan.mutable else "shared"
    line, col = _line_col(loan.borrow)
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


def _line_col(node) -> tuple[int, int]:
    return node.span.source.line_col(node.span.start) if node.span is not None else (0, 0)


def _text(node) -> str:
    return written(node).strip()


def _end(st: State, depth: int):
    block = st.blocks[depth]
    return block.span.source.line_col(block.span.end - 1) if block.span is not None else (0, 0)

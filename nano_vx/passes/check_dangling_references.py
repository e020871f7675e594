"""check-dangling-references: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Label
from ..languages.lsrc import DESCRIPTIONS
from ..languages.lunrolled import OncePerPlace
from ..languages.lresolved import display_name
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis
from ..nanopass.verify import child_nodes
from ..placement.loans import Holdings, line_col, part_of
from ..values.constants import written


@dataclass
class Turns:
    """An open loop: the frame of its body, and the holders a `continue` or a `break` leaves
    dangling (for the next turn, or after the loop)."""
    at: int
    next: dict = field(default_factory=dict)
    after: dict = field(default_factory=dict)


@dataclass
class State:
    holdings: Holdings = field(default_factory=Holdings)  # the loans the variables hold
    loops: list[Turns] = field(default_factory=list)  # the open loops, innermost last
    dangling: dict[str, tuple] = field(default_factory=dict)  # holder -> (loan, its end)
    written: object = None  # the variable an assignment gives a part of, which it does not read
    reported: OncePerPlace = field(default_factory=OncePerPlace)


check_dangling_references = Analysis("check-dangling-references", Lrouted, """
Refuse a reference read after the variable it names has gone (E4005).

A variable holds the loans of the value it is given, as check-loans reads them: `let r = &a;`
or `r = &a;` a loan of a, a struct or a tuple the loans of its fields' values (`Holder { t:
&mut a }`, `(&a, 1)`), a copy of a reference or a call returning one the loans they carry;
assigning a part of a variable (`h.t = &mut a;`) adds the value's loans to those the variable
holds. When a block ends, a loan of a variable it declared that a variable of an outer block
still holds dangles: a later read of that holder is E4005 (Rust's E0597), and so is a read of
it in a loop the block is inside, which the next turn reaches first, unless the loop's body
gives the holder a new value (`h = ..`) before. Giving the holder a new value ends the
dangling loan; a borrow through a reference (`&*p`, `&p[i]`) names what p names, so it does
not dangle with p. Each way counts on its own: what one branch of an `if` or a `match` leaves
dangling dangles after it whatever another branch does (not what a branch that returns or
leaves the loop does), a `continue` carries what it leaves dangling to the next turn and a
`break` past the loop, and a loop that may not run keeps what dangled before.
""", skip=DESCRIPTIONS, state=State)


@check_dangling_references.on("Program")
def _program(run, node):
    st = run.state
    st.holdings = Holdings.of(node)
    for fn in (item for item in node.items if item._prod == "Fn"):
        st.holdings.enter(fn)
        st.dangling = {}
        run.walk(fn.body)
    st.reported.note_copies()


@check_dangling_references.on("Block")
def _block(run, node):
    """The block ends: each loan of a variable it declared that a variable of an outer block
    holds dangles."""
    st = run.state
    st.holdings.open(node)
    run.descend(node)
    ends = st.holdings.end(len(st.holdings.frames) - 1)
    for loan in st.holdings.close():
        st.dangling.setdefault(loan.held_by, (loan, ends))


@check_dangling_references.on("While", "For")
def _loop(run, node):
    st = run.state
    holdings = st.holdings
    if node._prod == "For":
        holdings.declared[node.var] = len(holdings.frames)  # the loop's variable lives in its body
    before = dict(st.dangling)
    st.loops.append(Turns(len(holdings.frames)))
    run.descend(node)
    turns = st.loops.pop()
    # The next turn reads what this one left dangling unless it gives the holder a new value
    # first; after the loop, what any turn (or none) left dangles.
    for holder, dangling in {**turns.next, **st.dangling}.items():
        if holdings.declared.get(holder, 0) < turns.at:
            read, _ = _first_read((node.body,) if node._prod == "For" else
                                  (node.cond, node.body), holder)
            if read is not None:
                _dangles(run, read, holder, dangling, "the next turn reads it")
    st.dangling = {**turns.after, **before, **st.dangling}


@check_dangling_references.on("Break", "Continue")
def _leave(run, node):
    st = run.state
    holdings = st.holdings
    turns = st.loops[-1]
    leaving = {loan.held_by: (loan, holdings.end(holdings.declared[loan.root]))
               for frame in holdings.frames[:turns.at] for loan in frame
               if holdings.declared.get(loan.root, -1) >= turns.at and holdings.names_root(loan)}
    (turns.next if node._prod == "Continue" else turns.after).update(
        {**leaving, **st.dangling})


@check_dangling_references.on("If", "IfExpr", "Match", "MatchValue")
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


@check_dangling_references.on("Local")
def _local(run, node):
    st = run.state
    if node.name in st.dangling and node is not st.written:
        _dangles(run, node, node.name, st.dangling[node.name])


@check_dangling_references.on("Closure")
def _closure(run, node):
    run.state.holdings.types.bind(node.params)
    run.descend(node)


@check_dangling_references.on("Let")
def _let(run, node):
    st = run.state
    run.walk(node.value)
    st.dangling.pop(node.name, None)
    st.holdings.let(node)


@check_dangling_references.on("Assign")
def _assign(run, node):
    """`r = ..` ends what r held dangling; `h.t = ..` adds to what h holds, and keeps it."""
    st = run.state
    target = node.target
    run.walk(node.value)
    if target._prod == "Local" and node.op == "=":
        st.dangling.pop(target.name, None)
    else:
        # `h.t = ..` writes a part of h without reading h; `h.t[i] = ..` reads h.t.
        st.written = part_of(target) if node.op == "=" else None
        run.walk(target)
        st.written = None
    st.holdings.assigned(node)


# -- the first read on the next turn ---------------------------------------------------------


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
        whole = part_of(node.target) if node.op == "=" else None
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
    at_line, at_col = line_col(at)
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


def _text(node) -> str:
    return written(node).strip()

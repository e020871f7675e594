"""drop-chosen-placeholders: Ldrops -> Ldrops.

Same IL: a drop is nothing to the interpreter, so it runs the output as it ran the input."""

from __future__ import annotations

from ..backend.buffers import (defines, fresh_results, keeping_calls, kept_in_place, live_in,
                               makes_fresh, only_elements, tensor_ranks)
from ..languages.ldrops import Ldrops
from ..nanopass import Pass, descendants
from ..scalars.block_scopes import immediate_dominators, successors

drop_chosen_placeholders = Pass("drop-chosen-placeholders", Ldrops, Ldrops, """
Drop the new tensor an arm of an `if` choosing an enum gives a part of a variant it does not
hold, where another arm gives that part another local's tensor, after the part's last read,
unless the part holds that local's buffer.

`let b = if c { Buf::Full(t) } else { Buf::Empty };` is, once scalarize-aggregates is done,
`let mut b_Full_0 = T::new();` and an arm each, `b_Full_0 = t;` (through a `let` of t) and
`let agg#3 = T::new(); b_Full_0 = agg#3;`: the part's variable holds t's buffer, which t
owns, or a buffer nobody owns, and which the variant says as the program runs, so
insert-drops drops none of its buffers (drop-replaced-buffers drops the start the arms
replace) and a loop choosing the enum kept one buffer a turn where it chose another variant.
After the statement that reads the part last, `drop b_Full_0 apart from t;` (Ldrops'
`DropApart`) gives the part's buffer back where its address differs from t's; so does one
at the start of each block, of one way in, that a way out of the part's live range skipping
that read enters (a `continue` before the call), where every way from it gives the part a
new value before any drop of it: no drop after gives back the buffer it held there.

For a variable whose `let` gives it a fresh tensor and whose every assignment gives it a
fresh tensor, a local bound once to one and named nowhere else (nor dropped), or the one
local (not a variable) whose buffer it may hold, bound where every way to its reads passes;
drops only just before an assignment of it; read only in one block, by its elements, its
extents, as an argument of a call that cannot hand it on (`first(b_tag, b_Full_0)`), or
moved to a local read so after it in that block alone and dead after it (`let u =
b_Full_0;` of `match b { Buf::Full(u) => .. }` in place: the drop comes after u's last
read), and not live after that block.
""")

Drop, DropApart = Ldrops["Drop"], Ldrops["DropApart"]


@drop_chosen_placeholders.on("Program")
def _program(run, node):
    fresh, keeping = fresh_results(node), keeping_calls(node)
    return node.replace(items=tuple(_fn(i, fresh, keeping) if i._prod == "Fn" else i
                                    for i in node.items))


def _fn(fn, fresh: frozenset, keeping: frozenset):
    ranks = tensor_ranks(fn)
    lets: dict = {}  # a local -> [(its block's label, its index there, its let)]
    for b in fn.blocks:
        for k, s in enumerate(b.stmts):
            if s._prod == "Let":
                lets.setdefault(s.name, []).append((b.label, k, s))
    found: dict = {}  # a block's label -> [(after the statement at this index, the drop)]
    idom = None
    for name in fn.cells:
        if name not in ranks or len(lets.get(name, ())) != 1:
            continue
        held = _held(fn, name, lets, fresh)
        if held is None:
            continue
        at = _read_once(fn, name, ranks[name], keeping)
        if at is None:
            continue
        label, index = at
        idom = idom if idom is not None else immediate_dominators(fn.blocks)
        drop = Drop(name) if not held else DropApart(name, held)
        # After the read, and at the start of each way out of the part's live range that
        # skips it (index -1: before the block's first statement).
        for where in [(label, index), *((s, -1) for s in _skipping(fn, name))]:
            if not held or _dominates(lets[held][0], (where[0], max(where[1], 0)), idom):
                found.setdefault(where[0], []).append((where[1], drop))
    if not found:
        return fn
    blocks = []
    for b in fn.blocks:
        stmts = list(b.stmts)
        for index, drop in sorted(found.get(b.label, ()), key=lambda d: -d[0]):
            span = stmts[index].span if index >= 0 else b.exit.span
            stmts.insert(index + 1, drop.replace(span=span))
        blocks.append(b.replace(stmts=tuple(stmts)))
    return fn.replace(blocks=tuple(blocks))


def _skipping(fn, name: str) -> list:
    """The blocks with one way in, from a block after which the variable is live, that it
    is dead into (a `continue`, a `break` or a `return` before the block reading it), from
    whose start every way gives it a new value before a drop of it: there it holds the
    buffer of the turn, which nothing reads or drops after."""
    live = live_in(fn, {name: {name}})
    ways_in: dict = {}
    for b in fn.blocks:
        for t in successors(b):
            ways_in.setdefault(t, []).append(b)
    found = []
    for b in fn.blocks:
        froms = ways_in.get(b.label, [])
        if name in live[b.label] or len(froms) != 1:
            continue
        if any(name in live.get(t, ()) for t in successors(froms[0])) and \
                _defined_first(fn, name, b.label):
            found.append(b.label)
    return found


def _defined_first(fn, name: str, start: str) -> bool:
    """Whether every way from block `start`'s start gives the variable a new value (its
    `let`, an assignment) before a drop of it (drop-replaced-buffers' just before an
    assignment), so that no drop there gives back the buffer it holds at that start."""
    blocks = {b.label: b for b in fn.blocks}
    seen, todo = set(), [start]
    while todo:
        label = todo.pop()
        if label in seen:
            continue
        seen.add(label)
        b = blocks[label]
        for s in b.stmts:
            if s._prod in ("Drop", "DropApart") and s.name == name:
                return False
            if name in defines(s):
                break
        else:
            todo.extend(successors(b))
    return True


def _held(fn, name: str, lets: dict, fresh: frozenset) -> str | None:
    """The one other local whose buffer the variable may hold, when every buffer it holds
    is that one's or one made for it alone ("" when it holds only those)."""
    if not makes_fresh(lets[name][0][2].value, fresh):
        return None
    others: set = set()
    for b in fn.blocks:
        for k, s in enumerate(b.stmts):
            if s._prod == "DropApart" and name in (s.name, s.kept):
                return None
            if s._prod == "Drop" and s.name == name:
                after = b.stmts[k + 1] if k + 1 < len(b.stmts) else None
                if after is None or _assigned(after) != name:
                    return None
            if _assigned(s) != name:
                continue
            if s.op != "=":
                return None
            v = s.value
            if v._prod != "Local":
                if not makes_fresh(v, fresh):
                    return None
            elif _placeholder(fn, v.name, lets, fresh):
                continue
            else:
                others.add(_root(v.name, lets, fn))
    if not others:
        return ""
    if len(others) != 1:
        return None
    (other,) = others
    return other if other in lets and other not in fn.cells and len(lets[other]) == 1 \
        else None


def _assigned(s) -> str | None:
    return s.target.name if s._prod == "Assign" and s.target._prod == "Local" else None


def _placeholder(fn, local: str, lets: dict, fresh: frozenset) -> bool:
    """A local bound once, not a variable, to a fresh tensor or to such a local (`let agg#1 =
    u;` of a `let u` in the arm), named otherwise only by its elements and extents and
    where it is given on (once, in the block of its `let`: given in a loop its `let` is
    outside, it would give every turn the one buffer), and never dropped."""
    if len(lets.get(local, ())) != 1 or local in fn.cells:
        return False
    rank = tensor_ranks(fn).get(local)
    on = []
    for b in fn.blocks:
        for s in (*b.stmts, b.exit):
            if s._prod in ("Drop", "DropApart") and local in (s.name, getattr(s, "kept", None)):
                return False
            if rank is None or not only_elements(s, local, rank):
                if not any(n._prod == "Local" and n.name == local for n in descendants(s)):
                    continue
                on.append((b.label, s))
    if len(on) != 1 or on[0][0] != lets[local][0][0]:
        return False
    given = on[0][1]
    if given._prod not in ("Assign", "Let") or given.value._prod != "Local":
        return False
    value = lets[local][0][2].value
    return makes_fresh(value, fresh) or value._prod == "Local" and _placeholder(
        fn, value.name, lets, fresh)


def _root(local: str, lets: dict, fn) -> str:
    """The local a chain of `let`s moving a tensor (`let agg#1 = t;`) starts at."""
    seen = set()
    while local in lets and len(lets[local]) == 1 and local not in fn.cells \
            and lets[local][0][2].value._prod == "Local" and local not in seen:
        seen.add(local)
        local = lets[local][0][2].value.name
    return local


def _read_once(fn, name: str, rank: int, keeping: frozenset) -> tuple | None:
    """(the block, the index of the statement reading the variable last) where one block
    alone reads it, only in place or moving it to a local read so there (`let u =
    b_Full_0;` of a `match` in place), and it is dead after that block."""
    at = None
    for b in fn.blocks:
        for k, s in enumerate(b.stmts):
            if _assigned(s) == name or s._prod in ("Drop", "Let") and s.name == name:
                continue
            if any(n._prod == "Local" and n.name == name for n in descendants(s)):
                moved = s._prod == "Let" and s.value._prod == "Local"
                last = _moved_on(fn, s.name, b, k, rank, keeping) if moved else k
                if last is None or not moved and not kept_in_place(s, name, rank, keeping) \
                        or at is not None and at[0] != b.label:
                    return None
                at = (b.label, max(last, at[1] if at else last))
        if any(n._prod == "Local" and n.name == name for n in descendants(b.exit)):
            return None
    if at is None:
        return None
    block = next(b for b in fn.blocks if b.label == at[0])
    live = live_in(fn, {name: {name}})
    if any(name in live.get(t, ()) for t in successors(block)):
        return None
    if any(_assigned(s) == name or s._prod == "Let" and s.name == name
           for s in block.stmts[:at[1]]):
        return None
    return at


def _moved_on(fn, local: str, block, at: int, rank: int, keeping: frozenset) -> int | None:
    """The index of the statement of `block` reading `local` last, where its `let` at index
    `at` moves the part to it, when it is no variable, never dropped, named nowhere else but
    after there in that block, in place, and dead after it."""
    if local in fn.cells:
        return None
    last = at
    for b in fn.blocks:
        for k, s in enumerate(b.stmts):
            if b is block and k == at:
                continue
            dropping = s._prod in ("Drop", "DropApart") and local in (s.name, getattr(
                s, "kept", None))
            if not dropping and not (s._prod == "Let" and s.name == local) and not any(
                    n._prod == "Local" and n.name == local for n in descendants(s)):
                continue
            if dropping or b is not block or k < at or local in defines(s) or \
                    not kept_in_place(s, local, rank, keeping):
                return None
            last = k
        if any(n._prod == "Local" and n.name == local for n in descendants(b.exit)):
            return None
    live = live_in(fn, {local: {local}})
    if any(local in live.get(t, ()) for t in successors(block)):
        return None
    return last


def _dominates(let_at: tuple, read_at: tuple, idom: dict) -> bool:
    """Whether the `let` at (block, index) is passed on every way to (block, index)."""
    label, index, _ = let_at
    if label == read_at[0]:
        return index < read_at[1]
    at = read_at[0]
    while at in idom:
        at = idom[at]
        if at == label:
            return True
    return False

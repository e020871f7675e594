"""What a kernel's moves of a tensor its launch lends it leave readable, read off the tree:
defer-kernel-moves moves a copy instead, which leaves the tensor readable where the
interpreter's move stops a later read, so it asks here whether anything can read it after
a move but the moving closure's own calls, which check its flag."""

from __future__ import annotations

from ..nanopass import descendants
from ..nanopass.verify import child_nodes
from .aggregates import is_tensor, lent, strip
from .moved_flags import collect, late_reads

# The expression a statement computes before its blocks, where a check before it is checked
# before that expression (an assignment's value is computed before its place is written).
_COMPUTED = {"Let": "value", "ExprStmt": "expr", "Return": "value", "If": "cond",
             "Assign": "value"}


def lent_tensor(param) -> bool:
    """Whether the parameter is a reference to a tensor."""
    return lent(param.type) and is_tensor(strip(param.type).inner)


def unread_after_moves(fn, param) -> bool:
    """Whether fn's closures let its moves of `param`'s tensor `t` be numbered: whether
    nothing can read `t` after a move of it, with closures about.

    The copy defer-kernel-moves moves leaves `*t` readable where the interpreter's move of `*t` stops
    a later read of it. The front end refuses such a read after a move written in the body
    (E4001), but not one through a closure, nor one after a closure's move, so fn may have
    closures only if none moves `t`, or one, `mover`, does and:
    - `mover` is bound by a `let` of fn's body and holds one `transfer`, of `t`: its block's
      value, or a `let` of its block after which the block is quiet;
    - fn names `mover` only in statements whose whole expression calls it (`mover(..);`,
      `let x = mover(..);`, `x = mover(..);`) or calls a closure given it, whose body names
      nothing else that may reach `t` (`call(mover)`, `call` being `|g| g()`): a later call's
      read of `t` after a move is the copy's, which checks the flag first (E9004); such a
      statement may be one of a block under fn's body (a loop's, an `if`'s arm);
    - after each such statement fn's body is quiet but for those statements (the block
      holding it, and each around it, after it; a loop around it all through, which runs
      again), and so after each move of `t` by a `let` not in `mover`, which is a statement
      of fn's body (one in a block under it is not seen).
    A block is quiet after a statement when nothing after it names what may reach `t`
    (`_reaching`), up to a statement assigning `t` whole, after which `t` holds a value
    again (that statement's value is read before, so it is looked at too)."""
    closures = [n for n in descendants(fn.body) if n._prod == "Closure"]
    sites = {id(s) for s in moving_sites(fn, param)}
    movers = [c for c in closures if any(id(n) in sites for n in descendants(c))]
    if not movers:
        return not closures
    if len(movers) != 1 or sum(n._prod == "Transfer" for n in descendants(movers[0])) != 1:
        return False
    mover, stmts = movers[0], fn.body.stmts
    name = next((s.name for s in stmts if s._prod == "Let" and s.value is mover), None)
    # Where its block moves `t`: past its statements for its value, else a `let` of it.
    at = len(mover.body.stmts) if id(mover) in sites else next(
        (i for i, s in enumerate(mover.body.stmts) if id(s) in sites), None)
    uses = sum(n._prod == "Local" and n.name == name for n in descendants(fn.body))
    calls = [path for path in _placed(fn.body, ())
             if _callee(_at(path)) == name or _hands(_at(path), name)]
    lets = [((fn.body, i),) for i, s in enumerate(stmts) if id(s) in sites]
    if name is None or at is None or not calls or uses != sum(
            n._prod == "Local" and n.name == name for path in calls
            for n in descendants(_at(path))) or \
            len(lets) != len(sites - {id(n) for n in descendants(mover)}):
        return False
    reaching = _reaching(fn, param.name)
    handing = {_callee(_at(path)) for path in calls} - {name}
    calling = {id(_at(path)) for path in calls}
    # The names of `t` reading nothing a move left: reads checking its flag, and places of
    # assignments of it whole.
    unread = {id(read) for reads in checked_reads(fn, param).values() for read in reads} | {
        id(n) for a in descendants(fn.body) if a._prod == "Assign" and a.op == "=" and
        at_tensor(a.target, param.name, lent_tensor(param)) for n in descendants(a.target)}
    return _quiet(mover.body, at, reaching, param) and all(
        _hands_only(stmts[:path[0][1]], _at(path), name, reaching) for path in calls) and all(
        _quiet_after(path, reaching - {name} - handing, param, calling, unread)
        for path in [*calls, *lets])


def checked_reads(fn, param) -> dict:
    """id() of each statement of fn's body, or of a block under it (not a closure's), that
    may run after a move of `param`'s tensor `t` (`after_moves`) and reads `*t` first -> its
    reads of `t`, the first first.

    defer-kernel-moves checks `t`'s flag before each such statement, where the interpreter
    stops (E9004) on the read of `t` moved: what the statement computes reads `*t` before
    anything else (names and literals aside), lends no reference to it and assigns no
    element of it, so a check before it is checked at the read, and what the copy moved
    leaves readable is never read."""
    return {id(s): reads for s in after_moves(fn, param) if (reads := _read_first(s, param))}


def after_moves(fn, param) -> list:
    """Each statement of fn's body, or of a block under it (not a closure's), that may run
    after a move of `param`'s tensor (a statement after one calling the closure moving it,
    or a `let` moving it, in source order, or in a loop around one)."""
    placed = list(_placed(fn.body, ()))
    sites = {id(s) for s in moving_sites(fn, param)}
    movers = {s.name for s in descendants(fn.body) if s._prod == "Let" and
              s.value._prod == "Closure" and any(
                  id(c) in sites for c in descendants(s.value))}
    moves = [k for k, path in enumerate(placed) if id(_at(path)) in sites or any(
        n._prod == "Local" and n.name in movers for n in descendants(_at(path)))]
    if not moves:
        return []
    loops = {id(block.stmts[i]) for k in moves for block, i in placed[k][:-1]
             if block.stmts[i]._prod in ("While", "For", "Loop")}
    return [_at(path) for k, path in enumerate(placed)
            if k > moves[0] or any(id(block.stmts[i]) in loops for block, i in path[:-1])]


def computed_field(s) -> str | None:
    """The field of statement s holding the expression it computes before its blocks."""
    return _COMPUTED.get(s._prod)


def computed(s):
    """The expression statement s computes before its blocks (None: none)."""
    return getattr(s, computed_field(s) or "", None)


def _read_first(s, param) -> list:
    """The reads of `*t` (t the tensor of `param`) that s computes, where the first is the
    first thing it computes and they are all s names of t: a check of t's flag before s is
    checked there; else none."""
    e = computed(s)
    if e is None or s._prod == "Assign" and any(
            n._prod == "Local" and n.name == param.name for n in descendants(s.target)) and not (
            s.op == "=" and at_tensor(s.target, param.name, lent_tensor(param))):
        return []
    events: list = []
    collect({param.name}, {}, set(), e, events,
            through=frozenset({param.name} if lent_tensor(param) else ()))
    reads = [ev for ev in events if ev[0] == "read"]
    named = sum(n._prod == "Local" and n.name == param.name for n in descendants(e))
    if not reads or named != len(reads) or any(ev[0] == "lent" for ev in events) or \
            late_reads(events):
        return []
    return [ev[2] for ev in reads]


def _placed(block, path: tuple):
    """The path, (block, index) from fn's body down, of each statement of block and of the
    blocks of its statements (a loop's, an `if`'s arms; not a closure's)."""
    for i, s in enumerate(block.stmts):
        here = (*path, (block, i))
        yield here
        for f in ("then", "orelse", "body"):
            inner = getattr(s, f, None)
            if inner is not None and inner._prod == "Block":
                yield from _placed(inner, here)


def _at(path: tuple):
    block, i = path[-1]
    return block.stmts[i]


def _quiet_after(path: tuple, names: set, param, calling: set, unread: set) -> bool:
    """Whether nothing after the statement `path` leads to names one of `names` (`_quiet` in
    each block around it), and nothing of a loop around it but the statements whose id()
    `calling` holds, which a later turn runs again, and the places of assignments of
    `param`'s tensor whole (written, not read: it holds a value again). Where the block of
    the statement assigns the tensor whole after it before anything can leave the block,
    nothing after the block, nor a later turn of a loop around it, sees the move. The names
    whose id() `unread` holds read nothing the move left."""
    block, i = path[-1]
    if _reassigned(block, i, param):
        return _quiet(block, i, names, param, unread)
    for depth, (block, i) in enumerate(path):
        s = block.stmts[i]
        written = {id(n.target) for n in descendants(s) if n._prod == "Assign" and
                   n.op == "=" and at_tensor(n.target, param.name, lent_tensor(param))}
        if depth < len(path) - 1 and s._prod in ("While", "For", "Loop") and any(
                n._prod == "Local" and n.name in names and id(n) not in unread
                for n in _outside(s, calling | written)):
            return False
        if not _quiet(block, i, names, param, unread):
            return False
    return True


def _reassigned(block, at: int, param) -> bool:
    """Whether a statement of block after `at` assigns `param`'s tensor whole, and none up to
    it may leave the block first (`break`, `continue`, `return`)."""
    for s in block.stmts[at + 1:]:
        if any(n._prod in ("Break", "Continue", "Return") for n in descendants(s)):
            return False
        if s._prod == "Assign" and s.op == "=" and \
                at_tensor(s.target, param.name, lent_tensor(param)):
            return True
    return False


def _outside(node, skipped: set):
    """The nodes under node but those under a node whose id() `skipped` holds."""
    for c in child_nodes(node):
        if id(c) not in skipped:
            yield c
            yield from _outside(c, skipped)


def _hands(s, name: str) -> bool:
    """Whether s's whole expression calls a local given the local `name` (`call(send)`)."""
    e = s.expr if s._prod == "ExprStmt" else s.value if s._prod in ("Let", "Assign") else None
    return e is not None and e._prod == "Call" and e.callee._prod == "Local" and any(
        a._prod == "Local" and a.name == name for a in e.args)


def _hands_only(before, s, name: str, reaching: set) -> bool:
    """Whether statement s calls `name` itself, or a closure a `let` of `before` (the
    statements of fn's body before it) binds whose body names of `reaching` only its
    parameters, given of `reaching` only `name`: what it does after calling it reads nothing
    the move left (a copy) and keeps nothing that may."""
    callee = _callee(s)
    if callee == name:
        return True
    e = s.expr if s._prod == "ExprStmt" else s.value
    c = next((x.value for x in before if x._prod == "Let" and x.name == callee and
              not x.mutable and x.value._prod == "Closure"), None)
    return c is not None and not any(
        n._prod == "Local" and n.name in reaching - {p.name for p in c.params}
        for n in descendants(c.body)) and not any(
        n._prod == "Local" and n.name in reaching - {name}
        for a in e.args for n in descendants(a))


def _callee(s):
    """The name of the local the statement s calls as its whole expression, if it does."""
    e = s.expr if s._prod == "ExprStmt" else s.value if s._prod in ("Let", "Assign") else None
    if e is not None and e._prod == "Call" and e.callee._prod == "Local":
        return e.callee.name
    return None


def _quiet(block, at: int, names: set, param, unread: frozenset = frozenset()) -> bool:
    """Whether nothing after statement `at` of block (the block's value too) names one of
    `names`, up to a statement assigning `param`'s tensor whole, whose value is read first;
    `at` past the statements is the block's value, which nothing follows; the names whose
    id() `unread` holds aside."""
    if at == len(block.stmts):
        return True
    rest = [block.stmts[at].target] if block.stmts[at]._prod == "Assign" else []
    for s in block.stmts[at + 1:]:
        if s._prod == "Assign" and s.op == "=" and \
                at_tensor(s.target, param.name, lent_tensor(param)):
            rest.append(s.value)
            break
        rest.append(s)
    else:
        rest += [] if block.value is None else [block.value]
    return not any(n._prod == "Local" and n.name in names and id(n) not in unread
                   for r in rest for n in descendants(r))


def _reaching(fn, name: str) -> set:
    """`name` and the variables of fn that may reach its value later: each a `let` or an
    assignment gives a value that may hold one (`_holds`), and the parameters of fn's
    closures once a call gives an argument that may hold one, until nothing is new."""
    closures = {s.name: s.value for s in descendants(fn.body)
                if s._prod == "Let" and not s.mutable and s.value._prod == "Closure"}
    params = {p.name for c in closures.values() for p in c.params} | {
        p.name for n in descendants(fn.body) if n._prod == "Closure" for p in n.params}
    names = {name}
    while True:
        found = set(names)
        for n in descendants(fn.body):
            if n._prod == "Let" and _holds(n.value, found, closures):
                found.add(n.name)
            elif n._prod == "Assign" and _holds(n.value, found, closures):
                found |= {m.name for m in descendants(n.target) if m._prod == "Local"}
            elif n._prod == "Call" and n.callee._prod != "Global" and any(
                    _holds(a, found, closures) for a in n.args):
                found |= params
        if found == names:
            return names
        names = found


def _holds(e, names: set, closures: dict) -> bool:
    """Whether the value of e may reach a variable of `names` (a closure naming one, the
    variable itself, a reference to it..): whether it names one, unless it is a number or a
    moved tensor, or the value of a call of a closure of `closures` (each bound by a `let`
    that is not `mut`) whose value may not, or that calls the closure it is given that
    way."""
    if not any(n._prod == "Local" and n.name in names for n in descendants(e)):
        return False
    if e._prod in ("Binary", "Unary", "Cast", "Index", "Transfer"):
        return False
    if e._prod == "Call" and e.callee._prod == "Local" and e.callee.name in closures:
        c = closures[e.callee.name]
        value, params = c.body.value, [p.name for p in c.params]
        if value is not None and value._prod == "Call" and not value.args and \
                not c.body.stmts and value.callee._prod == "Local" and \
                value.callee.name in params:  # `|g| g()`: the value of the closure it is given
            given = e.args[params.index(value.callee.name)]
            value = closures[given.name].body.value if given._prod == "Local" and \
                given.name in closures else given
        return value is not None and _holds(value, names, closures)
    return True


def at_tensor(e, name, through: bool) -> bool:
    """Whether e is the tensor the parameter `name` holds, or refers to if `through`."""
    if through:
        return e._prod == "Deref" and e.value._prod == "Local" and e.value.name == name
    return e._prod == "Local" and e.name == name


def moving_sites(fn, param) -> list:
    """The sites of fn moving the tensor of `param`: the `let`s (of its body or of a
    closure's) whose value does, and the closures whose block's value does."""
    return [s for s in descendants(fn.body) if moving(s) is not None and
            at_tensor(moving(s).value, param.name, lent_tensor(param))]


def moving(s):
    """The `transfer` that is the value of the `let` s or of the closure s's block."""
    e = s.value if s._prod == "Let" else s.body.value if s._prod == "Closure" else None
    return e if e is not None and e._prod == "Transfer" else None

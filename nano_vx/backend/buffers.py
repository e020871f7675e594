"""Which tensor buffers a function makes, and which of its tensor parameters no other one can
overlap: read off a program of basic blocks (Lcells and after) for find-owned-buffers, which
finds what a function owns for insert-drops to drop, and select-instructions, which marks the
distinct parameters noalias.

A buffer is fresh when the `let` that binds it makes it: a constructor, a tensor literal, a
transfer (native code copies into a buffer of the destination) or a call of a function whose
every `return` hands on a fresh buffer of its own, or a row of one (a cell handed on where
only such a buffer reaches it counts, whatever its `let` gave it)."""

from __future__ import annotations

from itertools import combinations

from ..nanopass.verify import child_nodes, descendants
from ..scalars.block_scopes import successors
from .machine_types import Ref, Tensor, vx_type

FRESH = frozenset({"TensorNew", "TensorLit", "Transfer"})


def tensor_results(program) -> frozenset:
    """The functions whose result is a tensor."""
    return frozenset(i.name for i in program.items
                     if i._prod == "Fn" and isinstance(vx_type(i.ret), Tensor))


def place_results(program) -> frozenset:
    """The functions whose result is a reference: a place that may be in an argument's
    buffer."""
    return frozenset(i.name for i in program.items
                     if i._prod == "Fn" and isinstance(vx_type(i.ret), Ref))


def fresh_results(program) -> frozenset:
    """The functions whose every `return` hands on a buffer the call made: the greatest set
    in which each returns only fresh tensors, or locals bound once to one (a call of a
    function of the set included) or to such a local (a move), or cells given only those
    (a local bound to such a cell too), so a recursive one counts on itself."""
    names = tensor_results(program)
    fns = [i for i in program.items if i._prod == "Fn" and i.name in names]
    fresh = frozenset(fn.name for fn in fns)
    while True:
        kept = frozenset(fn.name for fn in fns if _returns_fresh(fn, fresh))
        if kept == fresh:
            return fresh
        fresh = kept


def keeping_calls(program) -> frozenset:
    """The functions a call of which may hand on an argument's buffer: whose result is a
    tensor or a place, unless they return only buffers they made."""
    return (tensor_results(program) | place_results(program)) - fresh_results(program)


def keeps_nothing(n, keeping: frozenset) -> bool:
    """A call of a named function (print included) or a launch whose result cannot be an
    argument's buffer: no tensor, or one the call made (`keeping` are the others)."""
    name = getattr(n.callee, "name", None) if n._prod == "Call" else n.kernel
    return name is not None and name not in keeping


def kept_ranks(program) -> dict:
    """The functions a call of which may hand on an argument's buffer (keeping_calls), each
    with the rank of the tensor it returns, or returns a reference to (0: a scalar's place):
    the depth of the indices that read an element of what it returns."""
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    return {name: len(t.dims) if isinstance(t := vx_type(fns[name].ret), Tensor) else 0
            for name in keeping_calls(program)}


def hands_on(n, keeping) -> bool:
    """A call of a named function that may hand on an argument's buffer or a place in it
    (`keeping`)."""
    return n._prod == "Call" and n.callee._prod == "Global" and n.callee.name in keeping


def lent(e, kept: dict, ranks: dict) -> tuple[list, list]:
    """The locals whose buffer, or a place in it, the value of `e` may be, and what else `e`
    computes (indices, other arguments, all of an expression of another kind), which may
    hand buffers on in its own ways. The locals: a local itself or a row of it (`t[i]`, a
    view of t's buffer; `ranks`, tensor_ranks, say which), the tensor of an element borrowed
    (`&t[i]`) or reborrowed (`&*r`), and those the arguments of a call that may hand one on
    give, of what it returns or of a row of that (`kept`, kept_ranks, say which)."""
    names, rest, stack = [], [], [e]
    while stack:
        x = stack.pop()
        base, depth = x, 0
        while base._prod == "Index":
            base, depth = base.base, depth + 1
        if base._prod == "Local" and (not depth or depth < ranks.get(base.name, 0)):
            names.append(base.name)
            rest.extend(indices(x))
        elif hands_on(base, kept) and (not depth or depth < kept[base.callee.name]):
            stack.extend(base.args)
            rest.extend(indices(x))
        elif x._prod == "Borrow" and x.value._prod == "Deref":
            stack.append(x.value.value)
        elif x._prod == "Borrow" and x.value._prod == "Index":
            rest.extend(indices(x.value))
            stack.append(place_of(x.value))
        else:
            rest.append(x)
    return names, rest


def indices(place) -> list:
    """The index expressions of an element's place `t[i][j]`."""
    out = []
    while place._prod == "Index":
        out.append(place.index)
        place = place.base
    return out


def place_of(e):
    """What an index `t[i][j]` reads into: `t`."""
    while e._prod == "Index":
        e = e.base
    return e


def _returns_fresh(fn, fresh: frozenset) -> bool:
    exits = [b.exit for b in fn.blocks if b.exit._prod == "Return"]
    if not exits:
        return True
    lets, handed = frozenset(fresh_lets(fn, fresh)), _handed_definitions(fn)
    bound = [s for blk in fn.blocks for s in blk.stmts
             if s._prod == "Let" and id(s) in handed and s.name not in fn.cells]
    good = set(handed)
    while True:  # the greatest: a cell moved to a local moved to a cell, in any order
        held = lets
        while True:  # a cell given a local bound to another's buffer holds a fresh one too
            more = _moved(fn, held | fresh_cells(fn, fresh, held)
                          | {s.name for s in bound if id(s) in good})
            if more == held:
                break
            held = more
        kept = {n for n, defs in handed.items() if all(
            makes_fresh(d.value, fresh) or d.value._prod == "Local" and d.value.name in held
            or id(d) in good for d in defs)}
        if kept == good:
            return all(id(e) in good or _made_fresh(e.value, held) for e in exits)
        good = kept


def _handed_definitions(fn) -> dict:
    """What hands a tensor cell of `fn` on, whole or a row (a `return`, a `let` or an
    assignment of it), by id, each with the `let`s and assignments of the cell whose buffer
    it may find there. The cell's `let` may give it a buffer an assignment replaces on every
    way there (return-assigned-tensor-fields' `let mut t#1 = t;` of a function assigning the
    field whole): what it hands on is then never that one. A parameter kept in a cell is no
    such cell: the buffer it was given may be what is handed on."""
    lets, ranks = _lets(fn), tensor_ranks(fn)
    cells = frozenset(c for c in fn.cells if c in lets)

    def handing(node) -> str | None:
        held = node.value if node._prod in ("Return", "Let") or node._prod == "Assign" \
            and node.op == "=" else None
        depth = 0
        while held is not None and held._prod == "Index":
            held, depth = held.base, depth + 1
        return held.name if held is not None and held._prod == "Local" and held.name in \
            cells and (not depth or depth < ranks.get(held.name, 0)) else None
    given: dict = {}
    live = {b.label: {} for b in fn.blocks}  # at a block's start: cell -> the ids handing it
    changed = True
    while changed:
        changed = False
        for b in reversed(fn.blocks):
            now: dict = {}
            for t in successors(b):
                for cell, by in live.get(t, {}).items():
                    now[cell] = now.get(cell, frozenset()) | by
            for node in (b.exit, *reversed(b.stmts)):
                for cell in defines(node) if node is not b.exit else ():
                    for n in now.pop(cell, ()):
                        given.setdefault(n, {})[id(node)] = node
                cell = handing(node)
                if cell is not None:
                    now[cell] = now.get(cell, frozenset()) | {id(node)}
                    given.setdefault(id(node), {})
            if now != live[b.label]:
                live[b.label], changed = now, True
    # a cell handed on where its `let` may not have run yet may hold any buffer
    unknown = {n for by in live[fn.blocks[0].label].values() for n in by}
    return {n: list(defs.values()) for n, defs in given.items() if n not in unknown}


def _moved(fn, made: frozenset) -> frozenset:
    """`made` and the locals bound once, outside a cell, to one of them or to such a local
    (`let b = a;`): each holds the buffer it was bound to, and that alone."""
    cells, out = frozenset(fn.cells), set(made)
    moves = {name: s.value.name for name, (s, *more) in _lets(fn).items()
             if not more and name not in cells and s.value._prod == "Local"}
    changed = True
    while changed:  # along chains of moves, however they are ordered
        changed = False
        for name, of in moves.items():
            if of in out and name not in out:
                out.add(name)
                changed = True
    return frozenset(out)


def _made_fresh(e, made: frozenset) -> bool:
    """A tensor returned is fresh, or a local bound to one, or a row of such a local: the
    row's memref keeps the buffer's own address, so the caller that drops it gives back the
    whole buffer, which the function never drops (a row of it is returned)."""
    if e is not None and e._prod == "Index":
        e = place_of(e)
    return e is not None and (e._prod in FRESH or e._prod == "Local" and e.name in made)


def _lets(fn) -> dict:
    """Each local of `fn` bound by a `let`: its lets (one, unless a dump says otherwise)."""
    lets: dict = {}
    for blk in fn.blocks:
        for s in blk.stmts:
            if s._prod == "Let":
                lets.setdefault(s.name, []).append(s)
    return lets


def describe_owned_buffers(owned: dict) -> str:
    """The fact `owned_buffers` as text, for the dump after find-owned-buffers."""
    return "".join(f"{fn}: owns {', '.join(sorted(names)) or 'nothing'}\n"
                   for fn, names in owned.items())


def called(e) -> str | None:
    """The function of the program a call or a launch calls (Lcalls says which calls do;
    before it, a call of a name no function has calls the runtime); None for another node."""
    p = e._prod
    if p == "Call" and e.callee._prod in ("Local", "Global"):
        return e.callee.name
    return e.callee if p == "CallFn" else e.kernel if p == "Launch" else None


def makes_fresh(e, fresh: frozenset) -> bool:
    """An expression that makes a buffer (`fresh`: the functions whose result is one)."""
    return e._prod in FRESH or called(e) in fresh


def _flag_parameter(fn):
    """fn's last parameter where it is a `&mut bool`, else None."""
    flag = fn.params[-1] if fn.params else None
    if flag is None or flag.type._prod != "BorrowType" or not flag.type.mutable \
            or getattr(flag.type.inner, "name", None) != "bool":
        return None
    return flag


def flags_lent(fn, fresh: frozenset) -> bool:
    """Whether fn's last parameter is a `&mut bool` it sets only, to true, right before
    returning a parameter, every other `return` giving a tensor it made."""
    flag = _flag_parameter(fn)
    if flag is None:
        return False
    params = {p.name for p in fn.params[:-1]}
    for b in fn.blocks:
        sets = [s for s in b.stmts if _sets_flag(s, flag.name)]
        named = [s for s in b.stmts if names_local(s, flag.name)]
        if len(named) != len(sets) or names_local(b.exit, flag.name):
            return False
        if b.exit._prod != "Return":
            if sets:
                return False
            continue
        value = b.exit.value
        if value is None:
            return False
        if value._prod == "Local" and value.name in params:
            if not sets or b.stmts[-1] is not sets[-1]:
                return False
        elif sets or not makes_fresh(value, fresh):
            return False
    return True


def _sets_flag(s, flag: str) -> bool:
    return s._prod == "Assign" and s.op == "=" and s.target._prod == "Deref" \
        and s.target.value._prod == "Local" and s.target.value.name == flag \
        and s.value._prod == "Bool" and s.value.value is True



def names_local(node, name: str) -> bool:
    return any(n._prod == "Local" and n.name == name for n in descendants(node))


def result_flagging(fn, flagging: frozenset) -> bool:
    """Whether fn's last parameter is a `&mut bool` it only hands on, as the flag of a call
    of a function of `flagging` (`flags_lent`) whose result, or a local bound to it, every
    `return` gives and nothing drops: the flag is then true exactly where fn's result is the
    tensor of the parameter it lent that call, and else a buffer the call made."""
    flag = _flag_parameter(fn)
    if flag is None:
        return False
    named = [n for n in descendants(fn) if n._prod == "Local" and n.name == flag.name]
    lets = {}
    for b in fn.blocks:
        for s in b.stmts:
            if s._prod == "Let":
                lets[s.name] = None if s.name in lets else s
    made = [s for s in lets.values() if s is not None and called(s.value) in flagging
            and s.value.args and s.value.args[-1] is (named[0] if len(named) == 1 else None)]
    if len(made) != 1 or made[0].name in fn.cells:
        return False
    held = {made[0].name}
    grown = True
    while grown:
        more = {x for x, s in lets.items() if s is not None and x not in fn.cells and
                s.value._prod == "Local" and s.value.name in held}
        grown = not more <= held
        held |= more
    returns = [b.exit for b in fn.blocks if b.exit._prod == "Return"]
    return bool(returns) and all(
        r.value is not None and r.value._prod == "Local" and r.value.name in held
        for r in returns) and not any(
            s._prod == "Drop" and s.name in held or s._prod == "Assign" and
            s.target._prod == "Local" and s.target.name in held
            for b in fn.blocks for s in b.stmts)


def fresh_lets(fn, fresh: frozenset) -> dict:
    """The locals of `fn` bound once, outside a cell, to a fresh tensor (`fresh`: the
    functions whose result is one), each with its `let`."""
    cells = frozenset(fn.cells)  # a tuple in the tree: membership by set, once per local
    return {name: s for name, (s, *more) in _lets(fn).items()
            if not more and name not in cells and isinstance(vx_type(s.type), Tensor)
            and makes_fresh(s.value, fresh)}


def borrowers(fn, owners, own: frozenset, kept: dict) -> dict:
    """The locals of `fn` that may hold the buffer of one of the locals `owners`, or a place
    in it, each with the owners whose buffers it may hold: one bound or assigned (`=`) an
    owner or another such local whole (a reference to a tensor is the tensor by now, and a
    move names the buffer it moves) or a row of one, or what a call that may hand on an
    argument's buffer (`kept`, kept_ranks) returns of one (`let r = first(&t);`: the
    argument's buffer or a place in it, of any argument lent; lent), or a reference bound
    once, outside a cell, to an element of one (`let r = &t[i];`). A local of `owners` or
    of `own` (a cell given buffers of its own) holds none: what it is given moves to it."""
    cells, out, ranks = frozenset(fn.cells), {}, tensor_ranks(fn)
    whole = []  # (local, the local it is given)
    for name, lets in _lets(fn).items():
        s = lets[0]
        if len(lets) == 1 and name not in cells and s.value._prod == "Borrow" \
                and s.value.value._prod == "Index":
            base = place_of(s.value.value)
            if base._prod == "Local":
                whole.append((name, base.name))
    for blk in fn.blocks:
        for s in blk.stmts:
            to = s.name if s._prod == "Let" else s.target.name if (
                s._prod == "Assign" and s.op == "=" and s.target._prod == "Local") else None
            if to is not None and s.value._prod != "Borrow":  # an element's: bound once
                whole.extend((to, of) for of in lent(s.value, kept, ranks)[0])
    whole = [(to, of) for to, of in whole if to not in owners and to not in own]
    changed = True
    while changed:  # along chains of names, however they are ordered
        changed = False
        for to, of in whole:
            held = {of} if of in owners else out.get(of, frozenset())
            if not held <= out.get(to, frozenset()):
                out[to], changed = out.get(to, frozenset()) | held, True
    return out


def only_elements(node, name: str, rank: int) -> bool:
    """Whether node names the tensor local `name` (of rank `rank`) only to read or write an
    element of it or to ask its extents."""
    if node._prod == "Local":
        return node.name != name
    if node._prod == "Borrow":
        return not any(n._prod == "Local" and n.name == name for n in descendants(node))
    if node._prod == "Extent" and node.tensor._prod == "Local":
        return True
    if node._prod == "Index":
        base, index = node, []
        while base._prod == "Index":
            index.append(base.index)
            base = base.base
        if base._prod == "Local" and base.name == name:
            return len(index) == rank and all(only_elements(i, name, rank) for i in index)
    return all(only_elements(k, name, rank) for k in child_nodes(node))


def kept_in_place(node, name: str, rank: int, keeping: frozenset) -> bool:
    """Whether node names the tensor local `name` only by its elements and extents, or whole
    as an argument of a call that cannot hand it on (`print(t)`; `keeping`: keeping_calls),
    so that no other local holds its buffer after it."""
    if only_elements(node, name, rank):
        return True
    if node._prod == "Borrow":  # a place in the buffer, which may outlive the statement
        return False
    if node._prod == "Call" and keeps_nothing(node, keeping):
        return only_elements(node.callee, name, rank) and all(
            a._prod == "Local" or kept_in_place(a, name, rank, keeping) for a in node.args)
    if node._prod in ("Index", "Local"):
        return False
    return all(kept_in_place(k, name, rank, keeping) for k in child_nodes(node))


def handed_parameters(fn, fresh: frozenset) -> frozenset | None:
    """The indices of the tensor parameters fn may return whole, when every `return` of it
    gives one, a tensor it made (`fresh`: fresh_results) or a local given only those (or
    such a local: `let agg = p_b; let ret_a = agg; return ret_a;`), those locals and
    parameters named otherwise only by their elements and extents; None otherwise."""
    ranks = tensor_ranks(fn)
    params = {p.name: k for k, p in enumerate(fn.params) if p.name in ranks}
    returns = [b.exit for b in fn.blocks if b.exit._prod == "Return"]
    if not returns or any(r.value is None for r in returns):
        return None
    defs = [s for b in fn.blocks for s in b.stmts if defines(s)]
    returned = {r.value.name for r in returns if r.value._prod == "Local"} - set(params)
    given: set = set()  # the parameters returned, or given a returned local
    for r in returns:
        if r.value._prod == "Local" and r.value.name in params:
            given.add(r.value.name)
        elif r.value._prod != "Local" and not makes_fresh(r.value, fresh):
            return None
    changed = True
    while changed:
        changed = False
        for s in defs:
            if not defines(s) & returned:
                continue
            if s._prod == "Assign" and s.op != "=":
                return None
            v = s.value
            if v._prod == "Local" and v.name in params:
                given.add(v.name)
            elif v._prod == "Local" and v.name in ranks:
                changed = changed or v.name not in returned
                returned.add(v.name)
            elif not makes_fresh(v, fresh):
                return None
    if not given:
        return None
    watched = given | returned
    for b in fn.blocks:
        for s in (*b.stmts, b.exit):
            if s._prod == "Return" and s.value._prod == "Local" or defines(s) & returned:
                continue  # its value is one checked above
            if not all(only_elements(s, name, ranks[name]) for name in watched):
                return None
    return frozenset(params[name] for name in given)


def tensor_ranks(fn) -> dict:
    """The rank of each tensor local of `fn` a `let` binds or a parameter names."""
    typed = [*fn.params, *(s for blk in fn.blocks for s in blk.stmts if s._prod == "Let")]
    return {v.name: len(t.dims) for v in typed if isinstance(t := vx_type(v.type), Tensor)}


def reads(node, reading: dict) -> set:
    """What a statement or an exit reads of the names `reading` gives each local (an
    assignment to a local does not read it: it gives it a new value)."""
    if node._prod == "Assign" and node.target._prod == "Local":
        node = node.value
    return {r for n in descendants(node) if n._prod == "Local" and n.name in reading
            for r in reading[n.name]}


def defines(stmt) -> set:
    """What a statement gives a new value: a `let`'s local, an assigned local."""
    if stmt._prod == "Let":
        return {stmt.name}
    return {stmt.target.name} if stmt._prod == "Assign" and stmt.target._prod == "Local" \
        else set()


def live_in(fn, reading: dict) -> dict:
    """Label -> the names (those `reading` gives the locals it reads as) live into each
    block of `fn`: read on a way from its start before a statement defines them."""
    exit_reads = {b.label: reads(b.exit, reading) for b in fn.blocks}
    stmt_reads = {b.label: [reads(s, reading) for s in b.stmts] for b in fn.blocks}
    live = {b.label: set() for b in fn.blocks}
    changed = True
    while changed:
        changed = False
        for b in reversed(fn.blocks):
            now = set(exit_reads[b.label])
            for t in successors(b):
                now |= live.get(t, set())
            for s, read in zip(reversed(b.stmts), reversed(stmt_reads[b.label])):
                now = (now - defines(s)) | read
            if now != live[b.label]:
                live[b.label], changed = now, True
    return live


def fresh_cells(fn, fresh: frozenset, made: frozenset = frozenset()) -> set:
    """The tensor variables of `fn` kept in cells whose `let` and every assignment give
    them a fresh tensor, or the buffer of one of the locals `made` (which hold one the
    function made: a cell given one holds a buffer the call made, though not its own)."""
    lets = _lets(fn)
    cells = {name for name in fn.cells if len(lets.get(name, ())) == 1
             and isinstance(vx_type(lets[name][0].type), Tensor)
             and makes_fresh(lets[name][0].value, fresh)}
    for blk in fn.blocks:
        for s in blk.stmts:
            if s._prod == "Assign" and s.target._prod == "Local" and not (
                    s.op == "=" and (makes_fresh(s.value, fresh) or
                                     s.value._prod == "Local" and s.value.name in made)):
                cells.discard(s.target.name)
    return cells


# -- parameters no other one overlaps ----------------------------------------------------

_PARAMS = "parameters"  # the buffers a function was given: any two may be one


def distinct_parameters(program) -> dict:
    """Function -> the indices of its tensor parameters that, at every call and launch of
    it, get a buffer no other argument of that call shares (a reference passed beside it
    included, which may name one of its elements), and that it never puts in a cell. Two
    arguments are apart when each is a local whose buffer is known, and the two are not one:
    a fresh buffer of the caller's is its own, a local bound to another local (or to a view
    of it, `t.flatten()`) is that one's buffer, and the caller's own parameters may all be
    one buffer. What is not known (a
    cell, a call's result that may be an argument) may be any buffer."""
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    fresh = fresh_results(program)
    apart = {name: {k for k, p in enumerate(fn.params) if isinstance(vx_type(p.type), Tensor)}
             - _stored(fn) for name, fn in fns.items()}
    for fn in fns.values():
        roots = _roots(fn, fresh)
        for call in _calls(fn):
            name = called(call)
            if name not in apart:
                continue
            args = [_root(a, roots) for a in call.args]
            for i, j in combinations(sorted(apart[name]), 2):
                if j >= len(args) or None in (args[i], args[j]) or args[i] == args[j]:
                    apart[name] -= {i, j}
            for j, p in enumerate(fns[name].params):
                if j < len(call.args) and isinstance(vx_type(p.type), Ref):
                    apart[name] -= {i for i in apart[name] if i < len(args) and
                                    _may_share(call.args[j], args[i], roots)}
    return {name: frozenset(ks) for name, ks in apart.items()}


def _may_share(place, buffer, roots: dict) -> bool:
    """Whether a reference passed may name an element of the buffer `buffer` (a root)."""
    if place._prod == "Borrow" and place.value._prod == "Local":
        return False  # a variable's cell
    if place._prod == "Borrow" and place.value._prod == "Index":
        base = place.value
        while base._prod == "Index":
            base = base.base
        root = _root(base, roots)
        return root is None or buffer is None or root == buffer
    return True  # a reference handed on: its place is not known here


def _calls(fn):
    for blk in fn.blocks:
        for node in (*blk.stmts, blk.exit):
            yield from (n for n in descendants(node) if called(n) is not None)


def _roots(fn, fresh: frozenset) -> dict:
    """Local -> the buffer it holds, as a name: its own for a fresh one, its parameters'
    for a parameter, that of the local it was bound to; None for one not known."""
    known = {p.name: _PARAMS for p in fn.params}
    known.update({name: name for name in fresh_lets(fn, fresh)})
    cells = frozenset(fn.cells)
    alias = {name: _seen_flat(s.value).name for name, (s, *more) in _lets(fn).items()
             if not more and name not in cells and _seen_flat(s.value)._prod == "Local"}
    return _follow(alias, known)


def _seen_flat(e):
    """What `t.flatten()` views, whose buffer it is (a raw pointer into t); e otherwise."""
    return e.value if e._prod == "Flatten" else e


def _follow(alias: dict, known: dict) -> dict:
    """Each name of `known` and `alias` -> what `known` says of the name its chain of aliases
    ends at, or of the name where the chain first comes back to one it passed (a dump's
    cycle). Each link is followed once, however long the chains: a name met again takes
    the answer it was given."""
    roots: dict = {}
    for start in {*known, *alias}:
        path, at, name = [], {}, start
        while name in alias and name not in at and name not in roots:
            at[name] = len(path)
            path.append(name)
            name = alias[name]
        if name in roots:
            answer = roots[name]
        else:
            answer = known.get(name)
            if name in at:  # a cycle: each name on it ends at itself
                for c in path[at[name]:]:
                    roots[c] = known.get(c)
                del path[at[name]:]
        roots.update(dict.fromkeys(path, answer))
        roots.setdefault(start, answer)
    return roots


def _root(arg, roots: dict):
    arg = _seen_flat(arg)
    if arg._prod == "Local":
        return roots.get(arg.name)
    if arg._prod in FRESH:
        return object()  # a buffer made for this call alone
    return None


def _stored(fn) -> set:
    """The indices of the parameters `fn` puts in a cell (a pointer loaded back from one is
    not the parameter's to LLVM)."""
    index = {p.name: k for k, p in enumerate(fn.params)}
    cells, out = frozenset(fn.cells), set()
    for blk in fn.blocks:
        for s in blk.stmts:
            target = s.name if s._prod == "Let" else \
                s.target.name if s._prod == "Assign" and s.target._prod == "Local" else None
            if target in cells and s.value._prod == "Local" and s.value.name in index:
                out.add(index[s.value.name])
    return out

"""What native code asks of a function's closures, read off the tree alone: which are only
called where their `let` names them, what each reads of the variables around it."""

from __future__ import annotations

from ..languages.lresolved import display_name, unused_name
from ..languages.lscalars import Lscalars as L
from ..nanopass import child_nodes, descendants
from .storages import bound_locals, chosen_values, fresh_copy
from ..values.numbers import INT_TYPES


def names(node, name: str) -> bool:
    """Whether the local `name` is read anywhere in node."""
    return any(n._prod == "Local" and n.name == name for n in descendants(node))


def direct_closures(fn) -> dict:
    """The locals bound by `let` to a closure and used only as the callee of a call, never
    assigned: local -> its closure. Every other closure is a value."""
    return only_called(fn, lambda value: value._prod == "Closure")


def typed_by_calls(closures: dict) -> set:
    """id() of each closure of `closures` (locals -> the closures their `let`s bind) whose
    body indexes or dereferences a parameter of no written type, or gives one to a call of
    such a closure: only a call of it says whether that is a raw pointer or a tensor."""
    found: set = set()
    while True:
        more = {id(c) for c in closures.values()
                if id(c) not in found and _reads_untyped(c, closures, found)}
        if not more:
            return found
        found |= more


def _reads_untyped(closure, closures: dict, found: set) -> bool:
    untyped = {p.name for p in closure.params if p.type is None}
    for n in descendants(closure.body):
        read = (n.base,) if n._prod == "Index" else (n.value,) if n._prod == "Deref" else \
            n.args if n._prod == "Call" and n.callee._prod == "Local" and \
            id(closures.get(n.callee.name)) in found else ()
        if any(x._prod == "Local" and x.name in untyped for x in read):
            return True
    return False


def with_copies(let, copies, taken: set) -> tuple:
    """`let` of a closure, then a `let` of a copy of it named by each of `copies`, each
    binding its locals under names of its own, not among `taken` (which it adds to): a
    copy made beside the closure reads what it reads where it is called."""
    return (let,) + tuple(
        let.replace(name=copy, value=fresh_copy(let.value, {
            b: unused_name(display_name(b), taken) for b in bound_locals(let.value)}))
        for copy in copies)


def copies_per_kind(fn, kind_of, wanted, named, positions=None) -> tuple[dict, dict]:
    """For each closure a `let` of fn binds and that is only called, the kinds its calls give
    its parameters of no written type, or those `positions(closure's name, closure)` gives
    (`kind_of(argument)`, a tuple per call); where they give two or more that
    `wanted(kinds)` accepts, a copy per kind after the first, named `named(closure's name,
    kind)`, which the calls giving that kind call. Returns the copies' names per closure's
    local and, per id() of a call, the copy it calls."""
    calls = [n for n in descendants(fn) if n._prod == "Call" and n.callee._prod == "Local"]
    copies, callee = {}, {}
    for name, closure in direct_closures(fn).items():
        untyped = positions(name, closure) if positions is not None else \
            [k for k, p in enumerate(closure.params) if p.type is None]
        given = {id(call): tuple(kind_of(call.args[k]) for k in untyped)
                 for call in calls if call.callee.name == name
                 and len(call.args) == len(closure.params)}
        first, *others = dict.fromkeys(given.values()) or (None,)
        if not untyped or not others or not wanted([first, *others]):
            continue
        named_by = {kind: named(name, kind) for kind in others}
        copies[name] = list(named_by.values())
        callee.update((i, named_by[kind]) for i, kind in given.items() if kind in named_by)
    return copies, callee


def only_called(fn, bound) -> dict:
    """The locals bound by `let` to a value `bound(value)` accepts and used only as the
    callee of a call, never assigned: local -> its value."""
    lets = {n.name: n.value for n in descendants(fn) if n._prod == "Let" and bound(n.value)}
    called = {id(n.callee) for n in descendants(fn) if n._prod == "Call"}
    for n in descendants(fn):
        if n._prod == "Local" and id(n) not in called:
            lets.pop(n.name, None)
    return lets


def returned_closures(fn) -> dict:
    """id() of each closure that is the value of the closure around it, bound by a `let` and
    only called, each call the value of a `let` (or of an assignment `f = ..` to a variable
    such a `let` binds) of a variable otherwise only called or copied by a `let` into a
    variable likewise used (the copy not assigned: it names the same value; of one assigned,
    see _copied_apart) -> (the name of
    that closure, what it reads of the parameters and the `let`s of that closure's body,
    those of them the value assigns or lends `&mut`, those of them that are parameters
    neither closure assigns nor lends `&mut`, where each assignment of a call is in the
    scope of its variable's `let`). What the closure around it does to
    them ends before it returns the value (its body's last value), and nothing but the value
    reaches its frame after that, so a copy made as it returns reads what the interpreter's
    frame of that call holds when the value is first called; one the value changes is a cell
    its calls share (the value is only called where its `let` or a copy's names it, all in
    the `let`'s scope: capture-environments makes the copy a variable beside that `let`,
    lent to each call). A parameter neither changes holds, at each call of the value, what
    the call of the closure around it was given: its argument is the copy."""
    parents = {id(c): n for n in descendants(fn) for c in child_nodes(n)}
    uses: dict = {}
    for n in descendants(fn):
        if n._prod == "Local":
            uses.setdefault(n.name, []).append(n)
    found = {}
    for name, outer in direct_closures(fn).items():
        inner = outer.body.value
        if inner is None or inner._prod != "Closure" or _returns(outer.body):
            continue
        own = {p.name for p in outer.params} | \
            {s.name for s in outer.body.stmts if s._prod == "Let"}
        env = [v for v in captures(inner) if v in own]
        calls = [parents[id(n)] for n in uses.get(name, ())]
        changed = _changed(inner)
        cells = [v for v in env if v in changed]
        given = {p.name for p in outer.params} - _changed(outer.body) - bound_in(outer.body)
        if not _assigned_where_bound(calls, parents):
            given = set()
        if env and _kept(calls, parents, uses, fn):
            found[id(inner)] = (name, env, cells, [v for v in env if v in given])
    return found


def _assigned_where_bound(calls, parents) -> bool:
    """Whether each assignment of a call to a local is in the closure (or the function's own
    body) whose `let` binds that local: an argument bound to the copy there is assigned to a
    variable of that scope, not to one a closure captures (which lift-closures would pass as
    a reference, of a tensor too)."""
    sites = [parents.get(id(c)) for c in calls]
    bound = {s.name: _closure_around(s, parents) for s in sites if s is not None and
             s._prod == "Let"}
    return all(_closure_around(s, parents) is bound.get(s.target.name) for s in sites
               if s is not None and s._prod == "Assign" and s.target._prod == "Local")


def _changed(node) -> set:
    """The locals a node assigns or lends `&mut`."""
    places = [n.target for n in descendants(node) if n._prod == "Assign"] + \
        [n.value for n in descendants(node) if n._prod == "Borrow" and n.mutable]
    return {p.name for p in places if p._prod == "Local"}


def _kept(calls, parents, uses, fn) -> bool:
    """Whether each call is the value of a `let`, or of an assignment to a local such a `let`
    binds, and each local so bound is otherwise only called or copied (`_copies`) in the
    function fn."""
    sites = [parents.get(id(c)) for c in calls]
    let_bound, targets = set(), set()
    for call, site in zip(calls, sites):
        if site is not None and site._prod == "Let" and site.value is call:
            let_bound.add(site.name)
        elif site is not None and site._prod == "Assign" and site.value is call and \
                site.op == "=" and site.target._prod == "Local":
            targets.add(id(site.target))
        else:
            return False
    assigned = {n.name for ns in uses.values() for n in ns if id(n) in targets}
    if not assigned <= let_bound:
        return False
    todo, seen = list(let_bound), set(let_bound)
    while todo:
        f = todo.pop()
        copies = _copies(f, parents, uses, targets)
        if copies is None or f in assigned and not _copied_apart(f, copies, parents, uses, fn):
            return False
        for name in copies:
            if name not in seen:
                seen.add(name)
                todo.append(name)
    return True


def _copies(f, parents, uses, targets) -> list | None:
    """The locals `let g = f;` binds, none assigned (g calls the same value, its environment
    f's, a cell shared), when f is otherwise only called or assigned a call's value (targets),
    else None."""
    copies = []
    for n in uses.get(f, ()):
        site = parents[id(n)]
        if id(n) in targets or site._prod == "Call" and site.callee is n:
            continue
        if site._prod != "Let" or site.value is not n or \
                any(id(u) in targets for u in uses.get(site.name, ())):
            return None
        copies.append(site.name)
    return copies


def _copied_apart(f, copies, parents, uses, fn) -> bool:
    """Whether the copies of a variable f that is assigned keep the value each was given once
    f is assigned another: each assignment to f that may run while a copy is alive (a copy is
    only called, or copied by a `let` likewise, all in its scope) sees it in scope, where
    capture-environments gives it a copy of f's environment of its own (one for the copies
    holding one value). So each assignment is in the closure binding the copy (or the
    function), or in the function's own body, which does not run while a closure does, or
    in closures a `let` binds and only calls, inside that one, seeing every copy (each is
    called only in its `let`'s scope, where the copies are alive), or in one called only
    before the copies are bound (_called_before)."""
    if not copies:
        return True
    homes = {_closure_around(parents[id(n)], parents) for n in uses[f]
             if parents[id(n)]._prod == "Let"}
    assigns = [parents[id(n)] for n in uses[f]
               if parents[id(n)]._prod == "Assign" and parents[id(n)].target is n]
    direct, visible = None, None
    for assign in assigns:
        around = _closure_around(assign, parents)
        if around is None or homes == {around} or \
                _called_before(around, copies, parents, uses, fn):
            continue
        direct = direct or {id(c) for c in direct_closures(fn).values()}
        while around is not None and id(around) in direct and {around} != homes:
            around = _closure_around(around, parents)
        if homes != {around}:
            return False
        visible = visible or visible_at_assignments(fn)
        if not all(copy in visible[id(assign)] for copy in copies):
            return False
    return True


def _called_before(closure, copies, parents, uses, fn, seen: frozenset = frozenset()) -> bool:
    """Whether closure, bound by a `let` and only called, is called only in statements of
    that `let`'s block or of blocks in them (outside closures), each call in the block of a
    copy's `let` before that `let`, or in closures themselves so called: it cannot run while
    a copy is alive (a copy is only called in its scope, which starts later, and a loop's
    body binds it anew each turn). A closure nothing calls is so called."""
    let = parents.get(id(closure))
    block = parents.get(id(let))
    if let is None or let._prod != "Let" or block is None or block._prod != "Block" or \
            direct_closures(fn).get(let.name) is not closure:
        return False
    lets = [n for n in descendants(fn) if n._prod == "Let" and n.name in copies]
    calls = []
    for n in uses.get(let.name, ()):
        around = _closure_around(n, parents)
        if around is None:
            calls.append(n)
        elif id(around) in seen or not _called_before(around, copies, parents, uses, fn,
                                                     seen | {id(closure)}):
            return False
    if None in [_statement_of(n, block, parents) for n in (*calls, *lets)]:
        return False
    for copy in lets:
        home = parents.get(id(copy))
        at = _statement_of(copy, home, parents)
        if any((k := _statement_of(n, home, parents)) is not None and k >= at for n in calls):
            return False
    return True


def _statement_of(node, block, parents):
    """The position of the statement of block holding node outside closures, else None."""
    while node is not None and node._prod != "Closure":
        up = parents.get(id(node))
        if up is block:
            return next((i for i, s in enumerate(block.stmts) if s is node), None)
        node = up
    return None


def _closure_around(node, parents):
    """The innermost closure holding node, or None in the function's own body."""
    node = parents.get(id(node))
    while node is not None and node._prod != "Closure":
        node = parents.get(id(node))
    return node


def _returns(block) -> bool:
    """Whether a closure's body has a `return` of its own (not one of a closure in it)."""
    stack = [block]
    while stack:
        node = stack.pop()
        if node._prod == "Return":
            return True
        if node._prod != "Closure":
            stack.extend(child_nodes(node))
    return False


def calling_closure(lang, fn, callee, taken: set):
    """The closure of the language lang calling fn (named by callee, a `Global`) with
    parameters of its own, named as fn's and not in taken (which grows): `|a: i32, b: i32|
    add(a, b)`."""
    span, params, args = callee.span, [], []
    for p in fn.params:
        name = unused_name(p.name.split("#")[0], taken)
        params.append(lang["Param"](name, p.type, span=span))
        args.append(lang["Local"](name, span=span))
    call = lang["Call"](callee, tuple(args), span=span)
    return lang["Closure"](tuple(params), lang["Block"]((), call, span=span), span=span)


def given_both_kinds(fn, fns) -> frozenset:
    """The locals of fn a `let mut` binds to a function (of `fns`, named) or a closure
    (written), each assignment of which gives it one, the `let` and the assignments giving
    both kinds, that no closure names and nothing borrows: which kind one holds is which
    assignment ran last."""
    def kind(e):
        return e._prod if e._prod == "Closure" or e._prod == "Global" and e.name in fns \
            else None
    given = {n.name: {kind(n.value)} for n in descendants(fn)
             if n._prod == "Let" and n.mutable and kind(n.value)}
    wrong = set()
    for n in descendants(fn):
        if n._prod == "Assign" and n.target._prod == "Local" and n.target.name in given:
            if n.op == "=" and kind(n.value):
                given[n.target.name].add(kind(n.value))
            else:
                wrong.add(n.target.name)
    hidden = {n.name for c in descendants(fn) if c._prod == "Closure"
              for n in descendants(c.body) if n._prod == "Local"}
    borrowed = {n.value.name for n in descendants(fn)
                if n._prod == "Borrow" and n.value._prod == "Local"}
    return frozenset(name for name, kinds in given.items() if len(kinds) == 2) - \
        wrong - hidden - borrowed


def bound_in(node) -> set:
    """The locals bound inside a node: parameters of its closures, lets, loop variables,
    the bindings of its `match` patterns."""
    bound = set()
    for n in descendants(node):
        if n._prod in ("Param", "Let", "PBind"):
            bound.add(n.name)
        elif n._prod == "For":
            bound.add(n.var)
    return bound


def captures(closure) -> list[str]:
    """The locals a closure reads (or assigns, or lends) but does not bind, in order of first
    use."""
    bound = bound_in(closure)
    return list(dict.fromkeys(n.name for n in descendants(closure.body)
                              if n._prod == "Local" and n.name not in bound))


def read_through(names, direct: dict) -> list[str]:
    """The locals read by way of `names`: each name, but for one of a closure only called
    where its `let` names it (`direct`), which has no value of its own to read (each call
    calls its function, passing what it reads), what that closure reads, and so on."""
    found: dict = {}
    todo, seen = list(names), set()
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        seen.add(name)
        if name in direct:
            todo += captures(direct[name])
        else:
            found[name] = None
    return list(found)


def block_variables(fn) -> set:
    """The locals bound inside a function's body, outside its closures, by a `let` of a
    block within it or a loop: each holds one slot of the call's frame, which outlives the
    block (a closure of the interpreter reads what the slot last held)."""
    inner = set().union(*(bound_in(n) for n in descendants(fn) if n._prod == "Closure"))
    top = {p.name for p in fn.params} | {s.name for s in fn.body.stmts if s._prod == "Let"}
    return bound_in(fn.body) - inner - top


def outliving_variables(fn) -> set:
    """The block_variables a closure value may read once their block is over (see
    outliving_closures)."""
    return outliving_closures(fn)[1]


def outliving_closures(fn) -> tuple[set, set]:
    """id() of each closure value that may be called once a block whose variables it reads is
    over, and the block_variables it may read then: those read by a closure neither only
    called where its `let` names it nor confined, or by such a closure it calls (the variable
    naming that closure is not read: its calls call its function), and those read by a
    confined closure going into such a variable (a closure value kept in it, called where the
    value reading the variable is)."""
    lets = block_variables(fn)
    direct = direct_closures(fn)
    ids = {id(c) for c in direct.values()}
    reads = {id(c): read_through(captures(c), direct) for c in descendants(fn)
             if c._prod == "Closure" and id(c) not in ids}
    values = [c for c in descendants(fn) if id(c) in reads and lets.intersection(reads[id(c)])]
    confined = confined_closures(fn) if values else {}
    kept = {id(c) for c in values if id(c) not in confined}
    held = {name for key in kept for name in reads[key] if name in lets}
    grown = True
    while grown:
        grown = False
        for key in (id(c) for c in values if id(c) not in kept):
            if held.intersection(confined[key]):
                kept.add(key)
                held |= lets.intersection(reads[key])
                grown = True
    return kept, held


def by_reference(closure, lent: bool = True) -> list[str]:
    """The locals around a closure it assigns to or (`lent`) lends: lifted, it receives a
    reference to each (the others it receives by value, read when it is called)."""
    bound = bound_in(closure)
    places = [n.target for n in descendants(closure.body) if n._prod == "Assign"] + \
        [n.value for n in descendants(closure.body) if lent and n._prod == "Borrow"]
    return list(dict.fromkeys(p.name for p in places
                              if p._prod == "Local" and p.name not in bound))


def moves_around(closure) -> list:
    """The `transfer`s in a closure of a local around it: each moves that variable of the
    frame the closure was made in, whichever function calls it."""
    bound = bound_in(closure)
    return [n for n in descendants(closure.body)
            if n._prod == "Transfer" and n.value._prod == "Local" and n.value.name not in bound]


def changed_around(closure) -> list[str]:
    """The locals around a closure it assigns to or lends `&mut`: those whose changes the
    interpreter's frame keeps for the closure's next call and its maker."""
    changed = _changed(closure.body)
    return [name for name in captures(closure) if name in changed]


def visible_at_calls(fn) -> dict:
    """id() of each call whose callee is a local -> the locals in scope there: bound before
    it by a `let` of a block around it, a loop around it, or a parameter of the function or
    of a closure around it."""
    return _visible_at(fn, lambda n: n._prod == "Call" and n.callee._prod == "Local")


def visible_at_assignments(fn) -> dict:
    """id() of each assignment -> the locals in scope there, as visible_at_calls."""
    return _visible_at(fn, lambda n: n._prod == "Assign")


def visible_at_lets(fn) -> dict:
    """id() of each `let` -> the locals in scope there (not the one it binds)."""
    return _visible_at(fn, lambda n: n._prod == "Let")


class Scope:
    """The locals in scope at a node: for each block, closure, function or loop around it, the
    names it binds and how many of them the node sees (a block's `let`s before the node).
    Held so, a statement's scope shares its frames with its block's, not a copy of them."""

    __slots__ = ("frames",)

    def __init__(self, frames: tuple):
        self.frames = frames  # (names bound -> their index, how many are seen)

    def __contains__(self, name) -> bool:
        for names, seen in self.frames:
            i = names.get(name)
            if i is not None and i < seen:
                return True
        return False

    def within(self, names: dict, seen: int) -> "Scope":
        return Scope(self.frames + ((names, seen),))


def _visible_at(fn, wanted) -> dict:
    """id() of each node `wanted` picks -> the Scope there (a `let`'s own name is not in it:
    it is bound after its value)."""
    seen: dict = {}
    stack = [(fn, Scope(()))]
    while stack:
        node, scope = stack.pop()
        prod = node._prod
        if wanted(node):
            seen[id(node)] = scope
        if prod in ("Fn", "Closure"):
            params = {p.name: 0 for p in node.params}
            stack.append((node.body, scope.within(params, 1)))
        elif prod == "For":
            stack += [(node.start, scope), (node.end, scope),
                      (node.body, scope.within({node.var: 0}, 1))]
        elif prod == "Block":
            lets = {s.name: i for i, s in enumerate(node.stmts) if s._prod == "Let"}
            stack += [(s, scope.within(lets, i)) for i, s in enumerate(node.stmts)]
            if node.value is not None:
                stack.append((node.value, scope.within(lets, len(node.stmts))))
        else:
            stack += [(child, scope) for child in child_nodes(node)]
    return seen


def confined_closures(fn) -> dict:
    """id() of each closure whose value stays where every variable it reads is in scope: it
    goes only into `let`s bound where they all are (as the `let`'s value, an arm of an `if`
    that is one, or assigned to the variable), and from those only to calls of it -> the
    variables of those `let`s."""
    parents: dict = {}
    for n in descendants(fn):
        for c in child_nodes(n):
            # A node shared by two places has no one parent: what flows through it is refused.
            parents[id(c)] = n if id(c) not in parents else None
    lets = {n.name: n for n in descendants(fn) if n._prod == "Let"}
    targets = {id(n.target) for n in descendants(fn) if n._prod == "Assign"}
    reads: dict = {}
    for n in descendants(fn):
        if n._prod == "Local" and id(n) not in targets:
            reads.setdefault(n.name, []).append(n)
    scopes = _visible_at(fn, lambda n: n._prod == "Let")
    closures = [n for n in descendants(fn) if n._prod == "Closure"]
    found = {}
    for c in closures:
        sunk = _stays(c, set(captures(c)), parents, lets, reads, scopes)
        if sunk is not None:
            found[id(c)] = sunk
    return found


def _stays(closure, read: set, parents, lets, reads, scopes) -> set | None:
    """The variables a confined closure's value goes into, or None for one not confined."""
    todo, sunk = [closure], set()
    while todo:
        e = todo.pop()
        p = parents.get(id(e))
        if p is None:
            return None
        if p._prod == "Call" and p.callee is e:
            continue
        if p._prod == "Block" and p.value is e:
            arms = parents.get(id(p))
            if arms is None or arms._prod != "IfExpr" or p not in (arms.then, arms.orelse):
                return None
            todo.append(arms)
            continue
        if p._prod == "Let" and p.value is e:
            sink = p
        elif p._prod == "Assign" and p.value is e and p.target._prod == "Local":
            sink = lets.get(p.target.name)
        else:
            return None
        scope = scopes.get(id(sink)) if sink is not None else None
        if scope is None or not all(n in scope for n in read):
            return None
        if sink.name not in sunk:
            sunk.add(sink.name)
            todo += reads.get(sink.name, [])
    return sunk


def binder_types(fn) -> dict:
    """Every local of a function (unique names from resolve-names on) -> its type."""
    types, stack = {}, [fn]
    while stack:
        node = stack.pop()
        if node._prod in ("Param", "Let"):
            types[node.name] = node.type
        elif node._prod == "For":
            types[node.var] = L["Scalar"](node.type, span=node.span)
        stack.extend(child_nodes(node))
    return types


def signature(params, ret) -> tuple:
    """The types a call through a closure value passes and gets back, as compared between
    signatures."""
    return tuple(_key(p) for p in params), _key(ret)


def _key(ty):
    """A type as compared between signatures: a tensor by its elements and extents, wherever
    it is placed, every closure value alike (a number)."""
    if ty._prod == "ClosureType":
        return "fn"
    if ty._prod == "TensorType":
        return ("tensor", _key(ty.elem), tuple(getattr(d, "value", None) for d in ty.dims))
    if ty._prod == "BorrowType":
        return ("&", _key(ty.inner))
    return getattr(ty, "name", ty._prod)


def zero(ty, span):
    """The zero of a scalar type (what is passed for a variable no closure called there reads),
    a tensor made by `::new()` (each `?` extent 0: nothing reads it), or None for another
    type."""
    if ty._prod == "TensorType" and all(d._prod == "DimInt" for d in ty.dims):
        return L["TensorNew"](ty, "new", (), span=span)
    if ty._prod == "TensorType" and all(d._prod in ("DimInt", "DimAny") for d in ty.dims):
        extents = tuple(L["Int"](getattr(d, "value", 0), "i32", span=span) for d in ty.dims)
        shape = L["TensorType"](L["Scalar"]("i32", span=span),
                                (L["DimInt"](len(extents), span=span),), None, span=span)
        return L["TensorNew"](ty, "new", (L["TensorLit"](shape, extents, span=span),), span=span)
    if ty._prod == "Scalar" and ty.name == "bool":
        return L["Bool"](False, span=span)
    if ty._prod == "Scalar" and ty.name not in ("void", "str"):
        return L["Int" if ty.name in INT_TYPES else "Float"](
            0 if ty.name in INT_TYPES else 0.0, ty.name, span=span)
    return None


def reference_to_zero(name: str, ty, taken: set, span) -> list:
    """`let mut name: ty` of a reference to a scalar or a vector, bound to a reference to its
    target's zero (a vector's a splat of its lanes' zero), which a `let` of a name not in
    `taken` binds before it and nothing else reads."""
    cell, target = unused_name(display_name(name), taken), ty.inner
    value = L["Splat"](zero(target.elem, span), target, span=span) \
        if target._prod == "VectorType" else zero(target, span)
    borrow = L["Borrow"](L["Local"](cell, span=span), ty.mutable, span=span)
    return [L["Let"](cell, ty.mutable, target, value, span=span),
            L["Let"](name, True, ty, borrow, span=span)]


def chosen_elements(choice) -> list:
    """The tensors bound outside an `if` whose elements it (and each `else if`) chooses a
    reference to, by name, each with the number of indices its place gives: `&mut t[i][j]`
    is ("t", 2)."""
    inside, found = bound_in(choice), []
    for e in chosen_values(choice):
        place, rank = e.value if e._prod == "Borrow" else e, 0
        while place._prod == "Index":
            place, rank = place.base, rank + 1
        if e._prod == "Borrow" and rank and place._prod == "Local" and \
                place.name not in inside:
            found.append((place.name, rank))
    return found


def reference_to_first(name: str, ty, tensor: str, rank: int, span):
    """`let mut name: ty` bound to a reference to the first element of `tensor`, whose
    `rank` extents the caller knows are static and none 0, so that no index check stops
    there."""
    place = L["Local"](tensor, span=span)
    for _ in range(rank):
        place = L["Index"](place, L["Int"](0, "i32", span=span), span=span)
    return L["Let"](name, True, ty, L["Borrow"](place, ty.mutable, span=span), span=span)


def run_when_called(closure) -> set:
    """id() of each node of closure's body that runs only while a call of it runs: outside
    closures made in it, or in one a `let` there binds that is named only as the callee of
    calls that run so (it is called only then, and no value of it is left after)."""
    lets = {n.name: n.value for n in descendants(closure.body)
            if n._prod == "Let" and n.value._prod == "Closure"}
    callees = {id(n.callee) for n in descendants(closure.body) if n._prod == "Call"}
    region, safe = _outside_closures(closure.body), set()
    while True:
        more = {name for name, c in lets.items() if name not in safe and id(c) in region and
                all(id(n) in region and id(n) in callees for n in descendants(closure.body)
                    if n._prod == "Local" and n.name == name)}
        if not more:
            return region
        safe |= more
        for name in more:
            region |= _outside_closures(lets[name].body)


def _outside_closures(node) -> set:
    return {id(n) for n in descendants(node)} - {
        id(n) for m in descendants(node) if m._prod == "Closure" for n in descendants(m.body)}


def runs_until(fn, at: int, launch) -> float:
    """The last statement of fn's body (past them, its value) a launch in the body of a
    closure its statement `at` binds may run in: the last calling the closure, where fn
    names it only as the callee of calls outside closures or in the body of another closure
    a `let` binds, or of a closure made there that only its call calls (the last calling
    that one, likewise), the launch not in a closure of its own; else any later one. An assignment giving the variable a closure bound after `at`
    comes after the `let`s of what that closure reads: a call before that cannot see it."""
    s = fn.body.stmts[at]
    if s._prod != "Let" or s.mutable or s.value._prod != "Closure" or any(
            n is launch for c in descendants(s.value.body) if c._prod == "Closure"
            for n in descendants(c)):
        return float("inf")
    return _called_until(fn, at, set())


def _called_until(fn, at: int, seen: set) -> float:
    """The last statement of fn's body (past them, its value) that may call the closure a
    `let` binds at `at`: see `runs_until`."""
    stmts = fn.body.stmts
    s = stmts[at]
    if s._prod != "Let" or s.mutable or s.value._prod != "Closure" or at in seen:
        return float("inf")
    callees = {id(n.callee) for n in descendants(fn.body) if n._prod == "Call"}
    value = () if fn.body.value is None else (fn.body.value,)
    until = at
    for i, t in enumerate(stmts + value):
        inner = {id(n) for c in descendants(t) if c._prod == "Closure"
                 for n in descendants(c.body)}
        for n in descendants(t):
            if n._prod != "Local" or n.name != s.name:
                continue
            if id(n) not in callees:
                return float("inf")
            if id(n) in inner:
                # called in a closure's body: when that closure is called, if a `let` binds it
                # (in a closure made in it too, that only its call calls)
                if not (t._prod == "Let" and t.value._prod == "Closure" and i > at and
                        id(n) in run_when_called(t.value)):
                    return float("inf")
                until = max(until, _called_until(fn, i, seen | {at}))
            else:
                until = max(until, i)
    return until

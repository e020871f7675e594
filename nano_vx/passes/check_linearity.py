"""check-linearity: Lrouted, a flow analysis (the tree is unchanged).

The value threaded through the walk is the set of moved locals at each program point: a map
from a moved local's unique name, or a field path of one (the tuple `("s#1", "t")` for `s.t`,
`("p#1", 0)` for `p.0`), to what moved it (a `transfer`, or a call it was passed to by value),
or None where control cannot reach (after `return`, `break`, `continue`). The map is
persistent, so each branch starts from the same map without copying it: the walk stays
linear in the length of a function that moves many locals and branches often. Only a `let`
or an assignment `x = ..` (`s.t = ..`) takes a name (a path, and the paths under it) out, so
the join of two branches
is their union: a value moved on either branch counts as moved after the `if`, as in Rust. A
loop body is walked twice, the second time from the state its first pass left (at its end or a
`continue`; a `break` goes on after the loop only), so a move of an outer variable is a
use-after-move on the next iteration.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Label
from ..languages.lsrc import DESCRIPTIONS
from ..languages.lunrolled import OncePerPlace
from ..languages.lresolved import display_name
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis, child_nodes
from ..placement.ownership import Movers, callee_name, owns_data
from ..placement.persistent_map import PersistentMap
from ..placement.type_checking import quoted


@dataclass
class State:
    movers: Movers | None = None
    # The current function's locals -> their types, each added where the walk meets its
    # binding: before any use, since a name is unique within its function.
    types: dict = field(default_factory=dict)
    # The current function's locals -> the field paths of each that were moved somewhere: a
    # use of the local whole is a use of each, and a new value for it gives each a new one.
    paths: dict[str, set] = field(default_factory=dict)
    # Per enclosing loop: the states leaving a turn early, each with whether it goes on to
    # the next turn (a `continue`).
    loops: list[list] = field(default_factory=list)
    # By (span, name as written): the copies `unroll across` makes share their body's spans,
    # and each copy's locals have unique names of their own.
    reported: OncePerPlace = field(default_factory=OncePerPlace)
    # Per closure whose body is walked: the keys moved meanwhile (a closure inside another
    # moves for both).
    recording: list[list] = field(default_factory=list)
    # By id of a closure: the keys its body moves of the variables around it, the ids of
    # what moves them there, and those of the keys it moves otherwise than by `transfer`.
    captured: dict[int, tuple] = field(default_factory=dict)
    # Per closure whose body is walked: the keys it reads, and those it gave a new value
    # before (a read of those reads the closure's own value).
    reading: list[tuple[list, set]] = field(default_factory=list)
    # By id of a closure: the keys of the variables around it that its body reads (or
    # writes an element of) without moving them, each a use at every call of it, with
    # whether the use is of the fields under the key too (`_use`'s `parts`).
    reads: dict[int, list] = field(default_factory=dict)
    # The (key, id of its mover) of each move by `transfer`, itself or a closure's call
    # whose body transfers: a closure's read after it is checked when it runs (E9004).
    transferred: set = field(default_factory=set)
    # By id of a closure: how often a call of it calls each parameter, at most 2 (many).
    calling: dict[int, tuple] = field(default_factory=dict)
    # A local holding a closure -> the ids of the closures it may hold.
    closures: dict[str, frozenset] = field(default_factory=dict)
    # By id of a closure: the closures its body's value may be (`|| a`, `|| || t`), as
    # `closures` and `once` keep them, and the index of the parameter that value is (`|h|
    # h`), if any: a call of it gives them, and that argument.
    results: dict[int, tuple] = field(default_factory=dict)
    # A local holding a closure whose body moves what it captures -> per closure it may
    # hold (an `if` may choose between two), the closure's id and its `captured`.
    once: dict[str, tuple] = field(default_factory=dict)
    # A key a closure's call moved -> the _Called keys noting those calls, which a new value
    # for the key takes out.
    calls: dict = field(default_factory=dict)
    # By id of a closure: the locals around it, as its first walk met them (a closure in a
    # loop's body is walked again with its own locals known from the first walk).
    around: dict[int, set] = field(default_factory=dict)
    # By id of a closure: the moved map where it is written, as its last walk met it.
    written: dict[int, PersistentMap] = field(default_factory=dict)


@dataclass(frozen=True)
class _Called:
    """The key under which the last call of a closure that moved `key`, a variable it
    captures, is kept until `key` has a new value: a second call meanwhile moves it again.
    One per variable, so that a join keeps each call with the move it made."""
    closure: int  # id of the Closure
    key: object


check_linearity = Analysis("check-linearity", Lrouted, """
Refuse a use of a local, or of a field of one, after `transfer`, a call or a `let` consumed it (E4001).

`transfer(x, M)` moves a uniquely owned local: x is gone from its old space, and any later
read of x is an error naming x and the transfer that moved it. Passing x by value to a
function of the program (or a closure) moves it too when x owns data (a tensor, a struct
holding one): the callee has it now. `let y = x;` and `y = x;` move x into y when it owns
data, a tensor or a struct without `Copy` (one with `Copy` is copied), and so does `h.f = x;`
into the field, and `S { f: x }`, `(x, 1)` or `E::V(x)` into the value it makes; a block whose value is x (an arm of
an `if` or a `match`, a closure's body) moves it out, and so does a `match` case binding what
owns data of the local it matches (`E::V(u) => ..`). A field that owns data, `s.t`, moves the
same ways, as Rust moves it (and so does a tuple's element, `p.0`): then `s.t` is gone, and so is s as a whole (a use of s reads
what it no longer holds), while its other fields stay; `s.t = ..` gives the field a fresh
value, and with it s. `&x` lends it
and moves nothing; scalars, enums and references are copied; the builtins (`print`) only read. A move on one branch of an `if` or in one arm
of a `match` counts after it (as in Rust); a move inside a loop of a variable declared outside
it is a use-after-move on the next iteration. A closure sees its variables when it is called,
so one whose body moves a variable around it (`|| consume(t)`, `|| t`) moves it at every
call: a second call of the closure a variable holds is a use of t after the first moved
it, unless t was given a new value in between (Rust refuses the second call of such an
`FnOnce`; the body's moves count from where the closure is written, as in Rust). A
closure given such a closure calls it as often as its body calls that parameter (twice for
a call in a loop, for one handed on, and for any closure that is itself a parameter): `keep(g)`
twice with `keep = |h| h()` moves t twice (Rust moves the `FnOnce` into the call). A move
by `transfer` through a closure handed on is checked when it runs (E9004). A closure a call
of another gives back (`let g = mk();` of `mk = || r`) is the closure it gives: it moves and
reads what that one does of the variables around the maker, and, at each of its calls, the
maker's own variables (its parameters, the `let`s of its body) that it moves, which each
call of the maker gives new values (`let g = mk(t);` of `mk = |n| || consume(n)` moves n at
every call of g, as Rust's `move` closure would its own n; by `transfer`, it is checked when
it runs, E9004); what the maker's body moved of them before it gives the closure back is a
use after that move, refused there. One whose body's value is its
parameter (`id = |h| h`) gives back the closure it is given, called where that value goes
(`id(g)()` calls g once, and `id(g)` none). A call of a
closure (or of one given it) reads what its body reads of the variables around it, unless
the body gave them a new value first: a use of each there, refused after a move other than
by `transfer` (`let u = t;` then `r()` of `r = || t[0]`); after a `transfer` the read is
checked when it runs (E9004).
`x = ..` gives x a fresh value. A use in the
body of an `unroll across` is in every copy of it, and refused once.
""", flow=True, skip=DESCRIPTIONS, state=State)


def _join(a: PersistentMap | None, b: PersistentMap | None) -> PersistentMap | None:
    if a is None:
        return b
    if b is None:
        return a
    return a.union(b)


def _fresh(run, moved: PersistentMap | None, key) -> PersistentMap | None:
    """The state after `key` (a local, or a field path of one) gets a new value, and with it
    every field under it."""
    if moved is None:
        return None
    for _, fresh in run.state.reading:
        fresh.add(key)
    for path in (*_under(run, key), key):
        for called in run.state.calls.get(path, ()):
            moved = moved.remove(called)
        moved = moved.remove(path)
    return moved


def _key(path: tuple):
    """The key a path is moved under: a local's name alone, else the path."""
    return path[0] if len(path) == 1 else path


def _path(node) -> tuple | None:
    """The local and fields a read names (`s.a.0`: ("s#1", "a", 0)), None for any other
    expression."""
    fields = []
    while node._prod in ("FieldGet", "TupleGet"):
        fields.append(node.field if node._prod == "FieldGet" else node.index)
        node = node.base
    return (node.name, *reversed(fields)) if node._prod == "Local" else None


def _under(run, key) -> list:
    """The field paths moved somewhere in the function that lie under `key`."""
    path = (key,) if isinstance(key, str) else key
    return [p for p in run.state.paths.get(path[0], ())
            if len(p) > len(path) and p[:len(path)] == path]


def _moved(run, moved, key, mover, transferred=None):
    """The state after `mover` moved `key`; `transferred`: whether by a `transfer` (a call
    of a closure moves by one when its body does)."""
    if not isinstance(key, str):
        run.state.paths.setdefault(key[0], set()).add(key)
    if transferred is None:
        transferred = mover._prod == "Transfer"
    for keys in run.state.recording:
        keys.append((key, mover, transferred))
    if transferred:
        run.state.transferred.add((key, id(mover)))
    return moved.set(key, mover)


@check_linearity.on("Program")
def _program(run, node, moved):
    run.state.movers = Movers(node)
    for item in node.items:
        if item._prod == "Fn":
            run.state.types = {p.name: p.type for p in item.params}
            run.state.paths, run.state.once, run.state.calls = {}, {}, {}
            run.state.closures = {}
            run.walk(item.body, PersistentMap())
    run.state.reported.note_copies()
    return moved


@check_linearity.on("Block")
def _block(run, node, moved):
    for s in node.stmts:
        if moved is None:
            return None  # unreachable code moves nothing that matters
        moved = run.walk(s, moved)
    if moved is not None and node.value is not None:
        moved = run.walk(node.value, moved)
        # A block's value is moved out of it (an `if`'s or a `match`'s arm, a closure's
        # body): on that path the local is gone, as after `let t = a;`.
        key = _owning(run, node.value) if moved is not None else None
        if key is not None:
            moved = _moved(run, moved, key, node)
    return moved


@check_linearity.on("Let")
def _let(run, node, moved):
    """`let b = a;` (and `b = a;`) moves a when a owns data (a tensor, a struct without
    Copy, a tuple holding one): b has it now, and a is gone."""
    run.state.types[node.name] = node.type
    moved = _fresh(run, _move_value(run, node.value, node, moved), node.name)
    _hold(run, node.name, node.value)
    return moved


def _hold(run, name, value):
    """Note that the local `name` now holds `value`: a closure that moves what it
    captures, another local's such closure, or one of those an `if` or a `match` chooses, is
    called through it."""
    held = _held(run, value)
    if held:
        run.state.once[name] = held
    else:
        run.state.once.pop(name, None)
    closures = _closures(run, value)
    if closures:
        run.state.closures[name] = closures
    else:
        run.state.closures.pop(name, None)


def _closures(run, value) -> frozenset:
    """The ids of the closures `value` may be."""
    if value is None:
        return frozenset()
    if value._prod == "Closure":
        return frozenset((id(value),))
    if value._prod == "Local":
        return run.state.closures.get(value.name, frozenset())
    if value._prod == "Call":
        return frozenset().union(*(run.state.results.get(c, (frozenset(),))[0]
                                   for c in _closures(run, value.callee)),
                                 *(_closures(run, arg) for arg in _returned(run, value)))
    return frozenset().union(*(_closures(run, arm.value) for arm in _arms(value)))


def _arms(value) -> list:
    """The blocks one of which gives the value of an `if` or a `match`."""
    return [value.then, value.orelse] if value._prod == "IfExpr" else \
        [case.body for case in value.cases] if value._prod == "MatchValue" else []


def _held(run, value) -> tuple:
    """The closures moving what they capture that `value` may be, as `once` keeps them."""
    st = run.state
    if value is None:
        return ()
    if value._prod == "Closure" and st.captured.get(id(value), ((),))[0]:
        return ((id(value), *st.captured[id(value)]),)
    if value._prod == "Local":
        return st.once.get(value.name, ())
    if value._prod == "Call":
        given = _made(run, value) + [one for arg in _returned(run, value)
                                     for one in _held(run, arg)]
    else:
        given = [one for arm in _arms(value) for one in _held(run, arm.value)]
    return tuple({one[0]: one for one in given}.values())


def _made(run, call) -> list:
    """The closures moving what they capture that `call` of a maker gives, as `once` keeps
    them. What such a closure moves around its maker, the call that made it was counted as
    moving already. A variable of the maker's own (its parameter, a `let` of its body) is
    one per call of it: each made closure moves its own, under a key of that call's, unless
    by `transfer`, which the run checks (E9004, track-moved-captures)."""
    st, given = run.state, []
    for maker in _closures(run, call.callee):
        around = st.around.get(maker, set())
        for c, keys, inside, plain in st.results.get(maker, ((), ()))[1]:
            own = {k: _made_key(k, call) for k in plain
                   if (k if isinstance(k, str) else k[0]) not in around}
            keys = [own.get(k, k) for k in keys
                    if k in own or (k if isinstance(k, str) else k[0]) in around]
            if keys:
                given.append((c, keys, inside | {id(call)},
                              frozenset(own.get(k, k) for k in plain)))
    return given


def _made_key(key, call):
    """The key of the maker's variable `key` (a local, or a field path of one) as the closure
    `call` made holds it: shown as the variable's name."""
    if isinstance(key, str):
        return f"{key}#made{id(call)}"
    return (_made_key(key[0], call), *key[1:])


def _returned(run, call) -> list:
    """The arguments of `call` that it gives back: a closure whose body's value is its
    parameter (`|h| h`) gives its argument, which is then called where its value goes."""
    indices = {i for c in _closures(run, call.callee)
               for i in run.state.results.get(c, ((), (), ()))[2]}
    return [arg for i, arg in enumerate(call.args) if i in indices]


def _move_value(run, value, mover, moved):
    """The state after `value` is read and, when it is a local or a field that owns data,
    moved by `mover`."""
    moved = run.walk(value, moved)
    key = _owning(run, value) if moved is not None else None
    return moved if key is None else _moved(run, moved, key, mover)


def _owning(run, value):
    """The key `value` moves under when it is a local, or a field of a struct a local holds,
    that owns data; else None."""
    path = _path(value)
    t = _type(run, path) if path is not None else None
    return _key(path) if t is not None and owns_data(t, run.state.movers.types) else None


def _type(run, path: tuple):
    """The declared type of a local or a field path of one; None where it is not known, or
    where a field is read through a reference (a move out of a loan is not this pass's)."""
    t = run.state.types.get(path[0])
    for name in path[1:]:
        if t is None:
            return None
        if isinstance(name, int):  # an element of a tuple
            t = t.elems[name] if t._prod == "TupleType" and name < len(t.elems) else None
            continue
        decl = run.state.movers.types.get(t.name) if t._prod == "NamedType" else None
        if decl is None or decl._prod != "StructDecl":
            return None
        t = next((f.type for f in decl.fields if f.name == name), None)
    return t


@check_linearity.on("Assign")
def _assign(run, node, moved):
    path = _path(node.target)
    if path is not None and node.op == "=":
        # `s.t = ..` writes the field without reading it, but s must still hold its others.
        for k in range(1, len(path)):
            moved = _use(run, node.target, _key(path[:k]), moved, parts=False)
        # `h.t = t;`: the field has t now
        moved = _fresh(run, _move_value(run, node.value, node, moved), _key(path))
        if len(path) == 1:
            _hold(run, path[0], node.value)
        return moved
    moved = run.walk(node.value, run.walk(node.target, moved))
    return _move_value(run, node.value, node, moved) if node.op == "=" else moved


@check_linearity.on("If", "IfExpr")
def _if(run, node, moved):
    moved = run.walk(node.cond, moved)
    if moved is None:
        return None
    then = run.walk(node.then, moved)
    orelse = run.walk(node.orelse, moved) if node.orelse is not None else moved
    return _join(then, orelse)


@check_linearity.on("Match", "MatchValue")
def _match(run, node, moved):
    """One arm (one case) runs, so the arms are branches, as the two of an `if` are."""
    moved = run.walk(node.scrutinee, moved)
    bodies = [arm.body for arm in node.arms] if node._prod == "Match" else \
        [case.body for case in node.cases]
    if moved is None or not bodies:
        return moved
    # A case that binds what owns data (`E::T(u) => ..` of a tensor) moves it out of the
    # scrutinee, as `let u = ..;` would: on that path the local is gone.
    key = _owning(run, node.scrutinee) if node._prod == "MatchValue" else None
    out = None
    for i, body in enumerate(bodies):
        taken = key is not None and _binds_data(run, node.cases[i].pattern,
                                                _type(run, _path(node.scrutinee)))
        out = _join(out, run.walk(body, _moved(run, moved, key, node) if taken else moved))
    return out


def _binds_data(run, pattern, ty) -> bool:
    """Whether `pattern`, matching a value of type `ty`, binds a name to a part of it that
    owns data."""
    if pattern._prod == "PBind":
        return owns_data(ty, run.state.movers.types)
    if pattern._prod == "POr":
        return any(_binds_data(run, alt, ty) for alt in pattern.alts)
    if pattern._prod != "PVariant":
        return False
    decl = run.state.movers.types.get(pattern.enum)
    variant = next((v for v in decl.variants if v.name == pattern.variant), None) \
        if decl is not None and decl._prod == "EnumDecl" else None
    return variant is not None and any(
        _binds_data(run, arg, field) for arg, field in zip(pattern.args, variant.fields))


@check_linearity.on("For")
def _for(run, node, moved):
    moved = run.walk(node.end, run.walk(node.start, moved))
    return _loop(run, node.body, None, moved, fresh=node.var)


@check_linearity.on("While")
def _while(run, node, moved):
    return _loop(run, node.body, node.cond, moved)


def _loop(run, body, cond, moved, fresh=None):
    """Two passes over the body: the second starts from what the first moved. A `for`
    variable (`fresh`) has a new value at the start of every pass."""
    if moved is None:
        return None
    exits, first = [], None
    for round_ in range(2):
        # A second pass from the state the first started from would repeat it exactly:
        # skipping it keeps nested loops linear rather than 2^depth.
        if round_ and moved == first:
            break
        first = moved
        if cond is not None:
            moved = run.walk(cond, moved)
        exits.append(moved)  # the loop may stop here (a false condition, an empty range)
        run.state.loops.append([])
        end = run.walk(body, _fresh(run, moved, fresh) if fresh else moved)
        # The states at each `break` and `continue`: only a `continue` goes on to a next turn.
        early = run.state.loops.pop()
        exits.extend(e for _, e in early)
        for e in (end, *(e for again, e in early if again)):
            moved = _join(moved, e)
    for e in exits:
        moved = _join(moved, e)
    return moved


@check_linearity.on("Return")
def _return(run, node, moved):
    if node.value is not None:
        run.walk(node.value, moved)
    return None


@check_linearity.on("Break", "Continue")
def _leave(run, node, moved):
    if run.state.loops:
        run.state.loops[-1].append((node._prod == "Continue", moved))
    return None


@check_linearity.on("Spawn", "Closure")
def _body(run, node, moved):
    if node._prod != "Closure":
        return run.walk(node.body, moved) or moved
    run.state.types.update((p.name, p.type) for p in node.params)
    # Each call gives the parameters new values: what the body moves of them is not moved
    # for the next call (a closure written in a loop's body is walked once per pass).
    params = [p.name for p in node.params]
    run.state.written[id(node)] = moved
    around = run.state.around.setdefault(id(node), set(run.state.types) - set(params))
    for name in params:
        moved = _fresh(run, moved, name)
    run.state.recording.append([])
    run.state.reading.append(([], set()))
    after = run.walk(node.body, moved) or moved
    keys = [(k, m, by) for k, m, by in run.state.recording.pop()
            if (k if isinstance(k, str) else k[0]) in around]
    moves = {k for k, _, _ in keys}
    run.state.reads[id(node)] = list(dict.fromkeys(
        (k, parts) for k, parts in run.state.reading.pop()[0]
        if (k if isinstance(k, str) else k[0]) in around and k not in moves))
    run.state.captured[id(node)] = (list(dict.fromkeys(k for k, _, _ in keys)),
                                    frozenset(id(m) for _, m, _ in keys),
                                    frozenset(k for k, _, by in keys if not by))
    value = node.body.value
    returned = value if value is not None and value._prod == "Local" and \
        value.name in params else None
    run.state.calling[id(node)] = tuple(_times_called(node.body, name, returned)
                                        for name in params)
    run.state.results[id(node)] = (_closures(run, value), _held(run, value),
                                   (params.index(returned.name),) if returned else ())
    after = _given_back(run, node, value, after)
    for name in params:
        after = _fresh(run, after, name)
    # The closure is made anew here (again on a loop's next turn): no call of it yet.
    for key in run.state.captured[id(node)][0] if after is not None else ():
        after = after.remove(_Called(id(node), key))
    return after


def _given_back(run, node, value, after):
    """A closure the body of `node` gives back is called once `node` has returned, where the
    body left the variables of its own: what it reads or moves of them, the body may have
    moved already (`|n| { let r = || n[0]; let m = consume(n); r }`), a use after that
    move at every call of it, refused at the value (a move by `transfer` is checked when it
    runs, E9004)."""
    st = run.state
    around = st.around[id(node)]

    def later(closure, key) -> bool:
        # One of the body's own variables, not moved where the closure is written (its
        # body's walk met that move).
        written = st.written.get(closure)
        path = (key,) if isinstance(key, str) else key
        return path[0] not in around and written is not None and not any(
            written.get(_key(path[:k])) is not None for k in range(1, len(path) + 1))

    for closure in st.results[id(node)][0] if after is not None else ():
        for key, parts in st.reads.get(closure, ()):
            if later(closure, key):
                after = _use(run, value, key, after, parts=parts, run_checks=True)
    for closure, keys, inside, plain in st.results[id(node)][1] if after is not None else ():
        for key in keys:
            if key in plain and later(closure, key):
                after = _use(run, value, key, after, by=(inside, None), run_checks=True)
    return after


@check_linearity.on("Call")
def _call(run, node, moved):
    """The arguments in order, each argument that owns data moved as soon as it is passed:
    `f(t, t[0])` reads t after the call has it."""
    moved = run.walk(node.callee, moved)
    movers = run.state.movers
    takes = movers.takes_ownership(node)
    for arg in node.args:
        moved = _move_value(run, arg, node, moved) if takes else run.walk(arg, moved)
    # A maker's call gives the variables of its own new values, for the closure it makes:
    # locals here from now on, so that a closure written after it moves them when it calls
    # the one made.
    for _, keys, _, _ in _made(run, node) if moved is not None else ():
        for root in {k if isinstance(k, str) else k[0] for k in keys}:
            if root.endswith(_made_key("", node)):
                run.state.types.setdefault(root, None)
                moved = _fresh(run, moved, root)
    for once in _held(run, node.callee) if moved is not None else ():
        moved = _call_once(run, node, once, moved)
    moved = _reads(run, node, _closures(run, node.callee), moved)
    for i, arg in enumerate(node.args):
        calls = _calls_of_argument(run, node, i)
        if not calls:
            continue
        moved = _reads(run, node, _closures(run, arg), moved)
        for closure, _, inside, plain in _held(run, arg) if moved is not None else ():
            handed = _HandedOn(node, arg)
            for _ in range(calls):
                moved = _call_once(run, handed, (closure, plain, inside, plain), moved)
    return moved


def _reads(run, call, closures, moved):
    """A call of one of `closures` (or of a closure given them) reads what their bodies read
    of the variables around them, as they are at the call: a use of each, refused after a
    move of it (`let r = || t[0]; let u = t; r()`). The interpreter and native code stop
    such a read after a `transfer` when it happens (E9004, track-moved-captures), which
    may not: that one is left to the run."""
    for closure in closures:
        for key, parts in run.state.reads.get(closure, ()):
            moved = _use(run, call, key, moved, parts=parts, run_checks=True)
    return moved


@dataclass(frozen=True, eq=False)
class _HandedOn:
    """A closure moving what it captures, given to a call that calls it: the moves of
    those calls, told as that call's."""
    call: object
    closure: object  # the argument: the closure, or a local holding it
    _prod = None  # no node: a move this pass notes, told by `_report`

    @property
    def span(self):
        return self.call.span


def _calls_of_argument(run, call, i: int) -> int:
    """How often `call` calls its argument i, at most 2: what the closures its callee may be
    do with their parameter i; a callee no walk has met (a closure's parameter) may call it
    any number of times. A function of the program takes no closure, nor a builtin calls
    one."""
    if call.callee._prod != "Local":
        return 0
    held = run.state.closures.get(call.callee.name)
    if held is None:
        return 2
    return max((run.state.calling[c][i] for c in held
                if c in run.state.calling and i < len(run.state.calling[c])), default=0)


def _times_called(body, name: str, returned=None) -> int:
    """How often a run of `body` calls the closure its parameter `name` holds, at most 2: a
    call in a loop, or in a closure inside it, may come again, and a closure handed on or
    bound to another name may be called there as often as the other likes. The body's value
    `returned` is no call: the call of the closure gives it back, called where it goes."""
    count = 0
    stack = [(body, False)]
    while stack:
        node, again = stack.pop()
        if node._prod == "Call" and node.callee._prod == "Local" and \
                node.callee.name == name:
            count += 2 if again else 1
            stack.extend((a, again) for a in node.args)
            continue
        if node._prod == "Local" and node.name == name and node is not returned:
            return 2
        again = again or node._prod in ("While", "For", "Closure")
        stack.extend((c, again) for c in child_nodes(node))
    return min(count, 2)


def _call_once(run, node, once, moved):
    """A call of a closure whose body moves the variables `keys` around it (`plain`: those
    it moves otherwise than by `transfer`): each moved again, refused after an earlier call
    of it, or another move, where nothing gave it a new value since (not after the move the
    closure's body was counted as where it is written)."""
    closure, keys, inside, plain = once
    for key in keys:
        called = _Called(closure, key)
        earlier = moved.get(called)
        moved = _use(run, node, key, moved, by=(inside, earlier))
        run.state.calls.setdefault(key, set()).add(called)
        moved = _moved(run, moved, key, node, key not in plain).set(called, node)
    return moved


@check_linearity.on("StructLit", "Tuple", "EnumValue")
def _aggregate(run, node, moved):
    """`S { t: t }`, `(t, 1)` and `E::T(t)` move each part that owns data into the value
    they make."""
    parts = [f.value for f in node.fields] if node._prod == "StructLit" else \
        node.elems if node._prod == "Tuple" else node.args
    for part in parts:
        moved = _move_value(run, part, node, moved)
    return moved


@check_linearity.on("Transfer")
def _transfer(run, node, moved):
    moved = run.walk(node.value, moved)
    if moved is not None and node.value._prod == "Local":
        moved = _moved(run, moved, node.value.name, node)
    return moved


@check_linearity.on("Local")
def _local(run, node, moved):
    return _use(run, node, node.name, moved)


@check_linearity.on("FieldGet", "TupleGet")
def _field_get(run, node, moved):
    """`s.a` (`p.0`): a use of the path, and not of s whole (another field of s may be
    gone)."""
    path = _path(node)
    if path is None:
        return run.walk(node.base, moved)
    return _use(run, node, _key(path), moved)


def _use(run, node, key, moved, *, parts=True, by=None, run_checks=False):
    """A use at `node` of `key`, a local or a field path of one: refused after a move of it
    or of what holds it, and, with `parts`, of a field under it. For a call of a closure,
    `by` is the ids of the moves its body was counted as where it is written, and its earlier
    call: such a move is told as that call, and is no use after a move without one. With
    `run_checks`, a use after a move by `transfer` is left to the run (E9004)."""
    if moved is None:
        return None
    for reads, fresh in run.state.reading:
        if key not in fresh:
            reads.append((key, parts))
    path = (key,) if isinstance(key, str) else key
    found = next(((path[:k], m) for k in range(1, len(path) + 1)
                  if (m := moved.get(_key(path[:k]))) is not None), None)
    if found is not None:
        # What was moved, as the use reads it: `s` of `s.t`, after a move of s (a call of
        # a closure moving `s.t` uses it where it is called).
        for _ in range(len(path) - len(found[0])):
            node = node.base if node._prod in ("FieldGet", "TupleGet") else node
        key, path = _key(found[0]), found[0]
    elif parts:
        found = next(((p, m) for p in _under(run, key) if (m := moved.get(p)) is not None),
                     None)
    if found is not None:
        # A loop is walked twice, so one copy's use may be met twice: its unique name
        # tells the copies apart.
        gone, mover = _key(found[0]), found[1]
        if run_checks and (gone, id(mover)) in run.state.transferred:
            return moved
        if by is not None and id(mover) in by[0]:
            if by[1] is None:
                return moved  # the move its body was counted as where it is written
            mover = by[1]
        said = (node.span if node.span is not None else id(node), _shown(key))
        if not run.state.reported.again(said, copy=path[0]):
            _report(run, node, key, gone, mover)
            run.state.reported.said(said, run.ctx.diagnostics.items[-1], copy=path[0])
    return moved


def _shown(key) -> str:
    """A local or a field path as the programmer wrote it: `s.t`."""
    return display_name(key) if isinstance(key, str) else \
        ".".join((display_name(key[0]), *map(str, key[1:])))


def _report(run, use, key, gone_key, mover):
    """E4001 at `use` of `key`, naming what moved `gone_key` (key, what holds it, or a field
    under it): a Transfer, a Call, a `let`, an assignment, an aggregate or a block."""
    x = _shown(gone_key)
    where = mover.span
    line, col = where.source.line_col(where.start) if where is not None else (0, 0)
    text = where.source.text[where.start:where.end] if where is not None else "the move"
    parts = {"Call": lambda: mover.args, "Tuple": lambda: mover.elems,
             "StructLit": lambda: [f.value for f in mover.fields],
             "EnumValue": lambda: mover.args}.get(mover._prod)
    # A call of a closure moves what its body moves, no argument of it; a call given the
    # closure, with it.
    handed = isinstance(mover, _HandedOn)
    gone = mover.closure if handed else mover.scrutinee if mover._prod == "MatchValue" else \
        mover.value if parts is None else \
        next((a for a in parts() if _path(a) is not None and _key(_path(a)) == gone_key), mover)
    # One call given a closure that calls it more than once moves what it moves again.
    twice = handed and getattr(use, "call", None) is mover.call
    # A use that is not after the move in the text was reached through a loop's back edge.
    again = gone.span is not None and use.span is not None and \
        use.span.start <= gone.span.start and not twice
    when = " in an earlier iteration of the loop" if again else ""
    if mover._prod in ("Let", "Assign"):
        to = display_name(mover.name) if mover._prod == "Let" else \
            display_name(mover.target.name) if mover.target._prod == "Local" else \
            quoted(mover.target)
        went = f"into '{to}'"
        path = (gone_key,) if isinstance(gone_key, str) else gone_key
        t = _type(run, path)
        # An enum takes no `Copy` while what it carries moves (E3031).
        struct = getattr(t, "_prod", None) == "NamedType" and \
            getattr(run.state.movers.types.get(t.name), "_prod", None) == "StructDecl"
        lend = mover._prod == "Let" or mover.target._prod == "Local"  # a field holds no loan
        repair = f"read it through '{to}'" + (f", lend it (`&{x}`)" if lend else "") + \
            (", implement `Copy` for its struct" if struct else "")
        data = {"moved_into": to}
    elif mover._prod in ("StructLit", "Tuple", "EnumValue"):
        name = mover.name if mover._prod == "StructLit" else \
            f"{mover.enum}::{mover.variant}" if mover._prod == "EnumValue" else "tuple"
        what = "the tuple" if mover._prod == "Tuple" else f"the '{name}' value"
        went = f"into {what}"
        repair = f"read it through {what}"
        data = {"moved_into": name}
    elif mover._prod == "MatchValue":
        went = "out by a case of the 'match'"
        repair = "read it through the name that case binds"
        data = {"moved_into": "match"}
    elif mover._prod == "Block":
        went = "out as the value of its block"
        repair = "read it where that value went"
        data = {"moved_into": "block value"}
    elif mover._prod == "Transfer":
        went = f"to Memory::{mover.dest.name}"
        repair = f"read the value where it went (`let y = transfer({x}, ..);` then `y`)"
        data = {"moved_to": mover.dest.name}
    elif handed:
        callee = display_name(mover.call.callee.name)
        held = mover.closure._prod == "Local"
        closure = f"'{display_name(mover.closure.name)}'" if held else "the closure"
        went = (f"by '{callee}', which may call {closure} it is given more than once"
                if twice else f"by '{callee}', which calls {closure} it is given") + \
            ", whose body moves it,"
        repair = f"give '{callee}' a closure it may call again" if twice else \
            f"give '{callee}' {closure} once"
        data = {"moved_by_calling": display_name(mover.closure.name) if held else "closure",
                "handed_to": callee}
    elif gone is mover:
        # A callee a call gives (`id(g)()`) is named as written.
        at = mover.callee.span
        callee = display_name(mover.callee.name) if mover.callee._prod == "Local" else \
            at.source.text[at.start:at.end] if at is not None else quoted(mover.callee)
        went = f"by the call of '{callee}', whose body moves it,"
        repair = f"call '{callee}' once"
        data = {"moved_by_calling": callee}
    else:
        callee = callee_name(mover)
        went = f"into the call of '{callee}'"
        repair = f"lend it instead (`&{x}`, with '{callee}' taking a reference)"
        data = {"moved_into": callee}
    # The move drawn under its line; a move the text does not hold is told in a note.
    moved = [Label(gone.span, f"'{x}' moved here{when and ', in an earlier iteration'}")] \
        if gone.span is not None else []
    # A use of s whole after a move of its field s.t reads what s no longer holds.
    partly = f"partially moved value '{_shown(key)}': '{x}'" if gone_key in _under(run, key) \
        else f"moved value '{x}': it"
    run.ctx.diagnostics.error(
        "E4001", use.span,
        f"use of {partly} was moved {went}{when} at line {line}, column {col}",
        labels=moved, notes=[] if moved else [f"'{x}' moved here, at {line}:{col}: `{text}`"],
        help=[f"{repair}, or give '{x}' a new value before this use"],
        name=x, **data, moved_at={"line": line, "column": col})

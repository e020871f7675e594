"""bind-launching-closures-again: Lpinned -> Lpinned.

Same IL: a closure value is made when its `let` runs and reads its variables when it is
called, so a copy of it bound later in the same frame, launching copies of the same kernels,
makes the same calls; the interpreter runs the output as it ran the input."""

from __future__ import annotations

from ..languages.lpinned import Lpinned as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import Pass, descendants
from ..scalars.aggregates import fresh_item
from ..scalars.closures import bound_in, captures, run_when_called
from ..scalars.storages import fresh_copy

bind_launching_closures_again = Pass("bind-launching-closures-again", L, L, """
Bind a closure whose body launches a kernel given a variable a `let mut` binds to a closure
(or calls such a closure) again, launching copies of its kernels, before each call of it
after the `let` of a variable that a closure the variable is given reads, so that
choose-closures-in-kernels can give each kernel the closures bound before its closure.

`let run = |y: i32| spawn on(T) { f(y) }; print(run(1)); let m = 5; f = |x: i32| x * m;
print(run(5));` is `.. let run#1 = |y#1: i32| spawn on(T) { f(y#1) }; print(run#1(5));`,
the copy's kernel a copy of the first's: the first `run`, called before `m` is bound, runs
while `f` holds a closure bound before it, and the second is bound after the closure
reading `m`, which its kernel can be given. A closure calling `run` (`let twice = |y: i32|
run(y) + run(y);`) is bound again likewise, after `run`'s copy, which its copy calls. It is
done for a closure that the function's body names only as the callee of calls outside
closures or in the body of another such closure, or of a closure a `let` in that body binds
that only calls of it there call (a closure made inside one otherwise naming it, or a value
of it, may call it later, holding the first kernel).
""")


@bind_launching_closures_again.on("Program")
def _program(run, program):
    fns = [i for i in program.items if i._prod == "Fn"]
    kernels = {fn.name: fn for fn in fns}
    names = {i.name for i in program.items if hasattr(i, "name")}
    copies: dict = {}
    bodies = {fn.name: _bound_again(fn, kernels, names, copies) for fn in fns}
    if not copies:
        return program
    items = []
    for item in program.items:
        if item._prod == "Fn":
            item = item.replace(body=bodies[item.name])
        items += [item] + copies.get(getattr(item, "name", None), [])
    return program.replace(items=tuple(items))


def _bound_again(fn, kernels: dict, names: set, copies: dict):
    """fn's body with each closure `_closures_to_bind` finds bound again before each
    statement (or the body's value) calling it after the `let` of a variable its closures
    read."""
    stmts = fn.body.stmts
    closures = _closures_to_bind(fn)
    if not closures:
        return fn.body
    taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    now = {}  # each such closure bound -> the name it is called by now
    stale = set()  # those bound before the `let` of a variable their closures read
    out = []
    value = () if fn.body.value is None else (fn.body.value,)

    def bind(name, span):
        """`name` bound again, after the closures it calls that are stale, bound again too."""
        for called in sorted(stale & now.keys()):
            if _names(closures[name][0].body, called):
                bind(called, span)
        now[name] = unused_name(display_name(name), taken)
        out.append(L["Let"](now[name], False, L["OpaqueType"](span=span),
                            _copy(closures[name][0], kernels, names, copies, taken, now),
                            span=span))
        stale.discard(name)

    for s in stmts + value:
        for name in sorted(stale & now.keys()):
            if name in stale and _names(s, name):
                bind(name, s.span)
        renamed = {name: now[name] for name in now if now[name] != name and _names(s, name)}
        out.append(fresh_copy(s, renamed) if renamed else s)
        if s._prod == "Let":
            if s.name in closures:
                now[s.name] = s.name
            stale |= {name for name in now if s.name in closures[name][1]}
    if value:
        return fn.body.replace(stmts=tuple(out[:-1]), value=out[-1])
    return fn.body.replace(stmts=tuple(out))


def _closures_to_bind(fn) -> dict:
    """Each `let` of fn's body binding a closure that launches a kernel given a variable a
    `let mut` binds to a closure, or that calls such a closure -> (the closure, the
    variables the closures that variable is given read); each named only as the callee of
    calls outside closures or in the body of another of them (in a closure made inside it
    only where that runs only while it runs: `run_when_called`)."""
    stmts = fn.body.stmts
    chosen = {s.name for s in stmts if s._prod == "Let" and s.mutable
              and s.value._prod == "Closure"}
    read: dict = {}
    for n in descendants(fn.body):
        if n._prod == "Assign" and n.target._prod == "Local" and n.target.name in chosen \
                and n.value._prod == "Closure":
            read.setdefault(n.target.name, set()).update(captures(n.value))
    lets = {s.name: s.value for s in stmts if s._prod == "Let" and not s.mutable
            and s.value._prod == "Closure"}
    found = {}
    for name, c in lets.items():
        given = {a.name for n in descendants(c.body) if n._prod == "Launch"
                 for a in n.args if a._prod == "Local" and a.name in read}
        if given:
            found[name] = (c, set().union(*(read[g] for g in given)))
    while True:  # a closure calling one found is bound again with it
        more = {name: (c, set().union(*(found[m][1] for m in found if _names(c.body, m))))
                for name, c in lets.items() if name not in found and
                any(_names(c.body, m) for m in found)}
        if not more:
            break
        found.update(more)
    callees = {id(n.callee) for n in descendants(fn.body) if n._prod == "Call"}
    inner = {id(n) for c in descendants(fn.body) if c._prod == "Closure"
             for n in descendants(c.body)}
    while True:  # named otherwise, it (and each naming it) may call the first kernels
        called = set().union(*(run_when_called(c) for c, _ in found.values()))
        out = {name for name in found if not all(
            id(n) in callees and (id(n) not in inner or id(n) in called)
            for n in descendants(fn.body) if n._prod == "Local" and n.name == name)}
        out |= {name for name, (c, _) in found.items() if any(_names(c.body, m) for m in out)}
        if not out:
            return found
        found = {name: v for name, v in found.items() if name not in out}


def _copy(closure, kernels: dict, names: set, copies: dict, taken: set, now: dict):
    """closure made of nodes of its own, its locals named anew, the closures it calls by the
    names `now` gives them, its launches of copies of their kernels."""
    renamed = {name: new for name, new in now.items() if new != name}
    copy = fresh_copy(closure, {**renamed, **{b: unused_name(display_name(b), taken)
                                              for b in bound_in(closure)}})
    return _relaunched(copy, kernels, names, copies)


def _relaunched(node, kernels: dict, names: set, copies: dict):
    """node with each launch of a copy of its kernel, added to `copies` after the kernel."""
    changed = {}
    for f in node._fields:
        v = getattr(node, f)
        if isinstance(v, tuple):
            new = tuple(_relaunched(c, kernels, names, copies) if hasattr(c, "_prod") else c
                        for c in v)
            if any(a is not b for a, b in zip(new, v)):
                changed[f] = new
        elif hasattr(v, "_prod"):
            new = _relaunched(v, kernels, names, copies)
            if new is not v:
                changed[f] = new
    if node._prod == "Launch" and node.kernel in kernels:
        kernel = kernels[node.kernel]
        name = fresh_item(kernel.name, names)
        copies.setdefault(kernel.name, []).append(fresh_copy(kernel).replace(name=name))
        changed["kernel"] = name
    return node.replace(**changed) if changed else node


def _names(node, name: str) -> bool:
    return any(n._prod == "Local" and n.name == name for n in descendants(node))

"""choose-closures-in-kernels: Lpinned -> Lpinned.

Same IL: each closure a `let mut` variable may hold is bound by a `let` of its own where the
variable is, and the number of the one it holds is a local beside it; the variable holds the
same closures when it is called, and a kernel makes the variable again from them, as it held
it at the launch; the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in, captures, runs_until


@dataclass
class State:
    chosen: dict = field(default_factory=dict)  # id() of the `let mut` of a variable a launch
    # gives a kernel -> (the name of the closure it binds, of the number of the one held)
    after: dict = field(default_factory=dict)  # id() of a `let` -> (the name, the closure) of
    # each such closure bound after it
    assigned: dict = field(default_factory=dict)  # id() of each assignment of one -> (its
    # closure's name, the number's name, the closure's number)
    kernels: dict = field(default_factory=dict)  # kernel -> {the index of a parameter given
    # such a variable: ((the number, the name) of each closure bound at the launch, the name
    # of the number)}


choose_closures_in_kernels = Pass("choose-closures-in-kernels", L, L, """
Give a kernel that a launch gives a closure a `let mut` binds the closures the variable may
hold, each bound by a `let` of its own, and the number of the one it holds, from which the
kernel makes the variable again; copy-closures-into-kernels then makes those closures there.

`let mut f = |x: i32| x + k; if c { f = |x: i32| x * k; } spawn on(T) { f(5) }` binds
`let f_0 = |x: i32| x + k; let f_1 = |x: i32| x * k; let mut f = f_0; let mut f_which: i32
= 0;` and writes the assignment `f = f_1; f_which = 1;`; the kernel is given `f_which`,
`f_0` and `f_1` for `f`, and starts with `let mut f = f_0; if f_which == 1 { f = f_1; }`. A
closure value is made when its `let` runs, and reads its variables when it is called, so
making each where the variable is bound, or after the `let` of the last variable it reads,
calls the same closures; that needs each assigned to the variable as a closure written
there (`f = |..| ..`, not `f = g` nor `f += ..`) and reading only parameters and variables
the function's body itself binds, and the variable never lent (a kernel whose body assigns
it is given it `&mut`, through which it may hold another closure). A launch before a
closure's `let` runs before the assignment giving it, and its kernel is not given it; so
does one in the body of a closure a `let` binds that the body names only as the callee of
calls outside closures (or in the body of another closure a `let` binds, named so in turn),
all before that `let` (bind-launching-closures-again binds such a closure again for the
calls after it); one in another closure's body may run later: its variable is left as it
is. Otherwise the kernel is given the closure value, which
type-scalars refuses (E5010).
""", state=State)


@choose_closures_in_kernels.on("Program")
def _program(run, program):
    st = run.state
    fns = [i for i in program.items if i._prod == "Fn"]
    taken = {n.name for fn in fns for n in descendants(fn) if n._prod == "Local"} | \
        {name for fn in fns for name in bound_in(fn)}
    for fn in fns:
        _choose(st, fn, taken)
    return run.rebuild(program) if st.chosen else program


def _choose(st: State, fn, taken: set) -> None:
    """Find the `let mut` closures of fn a launch gives a kernel that can be chosen there."""
    stmts = fn.body.stmts
    # A variable lent (a kernel assigning it is given it so) may be given another closure
    # through the reference, which no number says.
    lent = {n.value.name for n in descendants(fn.body)
            if n._prod == "Borrow" and n.value._prod == "Local"}
    # Each launch giving a variable: the top-level statement it is part of, and whether a
    # closure's body holds it (it runs when that closure is called).
    launched: dict = {}
    for at, stmt in enumerate(stmts):
        later = {id(n) for c in descendants(stmt) if c._prod == "Closure"
                 for n in descendants(c.body)}
        for n in descendants(stmt):
            if n._prod == "Launch":
                for a in n.args:
                    if a._prod == "Local":
                        launched.setdefault(a.name, []).append((n, at, id(n) in later))
    bound = {s.name: at for at, s in enumerate(stmts) if s._prod == "Let"}
    for at, let in enumerate(stmts):
        if let._prod != "Let" or not let.mutable or let.value._prod != "Closure" or \
                let.name not in launched:
            continue
        assigns = [n for n in descendants(fn) if n._prod == "Assign"
                   and n.target._prod == "Local" and n.target.name == let.name]
        params = {p.name for p in fn.params}
        closures = [let.value] + [a.value for a in assigns]
        if any(a.op != "=" or a.value._prod != "Closure" for a in assigns) or \
                any(not set(captures(c)) <= params | bound.keys() for c in closures) or \
                let.name in lent:
            continue
        # Each closure's `let` goes after the variable's and each it reads. A launch before it
        # runs before the assignment giving it (in a later statement, where what it reads is
        # in scope): its kernel is not given it (but a launch in a closure's body may run
        # later).
        places = [max([at] + [bound[v] for v in captures(c) if v in bound]) for c in closures]
        if any(inside and any(where <= place < runs_until(fn, where, launch)
                              for place in places)
               for launch, where, inside in launched[let.name]):
            continue
        base = display_name(let.name)
        names = [unused_name(f"{base}_{i}", taken) for i in range(len(closures))]
        which = unused_name(f"{base}_which", taken)
        st.chosen[id(let)] = (names[0], which)
        for name, c, place in zip(names[1:], closures[1:], places[1:]):
            st.after.setdefault(id(stmts[place]), []).append((name, c))
        st.assigned.update((id(a), (names[i], which, i)) for i, a in enumerate(assigns, 1))
        for launch, where, _ in launched[let.name]:
            numbered = [(n, name) for n, (name, place) in enumerate(zip(names, places))
                        if n == 0 or where > place]
            for i, a in enumerate(launch.args):
                if a._prod == "Local" and a.name == let.name:
                    st.kernels.setdefault(launch.kernel, {})[i] = (numbered, which)


def _number(which: str, i: int, span):
    return L["Assign"](L["Local"](which, span=span), "=", L["Int"](i, span=span), span=span)


@choose_closures_in_kernels.on("Let", splice=True)
def _let(run, let):
    """`let mut f = C0;`: a `let` of C0, f given it, its number 0; after the `let` of f or
    of the last variable Ci reads, a `let` of Ci."""
    st = run.state
    chosen = st.chosen.get(id(let))
    out = (run.rebuild(let),)
    if chosen is not None:
        first, which = chosen
        span = let.span
        out = (_bound(run, first, let.value),
               let.replace(value=L["Local"](first, span=span)),
               L["Let"](which, True, L["Scalar"]("i32", span=span), L["Int"](0, span=span),
                        span=span))
    return out + tuple(_bound(run, name, c) for name, c in st.after.get(id(let), ()))


def _bound(run, name: str, closure):
    return L["Let"](name, False, L["OpaqueType"](span=closure.span), run.walk(closure),
                    span=closure.span)


@choose_closures_in_kernels.on("Assign", splice=True)
def _assign(run, node):
    """`f = Ci;`: f given the i-th closure's `let`, and its number."""
    assigned = run.state.assigned.get(id(node))
    if assigned is None:
        return run.rebuild(node)
    name, which, i = assigned
    span = node.span
    return (node.replace(value=L["Local"](name, span=span)), _number(which, i, span))


@choose_closures_in_kernels.on("Launch")
def _launch(run, node):
    """The number of the closure the variable holds for it, then its closures."""
    chosen = run.state.kernels.get(node.kernel)
    node = run.rebuild(node)
    if chosen is None:
        return node
    span = node.span
    args = [L["Local"](chosen[i][1], span=span) if i in chosen else a
            for i, a in enumerate(node.args)]
    closures = [L["Local"](name, span=span) for i in sorted(chosen) for _, name in chosen[i][0]]
    return node.replace(args=tuple(args + closures))


@choose_closures_in_kernels.on("Fn")
def _fn(run, fn):
    """A kernel given the number and the closures, making the variable first."""
    chosen = run.state.kernels.get(fn.name)
    fn = run.rebuild(fn)
    if chosen is None:
        return fn
    span = fn.span
    params = [L["Param"](chosen[i][1], L["Scalar"]("i32", span=span), span=span)
              if i in chosen else p for i, p in enumerate(fn.params)]
    added = [L["Param"](name, fn.params[i].type, span=span)
             for i in sorted(chosen) for _, name in chosen[i][0]]
    made = []
    for i in sorted(chosen):
        (_, first), *others = chosen[i][0]
        which = chosen[i][1]
        var = fn.params[i]
        made.append(L["Let"](var.name, True, L["OpaqueType"](span=span),
                             L["Local"](first, span=span), span=span))
        for n, name in others:
            cond = L["Binary"]("==", L["Local"](which, span=span), L["Int"](n, span=span),
                               span=span)
            then = L["Block"]((L["Assign"](L["Local"](var.name, span=span), "=",
                                           L["Local"](name, span=span), span=span),), None,
                              span=span)
            made.append(L["If"](cond, False, then, None, span=span))
    return fn.replace(params=tuple(params + added),
                      body=fn.body.replace(stmts=tuple(made) + fn.body.stmts))

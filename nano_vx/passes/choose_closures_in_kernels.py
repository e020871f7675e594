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
from ..scalars.closures import bound_in, captures


@dataclass
class State:
    chosen: dict = field(default_factory=dict)  # id() of the `let mut` of a variable a launch
    # gives a kernel -> (the names of the closures it may hold, of the number of the one held,
    # those closures)
    assigned: dict = field(default_factory=dict)  # id() of each assignment of one -> (its
    # closure's name, the number's name, the closure's number)
    kernels: dict = field(default_factory=dict)  # kernel -> {the index of a parameter given
    # such a variable: (the names of its closures, of its number)}


choose_closures_in_kernels = Pass("choose-closures-in-kernels", L, L, """
Give a kernel that a launch gives a closure a `let mut` binds the closures the variable may
hold, each bound by a `let` of its own, and the number of the one it holds, from which the
kernel makes the variable again; copy-closures-into-kernels then makes those closures there.

`let mut f = |x: i32| x + k; if c { f = |x: i32| x * k; } spawn on(T) { f(5) }` binds
`let f_0 = |x: i32| x + k; let f_1 = |x: i32| x * k; let mut f = f_0; let mut f_which: i32
= 0;` and writes the assignment `f = f_1; f_which = 1;`; the kernel is given `f_which`,
`f_0` and `f_1` for `f`, and starts with `let mut f = f_0; if f_which == 1 { f = f_1; }`. A
closure value is made when its `let` runs, and reads its variables when it is called, so
making each where the variable is bound calls the same closures; that needs each assigned to
the variable as a closure written there (`f = |..| ..`, not `f = g` nor `f += ..`) and
reading only parameters and variables bound before the variable, in the function's body
itself (in scope at every launch after it), and the variable never lent (a kernel whose body
assigns it is given it `&mut`, through which it may hold another closure). Otherwise the
kernel is given the closure value, which type-scalars refuses (E5010).
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
    given = {(launch.kernel, i): arg.name for launch in descendants(fn.body)
             if launch._prod == "Launch" for i, arg in enumerate(launch.args)
             if arg._prod == "Local"}
    # A variable lent (a kernel assigning it is given it so) may be given another closure
    # through the reference, which no number says.
    lent = {n.value.name for n in descendants(fn.body)
            if n._prod == "Borrow" and n.value._prod == "Local"}
    for at, let in enumerate(stmts):
        if let._prod != "Let" or not let.mutable or let.value._prod != "Closure" or \
                let.name not in given.values():
            continue
        assigns = [n for n in descendants(fn) if n._prod == "Assign"
                   and n.target._prod == "Local" and n.target.name == let.name]
        before = {p.name for p in fn.params} | \
            {s.name for s in stmts[:at] if s._prod == "Let"}
        closures = [let.value] + [a.value for a in assigns]
        if any(a.op != "=" or a.value._prod != "Closure" for a in assigns) or \
                any(not set(captures(c)) <= before for c in closures) or \
                let.name in lent:
            continue
        base = display_name(let.name)
        names = [unused_name(f"{base}_{i}", taken) for i in range(len(closures))]
        which = unused_name(f"{base}_which", taken)
        st.chosen[id(let)] = (names, which, closures)
        st.assigned.update((id(a), (names[i], which, i)) for i, a in enumerate(assigns, 1))
        for (kernel, i), name in given.items():
            if name == let.name:
                st.kernels.setdefault(kernel, {})[i] = (names, which)


def _number(which: str, i: int, span):
    return L["Assign"](L["Local"](which, span=span), "=", L["Int"](i, span=span), span=span)


@choose_closures_in_kernels.on("Let", splice=True)
def _let(run, let):
    """`let mut f = C0;`: a `let` of each closure f may hold, f the first, its number 0."""
    chosen = run.state.chosen.get(id(let))
    if chosen is None:
        return run.rebuild(let)
    names, which, closures = chosen
    span = let.span
    made = tuple(L["Let"](name, False, L["OpaqueType"](span=c.span), run.walk(c), span=c.span)
                 for name, c in zip(names, closures))
    return made + (let.replace(value=L["Local"](names[0], span=span)),
                   L["Let"](which, True, L["Scalar"]("i32", span=span), L["Int"](0, span=span),
                            span=span))


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
    closures = [L["Local"](name, span=span) for i in sorted(chosen) for name in chosen[i][0]]
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
             for i in sorted(chosen) for name in chosen[i][0]]
    made = []
    for i in sorted(chosen):
        names, which = chosen[i]
        var = fn.params[i]
        made.append(L["Let"](var.name, True, L["OpaqueType"](span=span),
                             L["Local"](names[0], span=span), span=span))
        for n, name in enumerate(names[1:], 1):
            cond = L["Binary"]("==", L["Local"](which, span=span), L["Int"](n, span=span),
                               span=span)
            then = L["Block"]((L["Assign"](L["Local"](var.name, span=span), "=",
                                           L["Local"](name, span=span), span=span),), None,
                              span=span)
            made.append(L["If"](cond, False, then, None, span=span))
    return fn.replace(params=tuple(params + added),
                      body=fn.body.replace(stmts=tuple(made) + fn.body.stmts))

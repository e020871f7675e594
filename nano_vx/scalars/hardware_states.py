"""Hardware states (what `try_pin` gives) as native code holds them: the three values lower-pins
makes of each, which parameters of a function are states and which a tuple it returns may
give back, the type of those values (lower-state-tuples and lower-pins), and what lower-pins
and hold-states-by-reference both ask of a state made: its topology, and the pin it takes."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lpinned import Lpinned as L
from ..nanopass import descendants
from .aggregates import Refused


def is_state_type(ty) -> bool:
    return ty is not None and ty._prod == "HardwareStateType"


def state_params(fn) -> frozenset:
    """The indices of the function's hardware-state parameters."""
    return frozenset(i for i, p in enumerate(fn.params) if is_state_type(p.type))


def params_in_returned_tuples(fn) -> dict:
    """Which state parameter each state element of the tuple `fn` returns is at its returns:
    the element's index -> the parameter's index at each return, None where it is another
    value. Empty unless every return is a tuple literal of the result's length (and the
    function has no closure, whose `return` is not the function's)."""
    ret, values = fn.ret, returned_tuples(fn)
    if values is None or any(v is None or v._prod != "Tuple" or len(v.elems) != len(ret.elems)
                             for v in values):
        return {}
    params = {p.name: i for i, p in enumerate(fn.params) if is_state_type(p.type)}
    return {j: [params.get(v.elems[j].name) if v.elems[j]._prod == "Local" else None
                for v in values] for j, ty in enumerate(ret.elems) if is_state_type(ty)}


def params_given_back(fns) -> dict:
    """Which state parameter each state element of the tuple each function returns is at
    some of its returns, another value at the others: the function's name -> {the element's
    index -> the parameters' indices, in order}. An element is a parameter's where a tuple
    literal returns that parameter's variable (or a state an `if` chose that may be it), or a
    call returns its tuple whose element is at some returns the state parameter the call
    gives that variable (or such a state)."""
    fns = {fn.name: fn for fn in fns}
    possible = {name: {} for name in fns}  # name -> {element: the parameters it may be}
    changed = True
    while changed:
        changed = False
        for name, fn in fns.items():
            for j, k in _gives_back(fn, possible):
                if k not in possible[name].setdefault(j, set()):
                    possible[name][j].add(k)
                    changed = True
    return {name: {j: tuple(sorted(ks)) for j, ks in found.items()}
            for name, found in possible.items() if found}


def _gives_back(fn, possible: dict):
    """(element, parameter) for each state parameter a return of `fn` may give back in its
    tuple, a call's as `possible` has it so far: a variable is the parameter's, or a state
    an `if` chose that may be it."""
    ret, values = fn.ret, returned_tuples(fn)
    params = {p.name: i for i, p in enumerate(fn.params) if is_state_type(p.type)}
    chosen = chosen_params(fn)

    def given(x):
        if x._prod != "Local":
            return ()
        return (params[x.name],) if x.name in params else \
            tuple(params[p] for p in chosen.get(x.name, ()))
    for v in values or ():
        if v is not None and v._prod == "Tuple" and len(v.elems) == len(ret.elems):
            yield from ((j, k) for j, x in enumerate(v.elems) if is_state_type(ret.elems[j])
                        for k in given(x))
        elif v is not None and v._prod == "Call" and v.callee._prod == "Global" \
                and v.callee.name in possible:
            for j, ks in possible[v.callee.name].items():
                yield from ((j, k) for i in ks if i < len(v.args) for k in given(v.args[i]))


def returned_tuples(fn):
    """What the returns of a function returning a tuple return (None for a missing value),
    or None for another function or one with a closure, whose `return` is not its own."""
    if fn.ret is None or fn.ret._prod != "TupleType" \
            or any(n._prod == "Closure" for n in descendants(fn.body)):
        return None
    values = [n.value for n in descendants(fn.body) if n._prod == "Return"]
    return values + ([fn.body.value] if fn.body.value is not None else [])  # else it ends


def chosen_params(fn) -> dict:
    """The state parameters each state an `if` chose (a `let_state`) may be: its name -> the
    names of the parameters whose `held` its own `held` is given, or that of a state an `if`
    chose that may be them."""
    params = {p.name for p in fn.params if is_state_type(p.type)}
    givens = _held_givens(fn)
    found = {}
    for name in givens:
        reached, seen, todo = set(), set(), [name]
        while todo:
            state = todo.pop()
            if state not in seen:
                seen.add(state)
                reached |= givens.get(state, set()) & params
                todo += givens.get(state, set()) - params
        if reached:
            found[name] = reached
    return found


def chosen_sources(fn) -> dict:
    """Each state an `if` chose (a `let_state`) -> the states an `if` chose whose `held` its
    own `held` is given."""
    givens = _held_givens(fn)
    return {name: {g for g in gs if g in givens} for name, gs in givens.items()}


def _held_givens(fn) -> dict:
    """Each state an `if` chose (a `let_state`) -> the states whose `held` its own `held` is
    given (`state_part 2 of s`), each `let_state` there whether or not any is."""
    helds = {n.held: n.name for n in descendants(fn.body) if n._prod == "LetState"}
    found = {name: set() for name in helds.values()}
    for n in descendants(fn.body):
        name = n.name if n._prod == "Let" else \
            n.target.name if n._prod == "Assign" and n.target._prod == "Local" else None
        v = n.value if name in helds else None
        if v is not None and v._prod == "StatePart" and v.part == 2 \
                and v.state._prod == "Local":
            found[helds[name]].add(v.state.name)
    return found


def topo_key(topo) -> tuple:
    """A topology written out, as a key: two are the same topology when their keys are."""
    return (topo.name, *((b._prod, getattr(b, "value", None), getattr(b, "name", None))
                         if b is not None else None for b in (topo.index, topo.end)))


def mutable_locals(fn) -> frozenset:
    """The function's `let mut` locals: a topology indexed by one may read otherwise later."""
    return frozenset(n.name for n in descendants(fn) if n._prod == "Let" and n.mutable)


def check_static(topo, changing=None) -> None:
    """The arm pins the value on the topology again: its index must read the same there (a
    number, or with the `changing` locals known, a local not among them)."""
    if any(b is not None and not (b._prod == "Int" or changing is not None
                                  and b._prod == "Local" and b.name not in changing)
           for b in (topo.index, topo.end)):
        raise Refused(topo, "a topology whose index is computed in place or may change")


def is_try_pin(e) -> bool:
    return e is not None and e._prod == "MethodCall" and e.method == "try_pin"


def returned_topo(returns: dict, e):
    """The topology of the hardware state the call `e` returns (`returns`: each function's
    result topology, None for one returning no state), or None when it is not one."""
    if e is None or e._prod != "Call" or e.callee._prod != "Global":
        return None
    return returns.get(e.callee.name)


def made_topo(returns: dict, value, changing):
    """The topology of the state `try_pin` or a call makes, written out and reading the same
    when its arm pins the value on it."""
    topo = value.args[0] if is_try_pin(value) and len(value.args) == 1 \
        else returned_topo(returns, value)
    if topo is None or topo._prod != "TopoRef":
        raise Refused(value, "`try_pin` of anything but a topology written out")
    check_static(topo, changing)
    return topo


def take_pin(model, topo, span):
    """`take_pin`, as many of the topology's kind held at once as it declares."""
    declared = model.topology_of(topo.name)
    replicas = declared.replicas if declared is not None else 1
    return L["TakePin"](topo.name, replicas, span=span)


def state_indices(ty) -> frozenset:
    """The elements of a tuple type that are hardware states."""
    if ty is None or ty._prod != "TupleType":
        return frozenset()
    return frozenset(i for i, t in enumerate(ty.elems) if is_state_type(t))


def spread(ty, flagged=()):
    """The type of what native code holds for a value of type `ty`: a hardware state (or
    each a tuple holds) as its value, whether it took a pin and whether it holds it, and for
    the elements of `flagged` (each -> the parameters it may be), whether it is each state
    parameter given back."""
    boolean = L["Scalar"]("bool", span=ty.span)
    if is_state_type(ty):
        return L["TupleType"]((ty.inner, boolean, boolean), span=ty.span)

    def element(j, t):
        if not is_state_type(t):
            return t
        parts = spread(t)
        return parts.replace(elems=parts.elems + (boolean,) * len(flagged[j])) \
            if j in flagged else parts
    return ty.replace(elems=tuple(element(j, t) for j, t in enumerate(ty.elems)))


def check_returned(state, shared: bool, e) -> None:
    """A state a function returns (None for a value that is no state's variable) is one it
    made: one given to it, a `let mut` copy (`shared`) or one an `if` chose is refused."""
    if state is None:
        raise Refused(e, "a hardware state returned other than as a variable or a call")
    if state.by_ref:
        raise Refused(e, "a hardware state given to its function returned" if state.param
                      else "a `let mut` copy of a hardware state returned" if shared
                      else "a hardware state chosen by an `if` returned")


@dataclass(frozen=True)
class HeldState:
    """A hardware state as native code holds it: its value is the local of its name."""

    took: str | None  # the bool local: whether `try_pin` took a pin
    held: str | None  # the bool local that says it still holds the pin, or a `&mut` to it
    param: str | None  # or the parameter `(value, took, &mut held)` it came in as
    topo: object  # the TopoRef it pins on
    by_ref: bool = False  # `held` is a reference: the caller's, or the one an `if` chose

    def part(self, i: int, span):
        """Whether it took a pin (1) or the bool, or the reference to it (2), that says it
        still holds the pin."""
        if self.param is None:
            return L["Local"]((self.took, self.held)[i - 1], span=span)
        return L["TupleGet"](L["Local"](self.param, span=span), i, span=span)

    def held_place(self, span):
        held = self.part(2, span)
        return L["Deref"](held, span=span) if self.by_ref else held

    def held_ref(self, span):
        held = self.part(2, span)
        return held if self.by_ref else L["Borrow"](held, True, span=span)

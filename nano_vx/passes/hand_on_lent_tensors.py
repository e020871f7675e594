"""hand-on-lent-tensors: Lparted -> Lparted.

Same IL: the caller's local is made the tensor it lent, which is the tensor the function gave
back, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lparted import Lparted as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names, is_tensor


@dataclass
class State:
    # function -> {an out-parameter's index: (the index of the parameter handing over what it
    # gets, "value" or "reference")}
    lent: dict = field(default_factory=dict)
    gone: set = field(default_factory=set)  # the current function's out-parameters that go
    names: Names | None = None  # the current function's fresh locals


hand_on_lent_tensors = Pass("hand-on-lent-tensors", L, L, """
Make each tensor a function gives back that a parameter handed it the caller's own: the
out-parameter goes, and each call is followed by the caller's local made the tensor it handed
over.

scalarize-aggregates gives back through an out-parameter each tensor of a returned aggregate
but the first, and copy-out-tensors copies it into the caller's, which only a tensor the
function made allows: a copy of one a `&mut` parameter lent would not be the tensor the
caller writes after. `fn wrap(x: &mut T, ret_b: &mut T) { ..; let b = *x; give_back ret_b =
b; }` called as `p_a = wrap(&mut t, &mut p_b);` is `fn wrap(x: &mut T) { ..; let b = *x; }`
and `p_a = wrap(&mut t); p_b = t;`, when every `give_back` of the out-parameter gives the
tensor one parameter hands over (a `&mut` tensor's, or a tensor moved in, or what a call
gave of it, `let b = pick(x);`, of a function returning at every return the tensor that its
parameter hands it, `fn pick(x: &mut T) -> T { *x }`), and every call hands over a variable
(or passes on a reference one holds) and takes the tensor into a variable of its own; a
function named other than in such a call keeps its out-parameters.

A local the call's statement assigns (`p_a = swap(p_a, p_b);`, of `fn swap(p: Pair) -> Pair
{ Pair { a: p.b, b: p.a } }`) or that one handed tensor goes to may be one that hands
another over: what it handed is then held first, in a `let` of its own, before the call for a
tensor moved in (`let held = p_a; p_a = swap(p_a, p_b); p_b = held;`), after it for a `&mut`
one (which the call may have given a new tensor), and the call's result is held too where it
would replace a `&mut` one before that is handed on.
""", state=State)


@hand_on_lent_tensors.on("Program")
def _program(run, program):
    fns = [i for i in program.items if i._prod == "Fn"]
    handing = _handing(fns)
    lent = {fn.name: found for fn in fns if (found := _lent(fn, handing))}
    named = [n for fn in fns for n in descendants(fn.body) if n._prod == "Global"
             and n.name in lent]
    calls = [s.value if s._prod == "Assign" else s.expr for fn in fns
             for s in descendants(fn.body) if _called(s, lent)]
    for name in {n.name for n in named}:
        mine = [c for c in calls if c.callee.name == name]
        if len(mine) != sum(n.name == name for n in named) or not all(
                _lender(c.args[k], how) is not None and _taker(c.args[out]) is not None
                for c in mine for out, (k, how) in lent[name].items()):
            del lent[name]  # named elsewhere, or a call that lends or takes other than so
    run.state.lent = lent
    return run.rebuild(program)


def _called(stmt, lent: dict) -> bool:
    """Whether stmt is a call of a function of `lent`, or a variable given its result."""
    e = stmt.value if stmt._prod == "Assign" else stmt.expr if stmt._prod == "ExprStmt" \
        else None
    return e is not None and e._prod == "Call" and e.callee._prod == "Global" and \
        e.callee.name in lent


def _lent(fn, handing: dict) -> dict:
    """{out-parameter's index: (its lender's index, how it lends)} for each tensor
    out-parameter of fn every `give_back` of which gives the tensor one parameter hands over:
    a `&mut` tensor's, or a tensor moved in, or what a call of a function of `handing` gives
    back of it."""
    held = _Held(fn, handing)
    lenders: dict = {}
    for n in descendants(fn.body):
        if n._prod == "GiveBack":
            k = held.lender(n.value)
            lenders[n.param] = k if k is not None and lenders.get(n.param, k) == k else None
    return {held.index[p]: (k, _lends(fn.params[k])) for p, k in lenders.items()
            if k is not None and p in held.index}


def _handing(fns: list) -> dict:
    """{function: (the index of its parameter, how it lends)} for each function whose every
    returned value is the tensor that parameter hands it (`fn pick(x: &mut T) -> T { *x }`):
    its result is the caller's tensor."""
    handing: dict = {}
    for _ in fns:  # as many rounds as calls of such functions nest, at most
        for fn in fns:
            held = _Held(fn, handing)
            values = [n.value for n in descendants(fn.body) if n._prod == "Return"] + \
                [fn.body.value]
            found = {held.lender(v) if v is not None else None for v in values}
            if len(found) == 1 and None not in found:
                k = found.pop()
                handing[fn.name] = (k, _lends(fn.params[k]))
    return handing


class _Held:
    """What a function's values hold: the tensor of which of its parameters."""

    def __init__(self, fn, handing: dict):
        self.fn, self.handing = fn, handing
        self.index = {p.name: k for k, p in enumerate(fn.params)}
        self.bound, self.assigned = {}, set()
        for n in descendants(fn.body):
            if n._prod == "Let":
                self.bound[n.name] = None if n.name in self.bound else n.value
            elif n._prod == "Assign" and n.target._prod == "Local":
                self.assigned.add(n.target.name)

    def lender(self, value) -> int | None:
        """The index of the parameter that hands over the tensor value is, if any."""
        if value._prod == "Local" and value.name not in self.assigned and \
                value.name not in self.index:
            value = self.bound.get(value.name) or value
        if value._prod == "Call" and value.callee._prod == "Global" and \
                value.callee.name in self.handing:
            j, how = self.handing[value.callee.name]
            arg = value.args[j] if j < len(value.args) else None
            if how == "value" or arg is None:
                value = arg
            elif arg._prod == "Borrow":
                value = arg.value
            else:
                value = L["Deref"](arg, span=arg.span)
            if value is None:
                return None
        by_value = value._prod == "Local"
        name = value.name if by_value else value.value.name \
            if value._prod == "Deref" and value.value._prod == "Local" else None
        k = self.index.get(name) if name not in self.assigned else None
        if k is None or _lends(self.fn.params[k]) != ("value" if by_value else "reference"):
            return None
        return k


def _lends(param) -> str | None:
    """How a parameter hands its caller's tensor over: "value" (moved in), "reference" (a
    `&mut`); None for no tensor."""
    t = param.type
    if is_tensor(t):
        return "value"
    if t is not None and t._prod == "BorrowType" and t.mutable and is_tensor(t.inner):
        return "reference"
    return None


def _lender(arg, how: str):
    """The tensor a call hands over by `arg` (`how` its parameter takes it), as the caller
    names it: t moved in, `t` of `&mut t`, `*r` of a reference r it holds; None for any
    other argument."""
    if how == "value":
        return arg if arg._prod == "Local" else None
    if arg._prod == "Borrow" and arg.value._prod == "Local":
        return arg.value
    if arg._prod == "Local":
        return L["Deref"](arg, span=arg.span)
    return None


def _taker(arg):
    """The caller's local an out-argument `&mut q` gives the tensor to; None for another."""
    return arg.value if arg._prod == "Borrow" and arg.value._prod == "Local" else None


@hand_on_lent_tensors.on("Fn")
def _fn(run, fn):
    st = run.state
    outs = st.lent.get(fn.name, {})
    st.gone, st.names = {fn.params[k].name for k in outs}, Names(fn)
    made = run.rebuild(fn)
    return made.replace(params=tuple(p for k, p in enumerate(made.params) if k not in outs)) \
        if outs else made


@hand_on_lent_tensors.on("GiveBack", splice=True)
def _give_back(run, node):
    return () if node.param in run.state.gone else (node,)


@hand_on_lent_tensors.on("Assign", "ExprStmt", splice=True)
def _call(run, stmt):
    made = run.rebuild(stmt)
    if not _called(stmt, run.state.lent):
        return (made,)
    call = made.value if made._prod == "Assign" else made.expr
    outs = sorted(run.state.lent[call.callee.name].items())
    span = stmt.span
    target = made.target.name if made._prod == "Assign" and made.target._prod == "Local" \
        else None
    takers = [_taker(call.args[out]) for out, _ in outs]
    before, after, handed, result = [], [], [], None
    for i, (out, (k, how)) in enumerate(outs):
        lender = _lender(call.args[k], how)
        root = lender.name if lender._prod == "Local" else lender.value.name
        clobbered = {t.name for t in takers[:i]}
        if how == "value":
            clobbered.add(target)
        elif root == target:
            result = result or run.state.names.fresh("result")
        if root in clobbered:
            held = run.state.names.fresh("handed")
            (before if how == "value" else after).append(
                L["Let"](held, False, L["OpaqueType"](span=span), lender, span=span))
            lender = L["Local"](held, span=span)
        handed.append(L["Assign"](takers[i], "=", lender, span=span))
    call = call.replace(args=tuple(a for j, a in enumerate(call.args)
                                   if j not in dict(outs)))
    if result is not None:
        return (*before, L["Let"](result, False, L["OpaqueType"](span=span), call, span=span),
                *after, *handed,
                made.replace(value=L["Local"](result, span=span)))
    return (*before,
            made.replace(value=call) if made._prod == "Assign" else made.replace(expr=call),
            *after, *handed)

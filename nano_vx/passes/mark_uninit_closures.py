"""mark-uninit-closures: Lcopied -> Lcopied.

Same IL: the mark a closure gets is the `WrittenCopy` that opens a copy of a function, a
production Lcopied has."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lcopied import Lcopied
from ..nanopass import Pass, descendants
from ..scalars.tensor_names import (lent_tensor, named_whole, names_given, tracked_at,
                                    tracked_tensors)


@dataclass
class _Closures:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    given: dict = field(default_factory=dict)  # a closure's `let` -> its parameters given one


mark_uninit_closures = Pass("mark-uninit-closures", Lcopied, Lcopied, """
Open each closure given tensors made by `::uninit()` as arguments with the `WrittenCopy` of a copy of a function, naming the parameters given one, so that track-uninit-elements hands it their written-flags as it does a copy.

A closure is marked where a `let` binds it (not `mut`), the function uses it only to call it
by name, and its parameters where some call gives it a tracked tensor (made by `::uninit()`,
a name of one, a parameter a copy's mark names, or a copy's result, or borrows of these) are
typed tensors: each call then gives the flags beside the tensors, all set beside a tensor
made otherwise, so the extents there must be static (the flags all set are made once) or
each other call gives a local (or a borrow of one), beside which flags all set of its
extents are made, or a value no local names, which make-all-set-flags names first. A closure that sees a tracked tensor rather than being given it needs no mark: it
sees the flags as it sees the tensor. Any other closure given one is left as it is, and
track-uninit-elements refuses the call (E5010).
""", state=_Closures)


@mark_uninit_closures.on("Program")
def _program(run, program):
    run.state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    return run.rebuild(program)


@mark_uninit_closures.on("Fn")
def _fn(run, fn):
    nodes = list(descendants(fn.body))
    lets = [n for n in nodes if n._prod == "Let"]
    tracked = set(tracked_tensors(fn, nodes, run.state.fns))
    tracked |= {name for name, _ in names_given(lets, tracked)}
    run.state.given = {}
    for s in lets:
        if s.mutable or s.value._prod != "Closure":
            continue
        uses = [n for n in nodes if n._prod == "Local" and n.name == s.name]
        calls = [n for n in nodes if n._prod == "Call" and n.callee._prod == "Local" and
                 n.callee.name == s.name]
        at = [set(tracked_at(c, tracked)) for c in calls]
        given = sorted(set().union(*at))
        params = s.value.params
        others = {k: [c.args[k] for c, ks in zip(calls, at) if k not in ks] for k in given}
        if len(calls) != len(uses) or not given or \
                not all(_flaggable(params, k, others[k]) for k in given):
            continue
        run.state.given[s.name] = tuple(params[k].name for k in given)
    return run.rebuild(fn) if run.state.given else fn


@mark_uninit_closures.on("Let")
def _let(run, s):
    s = run.rebuild(s)
    if s.name not in run.state.given:
        return s
    made = s.value
    mark = Lcopied["WrittenCopy"](run.state.given[s.name], False, span=made.span)
    return s.replace(value=made.replace(body=made.body.replace(
        stmts=(mark, *made.body.stmts))))



def _flaggable(params, k: int, others: list) -> bool:
    """Whether the closure's parameter k, given a tracked tensor at some call and the
    arguments `others` at the others, can take its flags: a typed tensor, whose extents are
    static (flags all set made once beside the closure) or each other argument is a local
    (or a borrow of one), beside which flags all set of its extents can be made, or a value
    no local names (a call's result), which make-all-set-flags names first."""
    typed = lent_tensor(params[k].type) if k < len(params) else None
    return typed is not None and typed._prod == "TensorType" and \
        (all(d._prod == "DimInt" for d in typed.dims) or
         all(named_whole(a) is not None and a._prod != "Transfer" or
             named_whole(a) is None and a._prod != "Borrow" for a in others))

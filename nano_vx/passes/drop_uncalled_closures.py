"""drop-uncalled-closures: Lsplit -> Lsplit.

Same IL: making a closure, or copying one into another variable, computes nothing and the
interpreter never runs the body of one nothing calls, so it runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.closures import typed_by_calls


@dataclass
class State:
    dropped: frozenset = frozenset()  # the locals of the function whose `let`s go


drop_uncalled_closures = Pass("drop-uncalled-closures", L, L, """
Drop each `let` of a closure that nothing names, whose body indexes or dereferences a
parameter of no written type, or gives one to a closure that does.

type-scalars types such a body at the closure's first call, which says whether the
parameter is a raw pointer or a tensor (`let get = |q| unsafe { q[1] };`): with no call,
nothing says it, and nothing runs the body either. One named only in the body of one
dropped goes too, and so does a `let` copying such a closure into a variable nothing names
(`let f = get;`, f never named), and then the closure it copies, if nothing else names it;
so does a `let mut` of such a copy that nothing names but the assignments giving it another
variable or a closure (`let mut f = get; f = put;`, f never called), with those assignments.
""", state=State)


@drop_uncalled_closures.on("Fn")
def _fn(run, fn):
    run.state.dropped = _uncalled(fn)
    return run.rebuild(fn) if run.state.dropped else fn


@drop_uncalled_closures.on("Let", splice=True)
def _let(run, let):
    return () if let.name in run.state.dropped else (run.rebuild(let),)


@drop_uncalled_closures.on("Assign", splice=True)
def _assign(run, node):
    dropped = node.target._prod == "Local" and node.target.name in run.state.dropped
    return () if dropped else (run.rebuild(node),)


def _uncalled(fn) -> frozenset:
    """The locals of fn bound to such closures, or to copies of them, named nowhere but in
    the `let`s and the assignments dropped."""
    lets = {n.name: n.value for n in descendants(fn) if n._prod == "Let"}
    assigned: dict = {}  # a local -> the assignments giving it a value
    for n in descendants(fn):
        if n._prod == "Assign" and n.target._prod == "Local":
            assigned.setdefault(n.target.name, []).append(n)
    # a variable assigned only variables or closures: an assignment of it computes nothing
    kept = {name for name in lets if all(
        a.value._prod in ("Local", "Closure") for a in assigned.get(name, ()))}
    closures = {name: value for name, value in lets.items() if value._prod == "Closure"}
    found = typed_by_calls(closures)
    held = {name for name, closure in closures.items() if id(closure) in found} & kept
    while more := {name for name, value in lets.items()
                   if value._prod == "Local" and value.name in held} & kept - held:
        held |= more
    dropped: set = set()
    # a variable assigned is not named by it: the assignment goes with the variable
    targets = {id(a.target) for name in held for a in assigned.get(name, ())}
    while True:
        hidden = {id(n) for name in dropped
                  for node in (lets[name], *assigned.get(name, ())) for n in descendants(node)}
        named = {n.name for n in descendants(fn) if n._prod == "Local" and
                 id(n) not in hidden and id(n) not in targets}
        if not held - named - dropped:
            return frozenset(dropped)
        dropped |= held - named

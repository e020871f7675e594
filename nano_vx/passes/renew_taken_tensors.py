"""renew-taken-tensors: Lparted -> Lparted.

Same IL: the function gives the variable a whole tensor through its out-parameter, so what
the variable held before the call is not read after it, and the new tensor it holds first no
read sees."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lparted import Lparted as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import unread_tensor
from ..scalars.sole_buffers import MADE


@dataclass
class State:
    # a function -> {the index of a parameter it gives a tensor back through: its type}
    given: dict = field(default_factory=dict)
    holding: set = field(default_factory=set)  # the function walked's locals that may alias


renew_taken_tensors = Pass("renew-taken-tensors", L, L, """
Give a variable that an out-parameter takes a tensor into, and that may hold the buffer of
another (a `let` or an assignment gave it a variable's tensor), a new tensor just before the
call, so that copy-out-tensors copies into a buffer of its own.

hand-on-lent-tensors makes the caller's variable the tensor it lent (`p_b = t;`): a later
call giving a tensor back into the same variable (`p = fresh(3);`, which copy-out-tensors
copies into `p_b`'s buffer) would write the elements of `t`, which the interpreter's
assignment leaves as they were. `p_a = fresh(3, &mut p_b);` is `p_b = T::new(); p_a =
fresh(3, &mut p_b);` where the function assigns `p_b` other than a tensor it makes there;
a variable only ever given new tensors keeps its buffer, which the copy reuses. It is for a
call that is all its statement computes (a statement, or what a `let` or an assignment to a
local stores).
""", state=State)


@renew_taken_tensors.on("Program")
def _program(run, program):
    st = run.state
    for fn in (i for i in program.items if i._prod == "Fn"):
        back = {n.param for n in descendants(fn.body) if n._prod == "GiveBack"}
        types = {k: p.type.inner for k, p in enumerate(fn.params)
                 if p.name in back and p.type._prod == "BorrowType"}
        if types:
            st.given[fn.name] = types
    return run.rebuild(program) if st.given else program


@renew_taken_tensors.on("Fn")
def _fn(run, fn):
    nodes = list(descendants(fn.body))
    run.state.holding = \
        {n.target.name for n in nodes if n._prod == "Assign" and n.target._prod == "Local"
         and n.value._prod not in MADE} | \
        {n.name for n in nodes if n._prod == "Let" and n.value._prod not in MADE}
    return run.rebuild(fn) if run.state.holding else fn


@renew_taken_tensors.on("Let", "Assign", "ExprStmt", splice=True)
def _stmt(run, s):
    st = run.state
    made = run.rebuild(s)
    call = made.expr if made._prod == "ExprStmt" else made.value
    if made._prod == "Assign" and made.target._prod != "Local" or call._prod != "Call" or \
            call.callee._prod != "Global" or call.callee.name not in st.given:
        return (made,)
    renewed = []
    for k, ty in sorted(st.given[call.callee.name].items()):
        arg = call.args[k] if k < len(call.args) else None
        fresh = unread_tensor(ty, s.span)
        if arg is not None and arg._prod == "Borrow" and arg.value._prod == "Local" and \
                arg.value.name in st.holding and fresh is not None:
            renewed.append(L["Assign"](arg.value, "=", fresh, span=s.span))
    return (*renewed, made)

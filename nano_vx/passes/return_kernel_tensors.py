"""return-kernel-tensors: Lparted -> Lparted.

Same IL: the launcher's variable is given the tensor the kernel's parameter holds when it
ends, which is what the kernel assigned through the reference, so the interpreter runs the
output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lparted import Lparted as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import is_tensor, lent, strip


@dataclass
class State:
    returned: dict = field(default_factory=dict)  # kernel -> the index of the tensor it returns
    param: str | None = None  # the current kernel's returned parameter


return_kernel_tensors = Pass("return-kernel-tensors", L, L, """
Make a kernel that assigns a whole tensor through the `&mut` its launch gives it take the
tensor and return it, and its launch assign it to the launcher's variable.

A `spawn` body's `t = ..` of the launcher's `t` is such an assignment (outline-kernels).

Native code holds a tensor as its buffer, and a reference to one as that buffer, so a
tensor assigned whole through one would make the callee's parameter another buffer, not the
launcher's variable (type-scalars refuses it, E5010). The kernel's `t: &mut T` becomes
`t: T`, its `*t` is `t` (a `&mut *t`, or `t` given on, `&mut t`), its body's value `t`, and
`launch k(&mut t)` is `t = launch k(t)`: the launcher's variable holds, after the launch,
the tensor the kernel's `t` holds when it ends, the buffer it was given (whose elements the
kernel wrote there) or the one it assigned, as the interpreter's does. A kernel launched
in another's body whose `t` the other was given as `&mut` is done first, so that the
other assigns its `t` whole in turn. It is done for one tensor per kernel, whose launch is a
statement of its own, and whose body has no value (write-out-kernel-values writes a
scalar one through a `&mut`; a body ending `unsafe { .. }` has it as a statement), no
`return` and no parameter given a closure (which may read the launcher's variable while
the kernel runs; a closure the kernel makes reads the kernel's), and does not move the
tensor (with a `transfer`, or giving it to a kernel that moves it: defer-kernel-moves
leaves the kernel's moves to its launcher); others stay refused.
""", state=State)


@return_kernel_tensors.on("Program")
def _program(run, program):
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    stmts = [n for fn in fns.values() for n in descendants(fn.body)
             if n._prod == "ExprStmt" and n.expr._prod == "Launch"]
    launches = [n for n in descendants(program) if n._prod == "Launch"]
    alone = {s.expr.kernel for s in stmts} - {n.name for n in descendants(program)
                                               if n._prod == "Global"}
    for name in {n.kernel for n in launches} & alone:
        if sum(n.kernel == name for n in launches) != 1:
            alone.discard(name)
    returned = run.state.returned
    # A kernel assigns its tensor whole once the kernels it launches are given theirs:
    # `*t = launch inner(*t)`. Nesting is the depth of launches, so this ends.
    changed = True
    while changed:
        changed = False
        for name in sorted(alone - returned.keys()):
            k = _returns(fns[name], returned, fns)
            if k is not None:
                returned[name] = k
                changed = True
    return run.rebuild(program)


def _returns(fn, returned: dict, fns: dict) -> int | None:
    """The index of the one `&mut` tensor parameter fn's body assigns whole, if fn may
    return it instead."""
    body = fn.body
    if body.value is not None and not _unit(body.value) or fn.ret is not None or any(
            n._prod == "Return" for n in descendants(body)):
        return None
    # A closure given to the kernel may read the launcher's variable while the kernel runs;
    # one the kernel makes reads the kernel's.
    if any(getattr(strip(p.type), "_prod", None) == "OpaqueType" for p in fn.params):
        return None
    assigned = {n.target.value.name for n in descendants(body)
                if n._prod == "Assign" and n.op == "=" and n.target._prod == "Deref"
                and n.target.value._prod == "Local"}
    assigned |= {n.args[k].name for n in descendants(body)
                 if n._prod == "Launch" and n.kernel in returned
                 for k in [returned[n.kernel]] if n.args[k]._prod == "Local"}
    found = [k for k, p in enumerate(fn.params)
             if p.name in assigned and lent(p.type) and _buffer(strip(p.type).inner)
             and not _moved(fns, body, L["Deref"](L["Local"](p.name)))]
    return found[0] if len(found) == 1 else None


def _unit(e) -> bool:
    """A value of no use, such as a body ending `unsafe { .. }`: a statement as well."""
    return e._prod == "Unsafe" and e.body.value is None


def _buffer(ty) -> bool:
    """A tensor, or a raw pointer, which native code holds as the tensor it points into."""
    return is_tensor(ty) or strip(ty)._prod == "PtrType"


def _moved(fns: dict, body, place) -> bool:
    """Whether body moves the tensor `place` names: a `transfer` of it, or a launch given it
    of a kernel that moves its parameter."""
    return any(n._prod == "Transfer" and n.value == place or n._prod == "Launch" and any(
        a == place and _moved(fns, fns[n.kernel].body, L["Local"](fns[n.kernel].params[j].name))
        for j, a in enumerate(n.args)) for n in descendants(body))


@return_kernel_tensors.on("Fn")
def _fn(run, fn):
    k = run.state.returned.get(fn.name)
    run.state.param = None if k is None else fn.params[k].name
    if k is None:
        return run.rebuild(fn)
    p = fn.params[k]
    tensor = strip(p.type).inner
    params = fn.params[:k] + (p.replace(type=tensor),) + fn.params[k + 1:]
    body = run.walk(fn.body)
    last = () if body.value is None else (L["ExprStmt"](body.value, span=body.value.span),)
    return fn.replace(params=params, ret=tensor,
                      body=body.replace(stmts=body.stmts + last,
                                        value=L["Local"](p.name, span=fn.span)))


@return_kernel_tensors.on("Deref")
def _deref(run, e):
    if e.value._prod == "Local" and e.value.name == run.state.param:
        return e.value
    return run.rebuild(e)


@return_kernel_tensors.on("Local")
def _local(run, e):
    """The reference itself, given on or lent: a `&mut` of the tensor."""
    if e.name == run.state.param:
        return L["Borrow"](e, True, span=e.span)
    return e


@return_kernel_tensors.on("ExprStmt")
def _launched(run, s):
    e = s.expr
    k = run.state.returned.get(e.kernel) if e._prod == "Launch" else None
    if k is None:
        return run.rebuild(s)
    arg = e.args[k]
    place = arg.value if arg._prod == "Borrow" else L["Deref"](arg, span=arg.span)
    args = tuple(run.walk(place if j == k else a) for j, a in enumerate(e.args))
    return L["Assign"](run.walk(place), "=", e.replace(args=args), span=s.span)

"""write-out-kernel-values: Lparted -> Lparted.

Same IL: the value goes through a `&mut` of a local the launcher binds, and the launcher's
`let` then reads it, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import display_name, unused_name
from ..languages.lparted import Lparted as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import is_tensor, lent, strip
from ..scalars.closures import bound_in
from ..values.numbers import FLOAT_TYPES



@dataclass
class State:
    written: dict = field(default_factory=dict)  # kernel -> the scalar type of its value
    taken: set = field(default_factory=set)  # the names of the function walked
    out: dict = field(default_factory=dict)  # kernel -> the name of its out-parameter


write_out_kernel_values = Pass("write-out-kernel-values", L, L, """
Make a kernel with a scalar value that its launch gives a `&mut` of a tensor write the value
through a `&mut` parameter of its own, and its launch give it a variable to write, from which
the launcher's `let` takes the value.

A `spawn` body with a value that assigns a tensor of its launcher whole is such a kernel
(outline-kernels gives it `&mut t`). return-kernel-tensors makes a kernel that assigns its
tensor whole return the tensor, which it cannot do for one that returns its value:
`let r = launch k(&mut t);` is `let mut r_value: R = 0; launch k(&mut t, &mut r_value);
let r = r_value;`, and the kernel's value v is `*r_value = v;`. It is done for a kernel
launched once, as the value of a `let` whose type is a scalar; others stay as they are.
""", state=State)


@write_out_kernel_values.on("Program")
def _program(run, program):
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    named = {n.name for n in descendants(program) if n._prod == "Global"}
    launches = [n for n in descendants(program) if n._prod == "Launch"]
    lets = [s for s in descendants(program) if s._prod == "Let" and s.value._prod == "Launch"]
    for s in lets:
        k, ty = fns[s.value.kernel], strip(s.type)
        if k.name not in named and ty is not None and ty._prod == "Scalar" and \
                sum(n.kernel == k.name for n in launches) == 1 and _writes_out(k):
            run.state.written[k.name] = ty
    return run.rebuild(program)


def _writes_out(fn) -> bool:
    """A kernel whose value may go through a parameter: one with a value, given a `&mut` of
    a tensor or a raw pointer, and no `return` (whose value is the kernel's too)."""
    return fn.ret is None and fn.body.value is not None and \
        not any(n._prod == "Return" for n in descendants(fn.body)) and \
        any(lent(p.type) and (is_tensor(strip(p.type).inner) or
                              strip(p.type).inner._prod == "PtrType") for p in fn.params)


@write_out_kernel_values.on("Fn")
def _fn(run, fn):
    st = run.state
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    fn = run.rebuild(fn)
    ty = st.written.get(fn.name)
    if ty is None:
        return fn
    span = fn.body.span
    out = unused_name("value", st.taken)
    param = L["Param"](out, L["BorrowType"](ty, True, span=span), span=span)
    write = L["Assign"](L["Deref"](L["Local"](out, span=span), span=span), "=",
                        fn.body.value, span=fn.body.value.span)
    return fn.replace(params=fn.params + (param,),
                      body=fn.body.replace(stmts=fn.body.stmts + (write,), value=None))


@write_out_kernel_values.on("Let", splice=True)
def _let(run, s):
    st = run.state
    ty = st.written.get(s.value.kernel) if s.value._prod == "Launch" else None
    if ty is None:
        return run.rebuild(s)
    span = s.span
    var = unused_name(f"{display_name(s.name)}_value", st.taken)
    # A value no read sees: the kernel writes the variable before the `let` reads it.
    zero = L["Bool"](False, span=span) if ty.name == "bool" else \
        L["Float"](0.0, span=span) if ty.name in FLOAT_TYPES else L["Int"](0, span=span)
    launch = run.walk(s.value)
    given = L["Borrow"](L["Local"](var, span=span), True, span=span)
    return (L["Let"](var, True, ty, zero, span=span),
            L["ExprStmt"](launch.replace(args=launch.args + (given,)), span=span),
            s.replace(value=L["Local"](var, span=span)))

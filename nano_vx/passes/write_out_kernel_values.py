"""write-out-kernel-values: Lparted -> Lparted.

Same IL: the value goes through a `&mut` of a local the launcher binds, and the launcher's
`let` then reads it, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import display_name, unused_name
from ..languages.lparted import Lparted as L
from ..nanopass import Pass, descendants
from ..scalars import infer_program
from ..scalars.aggregates import is_tensor, lent, strip
from ..scalars.closures import bound_in
from ..scalars.terms import FLOATS, decide
from ..values.numbers import INT_TYPES


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
    found = {}
    for s in lets:
        k, ty = fns[s.value.kernel], strip(s.type)
        if k.name not in named and ty is not None and ty._prod in ("Scalar", "OpaqueType") \
                and sum(n.kernel == k.name for n in launches) == 1 and _writes_out(k):
            found[k.name] = ty
    opaque = {name for name, ty in found.items() if ty._prod == "OpaqueType"}
    settled = _settled(program, {name: fns[name] for name in opaque}) if opaque else {}
    run.state.written = {name: settled.get(name) if name in opaque else ty
                         for name, ty in found.items() if name not in opaque or
                         settled.get(name) is not None}
    return run.rebuild(program)


def _settled(program, kernels: dict) -> dict:
    """The scalar type native code's inference gives each kernel's value, for the `let`s
    the front end left it to (a closure's result, `Pinned<_, ..>`): inferred on a draft whose
    kernels leave out their assignments of a whole tensor through a reference, which fix
    no type (the tensor's is the parameter's) and which inference refuses until
    return-kernel-tensors makes the kernel return it."""
    def drafted(item):
        if item.name not in kernels:
            return item
        tensors = {p.name for p in item.params if lent(p.type) and is_tensor(strip(p.type).inner)}
        return item.replace(body=item.body.replace(stmts=tuple(
            s for s in item.body.stmts if not (
                s._prod == "Assign" and s.op == "=" and s.target._prod == "Deref"
                and s.target.value._prod == "Local" and s.target.value.name in tensors))))

    inferred = infer_program(program.replace(items=tuple(drafted(i) for i in program.items)))
    settled = {}
    for name, fn in kernels.items():
        t = None if name in inferred.refused else decide(inferred.items[name].ret)
        if t in INT_TYPES or t in FLOATS or t == "bool":
            settled[name] = L["Scalar"](t, span=fn.body.value.span)
    return settled


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
        L["Float"](0.0, span=span) if ty.name in FLOATS else L["Int"](0, span=span)
    launch = run.walk(s.value)
    given = L["Borrow"](L["Local"](var, span=span), True, span=span)
    return (L["Let"](var, True, ty, zero, span=span),
            L["ExprStmt"](launch.replace(args=launch.args + (given,)), span=span),
            s.replace(value=L["Local"](var, span=span)))

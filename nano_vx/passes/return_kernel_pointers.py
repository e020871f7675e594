"""return-kernel-pointers: Lparted -> Lparted.

Same IL: a kernel's result type says what its body's value already is, so the interpreter
runs the output as it ran the input."""

from __future__ import annotations

from ..languages.lparted import Lparted as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import strip

return_kernel_pointers = Pass("return-kernel-pointers", L, L, """
Give a kernel whose value a `let` binds to a raw pointer (`let p = spawn on(..) {
u.as_mut_ptr() };`), or assigns to one, the pointer's type as its result type.

The `let`'s type is the pointer pinned where the kernel ran, `Pinned<*mut i32, ..>`, and a
pin is the interpreter's to know: native code holds the pointer as the tensor it points into,
which the kernel returns as it returns a tensor. Written on the kernel, the type is known
where the launcher reads the pointer, before scalar inference meets the kernel's body
(which it types after its launcher, so the pointer indexed there was of no type yet).
""")


@return_kernel_pointers.on("Program")
def _program(run, program):
    pointers = {n.name: strip(n.type) for n in descendants(program) if n._prod == "Let"
                and n.type is not None and strip(n.type)._prod == "PtrType"}
    returned = {}
    for n in descendants(program):
        if n._prod == "Let" and n.value._prod == "Launch" and n.name in pointers:
            returned[n.value.kernel] = pointers[n.name]
        elif n._prod == "Assign" and n.value._prod == "Launch" and \
                n.target._prod == "Local" and n.target.name in pointers:
            returned[n.value.kernel] = pointers[n.target.name]
    if not returned:
        return program
    items = tuple(i.replace(ret=returned[i.name]) if i._prod == "Fn" and i.name in returned
                  and i.ret is None else i for i in program.items)
    return program.replace(items=items)

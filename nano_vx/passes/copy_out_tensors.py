"""copy-out-tensors: Lparted -> Lsplit."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lparted import Lparted
from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.aggregates import Names, Refused, concrete, copy_into, is_tensor
from ..scalars.sole_buffers import keeping_functions, sole_buffers


@dataclass
class State:
    keeping: frozenset = frozenset()  # the functions whose result is a tensor
    names: Names | None = None  # fresh names in the current function
    types: dict | None = None  # its tensor out-parameters -> the types of their tensors
    sole: frozenset | None = None  # its tensor locals no one else holds; None: refused


copy_out_tensors = Pass("copy-out-tensors", Lparted, L, """
Copy each tensor a function gives back through an out-parameter into the caller's, element by
element (E5010 for one that something else may hold, or of extents not known).

scalarize-aggregates gives back through a `&mut` out-parameter each tensor of a returned
aggregate but one, the function's result (one a call gave, if any, which may be a buffer
someone else holds): a tensor is not assigned through a reference in native code. Copying
is the same as handing the buffer over only when the function made it (a constructor, a
literal, a transfer) and nothing else holds it: read only by its elements, by calls of
functions that return no tensor, and as what the function returns
(scalars/sole_buffers.py). The copy is nested loops over the extents, which must be
integers.
""", state=State)


@copy_out_tensors.on("Program")
def _program(run, program):
    run.state.keeping = keeping_functions(program)
    return run.rebuild(program)


@copy_out_tensors.on("Fn")
def _fn(run, fn):
    st = run.state
    given = {n.param for n in descendants(fn.body) if n._prod == "GiveBack"}
    if not given:
        return fn
    st.names, st.sole = Names(fn), sole_buffers(fn, st.keeping)
    st.types = {p.name: p.type.inner for p in fn.params
                if p.name in given and p.type._prod == "BorrowType" and is_tensor(p.type.inner)}
    try:
        if given - st.types.keys():
            raise Refused(fn, "a tensor given back through what is no `&mut` tensor parameter")
        if not all(map(concrete, st.types.values())):
            raise Refused(fn, "a function returning an aggregate that holds a second tensor "
                              "of extents not known")
        return run.rebuild(fn)
    except Refused as bad:
        refuse(run.ctx.diagnostics, fn.name, bad.node, bad.what)
        st.sole = None
        return run.rebuild(fn)


@copy_out_tensors.on("GiveBack", splice=True)
def _give_back(run, node):
    st, value = run.state, run.walk(node.value)
    place = L["Local"](node.param, span=node.span)
    if st.sole is None:  # refused: given back as the interpreter runs it; native code has none
        return (L["Assign"](L["Deref"](place, span=node.span), "=", value, span=node.span),)
    if value._prod != "Local" or value.name not in st.sole:
        raise Refused(node, "a tensor returned beside another that more than the aggregate "
                            "may hold (its copy would not be the same tensor)")
    return tuple(copy_into(st.names, place, value, st.types[node.param], value.span))

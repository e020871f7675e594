"""check-unsafe: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..dump.text import to_text
from ..languages.lsrc import DESCRIPTIONS
from ..languages.lunrolled import OncePerPlace
from ..languages.linstances import generic_of
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis
from ..placement.references import DeclaredTypes


@dataclass
class State:
    types: DeclaredTypes = field(default_factory=DeclaredTypes)
    unsafe_fns: frozenset = frozenset()  # the functions (instances too) declared `unsafe fn`
    depth: int = 0  # how many `unsafe` contexts enclose the node walked
    reported: OncePerPlace = field(default_factory=OncePerPlace)


check_unsafe = Analysis("check-unsafe", Lrouted, """
Refuse a read or write through a raw pointer outside `unsafe` (E5002), and a call of an
`unsafe fn` outside it (E5001).

`*p`, `*p = v` and `p[i]` for a raw pointer p (`*const T`, `*mut T`, made by `t.as_ptr()` or
`t.as_mut_ptr()`) touch memory no check follows: they stand inside `unsafe { .. }` or in the
body of an `unsafe fn`, and so does a call of an `unsafe fn`, whose caller takes on what it
assumes. Making a pointer and passing it around are safe. The types are the declared ones:
a parameter's, and a `let`'s as infer-placement wrote it.
""", skip=DESCRIPTIONS, state=State)


@check_unsafe.on("Program")
def _program(run, node):
    st = run.state
    fns = [item for item in node.items if item._prod == "Fn"]
    st.types = DeclaredTypes.of(node)
    st.unsafe_fns = frozenset(fn.name for fn in fns if _declared_unsafe(fn))
    for fn in fns:
        st.types.enter(fn)
        st.depth = 1 if fn.name in st.unsafe_fns else 0  # its body is unsafe
        run.walk(fn.body)
    st.reported.note_copies()


def _declared_unsafe(fn) -> bool:
    return any(s._prod == "UnsafeFn" for s in fn.body.stmts)


@check_unsafe.on("Closure")
def _closure(run, node):
    run.state.types.bind(node.params)
    run.descend(node)


@check_unsafe.on("Let")
def _let(run, node):
    run.walk(node.value)
    run.state.types.locals[node.name] = node.type


@check_unsafe.on("Unsafe")
def _unsafe(run, node):
    run.state.depth += 1
    run.descend(node)
    run.state.depth -= 1


@check_unsafe.on("Assign")
def _assign(run, node):
    """A write through a pointer; what the target reads (the pointer, an index) is walked
    as any read."""
    target = node.target
    if target._prod in ("Deref", "Index"):
        _through(run, target, "write")
        run.descend(target)
    else:
        run.walk(target)
    run.walk(node.value)


@check_unsafe.on("Deref", "Index")
def _read(run, node):
    _through(run, node, "read")
    run.descend(node)


def _through(run, node, what):
    """E5002 when `node` (`*p`, `p[i]`) goes through a raw pointer outside `unsafe`."""
    pointer = node.value if node._prod == "Deref" else node.base
    t = run.state.types.type_of(pointer)
    if run.state.depth or pointer._prod != "AsPtr" and (t is None or t._prod != "PtrType"):
        return
    _refuse(run, "E5002", node.span,
            f"a {what} through the raw pointer `{_text(pointer)}` outside `unsafe`",
            [f"write it inside `unsafe {{ .. }}` ({_example(node, what)}), or in an "
             f"`unsafe fn`"], pointer=_text(pointer))


def _example(node, what) -> str:
    return f"`let v = unsafe {{ {_text(node)} }};`" if what == "read" \
        else f"`unsafe {{ {_text(node)} = ..; }}`"


@check_unsafe.on("Call")
def _call(run, node):
    run.descend(node)
    callee = node.callee
    if run.state.depth or callee._prod != "Global" or callee.name not in run.state.unsafe_fns:
        return
    name = generic_of(callee.name)
    _refuse(run, "E5001", node.span,
            f"'{name}' is an `unsafe fn`, called here outside `unsafe`",
            [f"call it inside `unsafe {{ .. }}`, once what '{name}' assumes holds"],
            callee=name)


def _refuse(run, code, span, message, help, **data):
    """Report once per place: a copy of an unrolled body holds the same fault."""
    key = (span, message)
    if run.state.reported.again(key):
        return
    run.state.reported.said(key, run.ctx.diagnostics.error(code, span, message, help=help,
                                                           **data))


def _text(node) -> str:
    return to_text(node).strip()

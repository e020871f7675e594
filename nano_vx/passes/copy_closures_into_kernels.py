"""copy-closures-into-kernels: Lpinned -> Lpinned.

Same IL: a kernel given a closure bound by a `let` is given what the closure reads instead and
binds the same closure first, so that the interpreter runs the output as it ran the input (the
kernel's call of it reads the launching frame's variables: those the copies or the kernel's
body change through a reference, the others as they were at the launch, which nothing changes
while the kernel runs, and a copy's move of one moves the launcher's)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in, captures, changed_around


@dataclass
class State:
    copied: dict = field(default_factory=dict)  # kernel -> {its parameter: (its let, types)}
    renamed: dict = field(default_factory=dict)  # kernel -> {what its copies read: parameter}
    shared: dict = field(default_factory=dict)  # kernel -> what its copies reach by `&mut`
    added: dict = field(default_factory=dict)  # kernel -> what it is given for its copies
    inside: tuple = field(default_factory=lambda: ({}, set()))  # the copies being walked:
    # what they read renamed, and what they reach by `&mut`


copy_closures_into_kernels = Pass("copy-closures-into-kernels", L, L, """
Give a kernel that a launch gives a closure bound by a `let` what that closure reads, and make
the closure a `let` at the kernel's top.

`let f = |x: i32| x + k; spawn on(T) { f(2) }` launches a kernel of `k`, whose body starts with
`let f = |x: i32| x + k;` (after the closures f reads, made likewise): lift-closures numbers a
closure within the function that makes it, and a closure passed to another function is
refused (E5010). The interpreter's closure reads and writes the launching frame's variables,
not the kernel's copies of them: a variable a copied closure assigns or lends `&mut` (a
counter's) is given as a `&mut` of the launcher's, which the copies read and write through,
as they do one the kernel is given as a `&mut` already (outline-kernels gives so each variable
the spawn's body changes, itself or through a closure it calls). A closure bound by a `let mut`, or reading one, stays passed,
and type-scalars refuses it (choose-closures-in-kernels, before this pass, gives a kernel
the closures such a variable may hold, each bound by a `let`, where it can). One that moves a variable it captures (`transfer(t, ..)`) is
copied as well, the kernel given `t`: the launch gives the launcher's variable (moved
already, its mark, which stops the copy where it reads it) and the copy's move of the
kernel's `t` moves the launcher's, so that a later call stops (E9004) as the interpreter's
closure does (track-moved-captures lends the kernel the launcher's moved-flag). Where the
kernel reaches `t` by `&mut` (the spawn's body assigns or lends it), the copy's `transfer` of
`*t` moves the launcher's `t` in the interpreter (a `transfer` through the `&mut` a launch
lends), as it does in native code, whose kernel is lent the launcher's moved-flag beside the
reference (track-moved-captures); one whose tensor is assigned whole through the reference is
refused later (type-scalars).
""", state=State)


def _copyable(lets: dict) -> dict:
    """Each local a `let` binds to a closure a kernel may make again -> that `let`: one bound
    by a `let` (not `let mut`), reading only closures a kernel may make again."""
    closures = set(lets)
    copyable = {name for name in closures if not lets[name].mutable}
    while True:
        kept = {name for name in copyable
                if closures.intersection(captures(lets[name].value)) <= copyable}
        if kept == copyable:
            return {name: lets[name] for name in copyable}
        copyable = kept


def _copy(copied: dict, name: str, copyable: dict, types: dict) -> None:
    """Copy the closure `name` into a kernel, after the closures it reads (made first)."""
    if name in copied:
        return
    for read in captures(copyable[name].value):
        if read in copyable:
            _copy(copied, read, copyable, types)
    copied[name] = (copyable[name], types)


@copy_closures_into_kernels.on("Program")
def _program(run, program):
    st = run.state
    for fn in (i for i in program.items if i._prod == "Fn"):
        lets = {n.name: n for n in descendants(fn)
                if n._prod == "Let" and n.value._prod == "Closure"}
        copyable = _copyable(lets)
        types = {n.name: n.type for n in descendants(fn) if n._prod in ("Param", "Let")}
        for launch in (n for n in descendants(fn) if n._prod == "Launch"):
            for arg in launch.args:
                if arg._prod == "Local" and arg.name in copyable:
                    _copy(st.copied.setdefault(launch.kernel, {}), arg.name, copyable, types)
    for kernel in (i for i in program.items if i._prod == "Fn" and i.name in st.copied):
        _rename(st, kernel)
    return run.rebuild(program) if st.copied else program


def _rename(st: State, kernel) -> None:
    """What the kernel's copies read through a `&mut`: each variable a copy changes, which the
    kernel is given as the launcher's, and each the kernel is given so already
    (outline-kernels gives one its body changes, or a closure it calls, as a `&mut`)."""
    copied = st.copied[kernel.name]
    params = {p.name: p.type for p in kernel.params if p.name not in copied}
    lent = {name for name, t in params.items()
            if t is not None and t._prod == "BorrowType" and t.mutable}
    changed = {n for let, _ in copied.values() for n in changed_around(let.value)}
    taken = bound_in(kernel) | {n.name for n in descendants(kernel) if n._prod == "Local"} | \
        {n.name for let, _ in copied.values() for n in descendants(let)
         if n._prod in ("Local", "Param", "Let")}
    reads = _reads(copied)
    st.shared[kernel.name] = shared = {name for name in reads if name in lent or name in changed}
    st.renamed[kernel.name] = {
        name: name if name in lent else unused_name(display_name(name), taken)
        for name in reads if name in shared}
    # What the kernel is given beyond what it was: what the copies read that it was not.
    st.added[kernel.name] = [name for name in reads if name not in params]


def _reads(copied: dict) -> list[str]:
    """What the copied closures read, each once, in order, but the copies themselves."""
    return list(dict.fromkeys(name for let, _ in copied.values() for name in captures(let.value)
                              if name not in copied))


@copy_closures_into_kernels.on("Launch")
def _launch(run, node):
    st = run.state
    copied = st.copied.get(node.kernel)
    if copied is None:
        return run.rebuild(node)
    shared, span = st.shared[node.kernel], node.span
    kept = [a for a in node.args if not (a._prod == "Local" and a.name in copied)]
    added = [L["Borrow"](L["Local"](name, span=span), True, span=span) if name in shared
             else L["Local"](name, span=span) for name in st.added[node.kernel]]
    return node.replace(args=tuple(kept + added))


@copy_closures_into_kernels.on("Fn")
def _fn(run, fn):
    st = run.state
    copied = st.copied.get(fn.name)
    if copied is None:
        return run.rebuild(fn)
    renamed, shared = st.renamed[fn.name], st.shared[fn.name]
    kept = [p for p in fn.params if p.name not in copied]
    types = {name: t for _, ts in copied.values() for name, t in ts.items()}
    added = [L["Param"](renamed.get(name, name),
                        L["BorrowType"](types[name], True, span=fn.span) if name in shared
                        else types[name], span=fn.span)
             for name in st.added[fn.name]]
    st.inside = (renamed, shared)
    lets = tuple(run.walk(let) for let, _ in copied.values())
    st.inside = ({}, set())
    body = run.walk(fn.body)
    return fn.replace(params=tuple(kept + added), body=body.replace(stmts=lets + body.stmts))


@copy_closures_into_kernels.on("Local")
def _local(run, local):
    renamed, shared = run.state.inside
    if local.name not in renamed:
        return local
    given = local.replace(name=renamed[local.name])
    return L["Deref"](given, span=local.span) if local.name in shared else given


@copy_closures_into_kernels.on("Borrow")
def _borrow(run, node):
    """`&mut n` of a variable the copies change: the reference the kernel is given."""
    renamed, shared = run.state.inside
    value = node.value
    if node.mutable and value._prod == "Local" and value.name in shared:
        return value.replace(name=renamed[value.name])
    return run.rebuild(node)

"""outline-kernels: Lscheduled -> Lkernels."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lscheduled import Lscheduled
from ..languages.lkernels import Lkernels
from ..nanopass import Analysis, Pass, descendants

L = Lkernels


@dataclass
class State:
    item: object = None  # the item being walked
    types: dict | None = None  # its locals (unique names) -> declared types, once asked for
    closures: dict | None = None  # its locals a `let` binds to a closure -> that closure
    kernels: list = field(default_factory=list)  # outlined, in the order of their spawns
    taken: set = field(default_factory=set)  # the names of the program's functions
    lent: frozenset = frozenset()  # what the kernel being made is given as `&mut`


outline_kernels = Pass("outline-kernels", Lscheduled, Lkernels, """
Make each `spawn on` body a kernel function of its own, launched where the spawn was.

The kernel of the n-th spawn of `f` (innermost first, in source order) is `f$kernel<n>` (or
the next number no function has), an
`on` function of the spawn's topology whose parameters are the locals the body captures
(reads or writes, in order of first use), typed as they were declared where the declaration
gives a type, and whose body is the spawn's. The spawn becomes `Launch(kernel, topology,
captures)`. The body ran in the launching frame, so a capture it changes (assigns, the whole,
a field or an element, or lends `&mut`, itself, in a spawn in it, or through a closure of the
launcher it calls) is given as a `&mut` of the launcher's variable, `&mut T` as its parameter,
which the kernel's body reads and writes through (`*n`), and gives on to a kernel it
launches: the launching code reads what the kernel wrote. The others are passed as they are,
so a tensor whose elements the kernel writes is the one the launching code reads afterwards
(the launch shares its buffer), and a `transfer` of a parameter (in the body, or in a closure
made there) moves the launching frame's variable as well, when it moves the parameter: the
spawn's body ran in that frame, so a closure of the launcher reading the variable afterwards
stops (E9004), as do the calls of a closure the kernel is given, which moves the launcher's
variable itself. Kernels follow the function that launches them. A spawn in a
kernel's body is outlined first, so kernels launch kernels.
""", state=State)


@outline_kernels.on("Program")
def _program(run, program):
    items = []
    run.state.taken = {item.name for item in program.items if item._prod == "Fn"}
    for item in program.items:
        run.state.item, run.state.types, run.state.kernels = item, None, []
        run.state.closures = None
        items.append(run.walk(item))
        items += run.state.kernels
    return L["Program"](tuple(items), span=program.span)


@outline_kernels.on("Spawn")
def _spawn(run, spawn):
    st = run.state
    captured = _captures(spawn.body)
    if st.types is None:  # only a function that spawns needs its locals' types
        st.types = _declared.collect(st.item).types
    if st.closures is None:
        st.closures = {n.name: n.value for n in descendants(st.item)
                       if n._prod == "Let" and n.value._prod == "Closure"}
    changed = _changed(spawn.body, captured, st.types, st.closures)
    around, st.lent = st.lent, frozenset(changed)
    body = run.walk(spawn.body)  # its own spawns first
    st.lent = around
    n = len(st.kernels)
    while f"{st.item.name}$kernel{n}" in st.taken:  # only in a hand-written IL
        n += 1
    name = f"{st.item.name}$kernel{n}"
    st.taken.add(name)
    span = spawn.span
    # A changed local no declaration types (a loop's counter, a closure's parameter) is
    # reached through a `&mut` of a type not written, as a closure's is.
    params = tuple(L["Param"](local, L["BorrowType"](
        st.types.get(local) or L["OpaqueType"](span=span), True, span=span)
        if local in changed else st.types.get(local), span=span) for local in captured)
    st.kernels.append(L["Fn"](name, params, spawn.topo, None, (), body, span=span))
    return L["Launch"](name, spawn.topo, tuple(_arg(st, local, local in changed, span)
                                               for local in captured), span=span)


def _arg(st: State, local: str, changed: bool, span):
    """What a launch gives for a captured local: its value, or a `&mut` of the launcher's
    variable for one the body changes; in a kernel given the variable as `&mut` itself, the
    value it reaches, or that reference."""
    given = L["Local"](local, span=span)
    if local in st.lent:
        return given if changed else L["Deref"](given, span=span)
    return L["Borrow"](given, True, span=span) if changed else given


@outline_kernels.on("Local")
def _through_reference(run, node):
    if node.name in run.state.lent:
        return L["Deref"](node, span=node.span)
    return node


@outline_kernels.on("Borrow")
def _borrow(run, node):
    """`&mut n` of a variable the kernel is given as `&mut`: that reference."""
    if node.mutable and node.value._prod == "Local" and node.value.name in run.state.lent:
        return node.value
    return run.rebuild(node)


@dataclass
class _Declared:
    types: dict = field(default_factory=dict)


# Locals are unique within a function from resolve-names on, so one table of the types their
# declarations write serves the whole body.
_declared = Analysis("declared-local-types", Lscheduled, """
The type each local's declaration gives it: a parameter's, a `let`'s.
""", state=_Declared)


@_declared.on("Param")
def _param(run, node):
    if node.type is not None:
        run.state.types[node.name] = node.type


@_declared.on("Let")
def _let(run, node):
    run.state.types[node.name] = node.type
    run.descend(node)


@dataclass
class _Uses:
    bound: set = field(default_factory=set)  # locals the body declares
    used: list = field(default_factory=list)  # locals it mentions, in order of first use


_uses = Analysis("spawn-captures", Lscheduled, """
The locals a block mentions and the ones it declares.
""", state=_Uses)


@_uses.on("Local")
def _local(run, node):
    if node.name not in run.state.used:
        run.state.used.append(node.name)


@_uses.on("Let")
def _bind_let(run, node):
    run.state.bound.add(node.name)
    run.descend(node)


@_uses.on("For")
def _bind_for(run, node):
    run.state.bound.add(node.var)
    run.descend(node)


@_uses.on("Param")
def _bind_param(run, node):
    run.state.bound.add(node.name)


@_uses.on("PBind")
def _bind_pattern(run, node):
    run.state.bound.add(node.name)


def _changed(block, captured: list, types: dict, closures: dict) -> list[str]:
    """The captured locals the block changes: assigns (the whole, a field, an element) or
    lends `&mut`, itself, in a spawn of it, or through a closure of the launcher it calls
    (one bound by a `let`, and those that closure reads). The spawn's body ran in the
    launching frame, so the kernel reaches them through a `&mut` of the launcher's. A
    tensor's element is written in its buffer, which the launch shares, so an element of one
    (or one a raw pointer reaches, `p[i] = v`) alone changes no variable."""
    changed, seen, todo = set(), set(), [block]
    while todo:
        node = todo.pop()
        changed |= _written(node, types)
        for name in (n.name for n in descendants(node) if n._prod == "Local"):
            if name in closures and name not in seen:
                seen.add(name)
                todo.append(closures[name].body)
    return [name for name in captured if name in changed]


def _written(node, types: dict) -> set:
    """The locals node assigns or lends `&mut`, but a tensor (or a raw pointer) of which only
    an element, and a reference of which only a part of what it refers to."""
    places = [n.target for n in descendants(node) if n._prod == "Assign"] + \
        [n.value for n in descendants(node) if n._prod == "Borrow" and n.mutable]
    written = set()
    for place in places:
        element = part = False
        while place._prod in ("Index", "FieldGet", "TupleGet"):
            element |= place._prod == "Index"
            part = True
            place = place.base
        kind = getattr(types.get(place.name), "_prod", None) if place._prod == "Local" \
            else None
        # A part written through a reference changes what it refers to, not the reference.
        if place._prod == "Local" and not (element and kind in ("TensorType", "PtrType")) \
                and not (part and kind == "BorrowType"):
            written.add(place.name)
    return written


def _captures(block) -> list[str]:
    """The locals a spawn body uses but does not declare: what the kernel receives."""
    uses = _uses.collect(block)
    return [name for name in uses.used if name not in uses.bound]

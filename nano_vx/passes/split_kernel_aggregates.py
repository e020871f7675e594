"""split-kernel-aggregates: Lmatched -> Lmatched.

Same IL: a kernel reads and writes the same places of its launcher's aggregates, by fields
rather than whole, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, child_nodes, descendants
from ..scalars.aggregates import Names, Shapes, concrete, strip

_GETS = ("FieldGet", "TupleGet")


@dataclass
class State:
    plans: dict = field(default_factory=dict)  # kernel -> per parameter, its split or None
    split: dict = field(default_factory=dict)  # the current function's split parameters
    copies: dict = field(default_factory=dict)  # its locals a print reads for the aggregate


split_kernel_aggregates = Pass("split-kernel-aggregates", L, L, """
Give a kernel each struct or tuple it takes (as a value or a reference) as the fields its body
uses, one parameter each, so that no launch passes an aggregate.

outline-kernels gives a kernel each capture of its `spawn` body, and a `&mut` of the
launcher's variable for one the body changes (`p.x = 7;` is `(*p).x = 7;` through a
`p: &mut P`). Where the body names the aggregate only by its fields (`(*p).x`, `&mut
(*p).a.0`, a `print` of it whole, which expand-aggregate-prints made a literal of its fields
read right after a copy of it, or given on to a kernel it launches that takes only fields),
the kernel takes one parameter per field it names, the shortest paths: `p_x: &mut i32` given
`&mut p.x`, the field's own place, so a write reaches the launcher's variable as through
`&mut p`; a value's field is given by value, as the whole was. A kernel launched before its
launcher is split first, so a field given on counts as one the launcher names. A parameter
used whole, or a field named whole that is itself an aggregate or of a type the struct does
not write (a generic one's), is left as it is, which scalarize-aggregates refuses (E5010).
""", state=State)


@split_kernel_aggregates.on("Program")
def _program(run, program):
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    launched = {n.kernel for n in descendants(program) if n._prod == "Launch"}
    # Left whole: a kernel named other than by a launch, or launched with an aggregate a
    # call or an operation computes, which a field each would compute once per field.
    whole = {n.name for n in descendants(program) if n._prod == "Global"} | {
        n.kernel for n in descendants(program)
        if n._prod == "Launch" and not all(map(_simple, n.args))}
    shapes, plans = Shapes(program), run.state.plans

    def plan(name):
        if name in plans:
            return plans[name]
        fn = fns[name]
        plans[name] = [None] * len(fn.params)  # while it is planned: a launch of itself
        for launch in (n for n in descendants(fn.body) if n._prod == "Launch"):
            if launch.kernel in fns and launch.kernel not in whole:
                plan(launch.kernel)
        names = Names(fn)
        plans[name] = [_split(p, fn, shapes, plans, names) for p in fn.params]
        return plans[name]

    for name in launched - whole:
        if name in fns:
            plan(name)
    return run.rebuild(program)


def _split(param, fn, shapes: Shapes, plans: dict, names: Names):
    """(whether param is a reference, its mutability, {path: (new name, field type)}) for a
    parameter taking an aggregate that the body names only by fields, else None."""
    ty = strip(param.type)
    ref = ty is not None and ty._prod == "BorrowType"
    shape = shapes.of(ty)
    if shape is None or shape.kind not in ("struct", "tuple"):
        return None
    paths = _paths(fn.body, param.name, ref, plans)
    if paths is None:
        return None
    kept = [path for path in paths if not any(
        len(k) < len(path) and path[:len(k)] == k for k in paths)]
    typed = {path: _field_type(ty.inner if ref else ty, path, shapes) for path in kept}
    if not all(t is not None and (concrete(t) or strip(t)._prod in (
            "TensorType", "OpaqueType")) for t in typed.values()):
        return None
    return ref, ty.mutable if ref else False, {
        path: (names.fresh("_".join([param.name, *map(str, path)])), t)
        for path, t in typed.items()}


def _field_type(ty, path: tuple, shapes: Shapes):
    for label in path:
        ty = strip(ty)
        if ty is None:
            return None
        if ty._prod == "TupleType":
            ty = ty.elems[label]
        elif ty._prod == "NamedType" and ty.name in shapes.structs:
            ty = next((f.type for f in shapes.structs[ty.name].fields if f.name == label),
                      None)
        else:
            return None
    return ty


def _chain(e) -> tuple:
    """(the base, the labels) of a chain of field and element reads, outermost last."""
    labels = []
    while e._prod in _GETS:
        labels.append(e.field if e._prod == "FieldGet" else e.index)
        e = e.base
    return e, tuple(reversed(labels))


def _simple(arg) -> bool:
    """Whether arg is a variable, what a reference variable refers to, a field of either, or
    a reference to one: what reading again reads alike."""
    root, _ = _chain(arg.value if arg._prod == "Borrow" else arg)
    if root._prod == "Deref":
        root = root.value
    return root._prod == "Local"


def _is_root(e, name: str, ref: bool) -> bool:
    """Whether e is the parameter `name`'s aggregate: `name`, or `*name` of a reference."""
    if ref and e._prod == "Deref":
        e = e.value
    return e._prod == "Local" and e.name == name


def _given(arg, name: str, ref: bool):
    """The fields of `name`'s aggregate a launch's argument gives, as a path, or None: `&mut
    (*p).a`, `(*p).a`, or the reference p itself given on."""
    x = arg.value if arg._prod == "Borrow" else arg
    if ref and x._prod == "Local" and x.name == name:
        return ()
    root, labels = _chain(x)
    return labels if _is_root(root, name, ref) else None


def _paths(node, name: str, ref: bool, plans: dict):
    """The paths of the fields of `name`'s aggregate node names, in the order it first names
    them, or None if it names it otherwise than by a field."""
    found: dict = {}
    copies = _printed_copies(node, name, ref)
    todo = [node]
    while todo:
        n = todo.pop()
        if n._prod in _GETS:
            root, labels = _chain(n)
            if _is_root(root, name, ref) or root._prod == "Local" and root.name in copies:
                found[labels] = None
            else:
                todo.append(root)
            continue
        if n._prod == "Local" and n.name == name:
            return None
        if n._prod == "Let" and n.name in copies:
            continue
        if n._prod == "Launch" and n.kernel in plans:
            for arg, split in reversed(list(zip(n.args, plans[n.kernel]))):
                given = _given(arg, name, ref) if split is not None else None
                if given is None:
                    todo.append(arg)
                else:
                    found.update((given + path, None) for path in split[2])
            continue
        todo += reversed(child_nodes(n))
    return list(found)


def _printed_copies(body, name: str, ref: bool) -> dict:
    """The locals a `let` binds to `name`'s aggregate whole only for the `print` right after
    it to read by fields (expand-aggregate-prints holds `*p` so): nothing runs between, so
    the print may read the fields of the aggregate itself. {local: what it is bound to}."""
    copies = {}
    uses: dict = {}
    for n in descendants(body):
        if n._prod == "Local":
            uses[n.name] = uses.get(n.name, 0) + 1
    for block in (n for n in descendants(body) if n._prod == "Block"):
        for let, stmt in zip(block.stmts, block.stmts[1:]):
            if let._prod != "Let" or let.mutable or not _is_root(let.value, name, ref) or \
                    stmt._prod != "ExprStmt" or stmt.expr._prod != "Call" or \
                    stmt.expr.callee._prod != "Global" or stmt.expr.callee.name != "print" or \
                    any(n._prod in ("Call", "Launch", "Borrow") for a in stmt.expr.args
                        for n in descendants(a)):
                continue
            mine = sum(1 for n in descendants(stmt) if n._prod == "Local" and
                       n.name == let.name)
            by_fields = sum(1 for n in descendants(stmt) if n._prod in _GETS and
                            n.base._prod == "Local" and n.base.name == let.name)
            if mine and mine == by_fields == uses.get(let.name):
                copies[let.name] = let.value
    return copies


@split_kernel_aggregates.on("Fn")
def _fn(run, fn):
    plan = run.state.plans.get(fn.name) or [None] * len(fn.params)
    run.state.split = {p.name: split for p, split in zip(fn.params, plan) if split is not None}
    run.state.copies = {v: root for name, (ref, _, _) in run.state.split.items()
                        for v, root in _printed_copies(fn.body, name, ref).items()}
    if not run.state.split:
        return run.rebuild(fn)
    params = []
    for p, split in zip(fn.params, plan):
        if split is None:
            params.append(p)
            continue
        ref, mutable, fields = split
        params += [L["Param"](new, L["BorrowType"](t, mutable, span=p.span) if ref else t,
                              span=p.span) for new, t in fields.values()]
    return fn.replace(params=tuple(params), body=run.walk(fn.body))


@split_kernel_aggregates.on("FieldGet", "TupleGet")
def _get(run, e):
    root, labels = _chain(e)
    if root._prod == "Local" and root.name in run.state.copies:
        root = run.state.copies[root.name]
    for name, (ref, _, fields) in run.state.split.items():
        if not _is_root(root, name, ref):
            continue
        path = next(p for p in fields if labels[:len(p)] == p)
        place = L["Local"](fields[path][0], span=root.span)
        return _read(L["Deref"](place, span=root.span) if ref else place, labels[len(path):],
                     e.span)
    return run.rebuild(e)


@split_kernel_aggregates.on("Let", splice=True)
def _let(run, let):
    return () if let.name in run.state.copies else (run.rebuild(let),)


def _read(base, labels: tuple, span):
    for label in labels:
        base = L["TupleGet"](base, label, span=span) if isinstance(label, int) else \
            L["FieldGet"](base, label, span=span)
    return base


@split_kernel_aggregates.on("Launch")
def _launch(run, e):
    plan = run.state.plans.get(e.kernel)
    if plan is None or not any(plan):
        return run.rebuild(e)
    args = []
    for arg, split in zip(e.args, plan):
        if split is None:
            args.append(run.walk(arg))
            continue
        ref, mutable, fields = split
        x = arg.value if arg._prod == "Borrow" else \
            L["Deref"](arg, span=arg.span) if ref else arg
        args += [run.walk(L["Borrow"](_read(x, path, arg.span), mutable, span=arg.span)
                          if ref else _read(x, path, arg.span)) for path in fields]
    return e.replace(args=tuple(args))

"""split-returned-references: Lmatched -> Lmatched.

Same IL: each call of a part's function chooses the place the whole function chose, so the
interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, children, descendants
from ..scalars.aggregates import Shapes, Tree, fresh_item, live_items
from ..scalars.returned_references import returned_parts


@dataclass
class State:
    parts: dict = field(default_factory=dict)  # a function split -> {leaf path: its function}
    shapes: dict = field(default_factory=dict)  # a function split -> its result's shape
    held: dict = field(default_factory=dict)  # a local bound to a call of one -> that call


split_returned_references = Pass("split-returned-references", L, L, """
Make a function that returns a `&mut` to a struct or tuple, choosing among places of its
`&mut` parameters, one function per scalar part, each returning the `&mut` to that part;
each read or write of a part of what a call returns calls the part's function.

`fn pick(p: &mut Pair, first: bool) -> &mut Point { if first { &mut p.a } else { &mut p.b }
}` is `pick$x` returning `if first { &mut p.a.x } else { &mut p.b.x }`, and `let r =
pick(&mut q, false); r.x = 5;` is `*pick$x(&mut q, false) = 5;`: native code returns one
value, where the reference is one per part (`pick$y` is made only where a `.y` is read or
written). A part's function computes again
what the function computed once, so it is written only where that is the same: a body
that is such a choice alone, by conditions that read no reference and cannot stop, and
calls whose arguments say the same each time (literals, variables never assigned,
references to places: while the reference lives nothing else changes them); every call of
the function so used, its result's parts alone read or written (a function otherwise
stays, for inline-returned-references, else E5010 in scalarize-aggregates).
""", state=State)


@split_returned_references.on("Program")
def _program(run, program):
    st, shapes = run.state, Shapes(program)
    fns = [i for i in program.items if i._prod == "Fn"]
    split = {fn.name: shape for fn in fns if (shape := returned_parts(fn, shapes)) is not None}
    if not split:
        return program
    uses = {name: [] for name in split}
    for fn in fns:
        _find_uses(fn, split, uses)
    split = {name: shape for name, shape in split.items() if uses[name] is not None}
    if not split:
        return program
    taken = {i.name for i in program.items}
    st.shapes = split
    st.parts = {name: {path: fresh_item(f"{name}${'_'.join(map(str, path))}", taken)
                       for path, _ in _leaves(shape)} for name, shape in split.items()}
    made = run.rebuild(program)
    items = []
    for item in made.items:
        if item._prod == "Fn" and item.name in split:
            items += [_part_function(item, path, ty, st.parts[item.name][path])
                      for path, ty in _leaves(split[item.name])]
        else:
            items.append(item)
    # A part no call reads or writes (`same$y` where only `.x` is) is dead code in the IL.
    made_parts = {name for parts in st.parts.values() for name in parts.values()}
    return made.replace(items=live_items(items, made_parts))


def _leaves(shape: Tree, path: tuple = ()) -> list:
    """Each leaf's path of labels and its type."""
    if shape.kind == "leaf":
        return [(path, shape.leaf)]
    return [x for label, p in shape.parts for x in _leaves(p, (*path, label))]


def _find_uses(fn, split: dict, uses: dict) -> None:
    """Count each call in fn of a function of `split`, or mark the function None where one
    is used otherwise than by its result's parts, or bound by a `let` to a local that is,
    the call's arguments saying the same at each."""
    nodes = list(descendants(fn.body))
    assigned = {n.target.name for n in nodes
                if n._prod == "Assign" and n.target._prod == "Local"}
    lent_out = {n.value.name for n in nodes if n._prod == "Borrow" and n.value._prod == "Local"}
    bound = _bound(fn, split)
    lets = {id(c) for c in bound.values()}
    for name, call in bound.items():
        if name in assigned | lent_out or \
                not all(_same_each_time(a, assigned) for a in call.args):
            uses[call.callee.name] = None
    stack = [fn.body]
    while stack:
        node = stack.pop()
        root, path = _chain(node)
        if node._prod == "Deref":  # `*r` read whole: the literal of its parts
            root, path = node.value, ()
        called = _split_call(root, bound, split)
        if called is not None and (path in dict(_leaves(split[called.callee.name])) or
                                   node._prod == "Deref"):
            stack.extend(called.args if root._prod == "Call" else ())
            continue
        whole = node.target if node._prod == "Assign" else \
            node.value if node._prod == "Borrow" else None
        if whole is not None and whole._prod == "Deref" and \
                _split_call(whole.value, bound, split) is not None:
            # `*r = ..` and `&mut *r` name the place whole, which no literal of parts is.
            uses[_split_call(whole.value, bound, split).callee.name] = None
        if node._prod == "Local" and node.name in bound or \
                _split_call(node, {}, split) is not None and id(node) not in lets:
            uses[_split_call(node, bound, split).callee.name] = None
        if node._prod == "Global" and node.name in split:  # the function as a value
            uses[node.name] = None
        if node._prod == "Call" and node.callee._prod == "Global":
            stack.extend(node.args)
            continue
        stack.extend(child for _, _, child in children(node))


def _bound(fn, split: dict) -> dict:
    """The locals fn binds to a call of a function of `split`, with the call."""
    return {n.name: n.value for n in descendants(fn.body) if n._prod == "Let"
            and _split_call(n.value, {}, split) is not None}


def _split_call(e, bound: dict, split: dict):
    """The call of a function of `split` e is, or the local e is bound to; None otherwise."""
    if e._prod == "Local":
        e = bound.get(e.name, e)
    if e._prod == "Call" and e.callee._prod == "Global" and e.callee.name in split:
        return e
    return None


def _chain(e) -> tuple:
    """The root of a chain of field and element reads, through `*`, and the labels read."""
    path = []
    while e._prod in ("FieldGet", "TupleGet"):
        path.append(e.field if e._prod == "FieldGet" else e.index)
        e = e.base
        if e._prod == "Deref":
            e = e.value
    return e, tuple(reversed(path))


def _same_each_time(a, assigned: set) -> bool:
    """Whether computing a again gives what it gave: a literal, a variable never assigned,
    a reference to a place of one (nothing but the reference changes it while that lives;
    the variable, a reference itself, could be made to refer elsewhere)."""
    p = a._prod
    if p in ("Int", "Float", "Bool"):
        return True
    if p == "Borrow":
        a, p = a.value, a.value._prod
        while p in ("FieldGet", "TupleGet"):
            a = a.base
            p = a._prod
        if p == "Deref":
            a, p = a.value, a.value._prod
    return p == "Local" and a.name not in assigned


@split_returned_references.on("Fn")
def _fn(run, fn):
    run.state.held = _bound(fn, run.state.parts)
    return run.rebuild(fn)


@split_returned_references.on("Let", splice=True)
def _let(run, let):
    return () if let.name in run.state.held else (run.rebuild(let),)


@split_returned_references.on("FieldGet", "TupleGet")
def _part(run, e):
    st = run.state
    root, path = _chain(e)
    called = _split_call(root, st.held, st.parts)
    if called is None or path not in st.parts[called.callee.name]:
        return run.rebuild(e)
    callee = L["Global"](st.parts[called.callee.name][path], span=called.callee.span)
    call = called.replace(callee=callee, args=tuple(run.walk(a) for a in called.args))
    return L["Deref"](call, span=e.span)


@split_returned_references.on("Deref")
def _whole(run, e):
    st = run.state
    called = _split_call(e.value, st.held, st.parts)
    if called is None:
        return run.rebuild(e)
    args = tuple(run.walk(a) for a in called.args)
    return _literal(st.shapes[called.callee.name], (), lambda path: L["Deref"](called.replace(
        callee=L["Global"](st.parts[called.callee.name][path], span=called.callee.span),
        args=args), span=e.span), e.span)


def _literal(shape: Tree, path: tuple, part, span):
    """The literal of a value of `shape`, each scalar at `path` in it part(path)."""
    if shape.kind == "leaf":
        return part(path)
    if shape.kind == "tuple":
        return L["Tuple"](tuple(_literal(p, (*path, k), part, span) for k, p in shape.parts),
                          span=span)
    return L["StructLit"](shape.name, tuple(
        L["FieldInit"](k, _literal(p, (*path, k), part, span), span=span)
        for k, p in shape.parts), span=span)


def _part_function(fn, path: tuple, ty, name: str):
    """fn's function for the part at `path`, of type ty: the `&mut` to that part of the place
    fn chooses."""
    return fn.replace(name=name, ret=L["BorrowType"](ty, True, span=fn.ret.span),
                      body=fn.body.replace(value=_narrowed(fn.body.value, path)))


def _narrowed(e, path: tuple):
    if e._prod == "IfExpr":
        return e.replace(then=e.then.replace(value=_narrowed(e.then.value, path)),
                         orelse=e.orelse.replace(value=_narrowed(e.orelse.value, path)))
    place = e.value if e._prod == "Borrow" else e  # a `&mut` parameter: its place's part
    for label in path:
        place = L["FieldGet"](place, label, span=e.span) if isinstance(label, str) else \
            L["TupleGet"](place, label, span=e.span)
    return L["Borrow"](place, True, span=e.span)

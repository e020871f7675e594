"""return-assigned-tensor-fields: Lmatched -> Lmatched.

Same IL: the function computes what it computed, reading and assigning the tensor in a local
of its own where it read and assigned the field, which it was given as it was at the call
and which the call's assignment puts back in the field as the function left it; nothing else
reads the field while the `&mut` is lent, so the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..derivatives.code import rebuild
from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names, Shapes, concrete, is_tensor, lent, strip


@dataclass
class State:
    given: dict = field(default_factory=dict)  # a function rewritten -> (parameter index, field)
    fns: dict = field(default_factory=dict)  # the program's functions by name, as they came
    structs: dict = field(default_factory=dict)  # the program's structs by name
    names: Names | None = None  # the fresh locals of the function walked


return_assigned_tensor_fields = Pass("return-assigned-tensor-fields", L, L, """
Make a function that assigns whole the tensor of a field of the struct a `&mut` parameter
refers to take that tensor as a parameter of its own and return it as it leaves it, and each
call assign what it returns to the field: `fn reset(g: &mut Grid) { g.cells = t; }` is `fn
reset(g: &mut Grid, cells: T) -> T { let mut cells#1 = cells; cells#1 = t; cells#1 }`, and
`reset(&mut h);` is `h.cells = reset(&mut h, h.cells);`.

A function with a result of its own (scalars, no reference) returns a tuple of it and the
tensor, which the call takes apart: `let w = f(&mut h);` is `let returned = f(&mut h,
h.cells); h.cells = returned.1; let w = returned.0;`. The interpreter's assignment makes the caller's field hold the new tensor, and a buffer
another local holds keeps what it held; scalarize-aggregates would copy the new tensor into
the buffer the caller lends (E5010 where another may hold it). A function whose parameter
is used otherwise than by its fields (`g.width`, `&mut g.cells`) or given to such a function
in that place (which the caller then is too), that is called otherwise than as a statement
or what a `let` or an assignment to a local stores, or inside a closure, or whose call lends
it no variable's place or a parameter, stays. Of several tensor fields it assigns whole, the
one a `let` holds (`let old = g.cells;`) is so given and returned, the others left to
scalarize-aggregates, which copies them into the buffers the caller lends (no other local
holds them); one whose `let`s hold two stays (copy-held-tensor-fields makes each a copy).
""", state=State)


@return_assigned_tensor_fields.on("Program")
def _program(run, program):
    st = run.state
    fns = st.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    st.structs = {i.name: i for i in program.items if i._prod == "StructDecl"}
    shapes = Shapes(program)
    # What a statement drops or stores whole: a call there is one the assignment can follow
    # (stored, one with a result: a `let` of `()` is gone by now, erase-unit-lets).
    dropped = {id(n.expr) for n in descendants(program) if n._prod == "ExprStmt"}
    stored = {id(n.value) for n in descendants(program) if n._prod == "Let" or
              n._prod == "Assign" and n.op == "=" and n.target._prod == "Local"}
    named = {}  # a function -> how often the program names it
    for n in descendants(program):
        if n._prod == "Global" and n.name in fns:
            named[n.name] = named.get(n.name, 0) + 1
    calls = {name: [] for name in fns}  # a function -> its calls, each with its caller
    for caller in fns.values():
        for n in descendants(caller.body):
            if n._prod == "Call" and n.callee._prod == "Global" and n.callee.name in fns:
                calls[n.callee.name].append((n, caller))
    # A closure assigning the field it captures is one native code does not lower.
    enclosed = {id(n) for c in descendants(program) if c._prod == "Closure"
                for n in descendants(c.body)}
    stays = {name for name, fn in fns.items()
             if fn.on is not None or not _returnable(fn.ret, shapes)
             or named.get(name, 0) != len(calls[name])
             or any(id(c) not in (dropped if fn.ret is None else dropped | stored)
                    or id(c) in enclosed or len(c.args) != len(fn.params)
                    for c, _ in calls[name])}
    grown = True
    while grown:
        grown = False
        for name, fn in fns.items():
            if name in st.given or name in stays:
                continue
            found = _assigned(fn, st.structs, st.given)
            if found is not None and all(_lends_a_place(c.args[found[0]], caller)
                                         for c, caller in calls[name]):
                st.given[name] = found
                grown = True
    return run.rebuild(program) if st.given else program


def _returnable(ret, shapes: Shapes) -> bool:
    """Whether a function with the result type ret can return a tensor too, beside it: it
    has none, or one that holds no tensor and is no reference (scalarize-aggregates then
    writes it through out-parameters, the tensor the function's result)."""
    if ret is None:
        return True
    if strip(ret)._prod == "Scalar":
        return True
    shape = shapes.of(ret)
    return shape is not None and strip(ret)._prod != "BorrowType" and \
        all(concrete(t) and not is_tensor(t) for t in shape.leaves())


def _assigned(fn, structs: dict, given: dict):
    """(index, field) of the one `&mut` struct parameter of fn whose tensor field fn assigns
    whole (or lends, in its place, to a function of `given` that does), the parameter used
    only by its fields or so lent, or of the one such field of several whose tensor a `let`
    of fn binds; None when there is none or more than one."""
    found = []
    for k, p in enumerate(fn.params):
        ty = strip(p.type)
        if not lent(ty) or strip(ty.inner)._prod != "NamedType" or \
                strip(ty.inner).name not in structs:
            continue
        tensors = {f.name for f in structs[strip(ty.inner).name].fields
                   if is_tensor(f.type) and concrete(f.type)}
        uses = _uses(fn.body, p.name, given)
        if uses is not None:
            found += [(k, f) for f in sorted(tensors & uses)]
    if len(found) > 1:
        # Of several, the one a `let` holds, whose buffer another local then holds: the
        # others scalarize-aggregates copies into the buffers the caller lends.
        found = [(k, f) for k, f in found if f in _held(fn.body, fn.params[k].name)]
    return found[0] if len(found) == 1 else None


def _held(body, name: str) -> set:
    """The fields of the parameter `name` whose tensor a `let` of body binds whole."""
    return {n.value.field for n in descendants(body) if n._prod == "Let" and
            n.value._prod == "FieldGet" and _root(n.value.base) == name}


def _uses(body, name: str, given: dict):
    """The fields of the parameter `name` that body assigns whole or lends to a function of
    `given`; None where it uses the parameter otherwise than by its fields or so."""
    fields, allowed = set(), set()
    targets = {id(n.target) for n in descendants(body) if n._prod == "Assign"}
    for n in descendants(body):
        if n._prod == "FieldGet" and _root(n.base) == name:
            allowed.add(id(_local(n.base)))
            if id(n) in targets:
                fields.add(n.field)
        elif n._prod == "Call" and n.callee._prod == "Global" and n.callee.name in given:
            k, f = given[n.callee.name]
            if _lent(n.args[k]) == name:
                allowed.add(id(_local(_lent_place(n.args[k]))))
                fields.add(f)
        elif n._prod == "Closure" and any(x._prod == "Local" and x.name == name
                                          for x in descendants(n.body)):
            return None
    if any(n._prod == "Local" and n.name == name and id(n) not in allowed
           for n in descendants(body)):
        return None
    return fields


def _local(e):
    """The Local node of `g` or `*g`."""
    return e.value if e._prod == "Deref" else e


def _root(e):
    """The local `e` is, or refers to by `*`: `g`, `*g`; None for another expression."""
    e = _local(e)
    return e.name if e._prod == "Local" else None


def _lent_place(arg):
    """The `g` or `*g` node of an argument `g` or `&mut *g`."""
    return arg.value if arg._prod == "Borrow" else arg


def _lent(arg):
    """The local an argument `g` or `&mut *g` passes on; None for another."""
    if arg._prod == "Local":
        return arg.name
    if arg._prod == "Borrow" and arg.value._prod == "Deref":
        return _root(arg.value)
    return None


def _lends_a_place(arg, caller) -> bool:
    """Whether arg is `&mut p`, p a variable or a part of one, or a reference parameter of
    the caller passed on (`g`, `&mut *g`)."""
    if _lent(arg) is not None:
        return _lent(arg) in {p.name for p in caller.params}
    if arg._prod != "Borrow" or not arg.mutable:
        return False
    place = arg.value
    while place._prod in ("FieldGet", "TupleGet"):
        place = place.base
    return place._prod == "Local"


@return_assigned_tensor_fields.on("Fn")
def _fn(run, fn):
    run.state.names = Names(fn)
    made = run.rebuild(fn)
    if fn.name not in run.state.given:
        return made
    k, name = run.state.given[fn.name]
    p = fn.params[k]
    ty = _field_type(run, p, name)
    given, held = run.state.names.fresh(name), run.state.names.fresh(name)

    def both(value):
        """What a return gives back: the tensor, beside the function's value if it has one
        (computed first, as it was before the tensor is read)."""
        tensor = L["Local"](held, span=value.span if value is not None else fn.span)
        return tensor if fn.ret is None else L["Tuple"]((value, tensor), span=value.span)

    def put(n):
        if n._prod == "Closure":
            return n  # its `return` is its own, and it reads no field of p
        if n._prod == "FieldGet" and n.field == name and _root(n.base) == p.name:
            return L["Local"](held, span=n.span)
        if n._prod == "Return":
            return n.replace(value=both(rebuild(n.value, put) if n.value is not None else None))
        return None

    body = rebuild(made.body, put)
    if fn.ret is None:
        stmts, value = body.stmts if body.value is None else \
            (*body.stmts, L["ExprStmt"](body.value, span=body.value.span)), both(None)
    else:
        stmts, value = body.stmts, both(body.value) if body.value is not None else None
    start = L["Let"](held, True, ty, L["Local"](given, span=p.span), span=p.span)
    ret = ty if fn.ret is None else L["TupleType"]((fn.ret, ty), span=fn.ret.span)
    return made.replace(params=(*made.params, L["Param"](given, ty, span=p.span)), ret=ret,
                        body=body.replace(stmts=(start, *stmts), value=value))


def _field_type(run, p, name: str):
    struct = strip(strip(p.type).inner).name
    return next(f.type for f in run.state.structs[struct].fields if f.name == name)


@return_assigned_tensor_fields.on("ExprStmt", splice=True)
def _expr_stmt(run, node):
    return _assigning(run, node, node.expr, lambda value: node.replace(expr=value))


@return_assigned_tensor_fields.on("Let", splice=True)
def _let(run, node):
    return _assigning(run, node, node.value, lambda value: node.replace(value=value))


@return_assigned_tensor_fields.on("Assign", splice=True)
def _assign(run, node):
    if node.op != "=" or node.target._prod != "Local":
        return (run.rebuild(node),)
    return _assigning(run, node, node.value, lambda value: node.replace(value=value))


def _assigning(run, node, call, stored) -> tuple:
    """The statement `node` storing (or dropping) `call`, written so that the field the call
    lends gets the tensor the function returns, and `node` what else it returns; `stored`
    makes node's statement store another value."""
    st = run.state
    if call._prod != "Call" or call.callee._prod != "Global" or \
            call.callee.name not in st.given:
        return (run.rebuild(node),)
    k, name = st.given[call.callee.name]
    args = run.walk_seq(call.args)
    base = args[k].value if args[k]._prod == "Borrow" else args[k]
    span = node.span
    made = call.replace(args=(*args, L["FieldGet"](base, name, span=args[k].span)))
    target = L["FieldGet"](base, name, span=args[k].span)
    if st.fns[call.callee.name].ret is None:
        return (L["Assign"](target, "=", made, span=span),)
    pair = L["Let"](st.names.fresh("returned"), False, L["OpaqueType"](span=span), made,
                    span=span)
    both = L["Local"](pair.name, span=span)
    put = L["Assign"](target, "=", L["TupleGet"](both, 1, span=span), span=span)
    if node._prod == "ExprStmt":
        return pair, put
    return pair, put, stored(L["TupleGet"](L["Local"](pair.name, span=span), 0, span=span))

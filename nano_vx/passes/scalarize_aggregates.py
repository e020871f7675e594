"""scalarize-aggregates: Lmatched -> Lparted."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched
from ..languages.lparted import Lparted as L
from ..nanopass import Pass
from ..scalars import refuse
from ..scalars.aggregate_types import (holds_aggregates, local_shapes, printed, program_types,
                                       shape_of)
from ..scalars.aggregate_values import enum_value, merged, variant_index
from ..scalars.aggregates import (TAG, Names, Refused, Shapes, Tree, concrete, declared_locals,
                                  copy_elements, fresh_locals, is_tensor, leaf_type, lent,
                                  out_parameters, sized, strip, unread_tensor)
from ..scalars.enum_reads import as_matches
from ..scalars.filled_buffers import shared_fill
from ..scalars.literal_hints import hinted, settled
from ..scalars.storages import fresh_copy


@dataclass
class State:
    shapes: Shapes | None = None
    sigs: dict = field(default_factory=dict)  # function name -> Sig
    types: dict = field(default_factory=dict)  # aggregate local -> its shape
    env: dict = field(default_factory=dict)  # aggregate local -> its Tree of reads
    out: Tree | None = None  # the current function's out-parameters, as places
    copied: set = field(default_factory=set)  # its tensor out-parameters, given back whole
    names: Names | None = None
    lent: dict = field(default_factory=dict)  # function name -> per parameter, whether `&mut`
    # the tensor parts of a `&mut` parameter, and the `&mut` tensor parts of a `&mut`
    # aggregate local, by name -> their tensors' types
    lent_tensors: dict = field(default_factory=dict)
    filled: set = field(default_factory=set)  # those a tensor assigned whole is copied into
    fills: dict = field(default_factory=dict)  # function name -> the `filled` of its own
    rebound: dict = field(default_factory=dict)  # a `&mut` aggregate local -> its `&mut`s, shape


scalarize_aggregates = Pass("scalarize-aggregates", Lmatched, L, """
Replace each struct, tuple and enum value by the scalars it is made of (E5010 for one it
cannot).

A local or parameter `p: Point` becomes one per field, `p_x` and `p_y`; an enum's is its tag
(the index of its variant) and the fields of every variant, those of the others zero (a
tensor's one `::new()` makes, unfilled, a `?` extent 0: no read sees it); a part of `?`
extents is typed as its declaration writes it; a field
read is the field's local, a `VariantIs` a test of the tag (and `if b is E::V { b.E::V.0 }
else { T::new() }`, what a closure is given of a variable, b's part). A function returning an
aggregate takes one `&mut` out-parameter per field instead and writes them, but for one
tensor (one of `?` extents too, starting from an empty buffer), its result: the first that a value it returns puts a call's result in (which may
be a buffer someone else holds), handed on as the buffer itself, else its first
(scalars/aggregate_types.py); another it gives back whole (`GiveBack`), which
copy-out-tensors copies. Its call passes the caller's locals.
A field of a generic struct (its type arguments erased) is typed as what puts it there, and
one holding an aggregate split as that aggregate's shape (scalars/aggregate_types.py: a
parameter's as every call gives it alike, instantiate-aggregate-forms having copied a
function per form its calls give, else E5010); one holding an f64 or an i32, as an
unsuffixed literal is, returned as another float or integer type is cast to it already
(cast-returned-generic-fields).
The literal a `print` is given keeps its form, made of scalars, each `if` in it choosing an
enum's variant a test of its tag. What is
split is a local, a literal, or the call or `if` a statement stores (name-temporaries named
the others).
A reference to an aggregate is one per part. A `&mut Point` parameter becomes `p_x: &mut
i32, p_y: &mut i32`, its field read `*p_x` and written `*p_x = v`, and `&mut a` passes
`&mut a_x, &mut a_y` (a tensor part is passed as it is: it is a buffer already; one
assigned whole through the reference has the new tensor's elements copied into it, and is
E5010 where another local may hold that buffer, which the copy would change). A `&Point` parameter takes the parts'
values, as `Point` does: while it lives the borrow rules forbid any write to what it names,
so its values are what a read through it sees, and the callee needs no cell. A `let` of a
reference naming one place is that place already (inline-aggregate-references); a `&` one
left (made to refer elsewhere, chosen by an `if`) holds the values it refers to, as an
aggregate local does; a `&mut` one left is a `&mut` local per part (a tensor's refers to
the variable holding the buffer), `r = &mut b` making each refer to b's part, and a
function given one filling its tensor part is E5010 where another local may hold the
buffer, as for a `&mut` parameter, and so is a tensor assigned whole through one, whose
elements are copied into the buffer the part refers to (a variable's, or a `&mut`
parameter's, the caller's), where the interpreter replaces that variable's tensor; a
function returning a `&mut` one that split-returned-references and
inline-returned-references left is E5010.
A function taking or returning an aggregate is called by name only
(check-aggregate-function-values refused any other use).
""", state=State)


@scalarize_aggregates.on("Program")
def _program(run, program):
    st = run.state
    st.shapes, st.sigs = program_types(program)
    st.lent = {fn.name: [lent(p.type) for p in fn.params]
               for fn in program.items if fn._prod == "Fn"}
    made = run.rebuild(program)
    shared = shared_fill(made, st.fills, st.sigs)
    if shared is not None:
        refuse(run.ctx.diagnostics, *shared, "a tensor part of a `&mut` aggregate assigned "
                                             "whole, whose buffer another may hold")
    return made


@scalarize_aggregates.on("Fn")
def _fn(run, fn):
    st, sig = run.state, run.state.sigs[fn.name]
    if not holds_aggregates(fn, st.sigs):
        return fn
    st.env, st.out, st.names, st.copied = {}, None, Names(fn), set()
    st.lent_tensors, st.filled, st.rebound = {}, set(), {}
    st.types = local_shapes(fn, st.shapes, st.sigs)
    try:
        if fn.on is not None and (any(sig.params) or sig.out is not None):
            raise Refused(fn, "a kernel taking or returning an aggregate")
        if sig.out is not None and lent(fn.ret):
            raise Refused(fn, "a function returning a `&mut` to an aggregate")
        params = []
        for p, shape, mutable in zip(fn.params, sig.params, st.lent[fn.name]):
            if shape is None:
                params.append(p)
                continue
            if mutable:
                params += _lent_parameter(run, p, shape)
                continue
            shape = _sized(run, shape)
            st.env[p.name], names = fresh_locals(st.names, p.name, shape, p.span)
            params += [L["Param"](n, t if concrete(t) or sized(t) else None, span=p.span)
                       for n, t in zip(names, shape.leaves())]
        if sig.out is None:
            body = _block(run, fn.body)
            st.fills[fn.name] = st.filled
            return fn.replace(params=tuple(params), body=body)
        k, out = sig.result, _sized(run, sig.out)
        if any(sized(t) for j, t in enumerate(out.leaves()) if not concrete(t) and j != k):
            raise Refused(fn, "a function returning an aggregate holding a tensor of `?` "
                              "extents beside its result, which its out-parameter has none "
                              "to start from")
        if None in out.leaves():
            raise Refused(fn, "a function returning an aggregate whose field types are "
                              "generic parameters no local of it says")
        st.out, held, outs = out_parameters(st.names, out, k, fn.span)
        params += outs
        st.copied = {p.name for p in outs if is_tensor(p.type.inner)}
        places = st.out.leaves()
        body = _block(run, fn.body.replace(value=None))
        tail = _store(run, fn.body.value, st.out) if fn.body.value is not None else []
        body = body.replace(stmts=(*held, *body.stmts, *tail),
                            value=places[k] if k is not None else None)
        st.fills[fn.name] = st.filled
        return fn.replace(params=tuple(params), body=body,
                          ret=out.leaves()[k] if k is not None else None)
    except Refused as bad:
        refuse(run.ctx.diagnostics, fn.name, bad.node, bad.what)
        return as_matches(fn, st.shapes)


def _lent_parameter(run, p, shape: Tree) -> list:
    """The parameters a `&mut` aggregate parameter p becomes: a `&mut` per scalar part, each
    read and written through, and each tensor part as it is, a buffer."""
    st = run.state
    rep, names = fresh_locals(st.names, p.name, shape, p.span)
    places, params = [], []
    for x, t in zip(rep.leaves(), shape.leaves()):
        if not concrete(t):
            raise Refused(p, "a `&mut` to an aggregate whose field types are generic "
                             "parameters")
        if is_tensor(t):
            st.lent_tensors[x.name] = t
            places.append(x)
            params.append(L["Param"](x.name, t, span=p.span))
            continue
        places.append(L["Deref"](x, span=p.span))
        params.append(L["Param"](x.name, L["BorrowType"](t, True, span=p.span), span=p.span))
    st.env[p.name] = rep.rebuilt(iter(places))
    return params


def _shape(run, e) -> Tree | None:
    """The shape of e's value, None for a scalar or a tensor."""
    st = run.state
    return shape_of(e, st.shapes, st.sigs, st.types.get)


def _parts(run, e) -> Tree:
    """e's value as a tree of expressions."""
    st, p = run.state, e._prod
    if p == "Local":
        if e.name not in st.env:
            raise Refused(e, f"the aggregate '{e.name}', which is not split into scalars")
        return st.env[e.name]
    if p == "Borrow":
        _lendable(run, e)
        return _parts(run, e.value)
    if p == "Deref":
        return _parts(run, e.value)
    if p in ("FieldGet", "TupleGet"):
        return _parts(run, e.base).part(e.field if p == "FieldGet" else e.index)
    if p == "VariantField":
        return _parts(run, e.base).part(e.variant).part(e.index)
    if p == "Tuple":
        return Tree("tuple", None, tuple((k, _part(run, x)) for k, x in enumerate(e.elems)))
    if p == "StructLit":
        shape = _shape(run, e)
        given = {f.name: _part(run, f.value) for f in e.fields}
        return Tree("struct", e.name, tuple((k, given[k]) for k, _ in shape.parts))
    if p == "EnumValue":
        shape = _sized(run, _shape(run, e))
        return enum_value(shape, e, [_part(run, a) for a in e.args])
    raise Refused(e, "an aggregate made here")


def _sized(run, shape: Tree | None) -> Tree | None:
    """shape, each leaf its struct or enum declares a tensor of `?` extents given that type
    (which no shape keeps, and a variant no value is made of holds an i32 in): a part's
    type, and an empty buffer where another variant of an enum holds it."""
    if shape is None or shape.kind not in ("struct", "enum"):
        return shape
    written = run.state.shapes.of(L["NamedType"](shape.name, span=None), typed=sized)
    if written is None or written.form() != shape.form():
        return shape
    return shape.rebuilt(iter(w if sized(w) else t
                              for t, w in zip(shape.leaves(), written.leaves())))


def _part(run, x) -> Tree:
    return _parts(run, x) if _shape(run, x) is not None else Tree("leaf", leaf=run.walk(x))


@scalarize_aggregates.on("Block")
def _block(run, block):
    if block.value is not None and _shape(run, block.value) is not None:
        raise Refused(block.value, "an aggregate as the value of a block")
    return run.rebuild(block)


@scalarize_aggregates.on("Let", splice=True)
def _let(run, let):
    st = run.state
    shape = _sized(run, merged(_shape(run, let.value), st.shapes.of(let.type)))
    if shape is None:
        return (run.rebuild(let),)
    if lent(let.type):
        return _lent_local(run, let, shape)
    if let.value._prod in ("Call", "IfExpr"):
        # its leaves typed as its arms put them where nothing else does (local_shapes)
        shape = _sized(run, st.types.get(let.name, shape))
        rep, lets = declared_locals(run.state.names, let.name, shape, let)
        st.env[let.name] = rep
        return (*lets, *_store(run, let.value, rep, shape))
    parts = _parts(run, let.value)
    if len(parts.leaves()) != len(shape.leaves()):
        shape = st.types[let.name]  # an erased field holding an aggregate, split as it holds
    if len(parts.leaves()) != len(shape.leaves()):
        raise Refused(let, "a generic struct holding an aggregate")
    rep, names = fresh_locals(st.names, let.name, parts, let.span)
    st.env[let.name] = rep
    return tuple(L["Let"](n, let.mutable, t if concrete(t) else L["OpaqueType"](span=let.span),
                          x if t is not None else settled(L, x), span=let.span)
                 for n, t, x in zip(names, shape.leaves(), parts.leaves()))


def _lent_local(run, let, shape: Tree) -> tuple:
    """A `&mut` aggregate local inline-aggregate-references left (made to refer elsewhere,
    chosen by an `if`): a `&mut` local per part, each read and written through, which an
    assignment of the local makes refer to the new place's part (a tensor part's refers to
    the variable holding the buffer, which a whole tensor assigned through it is copied
    into: `_fill`)."""
    st = run.state
    if any(not concrete(t) for t in shape.leaves()):
        raise Refused(let, "a `&mut` to an aggregate whose field types are generic parameters")
    first = _start(let.value)  # a place to start from, which an `if` then changes
    if first is None:
        raise Refused(let.value, "a `&mut` to an aggregate chosen by an `if` each of whose "
                                 "arms runs statements first")
    rep, names = fresh_locals(st.names, let.name, shape, let.span)
    st.rebound[let.name] = rep, shape
    st.lent_tensors.update((n, t) for n, t in zip(names, shape.leaves()) if is_tensor(t))
    st.env[let.name] = rep.rebuilt(L["Deref"](x, span=let.span) for x in rep.leaves())
    places = _places(run, first, shape)
    lets = tuple(L["Let"](n, let.mutable or first is not let.value,
                          L["BorrowType"](t, True, span=let.span), r, span=let.span)
                 for n, t, r in zip(names, shape.leaves(), places))
    return (*lets, *_rebind(run, let.value, rep, shape)) if first is not let.value else lets


def _start(e):
    """A place e may name that an arm of no statements names, declared outside e."""
    if e._prod != "IfExpr":
        return e
    return next((found for b in (e.then, e.orelse)
                 if not b.stmts and (found := _start(b.value)) is not None), None)


def _rebind(run, e, rep: Tree, shape: Tree) -> list:
    """Statements making each `&mut` local of rep refer to its part of the place e names."""
    if e._prod == "IfExpr":
        arms = []
        for b in (e.then, e.orelse):
            body = _block(run, b.replace(value=None))
            arms.append(body.replace(stmts=(*body.stmts, *_rebind(run, b.value, rep, shape))))
        return [L["If"](run.walk(e.cond), False, *arms, span=e.span)]
    places = _places(run, e, shape)
    return [L["Assign"](x, "=", r, span=e.span) for x, r in zip(rep.leaves(), places)]


def _places(run, e, shape: Tree) -> list:
    """The `&mut` to each part of the place the `&mut` aggregate e names."""
    if e._prod == "Call":
        raise Refused(e, "a `&mut` to an aggregate a function returns")
    given = _parts(run, e)
    if given.form() != shape.form():
        raise Refused(e, "a `&mut` to an aggregate that is no variable's")
    # a tensor part's too: the local refers to the variable holding the buffer
    return [_reference(x) for x in given.leaves()]


@scalarize_aggregates.on("Assign", splice=True)
def _assign(run, node):
    if node.target._prod == "Local" and node.target.name in run.state.rebound:
        return tuple(_rebind(run, node.value, *run.state.rebound[node.target.name]))
    if _shape(run, node.target) is None:
        made = run.rebuild(node)
        if _lent_tensor(run, made.target):
            if node.op != "=":
                raise Refused(node, f"'{node.op}' on a tensor part of a `&mut` aggregate")
            return tuple(_fill(run, made.target, made.value))
        return (made,)
    if node.op != "=":
        raise Refused(node, f"'{node.op}' on an aggregate")
    return tuple(_store(run, node.value, _parts(run, node.target), _shape(run, node.target)))


@scalarize_aggregates.on("Return", splice=True)
def _return(run, node):
    out = run.state.out
    if node.value is None:
        return (run.rebuild(node),)
    if out is None:
        return (node.replace(value=run.walk(node.value)),)
    result = next((x for x in out.leaves() if x._prod == "Local"), None)
    return (*_store(run, node.value, out), L["Return"](result, span=node.span))


@scalarize_aggregates.on("ExprStmt", splice=True)
def _expr_stmt(run, node):
    e = node.expr
    arg = printed(e, run.state.sigs)
    if arg is not None and _shape(run, arg) is not None:
        return (node.replace(expr=e.replace(args=(_record(run, arg),))),)
    shape = _shape(run, e)
    if shape is None:
        return (run.rebuild(node),)
    rep, lets = declared_locals(run.state.names, "dropped", shape, e)
    return (*lets, *_store(run, e, rep, shape))


def _store(run, e, dest: Tree, shape: Tree | None = None) -> list:
    """Statements computing e into the places of `dest` (locals, or out-parameters), of the
    types `shape` gives them where it is known."""
    p = e._prod
    if p == "Call" and e.callee._prod == "Global" and e.callee.name in run.state.sigs:
        k, places = run.state.sigs[e.callee.name].result, dest.leaves()
        if any(_lent_tensor(run, x) for j, x in enumerate(places) if j != k):
            raise Refused(e, "a tensor part of a `&mut` aggregate given back by a call")
        outs = [x.value if x._prod == "Deref" else L["Borrow"](x, True, span=e.span)
                for j, x in enumerate(places) if j != k]
        call = _call(run, e, outs)
        if k is None:
            return [L["ExprStmt"](call, span=e.span)]
        if _lent_tensor(run, places[k]):
            return _fill(run, places[k], call)
        return [L["Assign"](places[k], "=", call, span=e.span)]
    if p == "IfExpr":
        cond = run.walk(e.cond)
        return [L["If"](cond, False, _arm(run, e.then, dest, shape),
                        _arm(run, e.orelse, dest, shape), span=e.span)]
    parts = _parts(run, e)
    if len(parts.leaves()) != len(dest.leaves()):
        raise Refused(e, "a generic struct holding an aggregate")
    lets, puts = [], []
    types = shape.leaves() if shape is not None and len(shape.leaves()) == len(parts.leaves()) \
        else [None] * len(parts.leaves())
    for d, x, ty in zip(dest.leaves(), parts.leaves(), types):
        v = x  # a local given back as it is: copy-out-tensors copies it if no one else holds it
        if not (_copied(run, d) and x._prod == "Local"):
            # Every field is computed before any is written: `p = Point { x: p.y, y: p.x }`.
            # A scalar part's `let` has the type of the place it goes to, which typed its
            # literals (`v = (1 << 40, 1)` of a `(i64, i32)` shifts an i64).
            typed = ty if ty is not None and ty._prod == "Scalar" else \
                L["OpaqueType"](span=e.span)
            lets.append(L["Let"](run.state.names.fresh("agg"), False, typed, x, span=e.span))
            v = L["Local"](lets[-1].name, span=e.span)
        puts += [L["GiveBack"](d.value.name, v, span=x.span)] if _copied(run, d) else \
            _fill(run, d, v) if _lent_tensor(run, d) else [L["Assign"](d, "=", v, span=v.span)]
    return [*lets, *puts]


def _lent_tensor(run, place) -> bool:
    """Whether `place` is a buffer a tensor part of a `&mut` aggregate holds: a parameter's
    (the caller's), or the one a `&mut` aggregate local's part refers to."""
    return _buffer(place) in run.state.lent_tensors


def _buffer(place) -> str | None:
    """The local holding or referring to the buffer `place` is: `x` or `*x`."""
    if place._prod == "Deref":
        place = place.value
    return place.name if place._prod == "Local" else None


def _fill(run, place, value) -> list:
    """`place = value` for `place` a buffer a tensor part of a `&mut` aggregate holds, the
    interpreter's the variable (the caller's, or the one the `&mut` local refers to): the new
    tensor's elements copied into the buffer (its extents are integers), once the value is
    computed (E5010 where another may hold the buffer: scalars/filled_buffers.py)."""
    st, span, name = run.state, value.span, _buffer(place)
    st.filled.add(name)
    held = L["Local"](st.names.fresh("filled"), span=span)
    return [L["Let"](held.name, False, L["OpaqueType"](span=span), value, span=span),
            *copy_elements(st.names, place, held, st.lent_tensors[name], span)]


def _copied(run, place) -> bool:
    """Whether `place` is a tensor out-parameter, which the tensor is given back through."""
    return place._prod == "Deref" and place.value.name in run.state.copied


def _arm(run, block, dest, shape: Tree | None = None):
    body = _block(run, block.replace(value=None))
    if block.value is None:
        return body
    return body.replace(stmts=body.stmts + tuple(_store(run, block.value, dest, shape)))


def _call(run, e, outs=()):
    st = run.state
    sig = st.sigs.get(e.callee.name) if e.callee._prod == "Global" else None
    mutable = st.lent.get(e.callee.name, []) if sig is not None else []
    args = []
    for k, a in enumerate(e.args):
        shape = sig.params[k] if sig is not None and k < len(sig.params) else None
        if shape is None:
            if _shape(run, a) is not None:
                raise Refused(a, "an aggregate passed where a scalar is taken")
            args.append(run.walk(a))
            continue
        given = _parts(run, a)
        if given.form() != shape.form():  # a tuple where a Point is taken has its leaves
            raise Refused(a, "a generic struct holding an aggregate")
        leaves = given.leaves()
        args += [_lent_part(x, t) for x, t in zip(leaves, shape.leaves())] \
            if k < len(mutable) and mutable[k] else leaves
    return e.replace(callee=run.walk(e.callee), args=(*args, *outs))


def _lent_part(x, ty):
    """What a `&mut` aggregate parameter's part of type ty is given, x being the part's place:
    its reference, or the tensor itself."""
    return x if is_tensor(ty) else _reference(x)


def _reference(x):
    """The `&mut` to the place x of a part."""
    if x._prod == "Deref" and x.value._prod == "Local":
        return x.value
    if x._prod == "Local":
        return L["Borrow"](x, True, span=x.span)
    raise Refused(x, "a `&mut` to an aggregate not held in variables")


@scalarize_aggregates.on("Borrow")
def _borrow(run, e):
    _lendable(run, e)
    if _shape(run, e) is not None:
        raise Refused(e, "a reference to an aggregate used other than as a variable or an "
                         "argument")
    return run.rebuild(e)


def _lendable(run, e) -> None:
    if e.mutable and e.value._prod == "VariantField" and _shape(run, e.value.base) is not None:
        # The interpreter lends a temporary holding the payload's value, which a write through
        # the reference does not reach the enum from (a field's or an element's it lends).
        raise Refused(e, "a `&mut` to a variant's payload")


@scalarize_aggregates.on("Call", "Launch")
def _call_expr(run, e):
    if _shape(run, e) is not None:
        raise Refused(e, "an aggregate used as a scalar")
    if e._prod == "Call":
        return _call(run, e)
    if any(_shape(run, a) is not None for a in e.args):
        raise Refused(e, "a launch passing an aggregate")
    return run.rebuild(e)


@scalarize_aggregates.on("VariantIs")
def _variant_is(run, e):
    rep = _parts(run, e.base)
    tag = L["Int"](variant_index(rep, e.variant, e), span=e.span)
    return L["Binary"]("==", rep.part(TAG).leaf, tag, span=e.span)


@scalarize_aggregates.on("IfExpr")
def _if(run, e):
    """`if b is E::V { b.E::V.k } else { T::new() }`, the tensor part a call gives a closure
    of an enum variable b (split-closure-aggregates), is b's part, which holds a tensor no
    read sees where b holds another variant: no buffer is made for the call."""
    held, arm, other = e.cond, e.then.value, e.orelse.value
    if held._prod == "VariantIs" and arm is not None and arm._prod == "VariantField" \
            and not e.then.stmts and not e.orelse.stmts and held.base._prod == "Local" \
            and arm.base == held.base and arm.variant == held.variant \
            and other is not None and other._prod == "TensorNew" \
            and other == unread_tensor(other.type, other.span) \
            and _shape(run, held.base) is not None:
        return _get(run, arm)
    return run.rebuild(e)


@scalarize_aggregates.on("FieldGet", "TupleGet", "VariantField")
def _get(run, e):
    if _shape(run, e.base) is None:
        return run.rebuild(e)  # of what is not split: a contract's `return`, a constant
    part = _parts(run, e)
    if part.kind != "leaf":
        raise Refused(e, "an aggregate used as a scalar")
    # Each read a node of its own: later passes key on id().
    return fresh_copy(_hinted_leaf(run, e, part.leaf))


def _hinted_leaf(run, e, leaf):
    """The scalar part `leaf` that e reads, its literals typed as the field or the variant's
    value it is read from types them (the interpreter typed them so in the literal it is
    read from: `S { a: 1000000 * 10000, .. }.a` of an `a: i64` is an i64); the part of a
    local is a local already typed so."""
    base = _base_shape(run, e)
    label = e.field if e._prod == "FieldGet" else e.index
    if base is not None and base.part(label).kind == "leaf" and base.part(label).leaf is None:
        return settled(L, leaf)  # a tuple literal's element
    ty = strip(leaf_type(base, label))
    return hinted(L, leaf, ty) if ty is not None and ty._prod == "Scalar" else leaf


def _base_shape(run, e):
    """The shape of what the field or element e reads is read from: a variant's, for e a
    variant's value."""
    base = _shape(run, e.base)
    return base.part(e.variant) if base is not None and e._prod == "VariantField" else base


@scalarize_aggregates.on("Local", "StructLit", "Tuple", "EnumValue")
def _whole(run, e):
    if _shape(run, e) is not None:
        raise Refused(e, "an aggregate used other than by its fields, passed, returned, "
                         "matched or printed")
    return run.rebuild(e)


@scalarize_aggregates.on("Closure")
def _closure(run, e):
    st = run.state
    if any(st.shapes.of(p.type) for p in e.params):
        raise Refused(e, "a closure taking an aggregate other than one a `let` binds, "
                         "only called by name, given variables, their fields or literals")
    out, st.out = st.out, None  # its `return` is its own
    made = run.rebuild(e)
    st.out = out
    return made


def _record(run, e):
    """The literal `print` is given (expand-aggregate-prints wrote it, cast-printed-literals
    typed its numbers) with its scalars'."""
    p = e._prod
    if p == "StructLit":
        return e.replace(fields=tuple(f.replace(value=_record(run, f.value)) for f in e.fields))
    if p == "Tuple":
        return e.replace(elems=tuple(_record(run, x) for x in e.elems))
    if p == "EnumValue":
        return e.replace(args=tuple(_record(run, x) for x in e.args))
    if p == "IfExpr":  # an enum's variant, chosen by its tag
        return e.replace(cond=run.walk(e.cond),
                         then=e.then.replace(value=_record(run, e.then.value)),
                         orelse=e.orelse.replace(value=_record(run, e.orelse.value)))
    return run.walk(e)

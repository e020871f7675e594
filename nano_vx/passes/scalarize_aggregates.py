"""scalarize-aggregates: Lassumed -> Lassumed.

Same IL: what it writes is Vx the reference interpreter runs as it ran the program, so the
default action can still fall back to it. What it cannot write so is E5010 here."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed as L
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.aggregates import TAG, Shapes, Tree, concrete, zero
from ..scalars.aggregate_values import (Refused, literal, matches, merged, printed_variants,
                                        pure, returned_types, variant_index, variant_value)


@dataclass
class Sig:
    params: list  # per parameter, its shape or None
    out: Tree | None = None  # the result's shape, when it is an aggregate


@dataclass
class State:
    shapes: Shapes | None = None
    sigs: dict = field(default_factory=dict)  # function name -> Sig
    fn: str = ""
    env: dict = field(default_factory=dict)  # aggregate local -> its Tree of reads
    out: Tree | None = None  # the current function's out-parameters, as places
    taken: set = field(default_factory=set)
    made: int = 0
    pending: list = field(default_factory=list)  # statements to run before this one
    effects: bool = False  # a call of this statement ran already, in place


scalarize_aggregates = Pass("scalarize-aggregates", L, L, """
Replace each struct, tuple and enum value by the scalars it is made of (E5010 for one it
cannot).

A local or parameter `p: Point` becomes one per field, `p_x` and `p_y`; an enum's is its tag
(the index of its variant) and the fields of every variant, those of the others zero; a field
read is the field's local. A function returning an aggregate takes one `&mut` out-parameter
per field instead and writes them; its call passes the caller's locals. A `match` on an enum
is an `if` chain on the tag, its patterns' names bound to the payload's locals, and `print`
of an aggregate prints the literal rebuilt from its scalars (of an enum, under an `if` chain
on the tag). A value the statement needs first (a call's result passed on, a field of a
call) is computed by statements before it, unless a call of the statement would have run
before it.
""", state=State)


@scalarize_aggregates.on("Program")
def _program(run, program):
    st = run.state
    st.shapes = Shapes(program)
    for fn in program.items:
        if fn._prod == "Fn":
            out = st.shapes.of(fn.ret)
            if out is not None:
                out = out.rebuilt(iter(returned_types(fn, out)))
            st.sigs[fn.name] = Sig([st.shapes.of(p.type) for p in fn.params], out)
    items = run.walk_seq(program.items)
    if all(a is b for a, b in zip(items, program.items)):
        return program
    return program.replace(items=items)


@scalarize_aggregates.on("Fn")
def _fn(run, fn):
    st, sig = run.state, run.state.sigs[fn.name]
    if not _touches(run, fn):
        return fn
    st.fn, st.env, st.made, st.out = fn.name, {}, 0, None
    st.taken = {getattr(n, "name", None) or getattr(n, "var", None) for n in descendants(fn)}
    try:
        if fn.on is not None and (any(sig.params) or sig.out is not None):
            raise Refused(fn, "a kernel taking or returning an aggregate")
        params = []
        for p, shape in zip(fn.params, sig.params):
            if shape is None:
                params.append(p)
                continue
            st.env[p.name], names = _fresh(run, p.name, shape, p.span)
            params += [L["Param"](n, t if concrete(t) else None, span=p.span)
                       for n, t in zip(names, shape.leaves())]
        if sig.out is None:
            return fn.replace(params=tuple(params), body=_block(run, fn.body))
        if None in sig.out.leaves():
            raise Refused(fn, "a function returning an aggregate whose field types are "
                              "generic parameters no local of it says")
        out, names = _fresh(run, "ret", sig.out, fn.span)
        st.out = out.rebuilt(iter([L["Deref"](x, span=fn.span) for x in out.leaves()]))
        params += [L["Param"](n, L["BorrowType"](t, True, span=fn.span), span=fn.span)
                   for n, t in zip(names, sig.out.leaves())]
        body = _block(run, fn.body.replace(value=None))
        if fn.body.value is not None:
            tail = _statement(run, lambda: _store(run, fn.body.value, st.out))
            body = body.replace(stmts=body.stmts + tuple(tail))
        return fn.replace(params=tuple(params), ret=None, body=body)
    except Refused as bad:
        refuse(run.ctx.diagnostics, fn.name, bad.node, bad.what)
        return fn


def _touches(run, fn) -> bool:
    """Whether fn holds an aggregate: a parameter, its result, a value or a call of a
    function that takes or returns one."""
    sigs = run.state.sigs
    sig = sigs[fn.name]
    return any(sig.params) or sig.out is not None or any(
        n._prod in _AGGREGATE or n._prod == "Call" and n.callee._prod == "Global"
        and n.callee.name in sigs and (any(sigs[n.callee.name].params)
                                       or sigs[n.callee.name].out is not None)
        for n in descendants(fn.body))


_AGGREGATE = frozenset({"StructLit", "Tuple", "EnumValue", "FieldGet", "TupleGet",
                        "MatchValue"})


# -- names and places ---------------------------------------------------------------------


def _name(run, wanted: str) -> str:
    st = run.state
    name = wanted
    while name in st.taken:
        st.made += 1
        name = f"{wanted}#{st.made}"
    st.taken.add(name)
    return name


def _fresh(run, base: str, shape: Tree, span):
    """A tree of reads of new locals for a value of `shape`, named after `base`, and their
    names: `p_x`, `p_y`."""
    stem = base.split("#")[0]
    names = [_name(run, f"{stem}_{path}") for path in shape.paths()]
    return shape.rebuilt(iter(L["Local"](n, span=span) for n in names)), names


def _declare(run, base, shape, at):
    """New locals for a value of `shape`, each starting at its type's zero, and their lets."""
    rep, names = _fresh(run, base, shape, at.span)
    lets = []
    for name, ty in zip(names, shape.leaves()):
        start = zero(ty, at.span)
        if start is None:
            raise Refused(at, "an aggregate computed in place whose fields are not all "
                              "scalars of known types")
        lets.append(L["Let"](name, True, ty, start, span=at.span))
    return rep, lets


def _temp(run, x):
    """A read of a new local holding x, its `let` run first."""
    if run.state.effects:
        raise Refused(x, "an aggregate computed after a call of the same statement ran")
    name = _name(run, "agg")
    run.state.pending.append(L["Let"](name, False, L["OpaqueType"](span=x.span), x,
                                      span=x.span))
    return L["Local"](name, span=x.span)


def _shape(run, e) -> Tree | None:
    """The shape of e's value, None for a scalar or a tensor."""
    st, p = run.state, e._prod
    if p == "Local":
        return st.env.get(e.name)
    if p == "StructLit":
        return st.shapes.of(L["NamedType"](e.name, span=e.span))
    if p == "EnumValue":
        return st.shapes.of(L["NamedType"](e.enum, span=e.span))
    if p == "Tuple":
        return Tree("tuple", None, tuple((k, _shape(run, x) or Tree("leaf"))
                                         for k, x in enumerate(e.elems)))
    if p == "Call" and e.callee._prod == "Global" and e.callee.name in st.sigs:
        return st.sigs[e.callee.name].out
    if p in ("FieldGet", "TupleGet"):
        base = _shape(run, e.base)
        part = dict(base.parts).get(e.field if p == "FieldGet" else e.index) if base else None
        return part if part is not None and part.kind != "leaf" else None
    if p == "IfExpr" and e.then.value is not None:
        return _shape(run, e.then.value)
    if p == "MatchValue" and e.cases and e.cases[0].body.value is not None:
        return _shape(run, e.cases[0].body.value)
    return None



def _parts(run, e) -> Tree:
    """e's value as a tree of expressions; what they need first goes to the pending
    statements."""
    st, p = run.state, e._prod
    if p == "Local":
        if e.name not in st.env:
            raise Refused(e, f"the aggregate '{e.name}', which is not split into scalars")
        return st.env[e.name]
    if p in ("FieldGet", "TupleGet"):
        return _parts(run, e.base).part(e.field if p == "FieldGet" else e.index)
    if p == "Tuple":
        return Tree("tuple", None, tuple((k, _part(run, x)) for k, x in enumerate(e.elems)))
    if p == "StructLit":
        shape = _shape(run, e)
        # Fields are computed as written; a call in one written out of order runs first.
        moved = [f.name for f in e.fields] != [k for k, _ in shape.parts]
        given = {f.name: _part(run, f.value, moved) for f in e.fields}
        return Tree("struct", e.name, tuple((k, given[k]) for k, _ in shape.parts))
    if p == "EnumValue":
        shape = _shape(run, e)
        args = tuple(enumerate(_part(run, a) for a in e.args))
        tag = L["Int"](variant_index(shape, e.variant, e), span=e.span)
        parts = [(TAG, Tree("leaf", leaf=tag))]
        for label, v in shape.variants():
            if label == e.variant:
                parts.append((label, Tree("variant", label, args)))
                continue
            zeros = [zero(t, e.span) for t in v.leaves()]
            if None in zeros:
                raise Refused(e, "an enum whose other variants hold what has no zero")
            parts.append((label, v.rebuilt(iter(zeros))))
        return Tree("enum", e.enum, tuple(parts))
    shape = _shape(run, e)
    if shape is None or p not in ("Call", "IfExpr", "MatchValue"):
        raise Refused(e, "an aggregate made here")
    if st.effects:
        raise Refused(e, "an aggregate computed after a call of the same statement ran")
    rep, lets = _declare(run, "agg", shape, e)
    st.pending += lets
    st.pending += _store(run, e, rep)
    st.effects = False
    return rep


def _part(run, x, bind=False) -> Tree:
    if _shape(run, x) is not None:
        return _parts(run, x)
    value = run.walk(x)
    return Tree("leaf", leaf=_temp(run, value) if bind and not pure(x) else value)



# -- statements ----------------------------------------------------------------------------


def _statement(run, make) -> list:
    """make()'s statements, after those their expressions need first."""
    st = run.state
    saved = st.pending, st.effects
    st.pending, st.effects = [], False
    try:
        made = make()
        return [*st.pending, *made]
    finally:
        st.pending, st.effects = saved


def _flat(out) -> list:
    return list(out) if isinstance(out, tuple) else [out]


@scalarize_aggregates.on("Block")
def _block(run, block):
    stmts = []
    for s in block.stmts:
        stmts += _statement(run, lambda s=s: _flat(run.walk(s)))
    value = block.value
    if value is not None:
        if _shape(run, value) is not None:
            raise Refused(value, "an aggregate as the value of a block")
        held = []
        stmts += _statement(run, lambda: held.append(run.walk(block.value)) or [])
        value = held[0]
    return block.replace(stmts=tuple(stmts), value=value)


@scalarize_aggregates.on("Let", splice=True)
def _let(run, let):
    st = run.state
    shape = merged(_shape(run, let.value), st.shapes.of(let.type))
    if shape is None:
        return (run.rebuild(let),)
    if let.value._prod in ("Call", "IfExpr", "MatchValue"):
        rep, lets = _declare(run, let.name, shape, let)
        st.env[let.name] = rep
        return (*lets, *_store(run, let.value, rep))
    parts = _parts(run, let.value)
    if len(parts.leaves()) != len(shape.leaves()):
        raise Refused(let, "a generic struct holding an aggregate")
    rep, names = _fresh(run, let.name, parts, let.span)
    st.env[let.name] = rep
    return tuple(L["Let"](n, let.mutable, t if concrete(t) else L["OpaqueType"](span=let.span),
                          x, span=let.span)
                 for n, t, x in zip(names, shape.leaves(), parts.leaves()))


@scalarize_aggregates.on("Assign", splice=True)
def _assign(run, node):
    if _shape(run, node.target) is None:
        return (run.rebuild(node),)
    if node.op != "=":
        raise Refused(node, f"'{node.op}' on an aggregate")
    return tuple(_store(run, node.value, _parts(run, node.target)))


@scalarize_aggregates.on("Return", splice=True)
def _return(run, node):
    out = run.state.out
    if out is None or node.value is None:
        return (run.rebuild(node),)
    return (*_store(run, node.value, out), L["Return"](None, span=node.span))


@scalarize_aggregates.on("ExprStmt", splice=True)
def _expr_stmt(run, node):
    e = node.expr
    if e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" and \
            "print" not in run.state.sigs and len(e.args) == 1 and _shape(run, e.args[0]):
        return tuple(_print(run, node, e.args[0]))
    if e._prod == "MatchValue" and _on_enum(run, e):
        return (_chain(run, e, None),)
    shape = _shape(run, e)
    if shape is None:
        return (run.rebuild(node),)
    rep, lets = _declare(run, "dropped", shape, e)
    return (*lets, *_store(run, e, rep))


@scalarize_aggregates.on("While")
def _while(run, node):
    pending = len(run.state.pending)
    cond = run.walk(node.cond)
    if len(run.state.pending) != pending:
        raise Refused(node.cond, "an aggregate computed in a loop's condition")
    return node.replace(cond=cond, body=run.walk(node.body))


def _store(run, e, dest: Tree) -> list:
    """Statements computing e into the places of `dest` (locals, or out-parameters)."""
    p = e._prod
    if p == "Call" and e.callee._prod == "Global" and e.callee.name in run.state.sigs:
        outs = [x.value if x._prod == "Deref" else L["Borrow"](x, True, span=e.span)
                for x in dest.leaves()]
        return [L["ExprStmt"](_call(run, e, outs), span=e.span)]
    if p == "IfExpr":
        cond = run.walk(e.cond)
        return [L["If"](cond, False, _arm(run, e.then, dest), _arm(run, e.orelse, dest),
                        span=e.span)]
    if p == "MatchValue" and _on_enum(run, e):
        return [_chain(run, e, dest)]
    parts = _parts(run, e)
    if len(parts.leaves()) != len(dest.leaves()):
        raise Refused(e, "a generic struct holding an aggregate")
    # Every field is computed before any is written: `p = Point { x: p.y, y: p.x }`.
    lets = [L["Let"](_name(run, "agg"), False, L["OpaqueType"](span=e.span), x, span=e.span)
            for x in parts.leaves()]
    return [*lets, *(L["Assign"](d, "=", L["Local"](t.name, span=e.span), span=e.span)
                     for d, t in zip(dest.leaves(), lets))]


def _arm(run, block, dest):
    body = _block(run, block.replace(value=None))
    if block.value is None:
        return body
    tail = _statement(run, lambda: _store(run, block.value, dest))
    return body.replace(stmts=body.stmts + tuple(tail))


# -- expressions ---------------------------------------------------------------------------


def _call(run, e, outs=()):
    sig = run.state.sigs.get(e.callee.name) if e.callee._prod == "Global" else None
    args = []
    for k, a in enumerate(e.args):
        shape = sig.params[k] if sig is not None and k < len(sig.params) else None
        if shape is None:
            if _shape(run, a) is not None:
                raise Refused(a, "an aggregate passed where a scalar is taken")
            args.append(run.walk(a))
            continue
        leaves = _parts(run, a).leaves()
        if len(leaves) != len(shape.leaves()):
            raise Refused(a, "a generic struct holding an aggregate")
        args += leaves
    return e.replace(callee=run.walk(e.callee), args=(*args, *outs))


@scalarize_aggregates.on("Call", "Launch")
def _call_expr(run, e):
    if _shape(run, e) is not None:
        raise Refused(e, "an aggregate used as a scalar")
    if e._prod == "Launch":
        if any(_shape(run, a) is not None for a in e.args):
            raise Refused(e, "a launch passing an aggregate")
        out = run.rebuild(e)
    else:
        out = _call(run, e)
    run.state.effects = True
    return out


@scalarize_aggregates.on("FieldGet", "TupleGet")
def _get(run, e):
    if _shape(run, e.base) is None:
        return run.rebuild(e)  # of what is not split: a contract's `return`, a constant
    part = _parts(run, e)
    if part.kind != "leaf":
        raise Refused(e, "an aggregate used as a scalar")
    return part.leaf


@scalarize_aggregates.on("Local", "StructLit", "Tuple", "EnumValue")
def _whole(run, e):
    if _shape(run, e) is not None:
        raise Refused(e, "an aggregate used other than by its fields, passed, returned, "
                         "matched or printed")
    return run.rebuild(e)


@scalarize_aggregates.on("Binary")
def _binary(run, e):
    if e.op not in ("&&", "||"):
        return run.rebuild(e)
    left, pending = run.walk(e.left), len(run.state.pending)
    right = run.walk(e.right)
    if len(run.state.pending) != pending:
        raise Refused(e.right, f"an aggregate computed on the right of '{e.op}'")
    return e.replace(left=left, right=right)


@scalarize_aggregates.on("Closure")
def _closure(run, e):
    st = run.state
    if any(st.shapes.of(p.type) for p in e.params):
        raise Refused(e, "a closure taking an aggregate")
    out, st.out = st.out, None  # its `return` is its own
    try:
        return run.rebuild(e)
    finally:
        st.out = out


@scalarize_aggregates.on("MatchValue")
def _match(run, e):
    if _on_enum(run, e):
        return _chain(run, e, None, value=True)
    if _shape(run, e.scrutinee) is not None:
        raise Refused(e, "a `match` on a struct or a tuple")
    return run.rebuild(e)


# -- match and print -----------------------------------------------------------------------


def _on_enum(run, match) -> bool:
    shape = _shape(run, match.scrutinee)
    return shape is not None and shape.kind == "enum"


def _settled(run, rep: Tree) -> Tree:
    """rep with each leaf a read or a literal, so it may be read more than once."""
    return rep.rebuilt(iter(x if x._prod in ("Local", "Deref", "Int", "Float", "Bool")
                            else _temp(run, x) for x in rep.leaves()))


def _chain(run, match, dest, value=False):
    """The `if` chain on the tag: statements (an `If`), or with `value` an `IfExpr`."""
    rep = _settled(run, _parts(run, match.scrutinee))
    cases = list(match.cases)
    for k, case in enumerate(cases):  # what follows a case that takes everything never runs
        if matches(case.pattern, rep) is None:
            cases = cases[:k + 1]
            break

    def arm(case):
        binds = _binds(run, case.pattern, rep)
        body = _arm(run, case.body, dest) if dest is not None else _block(run, case.body)
        return body.replace(stmts=(*binds, *body.stmts))
    if len(cases) == 1:
        body = arm(cases[0])
        if not value:
            return L["If"](L["Bool"](True, span=match.span), False, body, None, span=match.span)
        if body.stmts:
            raise Refused(match, "a `match` of one case binding names, inside an expression")
        return body.value
    out = arm(cases[-1])
    for case in reversed(cases[:-1]):
        test, then = matches(case.pattern, rep), arm(case)
        made = L["IfExpr" if value else "If"](test, False, then, out, span=case.span)
        out = L["Block"]((), made, span=case.span) if value else \
            L["Block"]((made,), None, span=case.span)
    return out.value if value else out.stmts[0]



def _binds(run, pattern, rep) -> list:
    p, span = pattern._prod, pattern.span
    if p == "PBind":
        if rep.kind == "leaf":
            return [L["Let"](pattern.name, False, L["OpaqueType"](span=span), rep.leaf,
                             span=span)]
        run.state.env[pattern.name], names = _fresh(run, pattern.name, rep, span)
        return [L["Let"](n, False, L["OpaqueType"](span=span), x, span=span)
                for n, x in zip(names, rep.leaves())]
    if p == "PVariant":
        variant = rep.part(pattern.variant)
        return [b for k, sub in enumerate(pattern.args)
                for b in _binds(run, sub, variant.part(k))]
    if p == "POr" and any(_binds(run, a, rep) for a in pattern.alts):
        raise Refused(pattern, "a pattern `|` that binds names")
    return []


def _print(run, node, arg) -> list:
    def printed(value):
        return node.replace(expr=node.expr.replace(args=(value,)))
    rep = _parts(run, arg)
    if rep.kind != "enum":
        return [printed(literal(rep, node))]
    if arg._prod == "EnumValue":
        return [printed(variant_value(rep.name, rep.part(arg.variant), node))]
    return [printed_variants(_settled(run, rep), printed, node)]

"""name-temporaries: Lconstparts -> Lconstparts.

Same IL: each moved value is computed by a `let` of its own just before the statement that
used it, in the order the statement computed it, so the interpreter runs the output as it
ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lconstparts import Lconstparts as L
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.aggregate_types import Shaped, settled
from ..scalars.aggregates import Names, Refused
from ..scalars.constant_values import acting_constants
from ..scalars.function_locals import changed_locals, tensor_locals
from ..values.literals import of_literals
from ..scalars.temporaries import held_aggregate, held_field, holds_statements, \
    queried_temporary, reordered


@dataclass
class State(Shaped):
    pending: list = field(default_factory=list)  # the `let`s to run before this statement
    effects: bool = False  # a call of this statement ran already, in place
    every: bool = False  # every call of this statement is held in a local, in order
    changed: set = field(default_factory=set)  # the locals a call may change: `let mut`s, ..
    tensors: set = field(default_factory=set)  # the locals naming a tensor
    acting: set = field(default_factory=set)  # the constants whose first read may act
    returns: dict = field(default_factory=dict)  # each function -> the type it returns


name_temporaries = Pass("name-temporaries", L, L, """
Give each struct, tuple or enum a call or an `if` makes inside an expression, each `match`
inside one, and each value a `match` is on, a local of its own, computed by a `let` before
the statement (E5010 where that would change when calls run).

`g(f(1))` and `f(1).x` of an `f` returning a struct (a closure too, a `let` binding it to
one whose value is one, or to an `if` choosing among those and such functions) are `let agg = f(1); g(agg)` and `let agg = f(1); agg.x`: what
scalarize-aggregates splits then is only ever a local, a literal, or a call, `if` or `match`
whose value a statement stores; and `match f(1) { .. }` is `let
matched = f(1); match matched { .. }`, which lower-matches tests once per case. A field of
a struct literal written out of its declaration's order is held in a local too when a call
computes it, so that the calls run in the order written. When a call of the statement that stays in place would have run before
the one moved, every call of the statement is held in a local, in the order they ran. Each
part the statement computes before the last `let` it needs is held in a local first, in the
order the interpreter runs them (a call's arguments, an operator's operands, a literal's
parts as written, an element's base then its index, an element assigned located before its
value, its reference then taken into a local first, the reference `*r = v` assigns through
before v; a constant too whose first read computes it, printing or stopping there),
unless nothing a call does can change it: `f(y, g(&mut y), h().x)` is `let ordered =
y; let agg = g(&mut y); let agg#1 = h(); let agg#2 = f(ordered, agg, agg#1.x);`. What
the right of `&&` or `||` computes may not run at all, and a loop's condition runs once per
turn: expand-lazy-conditions wrote one that needs a `let` as the `if` or the loop it means,
and an `if` whose arms hold statements (or give such an `if`) is held in a local of its
own. A `match` whose cases bind no name and give literals alone (`x + match k { 1 => 1 <<
40, _ => 0 }`) stays in place, as an `if` of plain values does, so that its literals take
the other operand's type. Each `transfer`, launch and `try_pin` of such a statement is held in a local with its calls, in order, and an extent
read is taken as what it is, a read (`g(transfer(t, M)[0], f(1).x)` is `let agg = transfer(t,
M); let ordered = agg[0]; let agg#1 = f(1); ..`). What a function called by name returns
whose placement is queried is held too, in a local of the function's result type, so that
decide-placement-queries decides the query from that type (`made().topology() == None` is
`let queried: Tensor<f32, [4], Memory::CPU_DRAM> = made(); queried.topology() == None`),
and so is what a closure's call returns, in a local of no declared type, whose query
flag-assigned-placement-queries finds compared with a query variable (never equal).
A constant whose value would need a `let` (`const X: i32 = make().x + 1;`) is refused and
left as it was: its value has no statements to hold one, and so is one binding a variable
in an `if`'s arm (one of a scalar, a vector, a string or a tensor outline-constant-values
made a function's `let`, and split-computed-constants an aggregate's it splits: what is left
is a reference's, or an aggregate's inline-aggregate-constants refused).
""", state=State)


@name_temporaries.on("Program")
def _program(run, program):
    run.state.enter_program(program)
    run.state.acting = acting_constants(program)
    run.state.returns = {i.name: i.ret for i in program.items if i._prod == "Fn" and i.ret}
    return run.rebuild(program)


@name_temporaries.on("Fn")
def _fn(run, fn):
    st = run.state
    st.enter_function(fn)
    st.changed, st.tensors = changed_locals(fn), tensor_locals(fn)
    try:
        return run.rebuild(fn)
    except Refused as bad:
        refuse(run.ctx.diagnostics, fn.name, bad.node, bad.what)
        return fn


@name_temporaries.on("ConstItem")
def _const(run, const):
    """A constant's value has no statements to hold a `let` in: one that needs a local is
    refused, and left as it was, which the interpreter runs in its place."""
    st = run.state
    st.env, st.names, st.results = {}, Names(const), set()
    st.changed, st.tensors = set(), set()
    saved = st.pending, st.effects, st.every
    st.pending, st.effects, st.every = [], False, False
    try:
        bound = next((n for n in descendants(const) if n._prod == "Let"), None)
        if bound is not None:
            # The passes after this one hold a function's locals, not a constant's.
            raise Refused(bound, "a constant whose value binds a variable (in an `if`'s arm)")
        value = _in_place(run, const.value) if const.value is not None else None
        if st.pending:
            raise Refused(const.value, "a constant whose value needs a local of its own (an "
                                       "aggregate a call makes, a part of which it reads)")
    except Refused as bad:
        refuse(run.ctx.diagnostics, const.name, bad.node, bad.what)
        return const
    finally:
        st.pending, st.effects, st.every = saved
    return const.replace(value=value)


_AFTER = "an aggregate computed after a call of the same statement ran"


def _statement(run, make) -> list:
    """make()'s statements, after the `let`s their expressions need first; made again with
    every call held in a local when one would run out of order."""
    st = run.state
    saved = st.pending, st.effects, st.every
    try:
        for every in (False, True):
            st.pending, st.effects, st.every = [], False, every
            try:
                made = make()
                return [*st.pending, *made]
            except Refused as bad:
                if every or bad.what != _AFTER:
                    raise
    finally:
        st.pending, st.effects, st.every = saved


def _spliced(out) -> list:
    return list(out) if isinstance(out, tuple) else [out]


@name_temporaries.on("Block")
def _block(run, block):
    stmts = []
    for s in block.stmts:
        stmts += _statement(run, lambda s=s: _spliced(run.walk(s)))
    if block.value is None:
        return block.replace(stmts=tuple(stmts))
    held = []
    stmts += _statement(run, lambda: held.append(_in_place(run, block.value)) or [])
    return block.replace(stmts=tuple(stmts), value=held[0])


@name_temporaries.on("Let", "Return", splice=True)
def _valued(run, node):
    if node.value is None:
        return (node,)
    return (node.replace(value=_in_place(run, node.value)),)


@name_temporaries.on("Assign", splice=True)
def _assign(run, node):
    if node.target._prod == "Deref":
        # `*r = v` computes r, the place, before v.
        place, value = _ordered(run, [lambda: run.walk(node.target.value),
                                      lambda: _stored(run, node.value)])
        return (node.replace(target=node.target.replace(value=place), value=value),)
    if node.target._prod != "Index":
        value = (_in_place if node.target._prod == "Local" else _stored)(run, node.value)
        return (node.replace(target=run.walk(node.target), value=value),)
    # An element is located, its tensor then its indices computed and checked, before the
    # value it is given.
    chain = [node.target]
    while chain[-1].base._prod == "Index":
        chain.append(chain[-1].base)
    target = run.walk(chain[-1].base)
    walks = [lambda i=i: run.walk(i.index) for i in reversed(chain)]
    if not _tensor(run, chain[-1].base):  # a raw pointer's: its indices are held instead
        *indices, value = _ordered(run, [*walks, lambda: _stored(run, node.value)])
        for place, index in zip(reversed(chain), indices):
            target = place.replace(base=target, index=index)
        return (node.replace(target=target, value=value),)
    indices = _ordered(run, walks)
    at = len(run.state.pending)
    value = _stored(run, node.value)
    for place, index in zip(reversed(chain), indices):
        target = place.replace(base=target, index=index)
    if len(run.state.pending) > at:
        # The value's `let`s run after: the reference is taken first (a stop locating it is
        # the assignment's, as in the interpreter).
        held = _held(run, L["Borrow"](target, True, span=node.span), at, "ordered")
        target = L["Deref"](held, span=target.span)
    return (node.replace(target=target, value=value),)


@name_temporaries.on("ExprStmt", splice=True)
def _expr_stmt(run, node):
    return (node.replace(expr=_in_place(run, node.expr)),)


def _stored(run, e):
    """e, the value an assignment stores in an element, a field or through a reference: an
    `if` whose arms hold statements is held in a local first, as only a variable's value may
    be one."""
    out = _in_place(run, e)
    if holds_statements(out):
        return _held(run, out, len(run.state.pending), "cond")
    return out


def _tensor(run, place) -> bool:
    """Whether place is a tensor a variable names, or a reference to one: an element of it
    is what a reference names."""
    while place._prod == "Deref":
        place = place.value
    return place._prod == "Local" and place.name in run.state.tensors


def _in_place(run, e):
    """e, the whole value of its statement, which stores it where it goes: a call, or an `if`
    making an aggregate, stays, and its parts are walked; so does a `match`, its scrutinee
    named."""
    if e._prod == "MatchValue":
        out = _matched(run, e)
    elif _moved(e) or held_aggregate(run.state, e):
        out = _in_order(run, e)
    elif e._prod == "IfExpr":
        return _in_order(run, e)  # the `let`s its arms need run in them
    else:
        return run.walk(e)
    run.state.effects = True
    return out


def _temp(run, x, made, base="agg", type=None):
    """A read of a new local holding `made` (x's walked form), its `let` run first."""
    if run.state.effects:
        raise Refused(x, _AFTER)
    return _held(run, made, len(run.state.pending), base, type)


def _held(run, value, at: int, base: str, type=None):
    """A read of a new local, its `let` of `value` (of `type` when it is known) run at `at`
    in the statement's `let`s."""
    name = run.state.names.fresh(base)
    run.state.pending.insert(at, L["Let"](name, False, type or L["OpaqueType"](span=value.span),
                                          value, span=value.span))
    return L["Local"](name, span=value.span)


def _parts(e) -> list:
    """e's expressions, in the order the interpreter runs them: its fields' order, a struct
    literal's as written."""
    return [x.value if x._prod == "FieldInit" else x
            for f in L.productions[e._prod][1].fields if f.kind in ("Expr", "FieldInit")
            for x in (getattr(e, f.name) if f.mult == "*" else (getattr(e, f.name),))
            if x is not None]


def _in_order(run, e, part=None):
    """e rebuilt, its parts walked in order by `part`, and held in locals as `_ordered` holds
    them."""
    # A tensor indexed is not copied: its element is read once the index is computed.
    place = e._prod == "Index" and all(n._prod in _PLACES for n in descendants(e.base))
    values = iter(_ordered(run, [lambda x=x: (part or run.walk)(x) for x in _parts(e)],
                           1 if place else 0))

    def put(f, x):
        if x is None or not hasattr(x, "_prod"):
            return x
        if f.kind == "FieldInit":
            return x.replace(value=next(values))
        return next(values) if f.kind == "Expr" else run.walk(x)
    return e.replace(**{f.name: tuple(put(f, x) for x in getattr(e, f.name)) if f.mult == "*"
                        else put(f, getattr(e, f.name)) for f in L.productions[e._prod][1].fields})


def _ordered(run, walks, places: int = 0) -> list:
    """What each of `walks` gives, the parts of a statement in the order it runs them; each
    part that runs before a later one's `let`s is held in a local just before those, so that
    what it reads is read before a call they run changes it, but the first `places`, which
    name places read later."""
    st = run.state
    values, ends = [], []
    for walk in walks:
        values.append(walk())
        ends.append(len(st.pending))
    last = max((i for i in range(1, len(ends)) if ends[i] > ends[i - 1]), default=0)
    inserted = 0
    for i in range(places, last):
        if not _unchanged(run, values[i]):
            values[i] = _held(run, values[i], ends[i] + inserted, "ordered")
            inserted += 1
    return values


_PLACES = ("Local", "FieldGet", "TupleGet", "Deref")


def _unchanged(run, e) -> bool:
    """Whether no call can change what e computes: literals (an option of a topology too),
    functions and constants (but one whose first read may print or stop, which must come
    where it came), a
    local no one assigns or lends `&mut` (those this pass makes), a closure (it reads its variables when called), a reference to a
    variable or its field, and what only combines those (a new tensor too: nothing can
    reach it before it is made)."""
    p = e._prod
    if p == "Local":
        return e.name not in run.state.changed
    if p == "Borrow":
        return all(n._prod in ("Local", "FieldGet", "TupleGet") for n in descendants(e.value))
    if p in ("Binary", "Unary", "Cast", "FieldGet", "TupleGet", "Tuple", "EnumValue",
             "StructLit", "VariantField", "VariantIs", "TensorNew", "TensorLit", "ArrayLit",
             "VecLit", "Splat"):
        return not (p == "Binary" and e.op in ("&&", "||")) and \
            all(_unchanged(run, x) for x in _parts(e))
    if p == "Global":  # a constant computed at its first read, which may print or stop
        return e.name not in run.state.acting
    return p in ("Int", "Float", "Bool", "Str", "Closure", "SomeTopo", "NoneTopo")


_MOVED = ("Call", "Launch", "Transfer")


@name_temporaries.on("Call", "IfExpr", "Launch", "Transfer")
def _call(run, e):
    st = run.state
    before = st.effects
    out = _in_order(run, e)
    if _moved(e) and st.every or held_aggregate(st, e):
        st.effects = before  # what the call computes moves with it
        return _temp(run, e, out)
    if holds_statements(out):
        # An `if` with statements in its arms is a statement's value, not a part of one.
        st.effects = before
        return _temp(run, e, out, "cond")
    st.effects = st.effects or _moved(e)
    return out


@name_temporaries.on("MethodCall")
def _method(run, e):
    if not queried_temporary(e):
        return _call(run, e)
    # The value queried is held, and its query is a variable's: native code holds no
    # placement, but decides a variable's from its type, the function's result.
    st = run.state
    before = st.effects
    call = _in_order(run, e.receiver)
    st.effects = before  # what the call computes moves with it
    held = _temp(run, e.receiver, call, "queried", st.returns.get(e.receiver.callee.name))
    return e.replace(receiver=held)


def _moved(e) -> bool:
    """Whether e runs a function, copies a tensor or takes a pin: what a later call moved
    before the statement would run after. (`t.extent(0)` and `t.topology()` only read.)"""
    return e._prod in _MOVED or e._prod == "MethodCall" and e.method == "try_pin"


def _matched(run, e):
    """The `match` e with its scrutinee a read of locals, or a literal, and its cases walked."""
    st = run.state
    before = st.effects
    scrutinee = run.walk(e.scrutinee)
    if not settled(scrutinee):
        st.effects = before
        scrutinee = _temp(run, e.scrutinee, scrutinee, "matched")
    return e.replace(scrutinee=scrutinee, cases=tuple(run.walk(c) for c in e.cases))


@name_temporaries.on("MatchValue")
def _match(run, e):
    st = run.state
    before = st.effects
    out = _matched(run, e)
    if all(_plain_case(c) for c in e.cases):
        return out  # an `if` chain of plain values, whose literals its operand types
    st.effects = before  # its `if` chain needs statements of its own: a `let`
    return _temp(run, e, out)


def _plain_case(case) -> bool:
    """A case binding no name whose value is unsuffixed literals alone: `1 => 1 << 41`."""
    return (not case.body.stmts and case.body.value is not None
            and of_literals(case.body.value) and not _binds_names(case.pattern))


def _binds_names(pattern) -> bool:
    return pattern._prod == "PBind" or any(
        _binds_names(a) for a in getattr(pattern, "alts", ()) + getattr(pattern, "args", ()))


@name_temporaries.on("StructLit")
def _struct(run, e):
    if not reordered(run.state, e):
        return _in_order(run, e)

    # scalarize-aggregates computes the fields in the declaration's order.
    def field(x):
        before = run.state.effects
        value = run.walk(x)
        if not held_field(run.state, x):
            return value
        run.state.effects = before  # its calls move with it
        return _temp(run, x, value)
    return _in_order(run, e, field)


@name_temporaries.on("Index", "Tuple", "ArrayLit", "EnumValue", "VecLit", "TensorLit",
                     "TensorNew", "Jvp", "Vjp")
def _parted(run, e):
    return _in_order(run, e)


# expand-lazy-conditions wrote each condition this pass would name a part of before its
# statement, though it may not run, as the `if` or the loop it means.
_LAZY = "a condition whose aggregate would be computed where the condition may not run"


@name_temporaries.on("While")
def _while(run, node):
    cond = _alone(run, node.cond)
    if cond is None:
        raise Refused(node.cond, _LAZY)
    return node.replace(cond=cond, body=run.walk(node.body))


@name_temporaries.on("Binary")
def _binary(run, e):
    if e.op not in ("&&", "||"):
        return _in_order(run, e)
    left = run.walk(e.left)
    right = _alone(run, e.right)
    if right is None:
        raise Refused(e.right, _LAZY)
    return e.replace(left=left, right=right)


def _alone(run, e):
    """e walked, or None when it needs a `let` first: it may run other than once, so the
    `let` cannot go before its statement."""
    st = run.state
    saved = len(st.pending), st.effects, st.names.mark()
    every, st.every = st.every, False
    try:
        out = run.walk(e)
    except Refused as bad:
        if bad.what != _AFTER:
            raise
        out = None
    finally:
        st.every = every
    if out is None or len(st.pending) != saved[0]:
        del st.pending[saved[0]:]
        st.effects = saved[1]
        st.names.undo(saved[2])
        return None
    return out

"""name-borrowed-temporaries: Lconstparts -> Lconstparts.

Same IL: each value borrowed is computed by a `let` of its own just before the statement that
borrowed it, where that computes it in the same order, so the interpreter runs the output as
it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lconstparts import Lconstparts as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.constant_values import acting_constants
from ..scalars.function_locals import assigned_locals, lent_locals, tensor_locals

SIMPLE = ("Local", "Global", "Int", "Float", "Bool", "Str")
# What a borrow names in place: a variable, what a reference points at, an element, a field.
PLACES = ("Local", "Deref", "Index", "FieldGet", "TupleGet")
# Expressions whose parts do not all run, or run later: nothing is taken out of them.
OPAQUE = ("IfExpr", "Match", "MatchValue", "Closure", "Unsafe")
CALLS = ("Call", "Launch", "MethodCall", "Transfer")
# The part of an opaque expression that runs first, and always: its temporaries are named as
# the statement's (those of its arms are named in the arms' blocks, where they run).
_FIRST = {"IfExpr": "cond", "Match": "scrutinee", "MatchValue": "scrutinee"}


@dataclass
class State:
    names: Names | None = None
    lent: set = field(default_factory=set)  # the locals a call may change
    assigned: set = field(default_factory=set)  # the locals the statement assigns
    tensors: set = field(default_factory=set)  # the locals naming a tensor
    before: list | None = None  # the `let`s of the statement being walked
    simple: bool = True  # what the statement ran so far is names and literals
    acting: set = field(default_factory=set)  # the constants whose first read may act
    pure: bool = True  # what the statement ran so far calls nothing (nor holds an `if`)
    read: set = field(default_factory=set)  # the locals the statement read so far


name_borrowed_temporaries = Pass("name-borrowed-temporaries", L, L, """
Give each value a `&` or a `&mut` borrows that is not a variable, an element or a field (a
temporary) a local of its own, computed by a `let` before the statement (a `let mut` for a
`&mut`), so that the reference names a variable's cell, which native code lowers.

`print(sum(&(x + 1), &x))` is `let borrowed = x + 1; print(sum(&borrowed, &x))`. A temporary is
named only when what its statement runs before it is names and literals (none of them a
variable a call may change, when the temporary calls), or calls nothing (and holds no `if` or
`match`) and the temporary calls nothing either, so that the statement still runs its parts in
the order written. Where one would then stay in place after a call, every
part the statement computes before its last temporary is held in a local first, in the order
it runs them: `add(twice(x), &twice(x + 1))` is `let ordered = twice(x); let borrowed =
twice(x + 1); add(ordered, &borrowed)`, and a call borrowing one before a later one is held
too, once its own are named (`id(&f(1)) + g(2, &f(3))` is `let borrowed = f(1); let ordered =
id(&borrowed); let ordered#1 = ..`). An element borrowed at an index the statement computes
is borrowed there, into a local of its own (`let ordered = &t[i + 1];`), so its index is
computed and checked where it was; a closure made there stays in place, as it reads its
variables only when it is called; so does the callee of a call through a closure variable no
call can assign (none lends it `&mut` and no closure assigns it) and the statement does not,
and one a call may assign is held in a local first, as the interpreter reads it before the
arguments (`f(swap(1) + id(&twice(2)))` is `let callee = f; let ordered = swap(1); ..`). An
assignment locates the element it writes, or computes the reference
`*r = v` writes through, before its value, and names its temporaries among those parts:
`t[i] = g(1, &g(2, &x))` after nothing else is `let ordered = &mut t[i]; let borrowed = g(2,
&x); *ordered = g(1, &borrowed)`, so an index out of the tensor stops before g runs. The right of `&&` or `||` may not run: a short circuit
borrowing a temporary there is named as the `if` it means, whose arm names the temporary
where it runs, so `a && g(&f())` is `let cond = if a { let borrowed = f(); g(&borrowed) }
else { false }`. An arm of an `if` or a `match` is a block, whose statements and value name
their temporaries at its start, only when it runs; an `if`'s condition and a `match`'s
scrutinee run first, and name theirs as their statement's. An `if` inside a larger
expression whose arm borrows one is then held in a local of its own where it ran (`1 + if c {
f(&g()) } else { 0 }` is `let cond = if c { let borrowed = g(); f(&borrowed) } else { 0 }; 1 +
cond`): only a statement's whole value may have statements in its arms. A `while`'s condition runs once a
turn: one borrowing a temporary is `while true { if !cond { break; } body }`, whose `if` names
it at the top of each turn (where a `continue` goes back to). One after a call that cannot be
ordered so stays in place (the native-code gate refuses it): in an index of a tensor the
statement computes, or after a launch on a unit it computes. A constant whose first read
computes it, printing or stopping (its value calls or may stop), is read as a call runs: a
temporary after it is named only with the read held first (`let ordered = X;`). A
constant's value, which has no statements, is left as it is.
""", state=State)


@name_borrowed_temporaries.on("Fn")
def _fn(run, fn):
    st = run.state
    st.names, st.lent, st.tensors = Names(fn), lent_locals(fn), tensor_locals(fn)
    return run.rebuild(fn)


@name_borrowed_temporaries.on("Program")
def _program(run, program):
    run.state.acting = acting_constants(program)
    return run.rebuild(program)


@name_borrowed_temporaries.on("ConstItem")
def _const(run, item):
    """A constant's value has no statements to hold a `let` in: it is left as it is, a
    temporary it borrows the native-code gate's to refuse."""
    return item


@name_borrowed_temporaries.on("Let", "Return", "ExprStmt", "If", splice=True)
def _statement(run, node):
    slot = {"ExprStmt": "expr", "If": "cond"}.get(node._prod, "value")
    value = getattr(node, slot)
    if value is None:
        return (run.rebuild(node),)
    before, value = _lets(run, value)
    return (*before, run.rebuild(node.replace(**{slot: value})))


@name_borrowed_temporaries.on("Assign", splice=True)
def _assign(run, node):
    """An assignment locates the element it writes (its indices computed and checked), or
    computes the reference `*r = v` writes through, before its value (the other places it
    writes, after it): its temporaries are named among those parts, in that order, the
    element's reference taken into a local first when one is named after it."""
    target, span = node.target, node.span
    # A stop locating the element is the assignment's, as in the interpreter.
    root = target
    while root._prod in ("Index", "Deref"):
        root = root.value if root._prod == "Deref" else root.base
    if target._prod == "Index" and not (root._prod == "Local" and root.name in run.state.tensors):
        return (run.rebuild(node),)  # a raw pointer's element: nothing is named
    first = L["Borrow"](target, True, span=span) if target._prod == "Index" else \
        target.value if target._prod == "Deref" and \
        not all(n._prod in _NAMED for n in descendants(target.value)) else None
    if first is None:  # only a variable's value may be an `if` whose arms hold statements
        before, value = _lets(run, node.value, target._prod == "Local")
        return (*before, run.rebuild(node.replace(value=value)))
    before, parts = _lets(run, L["Tuple"]((first, node.value), span=span))
    place, value = parts.elems
    if target._prod == "Deref":
        target = target.replace(value=place)
    else:
        target = L["Deref"](place, span=target.span) if place._prod == "Local" else place.value
    return (*before, run.rebuild(node.replace(target=target, value=value)))


@name_borrowed_temporaries.on("While")
def _while(run, loop):
    """A condition borrowing a temporary is computed each turn at the top of the body, where
    its temporary is named: `while c { B }` is `while true { if !c { break; } B }`, to whose
    top a `continue` still goes."""
    if not _temporaries(loop.cond, True):
        return run.rebuild(loop)
    span = loop.cond.span
    leave = L["If"](L["Unary"]("!", loop.cond, span=span), False,
                    L["Block"]((L["Break"](span=span),), None, span=span), None, span=span)
    body = loop.body.replace(stmts=(leave, *loop.body.stmts))
    return run.rebuild(loop.replace(cond=L["Bool"](True, span=span), body=body))


@name_borrowed_temporaries.on("Block")
def _block(run, block):
    """A block's value: its temporaries are named after the block's statements."""
    if block.value is None:
        return run.rebuild(block)
    before, value = _lets(run, block.value)
    walked = run.rebuild(block.replace(value=None))
    return walked.replace(stmts=(*walked.stmts, *before), value=run.walk(value))


def _lets(run, value, top: bool = True) -> tuple:
    """The `let`s of the temporaries `value` (a statement's whole value when `top`) borrows,
    and `value` borrowing their locals."""
    st = run.state
    st.before, st.simple, st.pure, st.read = [], True, True, set()
    st.assigned = assigned_locals(value)
    mark = st.names.mark()
    named = _named(run, value, top)
    if _temporaries(named, top):
        st.names.undo(mark)
        lets = []
        try:
            named = _in_order(run, value, [_temporaries(value, top)], lets, top)
            st.before = lets
        except _Unordered:
            st.names.undo(mark)
            st.before, st.simple, st.pure, st.read = [], True, True, set()
            named = _named(run, value, top)
    return tuple(b.replace(value=run.walk(b.value)) for b in st.before), named


def _temporaries(e, top: bool = False) -> int:
    """How many temporaries e, a statement's whole value when `top`, borrows where it runs:
    not those of an arm of an `if` or a `match`, or of a closure's or an `unsafe` block's
    body, which their blocks name; but an `if` inside e whose arms borrow one counts as one,
    as it is held in a local of its own."""
    if e._prod in OPAQUE:
        first = _FIRST.get(e._prod)
        inner = _temporaries(getattr(e, first)) if first else 0
        return inner + (not top and _armed(e))
    own = e._prod == "Borrow" and e.value._prod not in PLACES
    return own + sum(_temporaries(c) for name in e._fields
                     for c in _nodes(getattr(e, name)))


def _armed(e) -> bool:
    """Whether e is an `if` an arm of which borrows a temporary: named at the start of the
    arm, it gives the `if` statements, which only a statement's whole value may hold."""
    return e._prod == "IfExpr" and any(n._prod == "Borrow" and n.value._prod not in PLACES
                                       for arm in (e.then, e.orelse) for n in descendants(arm))


def _nodes(child) -> tuple:
    """The nodes a field holds."""
    return tuple(c for c in child if hasattr(c, "_prod")) if isinstance(child, tuple) \
        else (child,) if hasattr(child, "_prod") else ()


class _Unordered(Exception):
    """A part a statement computes before a temporary that cannot be held in a local first."""


# What holds a temporary and computes its parts in the order of its fields, each its own value.
_IN_ORDER = ("Call", "Binary", "Unary", "Cast", "Tuple", "EnumValue", "ArrayLit", "MethodCall",
             "Transfer", "Launch", "Deref", "FieldGet", "TupleGet", "VecLit", "Splat", "TensorLit",
             "TensorNew")
# A place whose cell nothing the statement computes locates: named later, it is the same cell.
_NAMED = ("Local", "Deref", "FieldGet", "TupleGet")


def _in_order(run, e, left: list, lets: list, top: bool = False):
    """e (a statement's whole value when `top`) with each temporary it borrows named, and
    each part it computes before the last of them (left[0] are still to come) held in a
    local first, their `let`s appended to `lets` in the order e runs them."""
    if not left[0]:
        return e
    p = e._prod
    if p == "Borrow" and e.value._prod not in PLACES:
        value = _in_order(run, e.value, left, lets) if _temporaries(e.value) else e.value
        left[0] -= 1
        return e.replace(value=_held(run, value, lets, "borrowed", e.mutable))
    if p == "Borrow":
        if all(n._prod in _NAMED for n in descendants(e.value)):
            return e
        borrowed = e.replace(value=_located(run, e.value, left, lets))
        if not left[0]:
            return borrowed
        # The element is located, its index checked, where the borrow runs: the reference is
        # taken there, into a local of its own.
        return _held(run, borrowed, lets, "ordered", False)
    if p == "Closure":  # made, it reads its variables only when it is called
        return e
    if not _temporaries(e):
        if p in SIMPLE and p != "Local" and not (p == "Global" and e.name in run.state.acting):
            return e  # a literal, or a function or constant (read where it is, no effect)
        return _held(run, e, lets, "ordered", False)
    if p == "StructLit":
        return e.replace(fields=tuple(f.replace(value=_in_order(run, f.value, left, lets))
                                      for f in e.fields))
    if p == "Binary" and e.op in ("&&", "||"):
        left[0] -= _temporaries(e.right)  # named in the arm, where they run
        first = _in_order(run, e.left, left, lets) if _temporaries(e.left) else e.left
        return _held(run, _explicit(e.replace(left=first)), lets, "cond", False)
    if p == "Index":  # a tensor indexed is not copied: its element is read where it was
        return _located(run, e, left, lets)
    if p in _FIRST:  # its condition or scrutinee runs first; its arms name their own
        first = getattr(e, _FIRST[p])
        e = e.replace(**{_FIRST[p]: _in_order(run, first, left, lets) if _temporaries(first)
                         else first})
        if top:
            return e
        if _armed(e):
            left[0] -= 1
            return _held(run, e, lets, "cond", False)
        # Its arms run before the temporaries after it, which are named before the statement.
        return _held(run, e, lets, "ordered", False) if left[0] else e
    if p not in _IN_ORDER or \
            p == "Call" and e.callee._prod not in ("Global", "Local") or \
            p == "Launch" and any(n._prod not in ("TopoRef", "Int") for n in descendants(e.topo)):
        raise _Unordered
    fields = {}
    if p == "Call" and e.callee._prod == "Local" and \
            e.callee.name in run.state.lent | run.state.assigned:
        # The interpreter reads the closure variable before the arguments, which may assign it.
        fields["callee"] = _held(run, e.callee, lets, "callee", False)
    for name in e._fields:
        child = getattr(e, name)
        if isinstance(child, tuple):
            fields[name] = tuple(_in_order(run, c, left, lets) if _is_expr(c) else c
                                 for c in child)
        elif _is_expr(child) and name != "callee":
            fields[name] = _in_order(run, child, left, lets)
    if p in CALLS and left[0]:
        # It runs before the temporaries after it, which are named before the statement.
        return _held(run, e.replace(**fields), lets, "ordered", False)
    return e.replace(**fields)


def _located(run, place, left: list, lets: list):
    """place, an element of a tensor a variable names, with the temporaries its indices borrow
    named in the order they run."""
    if place._prod != "Index":
        if any(n._prod not in _NAMED for n in descendants(place)):
            raise _Unordered  # a tensor the statement computes
        return place
    base = _located(run, place.base, left, lets)
    index = _in_order(run, place.index, left, lets) if _temporaries(place.index) else place.index
    return place.replace(base=base, index=index)


def _explicit(e):
    """`a && b` as the `if` it means, `if a { b } else { false }` (`a || b` as `if a { true }
    else { b }`): its arm names the temporaries b borrows, only when b runs."""
    def arm(x):
        return L["Block"]((), x, span=x.span)
    constant = L["Bool"](e.op == "||", span=e.span)
    then, orelse = (e.right, constant) if e.op == "&&" else (constant, e.right)
    return L["IfExpr"](e.left, False, arm(then), arm(orelse), span=e.span)


def _calls(e) -> bool:
    """Whether e may call (or holds what the statement's order cannot see into)."""
    return any(n._prod in CALLS or n._prod in OPAQUE for n in descendants(e))


def _held(run, value, lets: list, base: str, mutable: bool):
    """A read of a new local, its `let` of `value` appended to `lets`."""
    name = run.state.names.fresh(base)
    lets.append(L["Let"](name, mutable, L["OpaqueType"](span=value.span), value,
                         span=value.span))
    return L["Local"](name, span=value.span)


def _named(run, e, top: bool = False):
    """e (a statement's whole value when `top`) with the temporaries it borrows named, in the
    order it runs them; what it runs is then what the statement has run."""
    st = run.state
    if e._prod == "Borrow" and e.value._prod not in PLACES:
        ran, st.pure = (st.simple, st.pure), True
        value = _named(run, e.value)
        calls = not st.pure
        # One holding a temporary it could not name stays, for the order to name both.
        if not (_first(run, ran[0], calls) or ran[1] and not calls) or _temporaries(value):
            st.simple, st.pure = False, ran[1] and not calls
            return e.replace(value=value)
        # It runs before the rest of the statement now: what that has run is as it was.
        st.simple, st.pure = ran
        name = st.names.fresh("borrowed")
        st.before.append(L["Let"](name, e.mutable, L["OpaqueType"](span=e.span), value,
                                  span=e.span))
        return e.replace(value=L["Local"](name, span=e.value.span))
    if e._prod == "Binary" and e.op in ("&&", "||"):
        ran = st.simple, st.pure
        left = _named(run, e.left)
        if _temporaries(e.right) and not _temporaries(left) and \
                (_first(run, ran[0], _calls(e)) or ran[1] and not _calls(e)):
            # It runs before the rest of the statement now: what that has run is as it was.
            st.simple, st.pure = ran
            return _held(run, _explicit(e.replace(left=left)), st.before, "cond", False)
        st.simple = st.pure = False  # the right may not run: taken as if it called
        return e.replace(left=left)
    if e._prod in OPAQUE:
        ran = st.simple, st.pure
        first = _FIRST.get(e._prod)
        named = e.replace(**{first: _named(run, getattr(e, first))}) if first else e
        if not top and _armed(named) and not _temporaries(named.cond) and \
                _first(run, ran[0], True):
            # It runs before the rest of the statement now: what that has run is as it was.
            st.simple, st.pure = ran
            return _held(run, named, st.before, "cond", False)
        st.simple = st.pure = False
        return named
    fields = {}
    for name in e._fields:
        child = getattr(e, name)
        if isinstance(child, tuple):
            fields[name] = tuple(_named(run, c) if _is_expr(c) else c for c in child)
        elif _is_expr(child):
            fields[name] = _named(run, child)
    # A constant whose first read may print or stop runs as a call would, there.
    acts = e._prod == "Global" and e.name in st.acting
    st.simple = st.simple and e._prod in SIMPLE and not acts
    st.pure = st.pure and e._prod not in CALLS and not acts
    if e._prod == "Local":
        st.read.add(e.name)
    return e.replace(**fields) if fields else e


def _first(run, simple: bool, calls: bool) -> bool:
    """Whether what may call can run before the rest of its statement ran (`simple`: names
    and literals): no variable read before it is one a call may change."""
    st = run.state
    return simple and not (calls and st.read & st.lent)


def _is_expr(node) -> bool:
    return hasattr(node, "_prod") and node._prod in L.productions \
        and L.productions[node._prod][0].name == "Expr"

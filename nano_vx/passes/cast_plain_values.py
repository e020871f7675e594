"""cast-plain-values: Lsplit -> Lsplit.

Same IL: each use of a plain value is cast to the type the interpreter converts it to there,
so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, child_nodes, descendants
from ..scalars import infer_program
from ..scalars.plain_locals import plain_locals, retyped_plain_local, settled_cast


@dataclass
class State:
    opening: bool = True  # the first walk opens each use; the second casts it as decided
    plain: set = field(default_factory=set)  # the plain locals of the function walked
    plains: dict = field(default_factory=dict)  # function name -> its plain locals
    decided: dict = field(default_factory=dict)  # id() of an open cast's type -> its target
    own: dict = field(default_factory=dict)  # id() of an open cast's type -> the value's type


cast_plain_values = Pass("cast-plain-values", L, L, """
Make each use of a value the interpreter holds as a plain i32 or f64 that meets another type
a cast to that type, in a function native code's inference refuses otherwise, or would type
such a local by a later use as another type where that shows (`let y: i64 = k;` beside `k *
1000000000`, which wraps in i32 as the interpreter computes it): a local of no
written type given only such values (`let k = 9;`, `let y = k;`), one of type i32 or f64 (a
part of a tuple scalarize-aggregates split), a loop's variable counting between them, a
tuple literal's element of literals (`(1000000 * 10000, 0.5).0`, cast to the i32 it is).

The interpreter holds such a value as the i32 (or f64) its literals make it, and converts it
to the type of what it meets, as `as` does (an integer wraps, a float rounds): the variable
it is given (`let y: i64 = k;`), the other operand, the parameter it is passed as. Native
code's inference gives a variable one type for all its uses, so it refuses a function whose
uses of one want different types (E5010), and the gate refuses one whose plain local it
would type otherwise (`let y: i64 = k;` makes k an i64), but for a local only given
literals that type holds and never computed with (scalars/plain_locals.py). Here each use is first cast to a type the
inference decides (`k as _`), the value keeping the type of its literals; where a use meets
another type than the value's, the cast is written (`let y: i64 = k as i64;`), and where it
meets the same, dropped. A function the inference (and the gate) types as it is, or still
refuses after, keeps its form, and so does one where such a use meets another type as an operand of
arithmetic on plain values (`let y: i64 = k * j;`, `-k`, `k << n`) or through a closure's
parameter or result (`let q: i64 = h(k);`), which the interpreter computes in i32 (or f64)
before converting the result, where the casts would compute it in the i64, or where a plain
local would still be of another type.
""", state=State)


@cast_plain_values.on("Program")
def _program(run, program):
    refused = set(infer_program(program, plain=True).refused)
    fns = {item.name for item in program.items if item._prod == "Fn" and item.name in refused}
    opened = {i.name: run.walk(i) for i in program.items if getattr(i, "name", None) in fns}
    while fns:  # drop each function opening does not let native code keep as it is
        trial = infer_program(program.replace(items=tuple(
            opened[i.name] if getattr(i, "name", None) in fns else i for i in program.items)),
            plain=True)
        if not set(trial.refused) <= refused:
            return program
        kept = {name for name in fns - set(trial.refused)
                if _kept(run.state, opened[name], trial.items[name].solved())}
        if kept == fns:
            break
        fns = kept
    if not fns:
        return program
    run.state.opening = False
    return program.replace(items=tuple(run.walk(opened[i.name]) if getattr(i, "name", None)
                                       in fns else i for i in program.items))


def _kept(st, fn, solved: dict) -> bool:
    """Whether the opened fn, of the `solved` types, computes as the interpreter does: its
    plain locals of their own types, and each open cast that converts converting as the
    interpreter does; notes each cast's decision."""
    if retyped_plain_local(fn, solved, st.plains[fn.name]) is not None:
        return False
    parents = {id(c): n for n in descendants(fn) for c in child_nodes(n)}
    untyped = {p.name for n in descendants(fn) if n._prod == "Closure"
               for p in n.params if p.type is None}
    for cast in descendants(fn):
        if cast._prod == "Cast" and cast.type._prod == "OpaqueType":
            # the inference notes a cast's source at the cast, its target at its type
            st.decided[id(cast.type)] = solved[id(cast.type)]
            st.own[id(cast.type)] = solved[id(cast)]
            if st.decided[id(cast.type)] != st.own[id(cast.type)] and \
                    not _converted_alone(cast, parents, untyped):
                return False
    return True


def _converted_alone(cast, parents: dict, untyped: set) -> bool:
    """Whether the interpreter converts the plain value the open `cast` is given where it
    meets its context, as the cast does: not where it is an operand of arithmetic on plain
    values (a literal, another such value, an `if`, arithmetic, a closure's call or a
    closure's parameter of no written type, `untyped`, that may give one), or shifted,
    which the interpreter computes in i32 (or f64) first, nor negated, which it negates
    so, nor a closure's result or argument (or a kernel's), which the interpreter converts
    only where the call's result, or the parameter, meets a type."""
    node = cast
    while True:
        parent = parents.get(id(node))
        p = parent._prod if parent is not None else None
        if p == "Block" and parent.value is node or p in ("IfExpr", "Unsafe"):
            node = parent  # an arm's value, or an `unsafe` block's: what the `if` gives
            continue
        if p in ("Closure", "Launch") or p == "Return" and _in_closure(parent, parents) or \
                p == "Call" and parent.callee._prod == "Local":
            return False
        if p == "Unary":
            return parent.op not in ("-", "!")
        if p == "Binary" and parent.op in ("<<", ">>"):
            return parent.right is node  # a shift is of its left's type: the plain i32
        if p == "Binary" and parent.op not in ("&&", "||"):
            other = parent.right if parent.left is node else parent.left
            return other._prod in _TYPED and not (other._prod == "Cast" and
                                                   other.type._prod == "OpaqueType") and \
                not (other._prod == "Call" and other.callee._prod == "Local") and \
                not (other._prod == "Local" and other.name in untyped)
        return True


def _in_closure(node, parents: dict) -> bool:
    while node is not None and node._prod != "Closure":
        node = parents.get(id(node))
    return node is not None


# Operands of a type of their own: a plain value meeting one is converted to it.
_TYPED = ("Local", "Global", "Call", "Index", "Cast", "MethodCall", "Deref", "Extent")


@cast_plain_values.on("Fn")
def _fn(run, fn):
    if run.state.opening:
        run.state.plain = run.state.plains[fn.name] = plain_locals(fn)
    return run.rebuild(fn)


@cast_plain_values.on("Local")
def _local(run, node):
    if run.state.opening and node.name in run.state.plain:
        return L["Cast"](node, L["OpaqueType"](span=node.span), span=node.span)
    return node


@cast_plain_values.on("Borrow", "Transfer")
def _place(run, node):
    # A local borrowed or moved is a place, not a value its use converts.
    return node if node.value._prod == "Local" else run.rebuild(node)


@cast_plain_values.on("Assign")
def _assign(run, node):
    # so is a local assigned
    if node.target._prod != "Local":
        return run.rebuild(node)
    return node.replace(value=run.walk(node.value))


@cast_plain_values.on("Cast")
def _cast(run, node):
    st = run.state
    if st.opening:
        node = run.rebuild(node)
        return L["Cast"](node, L["OpaqueType"](span=node.span), span=node.span) \
            if settled_cast(node) else node
    if node.type._prod != "OpaqueType":
        return run.rebuild(node)
    value = run.walk(node.value)
    target = st.decided[id(node.type)]
    if target == st.own[id(node.type)]:
        return value
    return L["Cast"](value, L["Scalar"](target, span=node.span), span=node.span)

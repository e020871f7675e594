"""cast-plain-values: Lsplit -> Lsplit.

Same IL: each use of a plain value is cast to the type the interpreter converts it to there,
so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars import infer_program
from ..scalars.literal_hints import UNFIXED
from ..scalars.plain_locals import plain_locals, plain_parameters, retyped_plain_local
from ..scalars.plain_units import Contexts


@dataclass
class State:
    opening: bool = True  # the first walk opens each unit; the second casts it as decided
    plains: dict = field(default_factory=dict)  # function name -> its plain locals
    params: dict = field(default_factory=dict)  # function name -> its plain closure parameters
    solved: dict = field(default_factory=dict)  # function name -> its types as the program is
    seeding: bool = False  # closures' parameters every call gives a plain value are plain
    fns: dict = field(default_factory=dict)  # function name -> its Fn
    units: set = field(default_factory=set)  # id() of each unit of the function walked
    decided: dict = field(default_factory=dict)  # id() of an open cast's type -> its target
    own: dict = field(default_factory=dict)  # id() of an open cast's type -> the value's type


cast_plain_values = Pass("cast-plain-values", L, L, """
Make each value the interpreter computes as a plain i32 or f64 that meets another type a
cast to that type, in a function native code's inference refuses otherwise, or would type
such a local by a later use as another type where that shows (`let y: i64 = k;` beside `k *
1000000000`, which wraps in i32 as the interpreter computes it): a local of no
written type given only such values (`let k = 9;`, `let y = k;`), one of type i32 or f64 (a
part of a tuple scalarize-aggregates split), a loop's variable counting between them, a
tuple literal's element of literals (`(1000000 * 10000, 0.5).0`, cast to the i32 it is),
and arithmetic, a shift or an `if` on those, cast as a whole (`let y: i64 = (k * j) as
i64;`), and a closure's call on them (`h(k) as i64`, the `let`s of its body of no written
type given such values holding them too: `|q| { let m = q * 2; m * 1000000000 }`).

The interpreter holds such a value as the i32 (or f64) its literals make it, and converts it
to the type of what it meets, as `as` does (an integer wraps, a float rounds): the variable
it is given (`let y: i64 = k;`), the other operand, the parameter it is passed as.
Arithmetic between such values, and with the literals their context gives no type (an
operand of a comparison, a closure's body, an assignment's value but an operator of
literals alone), it computes in i32 (or f64) before the result meets another type; a literal
a `let`, a parameter or a result types is of that type, and so is what meets it (`let z:
i64 = k * 1000000000;` multiplies in the i64). In a function still refused once those are cast, a
closure's parameter of no written type that every call gives a plain value no written type
types (a literal, a local of no written type given only such values, arithmetic or an `if`
of those) is such a value too (`|q| { let m: i64 = q * q; m }` of `sq(100000)` or `sq(k *
2)` multiplies in the i32); one a call gives a local of a written type is left to
the inference, which refuses it where that type is not the one its body makes of it. Native code's inference gives a variable one
type for all its uses, so it refuses a function whose uses of one want different types
(E5010), and the gate refuses one whose plain local it would type otherwise (`let y: i64 =
k;` makes k an i64), but for a local only given literals that type holds and never computed
with (scalars/plain_locals.py). Here each greatest such value, a unit
(scalars/plain_units.py), is first cast to a type the inference decides (`(k * j) as _`),
the value keeping the type of its literals; where it meets another type than its own, the
cast is written (`let y: i64 = (k * j) as i64;`), and where it meets the same, dropped. A
function the inference (and the gate) types as it is, or still refuses after, keeps its
form, and so does one where a unit meets another type where the interpreter would not
convert it so: negated, given to a closure's parameter or as a closure's result (a closure
also given an i64, `h(t)`, computes in the i64, where copy-closures-per-argument-type has
not given that call a copy of its own), beside a literal the inference types
otherwise than the interpreter's context, or where a plain local would still be of another
type.
""", state=State)


@cast_plain_values.on("Program")
def _program(run, program):
    inferred = infer_program(program, plain=True)
    once = _cast_refused(run, program, inferred, seeding=False)
    # then a closure's parameter every call gives a plain value, as a plain value of its
    # own, in each function still refused
    return _cast_refused(run, once, inferred if once is program else
                         infer_program(once, plain=True), seeding=True)


def _cast_refused(run, program, inferred, seeding: bool):
    """program with the casts written in each function `inferred` refuses that they let
    native code keep as it is; `seeding`: closures' parameters given plain values are
    plain."""
    refused = set(inferred.refused)
    st = run.state
    st.opening, st.seeding = True, seeding
    st.solved = {name: infer.solved() for name, infer in inferred.items.items()}
    st.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    fns = {item.name for item in program.items if item._prod == "Fn" and item.name in refused}
    opened = {i.name: run.walk(i) for i in program.items if getattr(i, "name", None) in fns}
    while fns:  # drop each function opening does not let native code keep as it is
        trial = infer_program(program.replace(items=tuple(
            opened[i.name] if getattr(i, "name", None) in fns else i for i in program.items)),
            plain=True)
        if not set(trial.refused) <= refused:
            return program
        kept = {name for name in fns - set(trial.refused)
                if _kept(st, opened[name], trial.items[name].solved())}
        if kept == fns:
            break
        fns = kept
    if not fns:
        return program
    st.opening = False
    return program.replace(items=tuple(run.walk(opened[i.name]) if getattr(i, "name", None)
                                       in fns else i for i in program.items))


def _kept(st, fn, solved: dict) -> bool:
    """Whether the opened fn, of the `solved` types, computes as the interpreter does: its
    plain locals of their own types, and each open cast that converts converting a plain
    value as the interpreter does; notes each cast's decision."""
    if retyped_plain_local(fn, solved, st.plains[fn.name]) is not None:
        return False
    if any(n._prod == "Param" and n.name in st.params[fn.name] and
           solved[id(n)] not in UNFIXED.values() for n in descendants(fn)):
        return False  # a plain parameter is typed otherwise
    contexts = Contexts(fn, st.fns, st.plains[fn.name])
    untyped = {p.name for n in descendants(fn) if n._prod == "Closure"
               for p in n.params if p.type is None}
    for cast in descendants(fn):
        if cast._prod == "Cast" and cast.type._prod == "OpaqueType":
            # the inference notes a cast's source at the cast, its target at its type
            target = st.decided[id(cast.type)] = solved[id(cast.type)]
            own = st.own[id(cast.type)] = solved[id(cast)]
            if target != own and not (own in UNFIXED.values() and
                                      _converted_alone(cast, target, contexts, untyped)):
                return False
    return True


def _converted_alone(cast, target: str, contexts, untyped: set) -> bool:
    """Whether the interpreter converts the plain value the open `cast` is given to `target`
    where it meets its context, as the cast does: where it is given (a variable, a
    parameter, a result) or meets an operand the interpreter computes as a `target`; not
    where it is negated, which the interpreter negates in the plain type, nor a closure's
    result or argument (or a kernel's), which the interpreter converts only where the
    call's result, or the parameter, meets a type; `untyped`: the closures' parameters of
    no written type."""
    node = cast
    while True:
        parent = contexts.parents.get(id(node))
        p = parent._prod if parent is not None else None
        if p == "Block" and parent.value is node or p in ("IfExpr", "Unsafe"):
            node = parent  # an arm's value, or an `unsafe` block's: what the `if` gives
            continue
        if p in ("Closure", "Launch") or p == "Return" and contexts.in_closure(parent) or \
                p == "Call" and parent.callee._prod == "Local":
            return False
        if p == "Unary":
            return parent.op not in ("-", "!")
        if p == "Binary" and parent.op in ("<<", ">>"):
            return parent.right is node  # a shift is of its left's type: the plain i32
        if p == "Binary" and parent.op not in ("&&", "||"):
            other = parent.right if parent.left is node else parent.left
            return contexts.typed(other, contexts.operands_hint(parent), target, untyped)
        return True


@cast_plain_values.on("Fn")
def _fn(run, fn):
    st = run.state
    if st.opening:
        solved = st.solved[fn.name]
        st.params[fn.name] = frozenset(
            name for name, p in plain_parameters(fn).items()
            if solved.get(id(p), "i32") not in UNFIXED.values()) if st.seeding else frozenset()
        st.plains[fn.name] = plain_locals(fn, st.params[fn.name])
        st.units = Contexts(fn, st.fns, st.plains[fn.name]).units()
    return run.rebuild(fn)


@cast_plain_values.on("Local")
def _local(run, node):
    return _opened(node) if run.state.opening and id(node) in run.state.units else node


@cast_plain_values.on("Binary", "Unary", "IfExpr", "Call")
def _unit(run, node):
    rebuilt = run.rebuild(node)
    return _opened(rebuilt) if run.state.opening and id(node) in run.state.units else rebuilt


def _opened(node):
    return L["Cast"](node, L["OpaqueType"](span=node.span), span=node.span)


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
        return _opened(run.rebuild(node)) if id(node) in st.units else run.rebuild(node)
    if node.type._prod != "OpaqueType":
        return run.rebuild(node)
    value = run.walk(node.value)
    target = st.decided[id(node.type)]
    if target == st.own[id(node.type)]:
        return value
    return L["Cast"](value, L["Scalar"](target, span=node.span), span=node.span)

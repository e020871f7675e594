"""copy-closures-per-argument-type: Lsplit -> Lsplit.

Same IL: a copy of a closure, bound beside it, reads what it reads where it is called, so
each call computes what it computed, and the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import display_name, unused_name
from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in, copies_per_kind, with_copies
from ..scalars.literal_hints import UNFIXED
from ..values.literal_ranges import integer_literal
from ..values.literals import scalar_hint


@dataclass
class State:
    results: dict = field(default_factory=dict)  # each function's name -> its scalar result
    callee: dict = field(default_factory=dict)  # id() of a call -> the copy it calls
    copies: dict = field(default_factory=dict)  # a closure's local -> its copies' names
    taken: set = field(default_factory=set)  # the names of the function's locals


copy_closures_per_argument_type = Pass("copy-closures-per-argument-type", L, L, """
Give a closure a `let` binds and that is only called, whose calls give a parameter of no
written type values of different scalar types (a plain value, `let k = 9;`, which the
interpreter holds as the i32 of its literal, at one, an i64 at another), a copy of its own
per set of types, bound after it, each call calling the copy of its arguments' types, so
that native code types each copy's parameter as its calls give it.

The interpreter computes a closure's body on what each call gives its parameter: `let h =
|q| q * 1000000000; let y: i64 = h(k); let z: i64 = h(t);` multiplies the i32 9 (wrapping)
at the first call and the i64 t at the second, where native code types q once for all the
calls. So `h_i64` is bound after `h`, and the second call is `h_i64(t)`, which leaves h
given only the plain k, which cast-plain-values then casts as a whole (`h(k) as i64`). An
argument's type is known where it is written: a local of a scalar type (a `let`'s, written
or inferred, or a parameter's), a number, `true` or `false`, a cast, a call of a function of a scalar result,
a local a `let` (not `mut`, never assigned) binds to a closure whose parameters' types are all
written, its type theirs (`let twice = |f, x| f(f(x));` given `inc` of `|a: i32|` and `half`
of `|a: f64|` is copied as `twice_fn_f64_f64` for the second); a closure one of whose calls
gives another is left as it is. Two closures of one parameters' types but results of two
types are one kind: their copy stays refused by type-scalars.
""", state=State)


@copy_closures_per_argument_type.on("Program")
def _program(run, program):
    run.state.results = {i.name: scalar_hint(i.ret) for i in program.items if i._prod == "Fn"}
    return run.rebuild(program)


@copy_closures_per_argument_type.on("Fn")
def _fn(run, fn):
    st = run.state
    declared = {n.name: scalar_hint(n.type) for n in descendants(fn)
                if n._prod in ("Let", "Param")}
    assigned = {n.target.name for n in descendants(fn)
                if n._prod == "Assign" and n.target._prod == "Local"}
    declared.update((n.name, _closure_type(n.value)) for n in descendants(fn)
                    if n._prod == "Let" and n.value._prod == "Closure" and not n.mutable
                    and n.name not in assigned)
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    st.copies, st.callee = copies_per_kind(
        fn, lambda arg: _type(arg, declared, st.results),
        lambda kinds: all(None not in kind for kind in kinds),
        lambda name, kind: unused_name("_".join([display_name(name), *kind]), st.taken))
    return run.rebuild(fn) if st.callee else fn


def _type(e, declared: dict, results: dict):
    """The scalar type the interpreter gives e where it is written, else None; `declared`:
    each local's (a `let` of no written type, infer-placement's: a plain local's is the i32
    or f64 of its literals), `results`: each function's result's."""
    if e._prod == "Local":
        return declared.get(e.name)
    if e._prod == "Call" and e.callee._prod == "Global":
        return results.get(e.callee.name)
    if integer_literal(e) is not None or e._prod == "Float":
        return UNFIXED["Float" if e._prod == "Float" else "Int"]
    if e._prod == "Bool":
        return "bool"
    return e.type.name if e._prod == "Cast" and e.type._prod == "Scalar" else None


def _closure_type(closure):
    """A closure's type as its parameters' written scalar types say it (`fn_i32_f64`), else
    None: given as an argument, it fixes what the body of the closure given it computes."""
    types = [scalar_hint(p.type) for p in closure.params]
    return None if None in types else "_".join(["fn", *types])


@copy_closures_per_argument_type.on("Let", splice=True)
def _let(run, let):
    return with_copies(run.rebuild(let), run.state.copies.get(let.name, ()), run.state.taken)


@copy_closures_per_argument_type.on("Call")
def _call(run, call):
    copy = run.state.callee.get(id(call))
    rebuilt = run.rebuild(call)
    return rebuilt if copy is None else rebuilt.replace(callee=rebuilt.callee.replace(name=copy))

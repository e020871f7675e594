"""choose-given-variants: Lmatched -> Lmatched.

Same IL: each arm gives the call the value the parameter holds, made again of what its
variant carries, and testing the variant computes nothing, so the interpreter runs the
output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import Pass, descendants
from ..scalars.closure_parts import Parts
from ..scalars.closures import bound_in
from ..scalars.storages import bound_locals, fresh_copy


@dataclass
class State:
    parts: Parts | None = None  # the program's structs and enums, as closures take them apart
    fns: set = field(default_factory=set)  # the program's functions
    whole: dict = field(default_factory=dict)  # a parameter of the closures around -> its enum
    taken: set = field(default_factory=set)  # the locals of the function walked


choose_given_variants = Pass("choose-given-variants", L, L, """
Make each call a closure's body gives whole an enum parameter, a variant of which carries a
tensor, an `if` on the variant it holds, each arm's call given that variant made of what
the parameter carries: `|b: Buf| size(b)` is `|b: Buf| if b is Buf::Empty {
size(Buf::Empty) } else { size(Buf::Full(b.Buf::Full.0)) }`.

split-closure-aggregates gives such a parameter as its parts and reads it only by them: put
together again, the value would hold, for each variant but the one held, a tensor no one
drops. Each arm's value holds the tensors of its variant only (the parameter's own), and
scalarize-aggregates gives a call of a variant written there a tensor made for it where
another variant's is, which the caller drops. The call's other arguments are computed in
each arm (a copy of them, their locals bound anew), after the test, which computes nothing;
`print(b)` stays (split-closure-aggregates prints the literal of the parts).
""", state=State)


@choose_given_variants.on("Program")
def _program(run, program):
    run.state.parts = Parts(program)
    run.state.fns = {item.name for item in program.items if item._prod == "Fn"}
    return run.rebuild(program)


@choose_given_variants.on("Fn")
def _fn(run, fn):
    parts = run.state.parts
    if not any(parts.carries_tensor(p.type) for n in descendants(fn) if n._prod == "Closure"
               for p in n.params):
        return fn
    run.state.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    return run.rebuild(fn)


@choose_given_variants.on("Closure")
def _closure(run, closure):
    st = run.state
    around = st.whole
    st.whole = around | {p.name: p.type.name for p in closure.params
                         if st.parts.carries_tensor(p.type)}
    made = run.rebuild(closure)
    st.whole = around
    return made


@choose_given_variants.on("Call")
def _call(run, call):
    call = run.rebuild(call)
    if call.callee._prod == "Global" and call.callee.name == "print" and \
            "print" not in run.state.fns:
        return call
    return _chosen(run.state, call)


def _chosen(st, call):
    """call, each argument naming a parameter of `st.whole` given as the variant it holds."""
    k = next((k for k, a in enumerate(call.args)
              if a._prod == "Local" and a.name in st.whole), None)
    if k is None:
        return call
    given, span = call.args[k], call.span
    *tested, last = st.parts.enums[st.whole[given.name]]
    arms = [_chosen(st, _given_as(st, call, k, v, fresh=i > 0))
            for i, v in enumerate([*tested, last])]
    chosen = arms[-1]
    for v, arm in reversed(list(zip(tested, arms))):
        test = L["VariantIs"](given, st.whole[given.name], v.name, span=span)
        chosen = L["IfExpr"](test, False, L["Block"]((), arm, span=span),
                             L["Block"]((), chosen, span=span), span=span)
    return chosen


def _given_as(st, call, k: int, variant, fresh: bool):
    """call given, as its k-th argument, the parameter it names made again as `variant`
    (the other arguments a copy, their locals bound anew, if fresh)."""
    given, enum = call.args[k], st.whole[call.args[k].name]
    value = L["EnumValue"](enum, variant.name, tuple(
        L["VariantField"](given, enum, variant.name, i, span=given.span)
        for i in range(len(variant.fields))), span=given.span)
    args = call.args[:k] + (value,) + call.args[k + 1:]
    if fresh:
        renamed = {b: unused_name(display_name(b), st.taken)
                   for a in args for b in bound_locals(a)}
        return fresh_copy(call.replace(args=args), renamed)
    return call.replace(args=args)

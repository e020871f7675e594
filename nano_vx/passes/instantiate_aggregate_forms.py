"""instantiate-aggregate-forms: Lmatched -> Lmatched.

Same IL: a copy of a function runs as the function does, so the interpreter runs the output
as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass
from ..scalars.aggregate_types import call_shapes, program_types
from ..scalars.aggregates import Tree, fresh_item, live_items, referred


@dataclass
class State:
    # (function, id of a call in it) -> the copy it calls; a copy shares the function's body
    callee: dict = field(default_factory=dict)
    fn: str | None = None  # the function being rebuilt


instantiate_aggregate_forms = Pass("instantiate-aggregate-forms", L, L, """
Give a function whose calls put aggregates of different forms in a generic struct's erased
field a copy per form: `touch(Cell { v: Point { .. } })` calls `touch`, `touch(Cell { v: (1,
2, 3) })` a copy `touch$2`.

The field's type is a generic parameter, erased, and the interpreter holds there whatever
it is given; scalarize-aggregates splits a parameter into the scalars of one form (what
every call gives it alike), so each form needs a function of its own, and so does each type
of a scalar or tensor put in the field itself (`show(Cell { v: 16 })` and `show(Cell { v:
2.5 })`: the field's local has one type). The first form keeps the function's name. A recursive call handing the parameter on calls the copy it is in; a
call handing on the parameter of a function that takes several forms says no form and is
left as it is, until the copies of that function say theirs (a round later), a copy
handing on its parameter giving it the form the copy takes (`pong` calling back the `ping`
that calls it: each copy of `pong` calls the copy of `ping` of its own form); one putting
the parameter in an aggregate makes a deeper form each time, copied for a few rounds, and
the rest stay (E5010 in scalarize-aggregates). A function it copied that no call calls
any more is dropped, and so is one that no call reaches (from `main`, a launch, a value)
whose parameter holds an erased field: no call gives that field a type or a form (the
struct's scalar arguments are erased, `Cell<i32>` is `Cell`), and the interpreter never runs
it.
""", state=State)


# A copy's calls are redirected the round after it is made, once its own parameters say the
# forms it passes on: a round more for each level of calls between functions copied.
ROUNDS = 8
OPEN = "?"


@instantiate_aggregate_forms.on("Program")
def _program(run, program):
    st = run.state
    origin: dict = {}  # a copy -> the function it copies
    named: dict = {}  # function -> {form: the function or copy that takes it}
    # Functions something else calls: one uncalled in the input is left as it was, unless
    # it is formless (below).
    called = {n for i in program.items for n in referred(i) - {i.name}}
    for _ in range(ROUNDS):
        shapes, sigs = program_types(program)
        fns = [i for i in program.items if i._prod == "Fn"]
        # Each argument's form as it says, not as the Sig its callee is given says (which
        # the calls decide, this one among them).
        written = {f.name: [shapes.of(p.type) for p in f.params] for f in fns}
        taken = {i.name for i in program.items}
        st.callee, made_now = {}, {}
        for fn in fns:
            for call, given in call_shapes(fn, shapes, sigs, written):
                first = origin.get(call.callee.name, call.callee.name)
                if first == origin.get(fn.name, fn.name) and _handed_on(fn, call, given):
                    if call.callee.name != fn.name:
                        st.callee[fn.name, id(call)] = fn.name
                    continue
                form = tuple(_skeleton(s, d) for s, d in zip(given, written[first]))
                form = _own(form, call, fn, named.get(origin.get(fn.name, fn.name), {}))
                if _open(form):
                    continue  # a form some call will say, the function's it is in
                forms = named.setdefault(first, {})
                if form not in forms:
                    forms[form] = fresh_item(f"{first}${len(forms) + 1}", taken) if forms \
                        else first
                    if forms[form] != first:
                        origin[forms[form]] = first
                        made_now.setdefault(first, []).append(forms[form])
                if forms[form] != call.callee.name:
                    st.callee[fn.name, id(call)] = forms[form]
        if not st.callee and not made_now:
            break
        made = run.rebuild(program)
        items = []
        for item in made.items:
            items.append(item)
            items += [item.replace(name=c) for c in made_now.get(item.name, ())]
        program = made.replace(items=tuple(items))
    # A function whose calls all went to its copies (its first form taken from a call a later
    # round sent elsewhere) is dead code in the IL, and so is one no call reaches whose
    # parameter holds an erased field: no call gives it a form, so it has no copy.
    _, sigs = program_types(program)
    formless = {f for f, sig in sigs.items()
                if any(None in s.leaves() for s in sig.params if s is not None)}
    items = live_items(program.items, set(origin) | (set(named) & called) | formless)
    return program if len(items) == len(program.items) else program.replace(items=items)


def _handed_on(fn, call, given) -> bool:
    """Whether a call of fn (or of what fn is a copy of) in fn hands one of fn's aggregate
    parameters on as it is: a recursion whose form is fn's own, which calls fn itself."""
    return any(s is not None and a._prod == "Local" and a.name == p.name
               for a, p, s in zip(call.args, fn.params, given))


def _own(form: tuple, call, fn, forms: dict) -> tuple:
    """form, each part that says no form where the call hands on a parameter of fn as it is
    the form fn itself takes there: one a call gave it, which a function taking the
    parameter back (`ping` calling `pong` calling `ping`) cannot say otherwise."""
    own = next((k for k, name in forms.items() if name == fn.name), None)
    if own is None:
        return form
    index = {p.name: j for j, p in enumerate(fn.params)}
    return tuple(own[index[a.name]] if _open(f) and a._prod == "Local" and a.name in index
                 and not _open(own[index[a.name]]) else f
                 for f, a in zip(form, call.args))


def _skeleton(given: Tree | None, declared: Tree | None):
    """What tells two forms of an aggregate apart, given where `declared` is: kinds and
    labels, not names (an instance of a generic struct is taken apart as the struct), and
    the type of a scalar or tensor an erased field is given, since the function's local of
    it has one type; OPEN where an erased field is given a leaf of no type, which says
    nothing of its form (a parameter that takes several, handed on)."""
    if given is None:
        return None
    if declared is not None and declared.kind == "leaf" and declared.leaf is None:
        if given.kind == "leaf":
            return OPEN if given.leaf is None else given.leaf
        declared = None
    if given.kind == "leaf":
        return None
    return given.kind, tuple(
        (k, _skeleton(p, dict(declared.parts).get(k) if declared is not None else None))
        for k, p in given.parts)


def _open(form) -> bool:
    return form == OPEN or isinstance(form, tuple) and any(map(_open, form))


@instantiate_aggregate_forms.on("Fn")
def _fn(run, fn):
    run.state.fn = fn.name
    return run.rebuild(fn)


@instantiate_aggregate_forms.on("Call")
def _call(run, e):
    made = run.rebuild(e)
    copy = run.state.callee.get((run.state.fn, id(e)))
    if copy is None or copy == e.callee.name:
        return made
    return made.replace(callee=L["Global"](copy, span=e.callee.span))

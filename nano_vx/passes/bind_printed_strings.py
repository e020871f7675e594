"""bind-printed-strings: Lsplit -> Lsplit.

Same IL: what a statement computed, `let`s before it compute, in its order, so the program
prints what it printed and stops where it stopped."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass
from ..scalars.aggregates import Names
from ..scalars.printed_strings import (OPERAND, SLOTS, checked_element, computed_string,
                                       operands, parts, print_call, quiet_element, reached,
                                       slot, string_types)
from ..scalars.storages import fresh_copy


@dataclass
class State:
    types: dict = field(default_factory=dict)  # item name -> {id(value printed): its type}
    ranks: dict = field(default_factory=dict)  # item name -> {local holding a tensor: rank}
    item: str | None = None  # the item being rebuilt
    names: Names | None = None  # fresh names of the function being rebuilt
    fn: object = None  # the function being rebuilt


bind_printed_strings = Pass("bind-printed-strings", L, L, """
Bind each string a call computes that a `print` a statement computes is given to a `let`
before the statement, after a `let` for each operand computed before that `print`, so that
number-texts can choose its text by its number without computing it again.

A `print` of a string a call computes that a statement (an expression statement, a `let`,
a `return`, an `if`'s condition, the value of an assignment to a local that nothing the
value calls could change, `k = k + g(print(pick(i)))`) or a block's value computes whenever
it is computed, as an argument of a call, an operand (but right of `&&` or `||`) or a
cast's value, has a `let` go before the statement for each operand computed before it (a
print before it too) and then for its string, so that each computes once, in its order:
`g(tick(), print(pick(b)))` is `let arg = tick(); let text = pick(b); g(arg,
print(text))`. So does the value of an assignment to an element of a tensor local made
other than by `::uninit()` that nothing the value calls could change nor the value names,
which the interpreter locates (its indices computed and checked) before the value: `t[i] =
g(print(pick(i)))` is `let place = &mut t[i]; let text = pick(i); *place =
g(print(text))`; one at literal indices within the extents its constructor writes cannot
stop there, and is assigned as written, the value then free to read the tensor: `t[1] =
t[0] + g(print(pick(0)))` is `let arg = t[0]; let text = pick(0); t[1] = arg +
g(print(text))`; one the value names at indices each a literal or a local that nothing the
value calls could change, the value assigning nothing, is read by a `let` first, which
computes and checks its indices there, and assigned as written: `t[i] = t[0] +
g(print(pick(0)))` is `let checked = t[i]; let arg = t[0]; ..; t[i] = arg + ..`. A pass of
its own: number-texts numbers strings and chooses a printed
one's text, which needs what it chooses by to be computed once; this pass orders what is
computed. It binds where number-texts numbers the program's strings, which is the whole
program or none (scalars/printed_strings.py), so a program left as it was is left whole.
""", state=State)


@bind_printed_strings.on("Program")
def _program(run, program):
    typed = string_types(program)
    if typed is None:
        return program
    run.state.types, run.state.ranks = typed
    items = []
    for item in program.items:
        run.state.item = getattr(item, "name", None)
        items.append(run.walk(item))
    return program.replace(items=tuple(items))


@bind_printed_strings.on("Fn")
def _fn(run, fn):
    run.state.names, run.state.fn = Names(fn), fn
    return run.rebuild(fn)


@bind_printed_strings.on("Block")
def _block(run, block):
    types = run.state.types[run.state.item]
    stmts = []
    for s in block.stmts:
        field_ = slot(s, run.state.fn, run.state.ranks.get(run.state.item, {}))
        value = getattr(s, field_) if field_ is not None else None
        if value is None or not reached(value, types):
            stmts.append(run.walk(s))
            continue
        element = s._prod == "Assign" and s.target._prod == "Index" and \
            not quiet_element(s.target, run.state.fn)
        if element and checked_element(s, run.state.fn):
            _checked(run, s.target, s.span, stmts)
            element = False
        located = {"target": _located(run, run.walk(s.target), s.span, stmts)} \
            if element else {}
        printed = _ordered(run, value, stmts)
        rest = {f: getattr(s, f) and run.walk(getattr(s, f)) for f in SLOTS[s._prod][1]
                if f not in located}
        stmts.append(s.replace(**rest, **located, **{field_: printed}))
    value = block.value
    if value is not None:
        value = _ordered(run, value, stmts) if reached(value, types) else run.walk(value)
    return block.replace(stmts=tuple(stmts), value=value)


def _located(run, element, span, lets: list):
    """`*place`, after `let place = &mut element;` in `lets`: the element located, and its
    indices checked, where the interpreter does so for an assignment (span: its)."""
    name = run.state.names.fresh("place")
    lets.append(L["Let"](name, False, L["OpaqueType"](span=span),
                         L["Borrow"](element, True, span=span), span=span))
    return L["Deref"](L["Local"](name, span=span), span=span)


def _checked(run, element, span, lets: list) -> None:
    """`let checked = element;` in `lets`: the element read, its indices checked (a stop
    spanned as the assignment's, span), where the interpreter locates it for an assignment
    whose value reads its tensor, which a loan of it would meet."""
    lets.append(L["Let"](run.state.names.fresh("checked"), False, L["OpaqueType"](span=span),
                         fresh_copy(element).replace(span=span), span=span))


def _ordered(run, e, lets: list):
    """e, each `print` it computes on its way (reached) given its string by a `let` in
    `lets`, after a `let` each for what e computes before that print (but a number as
    written; a print before it too), so that all compute in their order."""
    types = run.state.types[run.state.item]
    if print_call(e) is not None and computed_string(e, types):
        return e.replace(args=(_strings_bound(run, e.args[0], lets),))
    rebuilt = []
    reaching = [bool(reached(operand, types)) for operand in operands(e)]
    last = max(i for i, reaches in enumerate(reaching) if reaches)
    for i, operand in enumerate(operands(e)):
        made = _ordered(run, operand, lets) if reaching[i] else run.walk(operand)
        rebuilt.append(_bound(run, made, lets) if i < last else made)
    if e._prod == "IfExpr":
        return e.replace(cond=rebuilt[0], then=run.walk(e.then), orelse=run.walk(e.orelse))
    if e._prod in OPERAND:
        return e.replace(**{OPERAND[e._prod]: rebuilt[0]})
    return e.replace(args=tuple(rebuilt)) if e._prod == "Call" else \
        e.replace(left=rebuilt[0], right=rebuilt[1])


def _bound(run, e, lets: list):
    """e (rebuilt), bound to `lets` first unless a number as written."""
    if e._prod in ("Int", "Float", "Bool"):
        return e
    name = run.state.names.fresh("arg")
    lets.append(L["Let"](name, False, L["OpaqueType"](span=e.span), e, span=e.span))
    return L["Local"](name, span=e.span)


def _strings_bound(run, e, lets: list):
    """What `print` is given, each string in it that is not written there, nor read from a
    variable or a const, bound to a `let` in `lets` first (the parts of an aggregate's
    literal each in turn, the arms of an `if` choosing an enum's variant before its
    condition)."""
    if e._prod == "Str":
        return e
    made = parts(e)
    if made:
        if e._prod == "IfExpr":
            arms = [arm.replace(value=_strings_bound(run, arm.value, lets))
                    for arm in (e.then, e.orelse)]
            return e.replace(cond=run.walk(e.cond), then=arms[0], orelse=arms[1])
        if e._prod == "StructLit":
            return e.replace(fields=tuple(f.replace(value=_strings_bound(run, f.value, lets))
                                          for f in e.fields))
        bound = tuple(_strings_bound(run, p, lets) for p in made)
        return e.replace(elems=bound) if e._prod == "Tuple" else e.replace(args=bound)
    walked = run.walk(e)
    if run.state.types[run.state.item].get(id(e)) != "str" or \
            walked._prod in ("Local", "Global"):
        return walked
    name = run.state.names.fresh("text")
    lets.append(L["Let"](name, False, L["OpaqueType"](span=e.span), walked, span=e.span))
    return L["Local"](name, span=e.span)

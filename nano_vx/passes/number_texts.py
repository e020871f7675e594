"""number-texts: Lsplit -> Lsplit.

Same IL: a local that held a string holds an integer, and what the program prints is what
it printed, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants


@dataclass
class State:
    texts: dict = field(default_factory=dict)  # local -> its texts, in order of first writing


number_texts = Pass("number-texts", L, L, """
Make each local that holds one of the strings written in its function, and is only printed,
the number of its string.

`let even = if c { "even" } else { "odd" }; print(even);` is `let even = if c { 0 } else {
1 }; if even == 0 { print("even") } else { print("odd") }`: native code prints a string only
as written in the `print`, and keeps no string in a variable. A local given a string by an
`if` or a `match`, or assigned one, is numbered when every value it is given is such a
string and every read of it is a `print`; any other stays as it is (the gate refuses it).
""", state=State)


@number_texts.on("Fn")
def _fn(run, fn):
    texts = {}
    for node in descendants(fn.body):
        if node._prod == "Let" and _strings(node.value) is not None:
            texts.setdefault(node.name, [])
    if not texts:
        return fn
    printed = set()  # id() of each Local a print reads
    for node in descendants(fn.body):
        given = node.value if node._prod == "Let" else \
            node.value if node._prod == "Assign" and node.target._prod == "Local" else None
        name = node.name if node._prod == "Let" else \
            node.target.name if given is not None else None
        if name in texts:
            found = _strings(given) if node._prod == "Let" or node.op == "=" else None
            if found is None:
                texts.pop(name)
            else:
                texts[name] += [s for s in found if s not in texts[name]]
        if _print_of(node) is not None:
            printed.add(id(node.expr.args[0]))
    for node in descendants(fn.body):
        if node._prod == "Local" and node.name in texts and id(node) not in printed:
            texts.pop(node.name)
        elif node._prod == "Assign" and node.target._prod == "Local":
            printed.add(id(node.target))
    if not texts:
        return fn
    run.state.texts = texts
    return run.rebuild(fn)


def _strings(value) -> list | None:
    """The strings a value is, each as written; None when it may be anything else."""
    if value is None:
        return None
    if value._prod == "Str":
        return [value.value]
    if value._prod == "IfExpr":
        arms = [_strings(arm.value) for arm in (value.then, value.orelse)]
        return None if None in arms else arms[0] + arms[1]
    return None


def _print_of(node):
    """The print statement `print(x)` of a local x, or None."""
    if node._prod != "ExprStmt" or node.expr._prod != "Call":
        return None
    call = node.expr
    if call.callee._prod == "Global" and call.callee.name == "print" and \
            len(call.args) == 1 and call.args[0]._prod == "Local":
        return call.args[0].name
    return None


def _numbered(run, value, texts):
    if value._prod == "Str":
        return L["Int"](texts.index(value.value), span=value.span)
    arms = [run.walk(arm.replace(value=None)).replace(value=_numbered(run, arm.value, texts))
            for arm in (value.then, value.orelse)]
    return value.replace(cond=run.walk(value.cond), then=arms[0], orelse=arms[1])


@number_texts.on("Let", "Assign")
def _given(run, node):
    name = node.name if node._prod == "Let" else node.target.name \
        if node.target._prod == "Local" else None
    texts = run.state.texts.get(name)
    if texts is None:
        return run.rebuild(node)
    value = _numbered(run, node.value, texts)
    if node._prod == "Let":
        return node.replace(type=L["OpaqueType"](span=node.span), value=value)
    return node.replace(value=value)


@number_texts.on("ExprStmt")
def _print(run, node):
    texts = run.state.texts.get(_print_of(node))
    if texts is None:
        return run.rebuild(node)
    local, span = node.expr.args[0], node.span

    def printing(k):
        text = L["Str"](texts[k], span=span)
        return L["Block"]((node.replace(expr=node.expr.replace(args=(text,))),), None,
                          span=span)
    out = printing(len(texts) - 1)
    for k in reversed(range(len(texts) - 1)):
        test = L["Binary"]("==", local, L["Int"](k, span=span), span=span)
        out = L["Block"]((L["If"](test, False, printing(k), out, span=span),), None, span=span)
    return out.stmts[0]

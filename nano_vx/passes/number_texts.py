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
Make each local that holds one of the strings written in its function, and is only printed
or copied into another such local, the number of its string.

`let even = if c { "even" } else { "odd" }; print(even);` is `let even = if c { 0 } else {
1 }; if even == 0 { print("even") } else { print("odd") }`: native code prints a string only
as written in the `print`, and keeps no string in a variable. A local given a string by an
`if` or a `match`, or assigned one, is numbered when every value it is given is such a
string or another such local, and every read of it is a `print` or such a value; any other
stays as it is (the gate refuses it). A local and the locals it is copied into are aliases
of the same texts: they number them alike, so a copy is the number copied.
""", state=State)

_PRINTED = object()  # where a read that is a `print`'s argument goes


@number_texts.on("Fn")
def _fn(run, fn):
    given, goes = {}, {}  # local -> the values given it; id() of a read Local -> where it goes
    for node in descendants(fn.body):
        if node._prod == "Let":
            given.setdefault(node.name, []).append(node.value)
        elif node._prod == "Assign" and node.target._prod == "Local":
            goes[id(node.target)] = node.target.name  # written, not read
            if node.target.name in given:
                given[node.target.name].append(node.value if node.op == "=" else None)
        elif _print_of(node) is not None:
            goes[id(node.expr.args[0])] = _PRINTED
    texts = {name for name, values in given.items()
             if values[0] is not None and _strings(values[0]) is not None}
    if not texts:
        return fn
    for name, values in given.items():
        for value in values:
            for local in (_strings(value) or ((), ()))[1]:
                goes[id(local)] = name
    reads = [(n.name, goes.get(id(n))) for n in descendants(fn.body) if n._prod == "Local"]
    while True:
        kept = {name for name in texts
                if all(_strings(v) is not None and {n.name for n in _strings(v)[1]} <= texts
                       for v in given[name])}
        kept -= {name for name, to in reads if to is not _PRINTED and to not in kept}
        if kept == texts:
            break
        texts = kept
    if not texts:
        return fn
    run.state.texts = _aliased(fn, texts, given)
    return run.rebuild(fn)


def _aliased(fn, texts: set, given: dict) -> dict:
    """Each local of `texts` -> the strings of its aliases (itself and the locals it is copied
    into or from), one list they share, in order of first writing."""
    alias = {name: name for name in texts}

    def root(name):
        while alias[name] != name:
            name = alias[name]
        return name
    for name in texts:
        for value in given[name]:
            for local in _strings(value)[1]:
                alias[root(local.name)] = root(name)
    strings = {name: [] for name in texts if root(name) == name}
    for node in descendants(fn.body):
        name = node.name if node._prod == "Let" else node.target.name \
            if node._prod == "Assign" and node.target._prod == "Local" else None
        if name in texts:
            found = strings[root(name)]
            found += [s for s in _strings(node.value)[0] if s not in found]
    return {name: strings[root(name)] for name in texts}


def _strings(value):
    """(the strings a value is, each as written; the Locals it is a copy of), or None when
    it may be anything else."""
    if value is None:
        return None
    if value._prod == "Str":
        return [value.value], []
    if value._prod == "Local":
        return [], [value]
    if value._prod == "IfExpr":
        arms = [_strings(arm.value) for arm in (value.then, value.orelse)]
        return None if None in arms else (arms[0][0] + arms[1][0], arms[0][1] + arms[1][1])
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
    if value._prod == "Local":
        return value  # an alias: the number is the same
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

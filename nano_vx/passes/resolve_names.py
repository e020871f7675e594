"""resolve-names: Ltransfers -> Lresolved."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Lresolved, Ltransfers
from ..nanopass import Pass


class Scopes:
    """The locals of one item: a stack of block scopes, and the unique names handed out."""

    def __init__(self):
        self.stack = [{}]
        self.used: dict[str, int] = {}  # how many times each name was bound in this item

    # No try/finally: an exception ends the run, and the Scopes with it.
    def push(self):
        self.stack.append({})

    def pop(self):
        self.stack.pop()

    def bind(self, name: str) -> str:
        n = self.used.get(name, 0)
        self.used[name] = n + 1
        # `#` cannot occur in an identifier, so x#1 never meets a name the user wrote.
        unique = name if n == 0 else f"{name}#{n}"
        self.stack[-1][name] = unique
        return unique

    def lookup(self, name: str) -> str | None:
        for scope in reversed(self.stack):
            if name in scope:
                return scope[name]
        return None


@dataclass
class State:
    globals: frozenset = frozenset()  # item names and builtins
    scopes: Scopes = field(default_factory=Scopes)  # the current item's locals


resolve_names = Pass("resolve-names", Ltransfers, Lresolved, """
Replace each `Var` by a `Local` with a name unique in its function, or by a `Global`.

Items (functions, consts, structs, memory spaces, topologies) and the builtin `print` are
global. Parameters, `let`, `for` variables, closure parameters, the binding of a `match` arm
and const generic parameters are locals with block scope (an arm's binding is visible in its
arm only); a `let` is visible from the statement after it. Every binding of
a local gets a name unique within its item: the first `x` stays `x`, the next is `x#1`, then
`x#2`, so a shadowing `let` can no longer be confused with the variable it hides. An unknown
name is E2001 and becomes a `Global`, so the tree stays valid and later passes do not report
it again. `Memory::X`, `Topology::X`, type and dimension names are not variables.
""", state=State)

BUILTINS = frozenset({"print"})


def _opt(run, node):
    return None if node is None else run.walk(node)


@resolve_names.on("Program")
def _program(run, node):
    run.state.globals = frozenset(item.name for item in node.items) | BUILTINS
    items = []
    for item in node.items:
        run.state.scopes = Scopes()
        items.append(run.walk(item))
    if all(a is b for a, b in zip(items, node.items)):
        return node
    return Lresolved["Program"](items, span=node.span)


@resolve_names.on("Fn")
def _fn(run, node):
    # A const generic is a value in the body (`let n = S;`), named as written.
    for g in node.generics:
        if g._prod == "ConstParam":
            run.state.scopes.bind(g.name)
    return run.rebuild(node)  # the parameters bind as they are walked, in order


@resolve_names.on("Param")
def _param(run, node):
    type_ = _opt(run, node.type)
    return Lresolved["Param"](run.state.scopes.bind(node.name), type_, span=node.span)


@resolve_names.on("StructDecl")
def _struct(run, node):
    # Field names are not variables: keep them, resolve only inside their types.
    fields = [Lresolved["Param"](f.name, _opt(run, f.type), span=f.span) for f in node.fields]
    return Lresolved["StructDecl"](node.name, fields, span=node.span)


@resolve_names.on("Let")
def _let(run, node):
    value = run.walk(node.value)  # before binding: `let x = x + 1` reads the outer x
    type_ = _opt(run, node.type)
    name = run.state.scopes.bind(node.name)
    return Lresolved["Let"](name, node.mutable, type_, value, span=node.span)


@resolve_names.on("For")
def _for(run, node):
    start, end = run.walk(node.start), run.walk(node.end)
    scopes = run.state.scopes
    scopes.push()
    var = scopes.bind(node.var)
    body = run.walk(node.body)
    scopes.pop()
    return Lresolved["For"](var, start, end, body, span=node.span)


@resolve_names.on("Block", "Closure", "Arm")
def _scoped(run, node):
    scopes = run.state.scopes
    scopes.push()
    out = run.rebuild(node)
    scopes.pop()
    return out


@resolve_names.on("Var")
def _var(run, node):
    unique = run.state.scopes.lookup(node.name)
    if unique is not None:
        return Lresolved["Local"](unique, span=node.span)
    if node.name not in run.state.globals:
        _undefined(run, node.name, node.span)
    return Lresolved["Global"](node.name, span=node.span)


@resolve_names.on("Grad", "Vjp", "Jvp")
def _differentiate(run, node):
    if node.fn not in run.state.globals and run.state.scopes.lookup(node.fn) is None:
        _undefined(run, node.fn, node.span)
    return run.rebuild(node)


def _undefined(run, name, span):
    run.ctx.diagnostics.error(
        "E2001", span, f"cannot find value '{name}' in this scope", name=name)

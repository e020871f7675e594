"""The locals of each typed function: each one's type, the space it was bound in, and how
many `spawn on` blocks enclose its binding. The checks after infer-placement look a local up
here instead of binding as they walk, so each of them handles only what it inspects."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsrc import DESCRIPTIONS
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis, descendants
from .typer import Typer, join, literal, settle, show, written
from .types import HOST, OPAQUE, TEXT, Machine


@dataclass
class Scope:
    typer: Typer  # the function's own: its env holds the function's locals
    depth: dict[str, int] = field(default_factory=dict)  # local -> enclosing `spawn on`s
    here: list[str | None] = field(default_factory=list)  # while binding: where code runs

    def type_of(self, expr, here: str | None):
        return settle(self.typer.of(expr, here))

    def space_of(self, expr, here: str | None) -> str | None:
        return self.typer.space(expr, here)

    def bind(self, name: str, ty) -> None:
        self.typer.bind(name, ty, self.here[-1])
        self.depth[name] = len(self.here) - 1


@dataclass
class Where:
    """Where the code a check is walking runs: the topologies, innermost last (`CPU` for the
    host), and the spaces they hold."""

    topo: list[str]
    here: list[str | None]

    @classmethod
    def of(cls, fn, typer: Typer) -> Where:
        return cls([fn.on.name if fn.on is not None else HOST],
                   [typer.functions[fn.name].space])

    def inside(self, run, spawn, machine: Machine) -> None:
        """Walk a `spawn on` block: its topology's index where it is written, its body on
        the spawned topology."""
        run.walk(spawn.topo)
        self.topo.append(spawn.topo.name)
        self.here.append(machine.holds(spawn.topo.name))
        run.walk(spawn.body)
        self.topo.pop()
        self.here.pop()


@dataclass
class _Binding:
    typer: Typer
    scopes: dict[str, Scope] = field(default_factory=dict)  # by function name
    scope: Scope | None = None  # the function being walked
    loose: bool = False  # a local bound to a literal or a string, without a written type
    given: dict = field(default_factory=dict)  # a closure's parameter -> the type calls give


def scopes_of(program, typer: Typer, *, loose: bool = False) -> dict[str, Scope]:
    """The scope of every function of `program` (whose names resolve-names made unique
    within each function), by function name. A local bound to a string without a written
    type is text, to a typer that knows strings (infer-placement leaves its type open). With
    `loose`, as the type checks bind: a local bound so to an unsuffixed literal has the
    literal's type, whatever integer (or float) it meets, as in Rust, where `let n = 0;` is
    whatever integer its uses make it; and a closure's parameter of no written type has the
    scalar type every call gives it (_given), as if written."""
    return _bind_locals.collect(program, state=_Binding(typer, loose=loose)).scopes


def constant_scope(item, typer: Typer, *, loose: bool = False) -> Scope:
    """The scope of the constant `item`'s value, computed on the host: the locals its blocks
    bind, as a function's (`loose` as scopes_of's)."""
    return _bind_locals.collect(item, state=_Binding(typer, loose=loose)).scope


_bind_locals = Analysis("bind-locals", Lrouted, """
Bind every local of each function to its type, in source order (a helper of the checks).
""", skip=DESCRIPTIONS)


@_bind_locals.on("Program")
def _program(run, node):
    for item in node.items:
        if item._prod == "Fn":  # a struct's fields are Params too, but bind no local
            run.walk(item)


@_bind_locals.on("Fn")
def _fn(run, node):
    st = run.state
    st.given = {}
    # a closure's argument may be another closure's parameter, given a type so: bound again
    # while that gives more, at most once per parameter
    params = sum(len(n.params) for n in descendants(node.body) if n._prod == "Closure")
    for _ in range(params + 1):
        scope = Scope(st.typer.fresh(), here=[st.typer.functions[node.name].space])
        st.scopes[node.name] = st.scope = scope
        run.descend(node)
        given = _given(node, scope) if st.loose else {}
        if given == st.given:
            return
        st.given = given


def _given(fn, scope: Scope) -> dict:
    """{a parameter of no written type of a closure a `let` binds once and that is only
    called: the scalar type (of no literal) every call gives it, the same}: the language
    types it so, as if written (`|q| { let m: i64 = q * 2; m }` called with an i32 `y` makes
    q an i32, whose `q * 2` the i64 `let` refuses), where its calls give it values of other
    types or literals it is left open."""
    nodes = list(descendants(fn.body))
    callees = {id(n.callee) for n in nodes if n._prod == "Call"}
    lets = [n.name for n in nodes if n._prod == "Let"]
    given = {}
    for let in (n for n in nodes if n._prod == "Let" and n.value._prod == "Closure"):
        uses = [n for n in nodes if n._prod == "Local" and n.name == let.name]
        params = let.value.params
        calls = [n for n in nodes if n._prod == "Call" and n.callee._prod == "Local" and
                 n.callee.name == let.name]
        if let.mutable or lets.count(let.name) != 1 or not calls or \
                any(id(u) not in callees for u in uses) or \
                any(len(c.args) != len(params) for c in calls):
            continue
        for k, param in enumerate(params):
            types = {show(t): t for t in (scope.typer.of(c.args[k], scope.here[0])
                                              for c in calls)}
            t = next(iter(types.values()))
            if param.type is None and len(types) == 1 and not literal(t) and \
                    t._prod == "Scalar":
                given[param.name] = t
    return given


@_bind_locals.on("ConstItem")
def _const(run, node):
    typer = run.state.typer
    run.state.scope = Scope(typer.fresh(), here=[typer.machine.host_space])
    if node.value is not None:
        run.walk(node.value)


@_bind_locals.on("Param")
def _param(run, node):
    run.state.scope.bind(node.name, node.type if node.type is not None else
                         run.state.given.get(node.name, OPAQUE))


@_bind_locals.on("Let")
def _let(run, node):
    run.descend(node)
    scope, ty = run.state.scope, node.type
    if not written(node) and (run.state.loose or ty._prod == "OpaqueType"):
        found = scope.typer.of(node.value, scope.here[-1])
        if found == TEXT or run.state.loose and literal(found):
            ty = found
    scope.bind(node.name, ty)


@_bind_locals.on("For")
def _for(run, node):
    scope = run.state.scope
    here = scope.here[-1]
    run.walk(node.start)
    run.walk(node.end)
    ty = join(scope.typer.of(node.start, here), scope.typer.of(node.end, here))
    scope.bind(node.var, ty if run.state.loose else settle(ty))
    run.walk(node.body)


@_bind_locals.on("MatchValue")
def _match_value(run, node):
    scope = run.state.scope
    run.walk(node.scrutinee)
    matched = scope.type_of(node.scrutinee, scope.here[-1])
    for case in node.cases:
        for name, ty in scope.typer.pattern_bindings(case.pattern, matched, scope.here[-1]):
            scope.bind(name, ty)
        run.walk(case.body)


@_bind_locals.on("Spawn")
def _spawn(run, node):
    scope = run.state.scope
    scope.here.append(scope.typer.machine.holds(node.topo.name))
    run.descend(node)
    scope.here.pop()

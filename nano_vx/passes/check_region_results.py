"""check-region-results: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ..languages.lrouted import Lrouted
from ..languages.lsrc import DESCRIPTIONS
from ..languages.lunrolled import OncePerPlace
from ..diagnostics import Label
from ..nanopass import Analysis, descendants
from ..nanopass.dispatch import Handlers
from ..nanopass.verify import child_nodes
from ..placement.typer import Typer, settle
from ..placement.types import Machine
from ..values.constants import written

MADE = "made"  # in a function's summary: its result may be a tensor the call makes
OUTER = "outer"  # a value the region did not make: captured from before it


class Made:
    """A tensor made at `node` (a constructor, a transfer, a call that makes its result);
    the same node is the same tensor, and two alike constructors are two (nodes compare by
    their structure, so this compares them by identity)."""

    __slots__ = ("node",)

    def __init__(self, node):
        self.node = node

    def __eq__(self, other):
        return isinstance(other, Made) and other.node is self.node

    def __hash__(self):
        return id(self.node)


@dataclass
class State:
    typer: Typer | None = None
    types: dict[str, Typer] = field(default_factory=dict)  # function -> its locals bound
    # function -> MADE and the indexes of the parameters its result may be
    summaries: dict[str, frozenset] = field(default_factory=dict)
    said: OncePerPlace = field(default_factory=OncePerPlace)  # by the region's span


check_region_results = Analysis("check-region-results", Lrouted, """
Refuse a `spawn on` region whose value is a tensor it made (E6030).

A region runs on its device and ends there; what it hands back to the code around it must be
memory that code owns, so a tensor the region returns is one made before it and transferred
in (`let d = transfer(x, Memory::GPU_HBM); let y = spawn on(Topology::GPU) { .. d };`), not
one it made: a constructor, a literal or a `transfer` run inside it, or a call that makes its
result, as its last value or a `return`'s in it. Where a value comes from is followed through `let`s and assignments (any one that may
reach it counts), blocks, `if` and `match` branches, fields, references, and calls of the
program's functions, which pass on what they return of their parameters (a summary of each,
to a fixed point over recursion). The message names where the tensor is made; a region in
the body of an `unroll across` is refused once, not once per copy.
""", state=State, skip=DESCRIPTIONS, requires=("model",))


@check_region_results.on("Program")
def _program(run, node):
    st = run.state
    st.typer = Typer(node, Machine(run.ctx.model))
    fns = {item.name: item for item in node.items if item._prod == "Fn"}
    _summarize(st, fns)
    for fn in fns.values():
        for spawn in (n for n in descendants(fn.body) if n._prod == "Spawn"):
            _judge(run, fn, spawn)
    st.said.note_copies()


def _summarize(st: State, fns: dict) -> None:
    """Each function's summary, to a fixed point: a function is looked at again when one it
    calls says more (summaries only grow, and are finite)."""
    callers = defaultdict(set)
    for fn in fns.values():
        for n in descendants(fn.body):
            if n._prod == "Call" and n.callee._prod == "Global" and n.callee.name in fns:
                callers[n.callee.name].add(fn.name)
    st.summaries = {name: frozenset() for name in fns}
    todo = list(fns)
    while todo:
        name = todo.pop()
        fn = fns[name]
        walk = _Origins(st, fn, {p.name: frozenset({i}) for i, p in enumerate(fn.params)})
        result = walk.settled(fn.body) | walk.returned
        summary = frozenset(MADE if isinstance(o, Made) else o for o in result
                            if o != OUTER)
        if summary != st.summaries[name]:
            st.summaries[name] = summary
            todo.extend(c for c in callers[name] if c not in todo)


def _judge(run, fn, spawn) -> None:
    """E6030 when the region's value is a tensor it may have made."""
    st = run.state
    walk = _Origins(st, fn, {}, captured=True)
    value = spawn.body.value
    walk.here = st.typer.machine.holds(spawn.topo.name)
    origins = walk.settled(spawn.body) | walk.returned  # a `return` in it gives its value
    made = [o for o in origins if isinstance(o, Made)]
    if value is None or not made or not walk.holds_tensor(value):
        return
    if st.said.again(spawn.span or id(spawn)):  # another copy `unroll across` made
        return
    at = min((o.node for o in made), key=lambda n: n.span.start if n.span else 0)
    where = f" at line {at.span.line}" if at.span is not None else ""
    run.ctx.diagnostics.error(
        "E6030", value.span or spawn.span,
        f"this `spawn on({_text(spawn.topo)})` region hands out a tensor it made: "
        f"`{_text(at)}`{where}",
        notes=["what a region returns must be made before it, so that the code around it "
               "owns its memory, and transferred in"],
        labels=[Label(at.span, "made inside the region")] if at.span is not None else [],
        help=["make the tensor before the region and transfer it to the region's memory "
              "there, then hand that back"],
        topology=spawn.topo.name, made=_text(at))
    st.said.said(spawn.span or id(spawn), run.ctx.diagnostics.items[-1])


def _text(node) -> str:
    return written(node).strip()


# -- where a value comes from ----------------------------------------------------------------

_VALUE = Handlers("check-region-results' origins", (Lrouted,), "Expr")
_STMT = Handlers("check-region-results' statements", (Lrouted,), "Stmt")


class _Origins:
    """Where the values of one body come from, as sets of origins: a Made, OUTER, or the
    index of a parameter. A `let` of the body binds its local to its value's origins, an
    assignment adds to them; a name the body does not bind is a parameter (`params`), or,
    for a region (`captured`), a value from before it."""

    def __init__(self, st: State, fn, params: dict, *, captured: bool = False):
        self.st, self.fn, self.params = st, fn, params
        self.outside = frozenset({OUTER}) if captured else frozenset()
        self.env: dict[str, frozenset] = {}
        self.returned: frozenset = frozenset()
        self.here = st.typer.functions[fn.name].space
        if fn.name not in st.types:
            st.types[fn.name] = _types_of(st.typer, fn)
        self.types = st.types[fn.name]

    def settled(self, block) -> frozenset:
        """The origins of the block's value once no assignment adds to a local any more (a
        loop may carry a value round); `returned` then holds every `return`'s."""
        while True:
            before = dict(self.env)
            value = self.block(block)
            if self.env == before:
                return value

    def block(self, block) -> frozenset:
        for s in block.stmts:
            handler = _STMT.get(s._prod)
            if handler is not None:
                handler(self, s)
            else:
                self.effects(s)
        return self.of(block.value) if block.value is not None else frozenset()

    def of(self, e) -> frozenset:
        handler = _VALUE.get(e._prod)
        if handler is not None:
            return handler(self, e)
        self.effects(e)  # an operator, a literal, a cast: no tensor of its own
        return frozenset()

    def made(self, e) -> frozenset:
        """A tensor the region makes at `e`, if its value holds one."""
        self.effects(e)
        return frozenset({Made(e)}) if self.holds_tensor(e) else frozenset()

    def effects(self, node) -> None:
        """Walk what `node` holds for the `let`s and assignments in it."""
        for child in child_nodes(node):
            if child._prod == "Block":
                self.block(child)
            elif child._nt in ("Expr", "Stmt") and child._prod != "Closure":
                if child._nt == "Expr":
                    self.of(child)
                else:
                    _STMT.get(child._prod, _Origins.effects)(self, child)

    def name(self, name: str) -> frozenset:
        if name in self.env:
            return self.env[name]
        return self.params.get(name, self.outside)

    def bind(self, name: str, origins: frozenset) -> None:
        self.env[name] = self.env.get(name, frozenset()) | origins

    def holds_tensor(self, e) -> bool:
        t = settle(self.types.of(e, self.here))
        return any(n._prod == "TensorType" for n in descendants(t))

    @_STMT.on("Let")
    def _let(self, s):
        self.bind(s.name, self.of(s.value))

    @_STMT.on("Assign")
    def _assign(self, s):
        value = self.of(s.value)
        if s.op == "=" and s.target._prod == "Local":
            self.bind(s.target.name, value)
        else:
            self.of(s.target)

    @_STMT.on("Return")
    def _return(self, s):
        if s.value is not None:
            self.returned |= self.of(s.value)

    @_VALUE.on("Local")
    def _local(self, e):
        return self.name(e.name)

    @_VALUE.on("TensorNew", "TensorLit", "ArrayLit", "Transfer", "MethodCall", "Grad", "Vjp",
               "Jvp")
    def _made(self, e):
        return self.made(e)

    @_VALUE.on("Call")
    def _call(self, e):
        summary = self.st.summaries.get(e.callee.name) if e.callee._prod == "Global" else None
        if summary is None:
            return self.made(e)
        args = [self.of(a) for a in e.args]
        found = frozenset({Made(e)}) if MADE in summary else frozenset()
        return found.union(*(args[i] for i in summary if i != MADE and i < len(args)))

    @_VALUE.on("IfExpr")
    def _if(self, e):
        self.of(e.cond)
        return self.block(e.then) | self.block(e.orelse)

    @_VALUE.on("Match", "MatchValue")
    def _match(self, e):
        scrutinee = self.of(e.scrutinee)
        found = frozenset()
        for arm in (e.arms if e._prod == "Match" else e.cases):
            bound = [arm.binding.name] if e._prod == "Match" else [
                n.name for n in descendants(arm.pattern) if n._prod == "PBind"]
            for name in bound:
                self.bind(name, scrutinee)
            found |= self.block(arm.body)
        return found

    @_VALUE.on("Spawn")
    def _spawn(self, e):
        outside, self.here = self.here, self.st.typer.machine.holds(e.topo.name)
        found = self.block(e.body)
        self.here = outside
        return found

    @_VALUE.on("Deref", "Borrow", "FieldGet", "TupleGet", "Index")
    def _through(self, e):
        """A part of a value, or a reference to it: a tensor in it is the whole's (a number
        read out of a tensor the region made is not that tensor)."""
        if e._prod == "Index":
            self.of(e.index)
        found = self.of(e.value if e._prod in ("Deref", "Borrow") else e.base)
        return found if self.holds_tensor(e) else frozenset()

    @_VALUE.on("Tuple", "StructLit", "EnumValue")
    def _parts(self, e):
        parts = e.elems if e._prod == "Tuple" else e.args if e._prod == "EnumValue" else [
            f.value for f in e.fields]
        return frozenset().union(*(self.of(p) for p in parts))

    @_VALUE.on("Closure")
    def _closure(self, e):
        return frozenset()


def _types_of(typer: Typer, fn):
    """A typer with `fn`'s locals bound: each `let` of it (their types are written since
    infer-placement), its parameters and the bindings of its `match` arms."""
    own = typer.fresh()
    here = typer.functions[fn.name].space
    for p in fn.params:
        own.bind(p.name, p.type, here)
    for n in descendants(fn.body):
        if n._prod == "Let":
            own.bind(n.name, n.type, here)
        elif n._prod == "Arm" and n.binding.type is not None:
            own.bind(n.binding.name, n.binding.type, here)
    return own


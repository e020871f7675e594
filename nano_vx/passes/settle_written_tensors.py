"""settle-written-tensors: Lsplit -> Lsplit."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit
from ..nanopass import Pass, child_nodes, descendants
from ..scalars.tensor_names import element_of, lent_tensor, named_whole


@dataclass
class _Settled:
    lets: set = field(default_factory=set)  # (function, `let`) of each tensor settled
    fn: str = ""


settle_written_tensors = Pass("settle-written-tensors", Lsplit, Lsplit, """
Make each tensor made by `::uninit()` that is written whole before anything reads it, or never read, one made by `::new()`: no read can tell them apart, and track-uninit-elements then tracks only the others.

A tensor made by `::uninit()` (and `malloc(n)`) is followed from its `let` through the
names it gets (`let u = t;`, a borrow, a `transfer`, which keeps its elements) in program
order. It is *written* once a `for` over the whole of an extent (from 0 to the extent as
written, its number, its `?` extent's local or `t.extent(k)`), with no `break`, `continue`
or `return`, writes, on every path of its body, the element the loop variables index, each
dimension by a loop of its own, or once a function or kernel it is passed to writes the
whole parameter so before anything reads it. Before that, only writes of elements,
`t.extent(k)` and calls or launches of functions that never read the parameter leave it
settled; a read of an element, a `print`, a return, a closure or anything else does not.
""", state=_Settled)


_ALL = None  # a pattern's position every index of which a loop wrote (a name is a str)


@dataclass
class _Summaries:
    """What each function does to each tensor parameter given unwritten: "full" (writes every
    element before any read, on every way out), "untouched" (never reads it) or "reads"."""
    fns: dict = field(default_factory=dict)
    known: dict = field(default_factory=dict)
    busy: set = field(default_factory=set)

    def of(self, name: str, k: int) -> str:
        key = (name, k)
        if key not in self.known:
            fn = self.fns.get(name)
            if fn is None or key in self.busy or k >= len(fn.params):
                return "reads"
            self.busy.add(key)
            self.known[key] = _Walk(self, fn, fn.params[k].name).summary()
            self.busy.discard(key)
        return self.known[key]


@settle_written_tensors.on("Program")
def _program(run, program):
    fns = {item.name: item for item in program.items if item._prod == "Fn"}
    summaries = _Summaries(fns)
    for fn in fns.values():
        walk = _Walk(summaries, fn, None)
        walk.block(fn.body, frozenset())
        run.state.lets.update((fn.name, g) for g in walk.extents if g not in walk.unsettled)
    return run.rebuild(program) if run.state.lets else program


@settle_written_tensors.on("Fn")
def _fn(run, fn):
    run.state.fn = fn.name
    return run.rebuild(fn)


@settle_written_tensors.on("Let")
def _let(run, s):
    if (run.state.fn, s.name) in run.state.lets and s.value._prod == "TensorNew":
        return s.replace(value=s.value.replace(ctor="new"))
    return run.rebuild(s)


class _Walk:
    """One function's tensors made unwritten, followed in program order. A state is the
    frozenset of the groups (a tensor and the names it was given) written whole."""

    def __init__(self, summaries: _Summaries, fn, param: str | None):
        self.summaries, self.fn, self.param = summaries, fn, param
        self.group: dict[str, str] = {}   # a name -> the first name of its tensor
        self.extents: dict[str, list] = {}  # a group -> what each extent is, as written
        self.unsettled: set = set()  # the groups read, or handed on, maybe unwritten
        self.exits_written = True  # summary: the parameter written whole at every way out
        self.assigned = {s.target.name for s in descendants(fn.body)
                         if s._prod == "Assign" and s.target._prod == "Local"}
        if param is not None:
            p = next(p for p in fn.params if p.name == param)
            self.group[param] = param
            self.extents[param] = _type_extents(p.type, [])

    def summary(self) -> str:
        state = self.block(self.fn.body, frozenset())
        if self.param in self.unsettled:
            return "reads"
        if self.exits_written and (state is None or self.param in state):
            return "full"
        return "untouched"

    def fail(self, g: str | None):
        """The group is read, or handed on, maybe unwritten."""
        if g is not None:
            self.unsettled.add(g)

    # -- statements ----------------------------------------------------------------------

    def block(self, block, state):
        """The state after the block; None when no path reaches its end."""
        for s in block.stmts:
            state = self.stmt(s, state)
            if state is None:
                return None
        return state if block.value is None else self.use(block.value, state)

    def stmt(self, s, state):
        kind = s._prod
        if kind == "Let":
            return self.let(s, state)
        if kind == "Assign":
            return self.assign(s, state)
        if kind == "If":
            self.use(s.cond, state)
            then = self.block(s.then, state)
            orelse = self.block(s.orelse, state) if s.orelse is not None else state
            if then is None or orelse is None:
                return orelse if then is None else then
            return then & orelse
        if kind == "For":
            self.use(s.start, state)
            self.use(s.end, state)
            self.block(s.body, state)
            return state | self.loop_writes(s)
        if kind == "While":
            self.use(s.cond, state)
            self.block(s.body, state)
            return state
        if kind == "BlockStmt":
            return self.block(s.body, state)
        if kind == "Return":
            if s.value is not None:
                self.use(s.value, state)
            self.exit(state)
            return None
        for child in child_nodes(s):
            state = self.use(child, state)
        return state

    def exit(self, state):
        if self.param is not None and self.param not in state:
            self.exits_written = False

    def let(self, s, state):
        v = s.value
        if v._prod == "TensorNew" and v.ctor == "uninit":
            for a in v.args:
                self.use(a, state)
            self.group[s.name] = s.name
            self.extents[s.name] = _type_extents(v.type, _counts(v.args))
            return state - {s.name}
        source = named_whole(v)
        if source in self.group:
            self.group[s.name] = self.group[source]
            return state
        return self.use(v, state)

    def assign(self, s, state):
        base, indices = element_of(s.target)
        g = self.group.get(base.name) if base is not None else None
        if g is None or s.op != "=" or len(indices) != len(self.extents[g]):
            self.use(s.target, state)
            return self.use(s.value, state)
        for i in indices:
            self.use(i, state)
        return self.use(s.value, state)

    # -- expressions ---------------------------------------------------------------------

    def use(self, e, state):
        """Check what the expression reads against the state; the state after it."""
        kind = e._prod
        if kind == "Local":
            if e.name in self.group and self.group[e.name] not in state:
                self.fail(self.group[e.name])
            return state
        if kind == "MethodCall" and e.method == "extent" and e.receiver._prod == "Local":
            for a in e.args:
                self.use(a, state)
            return state
        if kind in ("Call", "Launch"):
            callee = e.kernel if kind == "Launch" else \
                e.callee.name if e.callee._prod == "Global" else None
            if callee is None:
                self.use(e.callee, state)
            written = set()
            args = [a.value if a._prod == "Borrow" else a for a in e.args]
            groups = [self.group.get(a.name) if a._prod == "Local" else None for a in args]
            for k, a in enumerate(e.args):
                g = groups[k]
                if g is None or g in state:
                    state = self.use(a, state)
                    continue
                what = self.summaries.of(callee, k) if callee is not None else "reads"
                if what == "reads" or groups.count(g) > 1:
                    self.fail(g)
                elif what == "full":
                    written.add(g)
            return state | written
        if kind in ("Closure", "IfExpr", "Unsafe", "Match", "MatchValue"):
            for child in child_nodes(e):
                if child._prod == "Block":
                    self.block(child, state)
                else:
                    self.use(child, state)
            return state
        for child in child_nodes(e):
            state = self.use(child, state)
        return state

    # -- loops that write a whole tensor -------------------------------------------------

    def loop_writes(self, loop) -> frozenset:
        """The groups the loop writes whole."""
        return frozenset(g for g, p in self.patterns_of_loop(loop) if all(x == _ALL for x in p))

    def patterns_of_loop(self, loop) -> set:
        if not (loop.start._prod == "Int" and loop.start.value == 0) or loop.var in \
                self.assigned or any(s._prod in ("Break", "Continue", "Return")
                                     for s in descendants(loop.body)):
            return set()
        out = set()
        for g, p in self.patterns(loop.body):
            at = [k for k, x in enumerate(p) if x == loop.var]
            if len(at) == 1 and self.is_extent(loop.end, g, at[0]):
                out.add((g, p[:at[0]] + (_ALL,) + p[at[0] + 1:]))
        return out

    def patterns(self, block) -> set:
        """(group, indices) written on every path through the block: each index a loop
        variable's name or _ALL."""
        out = set()
        for s in block.stmts:
            if s._prod == "Assign" and s.op == "=":
                base, indices = element_of(s.target)
                g = self.group.get(base.name) if base is not None else None
                if g is not None and len(indices) == len(self.extents[g]) and \
                        all(i._prod == "Local" for i in indices):
                    out.add((g, tuple(i.name for i in indices)))
            elif s._prod == "If" and s.orelse is not None:
                out |= self.patterns(s.then) & self.patterns(s.orelse)
            elif s._prod == "BlockStmt":
                out |= self.patterns(s.body)
            elif s._prod == "For":
                out |= self.patterns_of_loop(s)
        return out

    def is_extent(self, end, g: str, k: int) -> bool:
        if end._prod == "MethodCall" and end.method == "extent" and \
                end.receiver._prod == "Local" and self.group.get(end.receiver.name) == g:
            return len(end.args) == 1 and end.args[0]._prod == "Int" and end.args[0].value == k
        written = self.extents[g][k]
        if written is None:
            return False
        if written._prod == "Int":
            return end._prod == "Int" and end.value == written.value
        return end._prod == "Local" and written._prod == "Local" and end.name == \
            written.name and end.name not in self.assigned


def _type_extents(t, counts: list) -> list:
    """Each extent of a tensor type as an Int node, a count's expression for a `?`, or None
    where it is not known."""
    out, counts = [], list(counts)
    t = lent_tensor(t)
    for d in t.dims if t is not None and t._prod == "TensorType" else ():
        if d._prod == "DimInt":
            out.append(Lsplit["Int"](d.value, span=d.span))
        elif d._prod == "DimAny" and counts:
            out.append(counts.pop(0))
        else:
            out.append(None)
    return out


def _counts(args) -> list:
    """The extents `::uninit([n, m])` gives its `?` dimensions."""
    if len(args) == 1 and args[0]._prod == "ArrayLit":
        return list(args[0].elems)
    return list(args)

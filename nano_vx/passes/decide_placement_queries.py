"""decide-placement-queries: Lpinned -> Lpinned.

Same IL: a comparison it decides is the `bool` the interpreter computes there, by the
interpreter's own comparison (`same` in nano_vx/values/places.py) of the placement the
variable's type says, and reading a variable computes nothing."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..nanopass import Pass, descendants
from ..scalars.closures import direct_closures
from ..values.places import CPU_DRAM, NONE_TOPO, Placement, SomeTopo, Topo, same


@dataclass
class State:
    holds: dict = field(default_factory=dict)  # each topology's name -> the space it holds
    types: dict = field(default_factory=dict)  # the function's locals -> their types
    bound: dict = field(default_factory=dict)  # a `let` binding a query -> its Placement
    sent: dict = field(default_factory=dict)  # a local a closure's call gives -> its space


decide_placement_queries = Pass("decide-placement-queries", L, L, """
Make each comparison of a variable's `.topology()` with `Some(Topology::X)` or `None` (`==`
or `!=`, either way round) the `bool` its type decides while compiling: `t.topology() ==
Some(Topology::CPU)` of a tensor in `Memory::CPU_DRAM` is `true`.

Native code holds no placement at run time, and the interpreter reads one only from where
the value lives, which its type says: a tensor's space, a pinned value's topology, the host
for any other. A variable a `let` binds to such a query and that is only compared so is
compared the same way, and its `let` goes (`let p = t.topology(); p == None` is `false`).
So is a query of a local a `let` binds to a call of a closure a `let` binds and only calls,
whose body (with no `return`) gives a tensor sent by `transfer` to a `Memory::M`, made by a
constructor or held by a local whose type places it, which is where the interpreter holds
it, wherever the closure runs (`let far = || transfer(t, Memory::GPU_HBM); let got = far();
got.topology() == None` is `false`, `far()` still called; `let near = ||
Tensor<f32, [4]>::fill(3.0);` makes its tensor in `Memory::CPU_DRAM`).
A query of another expression, of a type placing it where no number or name says, or used
otherwise (printed, a variable it is bound to printed or assigned, which
flag-assigned-placement-queries makes flags where it can) is left, and the native-code
gate refuses it.
""", state=State, requires=("model",))


@decide_placement_queries.on("Program")
def _program(run, program):
    run.state.holds = {t.name: t.memory for t in run.ctx.model.topologies.values()}
    return run.rebuild(program)


@decide_placement_queries.on("Fn")
def _fn(run, fn):
    if not any(n._prod == "MethodCall" and n.method == "topology" for n in descendants(fn)):
        return fn
    st = run.state
    st.types = {n.name: n.type for n in descendants(fn)
                if n._prod in ("Let", "Param") and n.type is not None}
    closures = direct_closures(fn)
    st.sent = {n.name: space for n in descendants(fn) if n._prod == "Let" and not n.mutable
               and n.value._prod == "Call" and n.value.callee._prod == "Local"
               and n.value.callee.name in closures
               and (space := _sent(st, closures[n.value.callee.name].body)) is not None}
    st.bound = {}  # while the lets are found: `let p2 = p;` binds no query itself
    st.bound = {n.name: placement for n in descendants(fn) if n._prod == "Let" and
                not n.mutable and (placement := _placement(run, n.value)) is not None}
    if st.bound:
        decided = Counter(side.name for n in descendants(fn) if _decided(run, n) is not None
                          for side in (n.left, n.right) if side._prod == "Local")
        used = Counter(n.name for n in descendants(fn) if n._prod == "Local")
        st.bound = {name: p for name, p in st.bound.items() if used[name] == decided[name]}
    return run.rebuild(fn)


@decide_placement_queries.on("Let", splice=True)
def _let(run, node):
    """A `let` of a query whose variable is only compared: each comparison is decided."""
    if node.name in run.state.bound:
        return ()
    return (run.rebuild(node),)


@decide_placement_queries.on("Binary")
def _binary(run, e):
    decided = _decided(run, e)
    if decided is None:
        return run.rebuild(e)
    return L["Bool"](decided, span=e.span)


def _decided(run, e):
    """The bool the comparison e is, one of a query with `Some(Topology::X)` or `None`,
    else None."""
    if e._prod == "Binary" and e.op in ("==", "!="):
        for query, option in ((e.left, e.right), (e.right, e.left)):
            placement, other = _placement(run, query), _option(option)
            if placement is not None and other is not None:
                return same(placement, other) == (e.op == "==")
    return None


def _placement(run, e):
    """The Placement `e.topology()` gives, e a query of a variable whose type says it (or a
    variable a `let` binds to one), else None."""
    if e._prod == "Local":
        return run.state.bound.get(e.name)
    if e._prod != "MethodCall" or e.method != "topology" or e.args or \
            e.receiver._prod != "Local":
        return None
    if e.receiver.name in run.state.sent:
        return Placement(run.state.sent[e.receiver.name], None, run.state.holds)
    ty = run.state.types.get(e.receiver.name)
    while ty is not None and ty._prod == "VerifiedType":
        ty = ty.inner
    if ty is None or ty._prod == "OpaqueType":
        return None
    holds = run.state.holds
    if ty._prod in ("PinnedType", "HardwareStateType"):
        topo = _topo(ty.topo)
        inner = _space(ty.inner, holds)
        if topo is None or inner is None:
            return None
        return Placement(holds.get(topo.name, inner), topo, holds)
    space = _space(ty, holds)
    return None if space is None else Placement(space, None, holds)


def _sent(st, body):
    """The space the tensor that is body's value lives in, where the body gives only that
    value (no `return`) and it is sent by `transfer` to a `Memory::M`, made by a constructor
    or a local whose type says its space (as the interpreter places it, by the type written
    there, wherever the closure runs), else None."""
    e = body.value
    if e is None or any(n._prod == "Return" for n in descendants(body)):
        return None
    if e._prod != "Transfer":
        return _made_space(st, e)
    if e.dest._prod != "MemRef":
        return None
    return e.dest.name if _made_space(st, e.value) is not None else None


def _made_space(st, e):
    """The space of the tensor e, a constructor or a local of a tensor type, else None."""
    if e._prod in ("TensorNew", "TensorLit"):
        return _space(e.type, st.holds)
    ty = st.types.get(e.name) if e._prod == "Local" else None
    return _space(ty, st.holds) if ty is not None and ty._prod == "TensorType" else None


def _space(ty, holds):
    """The space a value of type ty (no pin) lives in, else None."""
    if ty._prod == "TensorType" and ty.place is not None:
        place = ty.place
        return place.name if place._prod == "MemRef" else holds.get(place.name)
    if ty._prod == "RefType":
        return ty.mem.name
    if ty._prod in ("PinnedType", "HardwareStateType", "VerifiedType", "OpaqueType"):
        return None
    return CPU_DRAM


def _topo(t):
    """The Topo a `Topology::X`, `X[i]` or `X[a..b]` of numbers names, else None."""
    if t._prod != "TopoRef" or any(b is not None and b._prod != "Int" for b in (t.index, t.end)):
        return None
    return Topo(t.name, *(b.value if b is not None else None for b in (t.index, t.end)))


def _option(e):
    if e._prod == "NoneTopo":
        return NONE_TOPO
    if e._prod == "SomeTopo":
        topo = _topo(e.topo)
        return None if topo is None else SomeTopo(topo)
    return None

"""`x.try_pin(Topology::X)` and `match` on its result (semantics §3.2), with the occupancy
of each topology: a topology admits as many pins at once as its declared `replicas` (1 when
it declares none, and for the built-in ones), so a run can take either arm.

`try_pin` takes a pin when one is free and yields `Available` with the value pinned on X (a
tensor in X's memory), else `Saturated` with the value as it was. The pin is held until the
`Available` arm that binds it ends, however it ends (its value, `return`, `break`, a stop).
Pins are counted per topology name: `NPU[0]` and `NPU[1]` share the `replicas` of `NPU`.

Every name of a state shares the bool that says it still holds its pin, so that matching any
of them gives the pin back once: a state holds a `&mut` to it. hold-states-by-reference binds
a state to parts its function computes (Lheld's `LetState`: a variable for its value, one
saying whether it took a pin, one holding that `&mut`); reading its name makes the state of
what those hold now, and `StatePart` reads the three parts of any state, the third the very
reference, so that a pin given back through one name is seen given back through the other.
"""

from __future__ import annotations

from ..values.literals import scalar_hint
from ..values.numbers import Placed, TInt, describe, unplace
from ..values.places import CPU_DRAM, Topo
from ..values.stops import stop, wrong_kind
from ..values.tensors import Tensor
from .expressions import EXPRESSIONS
from .references import Ref, as_ref
from .scope import frame_getter, reader
from .statements import STATEMENTS


class HardwareState:
    """The result of `try_pin`: its variant, the value an arm binds, and the topology."""

    __slots__ = ("variant", "value", "topo", "held")
    kind = "HardwareState"

    def __init__(self, variant: str, value, topo: Topo, held: Ref):
        self.variant, self.value, self.topo = variant, value, topo
        # A `&mut` to the bool that is true while an Available result's pin is not released:
        # a cell of its own, or the one its `LetState` names.
        self.held = held


class Occupancy:
    """How many pins each topology holds now, against how many it admits."""

    def __init__(self, replicas: dict[str, int]):
        self.replicas = replicas  # declared `replicas:` by topology name
        self.held: dict[str, int] = {}

    def take(self, topo: str) -> bool:
        n = self.held.get(topo, 0)
        if n >= self.replicas.get(topo, 1):
            return False
        self.held[topo] = n + 1
        return True

    def release(self, state: HardwareState) -> None:
        # A result matched twice binds its arm twice, but gives its pin back once.
        if state.held.get(None):
            state.held.set(False, None)
            self.give_back(state.topo.name)

    def give_back(self, topo: str) -> None:
        self.held[topo] -= 1


def pinned_on(v, where: Topo, holds: dict):
    """The value v pinned on `where`: a tensor in the memory the topology holds."""
    if type(v) is Tensor:
        return v.placed(holds.get(where.name, v.space), where)
    return Placed(unplace(v), holds.get(where.name, CPU_DRAM), where)


class TypestateMixin:
    def try_pin(self, node, sc):
        span = node.span
        receiver = self.expr(node.receiver, sc)
        args = [self.expr(a, sc) for a in node.args]
        holds, pins = self.holds, self.pins

        def try_pin(f):
            v = receiver(f)
            given = [a(f) for a in args]
            if len(given) != 1 or type(given[0]) is not Topo:
                wrong_kind(span, "try_pin takes one topology, as in `x.try_pin(Topology::GPU)`")
            where = given[0]
            if not pins.take(where.name):
                return HardwareState("Saturated", v, where, Ref([False], 0, True))
            return HardwareState("Available", pinned_on(v, where, holds), where,
                                 Ref([True], 0, True))
        return try_pin

    @STATEMENTS.on("LetState", "LetElement")
    def s_LetState(self, node, sc):
        """The state's value in its variable; the scope keeps the `LetState`, which tells a
        read of the name where the other two parts are."""
        value = self.expr(node.value, sc, scalar_hint(node.type))
        conform = self.conformer(node.type, node.span)
        slot = sc.declare(node.name)
        sc.states[slot] = node

        def let(f):
            v = value(f)
            f[slot] = v if conform is None else conform(v)
        return let

    def state_of_parts(self, node, sc, span):
        """A read of the name the `LetState` `node` bound: Available iff its `took` is true,
        with its value (pinned, as `try_pin` pins it), its pin given back through the `&mut`
        its `held` holds. Both are bound after the `LetState`, so they are looked up here.
        A `LetElement`'s `held` is the bool itself, unless `by_ref`: its pin is given back
        through that local's cell."""
        depth, slot = sc.lookup(node.name)
        value = reader(depth, slot, span)
        took, held = (self.name_value(name, sc, span) for name in (node.took, node.held))
        if not getattr(node, "by_ref", True):
            at = sc.lookup(node.held)
            held = (lambda frame, cell: lambda f: Ref(frame(f), cell, True))(
                frame_getter(at[0]), at[1])
        topo, holds = self.topo(node.topo, sc), self.holds

        def state(f):
            where, ref = topo(f), as_ref(held(f), span)
            if took(f):
                return HardwareState("Available", pinned_on(value(f), where, holds), where, ref)
            return HardwareState("Saturated", value(f), where, ref)
        return state

    @EXPRESSIONS.on("StatePart", "StateRead")
    def x_StatePart(self, node, sc, hint):
        """A part of a state: the third the very reference to the bool that says it still
        holds its pin, or read where it stands (`state_read`), that bool."""
        state, part, span = self.expr(node.state, sc), node.part, node.span
        read_held, word = node._prod == "StateRead", \
            "state_read" if node._prod == "StateRead" else "state_part"

        def read(f):
            s = state(f)
            if type(s) is not HardwareState:
                wrong_kind(span, f"`{word}` takes a hardware state, found {describe(s)}")
            if part == 2:
                return s.held.get(span) if read_held else s.held
            return (s.value, s.variant == "Available")[part]
        return read

    # lower-pins and lower-pin-matches write try_pin and its match with these three.
    @EXPRESSIONS.on("TakePin")
    def x_TakePin(self, node, sc, hint):
        topo, pins = node.topo, self.pins
        return lambda f: pins.take(topo)

    @EXPRESSIONS.on("PinnedTo")
    def x_PinnedTo(self, node, sc, hint):
        value, topo, holds = self.expr(node.value, sc), self.topo(node.topo, sc), self.holds
        return lambda f: pinned_on(value(f), topo(f), holds)

    @STATEMENTS.on("Halt")
    def s_Halt(self, node, sc):
        code, span, message = node.code, node.span, node.message

        def halt(f):
            stop(code, span, message)
        return halt

    @EXPRESSIONS.on("HaltWith")
    def x_HaltWith(self, node, sc, hint):
        code, span, message, value = node.code, node.span, node.message, \
            self.expr(node.value, sc)

        def halt(f):
            v = value(f)
            stop(code, span, message.replace("{a}", str(v.v if type(v) is TInt else v)))
        return halt

    @STATEMENTS.on("ReleasePin")
    def s_ReleasePin(self, node, sc):
        topo, pins = node.topo, self.pins

        def release(f):
            pins.give_back(topo)
        return release

    @EXPRESSIONS.on("Match")
    def x_Match(self, node, sc, hint):
        scrutinee, span, pins = self.expr(node.scrutinee, sc), node.span, self.pins
        arms = {}
        for arm in node.arms:
            if arm.variant in arms:
                continue  # the parser refuses a second arm for a variant; the first one runs
            sc.push()
            slot = sc.declare(arm.binding.name)
            arms[arm.variant] = slot, self.expr_block(arm.body, sc)
            sc.pop()

        def match(f):
            state = scrutinee(f)
            if type(state) is not HardwareState:
                wrong_kind(span, f"`match` takes the result of `try_pin`, found "
                                 f"{describe(state)}")
            arm = arms.get(state.variant)
            if arm is None:
                pins.release(state)
                stop("E9006", span, f"this `match` has no arm for `{state.variant}(..)`")
            slot, body = arm
            f[slot] = state.value
            if not state.held.get(span):
                return body(f)
            try:
                return body(f)
            finally:
                pins.release(state)
        return match

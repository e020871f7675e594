"""`x.try_pin(Topology::X)` and `match` on its result (semantics §3.2), with the occupancy
of each topology: a topology admits as many pins at once as its declared `replicas` (1 when
it declares none, and for the built-in ones), so a run can take either arm.

`try_pin` takes a pin when one is free and yields `Available` with the value pinned on X (a
tensor in X's memory), else `Saturated` with the value as it was. The pin is held until the
`Available` arm that binds it ends, however it ends (its value, `return`, `break`, a stop).
Pins are counted per topology name: `NPU[0]` and `NPU[1]` share the `replicas` of `NPU`.
"""

from __future__ import annotations

from ..values.numbers import Placed, describe, unplace
from ..values.places import CPU_DRAM, Topo
from ..values.stops import stop, wrong_kind
from ..values.tensors import Tensor
from .expressions import EXPRESSIONS
from .statements import STATEMENTS


class HardwareState:
    """The result of `try_pin`: its variant, the value an arm binds, and the topology."""

    __slots__ = ("variant", "value", "topo", "held")
    kind = "HardwareState"

    def __init__(self, variant: str, value, topo: Topo, held: bool):
        self.variant, self.value, self.topo = variant, value, topo
        self.held = held  # an Available result whose pin its arm has not released yet


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
        if state.held:
            state.held = False
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
                return HardwareState("Saturated", v, where, False)
            return HardwareState("Available", pinned_on(v, where, holds), where, True)
        return try_pin

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
            if not state.held:
                return body(f)
            try:
                return body(f)
            finally:
                pins.release(state)
        return match

"""Hardware states (what `try_pin` gives) as native code holds them: the three values lower-pins
makes of each, and which parameters of a function are states."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lpinned import Lpinned as L


def is_state_type(ty) -> bool:
    return ty is not None and ty._prod == "HardwareStateType"


def state_params(fn) -> frozenset:
    """The indices of the function's hardware-state parameters."""
    return frozenset(i for i, p in enumerate(fn.params) if is_state_type(p.type))


def topo_key(topo) -> tuple:
    """A topology written out, as a key: two are the same topology when their keys are."""
    return (topo.name, *((b._prod, getattr(b, "value", None), getattr(b, "name", None))
                         if b is not None else None for b in (topo.index, topo.end)))


@dataclass(frozen=True)
class HeldState:
    """A hardware state as native code holds it: its value is the local of its name."""

    took: str | None  # the bool local: whether `try_pin` took a pin
    held: str | None  # the bool local that says it still holds the pin, or a `&mut` to it
    param: str | None  # or the parameter `(value, took, &mut held)` it came in as
    topo: object  # the TopoRef it pins on
    by_ref: bool = False  # `held` is a reference: the caller's, or the one an `if` chose

    def part(self, i: int, span):
        """Whether it took a pin (1) or the bool, or the reference to it (2), that says it
        still holds the pin."""
        if self.param is None:
            return L["Local"]((self.took, self.held)[i - 1], span=span)
        return L["TupleGet"](L["Local"](self.param, span=span), i, span=span)

    def held_place(self, span):
        held = self.part(2, span)
        return L["Deref"](held, span=span) if self.by_ref else held

    def held_ref(self, span):
        held = self.part(2, span)
        return held if self.by_ref else L["Borrow"](held, True, span=span)

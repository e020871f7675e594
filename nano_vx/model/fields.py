"""Reading the fields of one `Memory`/`Topology` declaration, reporting what is malformed.

Each reader takes the field node and returns the value, or None after reporting E6016 (a
value of the wrong kind) or E6008 (a figure that is not positive), so one declaration
reports every bad field and the model is still built from the good ones.
"""

from __future__ import annotations

from fractions import Fraction

from .units import CLOCK, COUNT, PER_CYCLE, RATE, SIZE, quantity


class Fields:
    """The fields of one declaration by key; unknown and repeated keys are reported here."""

    def __init__(self, decl, what: str, known: dict[str, str], diagnostics):
        self.decl, self.what, self.diagnostics = decl, what, diagnostics
        self.by_key: dict[str, object] = {}
        self.edges = []
        for f in decl.fields:
            if f._prod == "TransferEdge":
                self.edges.append(f)
            elif f.key not in known:
                accepted = ", ".join(f"`{k}`" for k in known)
                self.bad(f, f"{what} '{decl.name}' has no field `{f.key}`",
                         help=[f"a {what} declaration accepts {accepted}"])
            elif f.key in self.by_key:
                self.bad(f, f"{what} '{decl.name}' gives `{f.key}` twice",
                         notes=[f"the first is at {self.by_key[f.key].span}"])
            else:
                self.by_key[f.key] = f
        self.known = known

    def get(self, key: str):
        return self.by_key.get(key)

    def bad(self, node, message: str, **more) -> None:
        self.diagnostics.error("E6016", node.span, message, declaration=self.decl.name, **more)

    def expected(self, f, value_node=None) -> None:
        self.bad(value_node or f, f"`{f.key}` of {self.what} '{self.decl.name}' must be "
                                  f"{self.known[f.key]}")

    # -- value readers ---------------------------------------------------------------

    def _quantity(self, f, kinds) -> tuple[str, Fraction] | None:
        v = f.value
        if v is None or v._prod != "Quantity":
            self.expected(f, v)
            return None
        kind, value = quantity(v.number, v.unit)
        if kind not in kinds:
            self.expected(f, v)
            return None
        if value <= 0:
            self.diagnostics.error(
                "E6008", v.span, f"`{f.key}` of {self.what} '{self.decl.name}' is {value}; "
                                 f"it must be positive", declaration=self.decl.name, field=f.key)
            return None
        return kind, value

    def size(self, key: str) -> int | None:
        """Whole bytes; a bare number is bytes."""
        f = self.get(key)
        if f is None or (q := self._quantity(f, (SIZE, COUNT))) is None:
            return None
        if q[1].denominator != 1:
            self.bad(f.value, f"`{key}` of {self.what} '{self.decl.name}' is {q[1]} bytes, "
                              f"not a whole number of bytes")
            return None
        return int(q[1])

    def count(self, key: str) -> int | None:
        f = self.get(key)
        if f is None or (q := self._quantity(f, (COUNT,))) is None:
            return None
        if q[1].denominator != 1:
            self.expected(f, f.value)
            return None
        return int(q[1])

    def rate(self, key: str) -> tuple[str, Fraction] | None:
        """(RATE, bytes per second) or (PER_CYCLE, bytes per cycle)."""
        f = self.get(key)
        return None if f is None else self._quantity(f, (RATE, PER_CYCLE))

    def clock(self, key: str) -> Fraction | None:
        f = self.get(key)
        if f is None or (q := self._quantity(f, (CLOCK,))) is None:
            return None
        return q[1]

    def word(self, key: str, allowed: tuple[str, ...]) -> str | None:
        f = self.get(key)
        if f is None:
            return None
        if f.value is None or f.value._prod != "Word" or f.value.word not in allowed:
            self.expected(f, f.value)
            return None
        return f.value.word

    def mem(self, key: str):
        """The MemRef node (its name, and its span for later reports)."""
        f = self.get(key)
        if f is None:
            return None
        if f.value is None or f.value._prod != "MemRef":
            self.expected(f, f.value)
            return None
        return f.value

    def items(self, key: str, prod: str) -> tuple | None:
        """The items of a `[..]` list, each of production `prod`."""
        f = self.get(key)
        if f is None:
            return None
        v = f.value
        if v is None or v._prod != "DeclList" or any(i._prod != prod for i in v.items):
            self.expected(f, v)
            return None
        return v.items

    def flag(self, key: str) -> bool:
        f = self.get(key)
        if f is None:
            return False
        if f.value is not None:
            self.bad(f.value, f"`{key}` of {self.what} '{self.decl.name}' is a bare flag; "
                              f"write `{key}` alone")
        return True

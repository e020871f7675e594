"""Code that runs only for some run-time values: a branch of an `if`, or a loop, whose
condition is unknown while compiling.

The evaluator runs such code anyway, to find the checks in it it cannot show to pass; then
every variable the code wrote, and every tensor it wrote into, becomes unknown, since whether
(or how often) the writes happen is known only at run time. Writes are logged while a region
runs so that the other branch starts from the state before the first, and so that the
writes can be made unknown afterwards.
"""

from __future__ import annotations

from ..values.control import Return
from .errors import depends, unproven_check
from .values import Unknown


class RegionMixin:
    def wrote_store(self, store):
        if self.conditions:
            self.log.append((None, store, None))

    def taint(self, store, why):
        """Every element of the storage is unknown from now on (an unknown index or value
        was written into it). The storage is kept alive so that its id stays its own."""
        self.tainted[id(store)] = (store, why)
        self.wrote_store(store)

    def maybe(self, why, run):
        """Run code that runs only for some run-time values."""
        self.conditions.append(why)
        try:
            return run()
        finally:
            self.conditions.pop()

    def check_fails(self, span, detail: str):
        if self.conditions:
            unproven_check(span, f"{detail} on a path that runs only for some values of "
                                 f"{_what(self.conditions[-1])}")
        unproven_check(span, detail)

    def either(self, why, branches, frame, span):
        """`if` on an unknown condition: both (compiled) branches, each from the state
        before it."""
        start = len(self.log)
        for branch in branches:
            if branch is None:
                continue
            mark = len(self.log)
            r = self.maybe(why, lambda: branch(frame))
            if r is not None:
                depends(span, why, what=f"whether the `{_word(r)}` in this `if` runs")
            for held, name, old in reversed(self.log[mark:]):
                if held is not None:
                    held[name] = old
        self.forget(start, why)

    def unknown_loop(self, why, once, span):
        """A loop run an unknown number of times: its body until the set of variables it
        writes stops growing, each written variable unknown at the next pass."""
        seen: set = set()
        while True:
            self.budget.step(span)
            mark = len(self.log)
            r = self.maybe(why, once)
            if type(r) is Return:
                depends(span, why, what="whether the `return` in this loop runs")
            written = {(id(held), name) for held, name, _ in self.log[mark:] if held is not None}
            self.forget(mark, why)
            if written <= seen:
                return None
            seen |= written

    def forget(self, start: int, why):
        """Everything written since log entry `start` becomes unknown."""
        for held, name, _ in self.log[start:]:
            if held is None:
                self.tainted[id(name)] = (name, why)
            else:
                held[name] = Unknown(why)
        if not self.conditions:  # no enclosing region will need these entries
            del self.log[start:]


def _what(why) -> str:
    if why.kind == "overflow":
        return f"an integer result outside its type ({why.text})"
    return f"`{why.text}`, known only when the program runs"


def _word(r) -> str:
    return "return" if type(r) is Return else r.what

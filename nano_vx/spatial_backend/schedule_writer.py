"""What both backends do the same way to write one engine's schedule: its `repeat`s as C `for`
loops, each other op under a comment of its text form and written by the backend's handler
for it (its `OPS` table, checked against Schoreographed's ops when the backend loads), and the
names of the engine's private variables and cursors."""

from __future__ import annotations

from ..languages.schoreographed import Schoreographed
from ..nanopass import Handlers
from ..spatial.text import OP_WORDS


class ScheduleWriter:
    counter = "unsigned"  # the C type of a loop counter
    OPS: Handlers  # op production -> the backend's method writing its lines

    @staticmethod
    def ops_table(what: str) -> Handlers:
        return Handlers(what, (Schoreographed,), "Op")

    def __init__(self, plan):
        self.plan, self.p = plan, plan.p
        self.vars: dict[str, None] = {}  # the engine's private variables, in first use
        self.cursors: dict[tuple, str] = {}  # (stage, staging target) -> its cursor variable
        self.depth = 0

    def var(self, name: str) -> str:
        self.vars[name] = None
        return name

    def cursor(self, stage: str, target: str) -> str:
        """The variable counting the tiles a load or store of this engine has moved."""
        key = (stage, target)
        if key not in self.cursors:
            self.cursors[key] = f"cursor{len(self.cursors)}"
        return self.var(self.cursors[key])

    def ops(self, ops, out: list, pad: str) -> None:
        for op in ops:
            if op._prod == "Repeat":
                i = f"i{self.depth}"
                self.depth += 1
                out.append(f"{pad}for ({self.counter} {i} = 0; {i} < {op.count}u; ++{i}) {{")
                self.ops(op.body, out, pad + "    ")
                out.append(f"{pad}}}")
                self.depth -= 1
            else:
                out.append(f"{pad}// {' '.join([OP_WORDS[op._prod], *map(str, op.values())])}")
                out += [pad + line for line in self.OPS[op._prod](self, op)]

"""Who may read what: the reads check-visibility judges, against the reader's `visible:`."""

from __future__ import annotations

from fractions import Fraction

from .walk import PlacedWalk

_CONDITIONS = ("If", "While", "Assert")


def cost_text(cost: Fraction) -> str:
    return str(cost.numerator) if cost.denominator == 1 else f"{float(cost):.4g}"


def cost_number(cost: Fraction) -> int | float:
    return cost.numerator if cost.denominator == 1 else float(cost)


def display(uname: str) -> str:
    """The name the programmer wrote (`x#1` is the second `x`)."""
    return uname.partition("#")[0]


class Visibility(PlacedWalk):
    """Reports each read of a value the reading topology cannot see (E6003).

    A read is indexing (to read or write an element), printing, an operand of arithmetic or
    a comparison, a cast, a condition, or a compound assignment. A transfer is not a read.
    Inside `spawn on`, a local bound outside the block is a capture: refused once per block
    when the spawned topology cannot see it, unless the block only transfers it."""

    def __init__(self, tree, model, diagnostics):
        super().__init__(tree, model)
        self.diagnostics = diagnostics
        self.transferred: set[int] = set()
        self.spawns: list = []
        self.reported: set = set()

    def node(self, n):
        if n._prod != "Spawn":
            return super().node(n)
        self.spawns.append(n)
        super().node(n)
        self.spawns.pop()

    def visit(self, n):
        kind = n._prod
        if kind == "Index" and n.base._prod != "Index":
            self.read(n.base, n)
        elif kind == "Call" and n.callee._prod == "Global" and n.callee.name == "print":
            for a in n.args:
                if a._prod != "Index":
                    self.read(a, a)
        elif kind == "Binary":
            self.operands(n.left, n.right)
        elif kind == "Unary":
            self.operands(n.operand)
        elif kind == "Cast":
            self.operands(n.value)
        elif kind in _CONDITIONS:
            self.operands(n.cond)
        elif kind == "Assign" and n.op != "=":
            self.operands(n.target)
        elif kind == "Transfer":
            self.transferred.add(id(n.value))
        elif kind == "Local" and self.spawns and self.captured(n) \
                and id(n) not in self.transferred:
            self.capture(n)

    def operands(self, *exprs):
        for e in exprs:
            if e._prod == "Local":
                self.read(e, e)

    def read(self, value, at):
        if value._prod == "Local" and self.captured(value):
            return  # judged once, as a capture of the spawn
        self.judge(self.space_of(value), display(value.name) if value._prod == "Local" else None,
                   at)

    def capture(self, local):
        key = (id(self.spawns[-1]), local.name)
        if key in self.reported:
            return
        self.reported.add(key)
        spawn = self.spawns[-1]
        line, col = spawn.span.source.line_col(spawn.span.start) if spawn.span else (0, 0)
        self.judge(self.space_of(local), display(local.name), local,
                   note=f"'{display(local.name)}' is captured by the `spawn on` at "
                        f"{line}:{col}, which runs on {self.topo[-1]}; a transfer is the "
                        f"only way a value crosses into it")

    def judge(self, space, value: str | None, at, note=None):
        """Report reading `value` (a local's name, None for another expression) in
        `space` from the current topology, unless the topology sees it."""
        reader = self.topo[-1]
        sees = self.machine.sees(reader)
        declared = self.model.spaces.get(space) if space is not None else None
        if sees is None or declared is None or space in sees or declared.managed == "cached":
            return  # a generic or unknown reader, an unknown space, or a coherent cache
        home = self.machine.holds(reader)
        route = self.model.route(space, home)
        if route is None:
            fix = f"there is no transfer path from {space} to {home} on the declared model"
            cost = path = None
        else:
            fix = (f"insert an explicit transfer to {home} "
                   f"(cost {cost_text(route.cost)} on the declared path)")
            cost, path = cost_number(route.cost), list(route.path)
        repair = []
        if route is not None and value is not None:
            repair = [f"`let home = transfer({value}, Memory::{home});` and read `home`"]
        name = f"'{value}'" if value is not None else "this value"
        self.diagnostics.error(
            "E6003", at.span,
            f"{name} lives in {space} but {reader} sees only [{', '.join(sees)}]; {fix}",
            notes=[note] if note else [], help=repair,
            value=value, space=space, reader=reader, sees=list(sees), fix=home, cost=cost,
            path=path)

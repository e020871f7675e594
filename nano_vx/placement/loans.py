"""Loans and the variables that hold them, as the borrow checks read them off the text: what a
borrow takes, what a value carries, which variable holds it until the end of which block, and
what a block's end leaves dangling. Shared by check-loans (E4002-E4004) and
check-dangling-references (E4005)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..languages.lresolved import display_name
from ..nanopass.verify import child_nodes
from .references import DeclaredTypes, place_path, root


@dataclass(frozen=True)
class Loan:
    root: str  # the unique name of the borrowed variable
    mutable: bool
    borrow: object  # the Borrow node that took it
    held_by: str | None = None  # the variable that holds it, else a temporary
    ends: str = ""  # where it ends, as a note says it
    path: tuple = ()  # the part of root borrowed (place_path's): ("v",) for `&s.v`


@dataclass
class Holdings:
    """The loans the variables of the function being walked hold, per open block, with what
    a value's loans depend on: the declared types and the structs' fields."""

    types: DeclaredTypes = field(default_factory=DeclaredTypes)
    structs: dict = field(default_factory=dict)  # struct -> its fields' types, by name
    frames: list[list[Loan]] = field(default_factory=list)  # per open block, the loans held
    declared: dict[str, int] = field(default_factory=dict)  # local -> the frame declaring it
    blocks: list = field(default_factory=list)  # the open Block nodes, as frames

    @classmethod
    def of(cls, program) -> Holdings:
        return cls(DeclaredTypes.of(program),
                   {item.name: {f.name: f.type for f in item.fields}
                    for item in program.items if item._prod == "StructDecl"})

    def enter(self, fn) -> None:
        """Start on the function `fn`: its parameters are declared by its body's frame."""
        self.types.enter(fn)
        self.declared = {p.name: 0 for p in fn.params}

    def open(self, block) -> None:
        self.frames.append([])
        self.blocks.append(block)

    def close(self) -> list[Loan]:
        """The innermost block ends, and with it the loans of the variables it declared (not a
        borrow through a reference, which names what the reference names): those a variable of
        an outer block holds dangle, and are returned, in the order held."""
        depth = len(self.frames) - 1
        dangling = []
        for frame in self.frames[:depth]:
            gone = [loan for loan in frame if self.declared.get(loan.root) == depth
                    and self.names_root(loan)]
            frame[:] = [loan for loan in frame if loan not in gone]
            dangling += gone
        self.blocks.pop()
        self.frames.pop()
        return dangling

    def end(self, depth: int) -> tuple[int, int]:
        """Where the block of frame `depth` ends: the line and column of its `}`."""
        block = self.blocks[depth]
        return block.span.source.line_col(block.span.end - 1) if block.span is not None \
            else (0, 0)

    def let(self, node) -> None:
        """The `let` `node`, its value walked: its name is declared here, and holds what the
        value carries."""
        self.types.locals[node.name] = node.type
        self.declared[node.name] = len(self.frames) - 1
        self.hold(node.name, self.carried(node.value))

    def hold(self, name: str, loans: list[Loan], keep: bool = False) -> None:
        """`name` holds `loans` (and, unless it `keep`s them, no longer those it held) to the
        end of its block."""
        if not keep:
            for frame in self.frames:
                frame[:] = [loan for loan in frame if loan.held_by != name]
        depth = self.declared.get(name, len(self.frames) - 1)
        line, col = self.end(depth)
        ends = f"held by '{display_name(name)}' until the end of its block, at {line}:{col}"
        self.frames[depth].extend(replace(loan, held_by=name, ends=ends) for loan in loans)

    def assigned(self, node) -> None:
        """The assignment `node`, walked: `p = ..` holds what the value carries instead of
        what p held; `h.t = ..` adds it to what h holds."""
        target = node.target
        if target._prod == "Local" and node.op == "=":
            self.hold(target.name, self.carried(node.value))
        elif (whole := part_of(target)) is not None and whole is not target:
            self.hold(whole.name, self.carried(node.value), keep=True)

    def carried(self, e) -> list[Loan]:
        """The loans the value of `e` carries: a borrow's own (and those of what it reaches),
        a reference variable's, those a call returning a reference takes from its arguments,
        a struct's or tuple's parts', those of the branch values of an `if` or `match`."""
        kind = e._prod
        if kind == "Borrow":  # and what is reached through it: what x or the reference holds
            x = root(e.value)
            ref = self.types.through(e.value)
            own = [Loan(x, e.mutable, e, path=place_path(e.value))] if x is not None else []
            return own + (self.carried(ref) if ref is not None else self.held(x))
        if kind == "Local":
            return self.held(e.name)
        if kind == "Call":
            ret = self.types.results.get(e.callee.name) if e.callee._prod == "Global" else None
            if ret is None or ret._prod != "BorrowType":
                return []
            return [loan for a in e.args for loan in self.carried(a)]
        if kind in ("StructLit", "Tuple"):
            parts = (f.value for f in e.fields) if kind == "StructLit" else e.elems
            return [loan for part in parts for loan in self.carried(part)]
        if kind in ("FieldGet", "TupleGet"):  # a part of a holder: what the holder holds, if any
            return self.carried(e.base) if self._refers(self.part_type(e)) else []
        if kind in ("Match", "MatchValue"):
            return [loan for arm in (e.arms if kind == "Match" else e.cases)
                    if arm.body.value is not None for loan in self.carried(arm.body.value)]
        return [loan for child in child_nodes(e) if child._prod == "Block"
                and child.value is not None for loan in self.carried(child.value)]

    def held(self, name: str | None) -> list[Loan]:
        return [loan for frame in self.frames for loan in frame if loan.held_by == name] \
            if name is not None else []

    def names_root(self, loan: Loan) -> bool:
        """Whether `loan` names its root variable: a borrow through a reference p (`&*p`,
        `&p[i]`) names what p names, whose loans it carries, and does not end with p."""
        return self.types.through(loan.borrow.value) is None

    def part_type(self, e):
        """The declared type of a variable or of a part of one (`h.t`, `p.0`), else None."""
        if e._prod == "Local":
            return self.types.locals.get(e.name)
        base = self.part_type(e.base) if e._prod in ("FieldGet", "TupleGet") else None
        if base is not None and e._prod == "TupleGet" and base._prod == "TupleType":
            return base.elems[e.index] if e.index < len(base.elems) else None
        if base is not None and e._prod == "FieldGet" and base._prod == "NamedType":
            return self.structs.get(base.name, {}).get(e.field)
        return None

    def _refers(self, t, seen: frozenset = frozenset()) -> bool:
        """Whether a value of type `t` may hold a reference."""
        if t is None:
            return False
        if t._prod == "BorrowType":
            return True
        if t._prod == "TupleType":
            return any(self._refers(elem, seen) for elem in t.elems)
        fields = self.structs.get(t.name, {}) if t._prod == "NamedType" and t.name not in seen \
            else {}
        return any(self._refers(ft, seen | {t.name}) for ft in fields.values())


def part_of(place):
    """The variable `place` is, or a field or a tuple's element of (`h`, `h.t`, `p.0.f`),
    else None."""
    while place._prod in ("FieldGet", "TupleGet"):
        place = place.base
    return place if place._prod == "Local" else None


def line_col(node) -> tuple[int, int]:
    """The line and column `node` starts at, (0, 0) when it has no place in the text."""
    return node.span.source.line_col(node.span.start) if node.span is not None else (0, 0)

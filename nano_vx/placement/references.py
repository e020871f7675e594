"""References and the places they reach, as the borrow checks read them: the variable a place
borrows from, the reference a write goes through, and the declared type of a reference
expression. Shared by check-shared-writes (E4006), check-loans (E4002-E4004) and
check-dangling-references (E4005), the last two through placement/loans.py."""

from __future__ import annotations

from dataclasses import dataclass, field


def root(place) -> str | None:
    """The variable a place expression borrows from: x for `x`, `x[i]`, `x.f`, `x.0`, and `*x`
    (a reborrow through the reference x); None for a temporary (`&5`, `&f(x)`)."""
    while place._prod in ("Index", "FieldGet", "TupleGet", "Deref"):
        place = place.value if place._prod == "Deref" else place.base
    return place.name if place._prod == "Local" else None


def place_path(place) -> tuple:
    """The fields and tuple elements a place names below the variable it borrows from:
    ("v", "x") for `s.v.x`, (0,) for `p.0`; () for the whole (`s`, and `s.t[i]` of a tensor
    field is ("t",): indexing borrows the whole tensor, as in Rust; a reborrow `*p` is all of
    what it reborrows)."""
    path = []
    while place._prod in ("Index", "FieldGet", "TupleGet", "Deref"):
        if place._prod in ("Index", "Deref"):
            path = []
        else:
            path.append(place.field if place._prod == "FieldGet" else place.index)
        place = place.value if place._prod == "Deref" else place.base
    return tuple(reversed(path))


def overlap(a: tuple, b: tuple) -> bool:
    """Whether the parts `a` and `b` of one variable (place_path's) share a place: one holds
    the other (`s` and `s.v`, `s.v` and `s.v.x`); `s.v` and `s.w` are apart."""
    return a[:len(b)] == b[:len(a)]


def shown_place(x: str, path: tuple) -> str:
    """The variable x's part `path` as the programmer writes it: `s.v.0`."""
    return ".".join((x, *map(str, path)))


@dataclass
class DeclaredTypes:
    """The types a program declares, as far as a borrow check needs them: each function's
    result, and the locals of the function being walked (its parameters, its `let`s and its
    closures' parameters), each as written (a `let`'s as infer-placement wrote it)."""

    results: dict = field(default_factory=dict)  # function -> its declared result type
    locals: dict = field(default_factory=dict)  # local -> its type

    @classmethod
    def of(cls, program) -> DeclaredTypes:
        return cls({item.name: item.ret for item in program.items if item._prod == "Fn"})

    def enter(self, fn) -> None:
        """Start on the function `fn`: its parameters are the locals known so far."""
        self.locals = {}
        self.bind(fn.params)

    def bind(self, params) -> None:
        """The parameters `params` (a function's, a closure's) are locals of their types."""
        self.locals.update((p.name, p.type) for p in params)

    def type_of(self, e):
        """The type of a reference expression, or None when it is none this knows."""
        kind = e._prod
        if kind == "Local":
            return self.locals.get(e.name)
        if kind == "Deref":
            t = self.type_of(e.value)
            return t.inner if t is not None and t._prod == "BorrowType" else None
        if kind == "Call" and e.callee._prod == "Global":
            return self.results.get(e.callee.name)
        return None

    def through(self, place):
        """The reference a write to `place` goes through (`*p`; `p[i]`, `p.f` or `p.0` for a
        reference p, which indexing and parts see through; `(*p)[i]`), or None when it writes
        a variable of its own."""
        base = place
        while base._prod in ("Index", "FieldGet", "TupleGet"):
            base = base.base
        if base._prod == "Deref":
            return base.value
        t = self.type_of(base) if base is not place else None
        return base if t is not None and t._prod == "BorrowType" else None

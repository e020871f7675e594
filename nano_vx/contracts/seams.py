"""A kernel's boundary contract with the relaxed transfers that reach it, for verify-seams:
each `assert` of a `spawn on` body that reads a moved tensor, built twice by the one encoding
of Vx into z3 (terms.py), over the tensor as the writer left it and as the kernel may read it
stale, and the solver's counterexample when the stale data can make it false.

z3 is imported when a kernel is first judged, not when this module is.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import visible
from ..languages.lsrc import nested_blocks
from ..solver import bounded, counterexample, show, smallest
from .terms import FLOAT_LITERAL, INT_LITERAL, LITERALS, Encoding, Term, Unknown


# A seam the solver cannot decide within this much work is not refused. Work, not time: a
# wall-clock limit gave another verdict on a loaded machine (the IEEE queries take ~5 million
# units, under a second here); the timeout only guards against a query that never ends.
SOLVER_RLIMIT = 50_000_000
SOLVER_MS = 120_000


@dataclass
class Failure:
    let: object  # the Let of the relaxed transfer
    counterexample: str
    reads: list  # for JSON: [{"read": "local_a[0]", "fresh": "42", "stale": "0"}]


# The scalars and operators whose conditions the seams check: signed integers, f32, f64 and
# bools, compared and combined by `+ - * / %`, `&&`, `||` and `!`. A condition with anything
# else (an unsigned integer, a bitwise operator, a term of literals alone) is not checked.
SCALARS = frozenset({"bool", "i8", "i16", "i32", "i64", "f32", "f64"})
OPERATORS = frozenset({"==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"})


def _unguarded(cond) -> None:
    """What an operation needs not to stop the kernel (a divisor other than zero) is not
    assumed: z3's total division stands in for the stop."""


def failures(body, relaxed: dict, types: dict) -> list[Failure]:
    """The asserts of the kernel `body` that stale data can make false, one Failure per
    relaxed transfer they read: `relaxed` maps a local to the Let of its relaxed transfer,
    `types` a local to its declared type."""
    kernel = _Kernel(Encoding(), relaxed, types)
    kernel.block(body)
    return kernel.failures


class _Untranslatable(Exception):
    """A condition with a part the solver cannot express: its assert is not checked."""


class _Kernel:
    """The asserts of one `spawn on` body, each built twice over the moved tensors: as the
    writer left them and as the kernel may read them."""

    def __init__(self, enc: Encoding, relaxed: dict, types: dict):
        self.enc, self.z3 = enc, enc.z
        self.relaxed = relaxed  # less the names the kernel binds again, where it does
        self.types = dict(types)
        self.env: dict = {}  # immutable locals bound in the kernel -> two terms, their reads
        self.arrays: dict = {}  # (tensor, side) -> its z3 array
        self.reads: list = []  # (tensor, index term, rendered) of the current condition
        self.failures: list[Failure] = []
        self.blamed: set[str] = set()  # one refusal per relaxed transfer

    # -- walking the kernel ------------------------------------------------------------

    def block(self, block, bound: str | None = None) -> None:
        """Its statements; a name bound in it (`bound`: a loop's variable) is the block's
        own value up to its end, not the relaxed move's of that name."""
        outer = self.relaxed
        self.relaxed = {k: v for k, v in outer.items() if k != bound}
        for stmt in block.stmts:
            self.stmt(stmt)
        self.relaxed = outer

    def stmt(self, stmt) -> None:
        kind = stmt._prod
        if kind == "Let":
            self.types[stmt.name] = stmt.type
            self.env.pop(stmt.name, None)
            if not stmt.mutable:
                self.reads = []
                try:
                    self.env[stmt.name] = (self.encoded(stmt.value, "fresh"),
                                           self.encoded(stmt.value, "stale"), self.reads)
                except _Untranslatable:
                    pass
            # From here on the name is the kernel's own value (renaming makes that rare).
            self.relaxed = {k: v for k, v in self.relaxed.items() if k != stmt.name}
        elif kind == "Assert":
            self.assertion(stmt)
        elif kind == "For":
            self.types[stmt.var] = "i32"  # a loop counter: any value of its type
        for child in nested_blocks(stmt):
            self.block(child, stmt.var if kind == "For" else None)

    def assertion(self, stmt) -> None:
        self.reads = []
        try:
            fresh = self.condition(stmt.cond, "fresh")
            stale = self.condition(stmt.cond, "stale")
        except _Untranslatable:
            return
        moved = {tensor for tensor, _, _ in self.reads}
        if not moved or moved <= self.blamed:
            return
        refuted = (fresh, self.z3.Not(stale))
        verdict = counterexample(bounded(SOLVER_MS, SOLVER_RLIMIT), *refuted)
        if verdict.status != "fails":
            return
        reads = [(self.z3.Select(self.array(tensor, side), index), True)
                 for tensor, index, _ in self.reads for side in ("fresh", "stale")]
        model = smallest(refuted, reads) or verdict.model
        self.failures.append(self.failure(stmt, model, moved))
        self.blamed |= moved

    def failure(self, stmt, model, moved) -> Failure:
        seen, parts, reads = set(), [], []
        for tensor, index, shown in self.reads:
            if shown in seen:
                continue
            seen.add(shown)
            fresh, stale = (show(model.eval(
                self.z3.Select(self.array(tensor, side), index), model_completion=True))
                for side in ("fresh", "stale"))
            parts.append(f"`{shown}` is {fresh} as written but {stale} as the kernel may read "
                         f"it")
            reads.append({"read": shown, "fresh": fresh, "stale": stale})
        span = stmt.cond.span
        where = ""
        if span is not None:
            cond = visible(span.source.text[span.start:span.end])
            line, col = span.source.line_col(span.start)
            where = f" `{cond}` at {line}:{col}"
        text = (f"counterexample from z3: {'; '.join(parts)}, which makes the kernel's "
                f"assert{where} false")
        let = self.relaxed[sorted(moved)[0]]
        return Failure(let, text, reads)

    # -- conditions as z3 terms, by the one encoding of Vx (contracts/terms.py) -----------

    def condition(self, expr, side: str):
        t = self.encoded(expr, side)
        if t.ty != "bool":
            raise _Untranslatable(expr._prod)
        return t.expr

    def encoded(self, expr, side: str) -> Term:
        """`expr` as the kernel computes it on one side; _Untranslatable when the encoding
        does not follow a part of it (it makes an opaque constant for operands of two
        types)."""
        made = len(self.enc.opaque)
        t = self.term(expr, side)
        if len(self.enc.opaque) > made:
            raise _Untranslatable(expr._prod)
        return t

    def term(self, e, side: str) -> Term:
        enc = self.enc
        kind = e._prod
        if kind == "Int":
            return Term(e.value, INT_LITERAL)
        if kind == "Float":
            return Term(e.value, FLOAT_LITERAL)
        if kind == "Bool":
            return Term(enc.truth(e.value), "bool")
        if kind == "Local":
            if e.name in self.env:
                fresh, stale, reads = self.env[e.name]
                self.reads += reads
                return fresh if side == "fresh" else stale
            return self.variable(e.name)
        if kind == "Index":
            return self.index(e, side)
        if kind == "Unary":
            operand = self.term(e.operand, side)
            if e.op == "!" and operand.ty != "bool":
                raise _Untranslatable(e.op)
            return _known(enc.unary(e.op, operand, e))
        if kind == "Binary":
            return self.binary(e, self.term(e.left, side), self.term(e.right, side))
        raise _Untranslatable(kind)

    def variable(self, name: str) -> Term:
        """A value the kernel receives that no relaxed move carries: the same on both
        sides, any value of its type."""
        scalar = _scalar(self.types.get(name))
        if scalar not in SCALARS:
            raise _Untranslatable(name)
        return self.enc.constant(name, scalar)

    def index(self, e, side: str) -> Term:
        if e.base._prod != "Local":
            raise _Untranslatable("Index")
        tensor = e.base.name
        elem = _element(self.types.get(tensor))
        at = _known(self.enc.index(self.term(e.index, side), e.index))
        moved = tensor in self.relaxed
        array = self.array(tensor, side if moved else "fresh")
        if moved:
            shown = f"{_local(tensor)}[{show(self.z3.simplify(at.expr))}]"
            self.reads.append((tensor, at.expr, shown))
        return self.enc.element(array, elem, at)

    def array(self, tensor: str, side: str):
        key = (tensor, side)
        if key not in self.arrays:
            elem = _element(self.types.get(tensor))
            if elem not in SCALARS:
                raise _Untranslatable(f"tensor of {elem}")
            self.arrays[key] = self.enc.array(f"{_local(tensor)}.{side}", elem)
        return self.arrays[key]

    def binary(self, e, a: Term, b: Term) -> Term:
        op = e.op
        if op in ("&&", "||"):
            if a.ty != "bool" or b.ty != "bool":
                raise _Untranslatable(op)
            return Term((self.z3.And if op == "&&" else self.z3.Or)(a.expr, b.expr), "bool")
        if op not in OPERATORS or a.ty in LITERALS and b.ty in LITERALS:
            raise _Untranslatable(op)
        return _known(self.enc.binary(op, a, b, e, _unguarded))


def _known(v) -> Term:
    """A value the encoding follows; _Untranslatable for an Unknown."""
    if isinstance(v, Unknown):
        raise _Untranslatable(v.why)
    return v


def _scalar(type_node) -> str | None:
    """A local's scalar type (a loop counter's is given by name). Unlike
    `values.literals.scalar_hint`, a reference is no scalar: the seams do not follow one."""
    if isinstance(type_node, str):
        return type_node
    while type_node is not None and type_node._prod in ("VerifiedType", "PinnedType"):
        type_node = type_node.inner
    return type_node.name if type_node is not None and type_node._prod == "Scalar" else None


def _element(type_node) -> str | None:
    while type_node is not None and type_node._prod in ("VerifiedType", "PinnedType"):
        type_node = type_node.inner
    if type_node is None or type_node._prod != "TensorType":
        return None
    return _scalar(type_node.elem)


def _local(name: str) -> str:
    """A local as the program wrote it (`x#1` is the second `x`)."""
    return name.split("#")[0]

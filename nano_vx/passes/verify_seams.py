"""verify-seams: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import visible

from ..languages.l0_source import nested_blocks
from ..languages.l8_routed import Lrouted
from ..nanopass import Analysis
from ..solver import bounded, counterexample, float_sort, show, smallest, z3 as load_z3


@dataclass
class State:
    relaxed: dict = field(default_factory=dict)  # local -> its Let, whose value moves relaxed
    types: dict = field(default_factory=dict)  # local -> its declared type, in this function


verify_seams = Analysis("verify-seams", Lrouted, """
With --verify-seams, refuse a relaxed transfer whose data a kernel's assert depends on (E6004).

`x.to_device_relaxed()` moves a tensor without the release that makes the writes before it
visible to the code that runs after it on the device: a kernel may read what the space held
before. The seam is the relaxed transfer; the kernel's contract with it is every `assert` in
a `spawn on` body that reads the moved tensor. That contract becomes an obligation, discharged
by z3: the assert's condition is built twice over the tensor's elements, once as the writer
left them (fresh) and once as the kernel may find them (stale), everything else shared; if
some fresh contents make the condition true and some stale contents make it false, the assert
depends on the data the relaxed transfer does not publish, and the transfer is refused, with
the solver's counterexample as a note. A condition that holds whatever the elements are, or
that reads no moved tensor, asks nothing of the seam. A synchronized transfer (`to_device()`)
publishes its data and is never an obligation. Conditions the solver cannot express (calls,
tensors built in the kernel, unsigned integers) are not checked.

Integers are bit-vectors of their width (they wrap, as the interpreter's do), floats IEEE
floats of theirs; z3 is imported only when the flag is given.
""", state=State)


@verify_seams.on("Fn")
def _fn(run, fn):
    if not run.ctx.verify_seams:
        return
    run.state.relaxed.clear()
    run.state.types = {p.name: p.type for p in fn.params if p.type is not None}
    run.descend(fn)


@verify_seams.on("Let")
def _let(run, let):
    run.state.types[let.name] = let.type
    value = let.value
    if value._prod == "Transfer" and value.mark == "relaxed":
        run.state.relaxed[let.name] = let
    else:  # a name bound again holds another value (renaming makes that rare)
        run.state.relaxed.pop(let.name, None)
    run.descend(let)


@verify_seams.on("Block")
def _block(run, block):
    # A name a block binds again is its own up to the block's end.
    outer = dict(run.state.relaxed)
    run.descend(block)
    run.state.relaxed = outer


@verify_seams.on("Spawn")
def _spawn(run, spawn):
    if not run.state.relaxed:
        return
    # z3 is imported only with --verify-seams, and only when a relaxed move reaches a kernel.
    kernel = _Kernel(load_z3(), run.state.relaxed, run.state.types)
    kernel.block(spawn.body)
    for failure in kernel.failures:
        _report(run, failure)


def _report(run, failure) -> None:
    let = failure.let
    transfer = let.value
    value = transfer.value.name if transfer.value._prod == "Local" else let.name
    src = transfer.src.name if transfer.src is not None else "its space"
    seam = f"{src} -> {transfer.dest.name}"
    run.ctx.diagnostics.error(
        "E6004", transfer.span,
        f"relaxed transfer of '{value}' across the {seam} seam violates the boundary "
        f"contract: the buffer carries no synchronizing release, so a consumer may read it "
        f"stale",
        notes=[failure.counterexample],
        help=[f"move it with `{value}.to_device()`, which releases the buffer before the "
              f"kernel runs"],
        value=value, seam=[src, transfer.dest.name], reads=failure.reads)


# -- the obligations of one kernel -------------------------------------------------------------

# A seam the solver cannot decide within this much work is not refused. Work, not time: a
# wall-clock limit gave another verdict on a loaded machine (the IEEE queries take ~5 million
# units, under a second here); the timeout only guards against a query that never ends.
SOLVER_RLIMIT = 50_000_000
SOLVER_MS = 120_000


class _Untranslatable(Exception):
    """A condition with a part the solver cannot express: its assert is not checked."""


@dataclass
class _Failure:
    let: object  # the Let of the relaxed transfer
    counterexample: str
    reads: list  # for JSON: [{"read": "local_a[0]", "fresh": "42", "stale": "0"}]


@dataclass
class _Term:
    expr: object  # a z3 expression, or an int or float literal not yet given a type
    kind: str  # "bool", "int", "float", or "literal"
    bits: int = 0


# Signed integers: their comparisons and division are the bit-vectors' signed ones. An
# unsigned element makes its condition one the pass does not check.
INT_BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}
FLOAT_BITS = {"f32": 32, "f64": 64}


class _Kernel:
    """The asserts of one `spawn on` body, each built twice over the moved tensors: as the
    writer left them and as the kernel may read them."""

    def __init__(self, z3, relaxed: dict, types: dict):
        self.z3 = z3
        self.relaxed = relaxed  # less the names the kernel binds again, where it does
        self.types = dict(types)
        self.env: dict = {}  # immutable locals bound in the kernel -> two terms, their reads
        self.arrays: dict = {}  # (tensor, side) -> its z3 array
        self.reads: list = []  # (tensor, index term, rendered) of the current condition
        self.failures: list[_Failure] = []
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
                    self.env[stmt.name] = (self.term(stmt.value, "fresh"),
                                           self.term(stmt.value, "stale"), self.reads)
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
        model = smallest(refuted, reads, SOLVER_MS) or verdict.model
        self.failures.append(self.failure(stmt, model, moved))
        self.blamed |= moved

    def failure(self, stmt, model, moved) -> _Failure:
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
        return _Failure(let, text, reads)

    # -- conditions as z3 terms --------------------------------------------------------

    def condition(self, expr, side: str):
        t = self.term(expr, side)
        if t.kind != "bool":
            raise _Untranslatable(expr._prod)
        return t.expr

    def term(self, e, side: str) -> _Term:
        z3 = self.z3
        kind = e._prod
        if kind == "Int":
            return _Term(e.value, "literal")
        if kind == "Float":
            return _Term(float(e.value), "literal")
        if kind == "Bool":
            return _Term(z3.BoolVal(e.value), "bool")
        if kind == "Local":
            if e.name in self.env:
                fresh, stale, reads = self.env[e.name]
                self.reads += reads
                return fresh if side == "fresh" else stale
            return self.variable(e.name)
        if kind == "Index":
            return self.index(e, side)
        if kind == "Unary":
            return self.unary(e.op, self.term(e.operand, side))
        if kind == "Binary":
            return self.binary(e.op, self.term(e.left, side), self.term(e.right, side))
        raise _Untranslatable(kind)

    def variable(self, name: str) -> _Term:
        """A value the kernel receives that no relaxed move carries: the same on both
        sides, any value of its type."""
        z3 = self.z3
        scalar = _scalar(self.types.get(name))
        if scalar == "bool":
            return _Term(z3.Bool(name), "bool")
        if scalar in INT_BITS:
            return _Term(z3.BitVec(name, INT_BITS[scalar]), "int", INT_BITS[scalar])
        if scalar in FLOAT_BITS:
            return _Term(z3.FP(name, float_sort(scalar)), "float",
                         FLOAT_BITS[scalar])
        raise _Untranslatable(name)

    def index(self, e, side: str) -> _Term:
        if e.base._prod != "Local":
            raise _Untranslatable("Index")
        tensor = e.base.name
        elem = _element(self.types.get(tensor))
        index = self.fit(self.term(e.index, side), 64, "int")
        moved = tensor in self.relaxed
        array = self.array(tensor, side if moved else "fresh")
        if moved:
            shown = f"{_local(tensor)}[{show(self.z3.simplify(index.expr))}]"
            self.reads.append((tensor, index.expr, shown))
        value = self.z3.Select(array, index.expr)
        if elem in INT_BITS:
            return _Term(value, "int", INT_BITS[elem])
        if elem in FLOAT_BITS:
            return _Term(value, "float", FLOAT_BITS[elem])
        if elem == "bool":
            return _Term(value, "bool")
        raise _Untranslatable(f"tensor of {elem}")

    def array(self, tensor: str, side: str):
        key = (tensor, side)
        if key not in self.arrays:
            z3 = self.z3
            elem = _element(self.types.get(tensor))
            if elem in INT_BITS:
                sort = z3.BitVecSort(INT_BITS[elem])
            elif elem in FLOAT_BITS:
                sort = float_sort(elem)
            elif elem == "bool":
                sort = z3.BoolSort()
            else:
                raise _Untranslatable(f"tensor of {elem}")
            self.arrays[key] = z3.Array(f"{_local(tensor)}.{side}", z3.BitVecSort(64), sort)
        return self.arrays[key]

    def fit(self, t: _Term, bits: int, kind: str) -> _Term:
        """A literal given the type of the other operand; a value widened to 64 bits to
        index a tensor."""
        z3 = self.z3
        if t.kind == "literal":
            if kind == "float":
                return _Term(z3.FPVal(float(t.expr), float_sort(f"f{bits}")), "float", bits)
            if isinstance(t.expr, float):
                raise _Untranslatable("a float literal where an integer goes")
            return _Term(z3.BitVecVal(t.expr, bits), "int", bits)
        if t.kind == "int" and kind == "int" and t.bits < bits:
            return _Term(z3.SignExt(bits - t.bits, t.expr), "int", bits)
        if t.kind != kind or t.bits != bits:
            raise _Untranslatable("operands of two types")
        return t

    def unary(self, op: str, t: _Term) -> _Term:
        z3 = self.z3
        if op == "!" and t.kind == "bool":
            return _Term(z3.Not(t.expr), "bool")
        if op == "-" and t.kind == "literal":
            return _Term(-t.expr, "literal")
        if op == "-" and t.kind in ("int", "float"):
            return _Term(-t.expr, t.kind, t.bits)
        raise _Untranslatable(op)

    def binary(self, op: str, a: _Term, b: _Term) -> _Term:
        z3 = self.z3
        if op in ("&&", "||"):
            if a.kind != "bool" or b.kind != "bool":
                raise _Untranslatable(op)
            return _Term((z3.And if op == "&&" else z3.Or)(a.expr, b.expr), "bool")
        if a.kind == "literal" and b.kind == "literal":
            raise _Untranslatable("a condition on literals alone")
        typed = a if a.kind != "literal" else b
        if typed.kind == "bool":
            if op not in ("==", "!="):
                raise _Untranslatable(op)
            same = a.expr == b.expr
            return _Term(same if op == "==" else z3.Not(same), "bool")
        a, b = self.fit(a, typed.bits, typed.kind), self.fit(b, typed.bits, typed.kind)
        if typed.kind == "int":
            return _int_op(z3, op, a, b)
        return _float_op(z3, op, a, b)


def _int_op(z3, op: str, a: _Term, b: _Term) -> _Term:
    x, y = a.expr, b.expr
    compare = {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}
    if op in compare:
        return _Term(compare[op], "bool")
    arith = {"+": lambda: x + y, "-": lambda: x - y, "*": lambda: x * y,
             "/": lambda: x / y, "%": lambda: z3.SRem(x, y)}
    if op not in arith:
        raise _Untranslatable(op)
    return _Term(arith[op](), "int", a.bits)


def _float_op(z3, op: str, a: _Term, b: _Term) -> _Term:
    x, y = a.expr, b.expr
    compare = {"==": z3.fpEQ(x, y), "!=": z3.Not(z3.fpEQ(x, y)), "<": z3.fpLT(x, y),
               "<=": z3.fpLEQ(x, y), ">": z3.fpGT(x, y), ">=": z3.fpGEQ(x, y)}
    if op in compare:
        return _Term(compare[op], "bool")
    rne = z3.RNE()
    arith = {"+": z3.fpAdd, "-": z3.fpSub, "*": z3.fpMul, "/": z3.fpDiv}
    if op not in arith:
        raise _Untranslatable(op)
    return _Term(arith[op](rne, x, y), "float", a.bits)


def _scalar(type_node) -> str | None:
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

"""`a && b` and `a || b` in MLIR, on a FunctionBuilder: b counts only when a does not decide.
A right side that can neither stop nor have an effect is computed anyway, which is safe and
cheaper than a branch (arith.andi, arith.ori); any other is branched to
(FunctionBuilder.short_circuit), so that it runs only when the interpreter runs it."""

from __future__ import annotations


def logic(b, e) -> str:
    """The bool `e.left && e.right` (`||`)."""
    left, _ = b.lower(e.left)
    if pure(e.right):
        right, _ = b.lower(e.right)
        return b.op("Arith", "andi" if e.op == "&&" else "ori", left, right, "i1")
    return b.short_circuit(e.op, left, lambda: b.lower(e.right)[0], e.span)


def pure(e) -> bool:
    """An expression that can neither stop nor have an effect: evaluating it early is safe."""
    if e._prod in ("Int", "Float", "Bool", "Local"):
        return True
    if e._prod == "Binary":
        return e.op not in ("/", "%") and pure(e.left) and pure(e.right)
    if e._prod in ("Unary", "Cast"):
        return pure(e.operand if e._prod == "Unary" else e.value)
    return False

"""Why a block does not fold: each E3033 says which rule it broke (semantics §4)."""

from __future__ import annotations


def written(node) -> str:
    """The source text of a node, for a message."""
    s = node.span
    return s.source.text[s.start:s.end] if s is not None else node._prod


class ComptimeError(Exception):
    """Evaluation of one block stopped: a diagnostic for the pass to report."""

    def __init__(self, code: str, span, message: str, **data):
        super().__init__(f"{code}: {message}")
        self.code, self.span, self.message, self.data = code, span, message, data


def cannot_finish(span, detail: str):
    raise ComptimeError("E3033", span, f"this comptime block cannot be finished while "
                                       f"compiling: {detail}", rule="cannot-finish")


def writes_outside(span, name: str):
    raise ComptimeError("E3033", span, f"this comptime block writes to `{name}`, which is "
                                       f"declared outside it: the block disappears, and the "
                                       f"write with it", rule="writes-outside", variable=name)


def unproven_check(span, detail: str, **data):
    raise ComptimeError("E3033", span, f"this comptime block holds a check the compiler "
                                       f"cannot show to pass: {detail}", rule="check", **data)


def depends(span, why, what: str = "the value of this comptime block"):
    """`what` depends on an unknown value: a run-time read or an out-of-range result."""
    if why.kind == "overflow":
        raise ComptimeError("E3033", span, f"{what} depends on an integer result outside its "
                                           f"type: {why.text}", rule="out-of-range")
    raise ComptimeError("E3033", span, f"{what} depends on `{why.text}`, known only when the "
                                       f"program runs", rule="run-time-value",
                        variable=why.text)


def out_of_range(span, index: int, dims, axis: int):
    where = (f"this array has {dims[0]} elements" if len(dims) == 1 else
             f"dimension {axis} of this tensor has extent {dims[axis]}")
    raise ComptimeError("E8003", span, f"index {index} is out of range: {where}",
                        index=index, axis=axis, extent=dims[axis])


def failed_precondition(span, text: str):
    raise ComptimeError("E8006", span, f"precondition `{text}` is false at a call made while "
                                       f"compiling", contract=text)


def failed_assert(span, text: str):
    raise ComptimeError("E8002", span, f"this assert is false while compiling: {text}")

"""verify-seams: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..contracts.seams import failures
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis


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
floats of theirs: the one encoding of Vx into z3 (`nano_vx/contracts/terms.py`, which
verify-contracts uses too), with which `nano_vx/contracts/seams.py` builds a kernel's
obligations; z3 is imported only when the flag is given.
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
    for failure in failures(spawn.body, run.state.relaxed, run.state.types):
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

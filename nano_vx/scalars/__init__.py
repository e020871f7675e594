"""Scalar types for native code, inferred as Rust infers them: the type terms and their
unification (`terms`), what a program's items declare (`signatures`), and the rules that
type one item (`infer`, a table checked against the IL it reads). The native-code gate, the
erasure of references to tensors and type-scalars each run the inference and read it,
number-texts runs it typing strings as it types any scalar, to find where they are, and
erase-variable-extents and compute-wide-extents run it on a draft (`extents`) to learn the
types it settles for the `let`s and loop variables whose types the program leaves to it."""

from __future__ import annotations

from dataclasses import dataclass

from .infer import Infer
from .plain_locals import plain_locals, retyped_plain_local, retyped_plain_parameter
from .signatures import Signatures


@dataclass
class Inferred:
    sigs: Signatures
    items: dict  # item name -> its Infer, for every function and constant
    refused: dict  # item name -> (node, what native code does not lower), in program order


def infer_program(program, texts: bool = False, erased: bool = False,
                  plain: bool = False) -> Inferred:
    """Infer every function and constant of `program`, in order: a kernel's parameters are
    what the launch before it passes. `texts`: type the strings a variable, a parameter or a
    result holds (number-texts reads where they are), rather than refuse them; `erased`:
    references to tensors are erased (a row lent is `t[i]`); `plain`: refuse a function
    where a local the interpreter holds as a plain i32 or f64 is typed otherwise by a later
    use, whose arithmetic native code would compute in that type, or so a closure's
    parameter of no written type its calls give plain values (plain_locals)."""
    sigs = Signatures(program)
    items, refused = {}, {}
    for item in program.items:
        if item._prod in ("Fn", "ConstItem"):
            infer = items[item.name] = Infer(sigs, item, texts, erased)
            problem = infer.item()
            if problem is None and plain and item._prod == "Fn":
                held = plain_locals(item)
                problem = retyped_plain_local(item, infer.solved(), held) or \
                    retyped_plain_parameter(item, infer.solved(), held)
            if problem is not None:
                refused[item.name] = problem
    for name, infer in items.items():
        problem = None if name in refused else infer.judgement()
        if problem is not None:
            refused[name] = problem
    return Inferred(sigs, items, {name: refused[name] for name in items if name in refused})


def report_refused(diagnostics, inferred: Inferred) -> None:
    """E5010 for each item native code does not lower."""
    for name, (node, what) in inferred.refused.items():
        refuse(diagnostics, name, node, what)


def refuse(diagnostics, name: str, node, what: str) -> None:
    """E5010: the item `name` holds, at `node`, `what` native code does not lower."""
    diagnostics.error(
        "E5010", node.span, f"native code does not lower {what} (in '{name}')",
        help=["run the program in the reference interpreter: --action interpret"])

"""inline-reference-constant-lets: Lconstparts -> Lconstparts.

Same IL: a read of a variable is the value its `let` bound, which names the same place and
computes nothing the interpreter could tell apart."""

from __future__ import annotations

from ..languages.lconstparts import Lconstparts as L
from ..nanopass import Pass, rebuild
from ..scalars.constant_values import acting_constants

LITERALS = {"Int": "i32", "Float": "f64", "Bool": "bool"}  # as the interpreter types them

inline_reference_constant_lets = Pass("inline-reference-constant-lets", L, L, """
Write each variable a block of a reference constant's value binds by a `let` to another constant or a borrow of a literal or a constant, where the block holds only such `let`s, as that value at each of its reads: `const X: &i32 = if c { let k = E; k } else { &1 };` is `const X: &i32 = if c { E } else { &1 };`.

dereference-constants left a constant holding a reference that may name an element of a
tensor (another constant's reference, `&T[0]`) as it was, and no function computes such a
constant's value (the reference would name a local of the function): a `let` in it has no
place to go (name-temporaries refuses it, E5010). The `let` computes nothing the read of its
variable does not compute again the same way: a constant's first read computes its value
once, and a read after gives that value, so where the constant's first read cannot print or
stop (acting_constants) reading it at each read of the variable is reading it once, and a
borrow of a literal names the number as the variable did; nothing can write through a `&`.
A block with another statement, a `let mut`, or a `let` of anything else stays, for
name-temporaries to refuse.
""")


@inline_reference_constant_lets.on("Program")
def _program(run, program):
    acting = acting_constants(program)
    consts = {i.name for i in program.items if i._prod == "ConstItem"}  # (not functions)
    items = tuple(
        i.replace(value=rebuild(i.value, lambda n: _inlined(n, consts - acting)))
        if i._prod == "ConstItem" and i.value is not None and i.type is not None and
        i.type._prod == "BorrowType" else i for i in program.items)
    return program if all(a is b for a, b in zip(items, program.items)) else \
        program.replace(items=items)


def _inlined(node, quiet: set):
    """A block holding only `let`s of values `quiet` makes plain (reading constants whose
    first read cannot act, borrowing literals), its value with each variable read as what
    its `let` bound; None for any other node, which rebuild goes into."""
    if node._prod != "Block" or not node.stmts or node.value is None or not all(
            s._prod == "Let" and not s.mutable for s in node.stmts):
        return None
    bound: dict = {}

    def read(n):
        return bound.get(n.name) if n._prod == "Local" else None

    last = node.stmts[-1]
    for s in node.stmts:
        value = rebuild(s.value, read)
        # The block's value the last variable: its read is where the `let` was.
        at_once = s is last and node.value._prod == "Local" and node.value.name == s.name
        if not _plain(value, quiet, at_once) or not _typed_alike(s.type, value):
            return None
        bound[s.name] = value
    value = rebuild(node.value, read)
    return node.replace(stmts=(), value=rebuild(value, lambda n: _inlined(n, quiet)))


def _plain(e, quiet: set, at_once: bool) -> bool:
    """Whether e reads only a constant of `quiet` (any constant, `at_once`), or borrows one
    or a literal."""
    if e._prod == "Borrow" and not e.mutable:
        e = e.value
        if e._prod in LITERALS:
            return True
    return e._prod == "Global" and (at_once or e.name in quiet)


def _typed_alike(ty, value) -> bool:
    """Whether a `let` of type `ty` gives a borrowed literal `value` the type the
    interpreter gives it with none, which it has where the `let` goes."""
    if value._prod != "Borrow" or value.value._prod not in LITERALS or ty is None:
        return True
    return ty._prod == "BorrowType" and ty.inner._prod == "Scalar" and \
        ty.inner.name == LITERALS[value.value._prod]

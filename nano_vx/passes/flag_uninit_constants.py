"""flag-uninit-constants: Lallset -> Lallset.

Same IL: a `WrittenCopy` mark and a constant's part are Lallset's already, and a part of
written-flags is computed by the same first read as the tensor beside it, so the interpreter
runs the output as it ran the input."""

from __future__ import annotations

from ..languages.lallset import Lallset as L
from ..nanopass import Pass
from ..scalars import refuse
from ..scalars.aggregates import concrete, fresh_item, is_tensor, strip
from ..scalars.constant_values import maybe_uninit
from ..scalars.tensor_names import flags_type, written_copy

UNFOLLOWED = "a constant holding a tensor that may be made by ::uninit() whose written-flags " \
             "it does not follow"

flag_uninit_constants = Pass("flag-uninit-constants", L, L, """
Give each constant holding a tensor made by `::uninit()` a constant of its written-flags, which the first read of either fills with the tensor (E5010 for one whose flags it does not follow).

The interpreter stops at a read of an element of such a constant never written (E9005), as
of any tensor made by `::uninit()`. outline-constant-values made the constant's value a `let`
of a function, `const C = const_part 0 of C by C$fill;`, computed at its first read, and
copy-tracked-functions followed the tensor there as in any function: made by `::uninit()`
or returned by a call whose caller keeps its flags. Here the function is marked as a copy
whose caller keeps the flags of the tensor it returns (`WrittenCopy`, so that
track-uninit-elements gives it a parameter for them, written at its return), and the flags
are a part of the constant of their own, before the tensor: `const C_written: Tensor<bool,
[..]> = const_part 0 of C by C$fill; const C = const_part 1 of C by C$fill;`. The first read
of either gives the function the flags' buffer, made then (select-instructions), and keeps
the tensor it returns: every read shares both, as track-uninit-elements makes each read of
an element check its flag. A constant of `?` extents, or split with other parts, or whose
value's tensor its function does not follow (one chosen by an `if`, one a closure makes),
is refused (E5010), and the default action runs the program in the interpreter.
""")


@flag_uninit_constants.on("Program")
def _program(run, program):
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    consts = {i.name: i for i in program.items if i._prod == "ConstItem"}
    parts: dict = {}
    for c in consts.values():
        if c.value is not None and c.value._prod == "ConstPart":
            parts[c.value.constant] = parts.get(c.value.constant, 0) + 1
    taken = {i.name for i in program.items if "name" in i._fields}
    flagged, items = {}, []
    for item in program.items:
        if item._prod != "ConstItem" or item.value is None or not is_tensor(item.type) or \
                not maybe_uninit(item.value, fns, consts):
            items.append(item)
            continue
        fill = _followed(item, fns, parts)
        if fill is None:
            refuse(run.ctx.diagnostics, item.name, item.value, UNFOLLOWED)
            items.append(item)
            continue
        flagged[fill.name] = fill
        value = item.value
        flags = L["ConstItem"](fresh_item(f"{item.name}_written", taken),
                               flags_type(strip(item.type)), value, span=item.span)
        items += [flags, item.replace(value=value.replace(part=1))]
    if not flagged:
        return program
    marked = []
    for item in items:
        if item._prod == "Fn" and item.name in flagged:
            mark = L["WrittenCopy"]((), True, span=item.span)
            item = item.replace(body=item.body.replace(stmts=(mark, *item.body.stmts)))
        marked.append(item)
    return program.replace(items=tuple(marked))


def _followed(item, fns: dict, parts: dict):
    """The function computing the constant `item`, a tensor of static extents and its only
    part, if it returns the tensor a `let` of its statements names that copy-tracked-functions
    follows: made by `::uninit()`, or returned by a call of a copy whose caller keeps the
    flags of what it returns."""
    value = item.value
    if value._prod != "ConstPart" or parts[value.constant] != 1 or not concrete(item.type):
        return None
    fill = fns.get(value.fill)
    if fill is None or fill.params or written_copy(fill) is not None or \
            fill.body.value is None or fill.body.value._prod != "Local":
        return None
    lets = [s for s in fill.body.stmts if s._prod == "Let" and s.name == fill.body.value.name]
    if len(lets) != 1:
        return None
    made = lets[0].value
    if made._prod == "TensorNew" and made.ctor == "uninit":
        return fill
    if made._prod == "Call" and made.callee._prod == "Global" and made.callee.name in fns:
        copy = written_copy(fns[made.callee.name])
        return fill if copy is not None and copy.returned else None
    return None

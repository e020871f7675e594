"""outline-constant-values: Lconstparts -> Lconstparts.

Same IL: a constant's value is computed by a function at its first read, once, as the
interpreter computes it there, once."""

from __future__ import annotations

from ..backend.machine_types import MACHINE
from ..languages.lconstparts import Lconstparts as L
from ..languages.lresolved import unused_name
from ..nanopass import Pass, descendants
from ..scalars.aggregate_types import Shaped
from ..scalars.aggregates import fresh_item, is_tensor, strip
from ..scalars.constant_values import maybe_uninit
from ..scalars.temporaries import named_first

outline_constant_values = Pass("outline-constant-values", L, L, """
Make each constant holding a scalar, a vector, a string or a tensor whose value binds a
variable, borrows a value (a temporary, all a constant's value can borrow) or needs a local
of its own (a struct, a tuple or an enum a call or an `if` makes, a part of which it reads),
and each holding a tensor that may be made by `::uninit()`, computed by a function at its
first read: `const X: i32 = make().x + 1;` is `fn
X$fill(part: &mut i32) { let value: i32 = make().x + 1; *part = value; }` and `const X: i32
= const_part 0 of X by X$fill;`, a tensor's `fn T$fill() -> Tensor<..> { let value:
Tensor<..> = make().t; value }`.

A constant's value has no statements to hold the `let` name-temporaries or
name-borrowed-temporaries gives such a value, and the passes after them hold a function's
locals, not a constant's. The interpreter computes a constant's value once, at its first
read, in no call of its own (a call in it prints once, a stop in it stops at that read, as
deep in calls as the read): split-computed-constants computes the parts of an aggregate
constant so, by a function the first read of any part calls at the read's depth
(select-instructions), and such a constant here is the one part of itself, filled by a
function whose body is a `let` of its value, which the passes after take apart as any
function's. A tensor's buffer, which every read shares, a `&mut` parameter cannot give
back: the function returns it, and its first read keeps it in the constant's global. One
that may be made by `::uninit()` is so computed by a function of its own (a `let` of its
value, which copy-tracked-functions follows as any), which flag-uninit-constants makes hand
the tensor's written-flags on to a global of their own.
""")


def _outlined(item, st: Shaped, fns: dict, consts: dict) -> bool:
    """Whether the constant `item` is computed by a function: a scalar, a vector, a string or
    a tensor whose value binds a variable, borrows or needs a `let` before its statement, or
    a tensor that may be made by `::uninit()` (fns, consts: the program's items by name)."""
    ty = strip(item.type)
    if ty is not None and ty._prod == "VectorType":
        ty = strip(ty.elem)
    text = ty is not None and ty._prod == "NamedType" and ty.name == "str" or is_tensor(ty)
    if not text and (ty is None or ty._prod != "Scalar" or ty.name not in MACHINE) or \
            item.value is None or item.value._prod == "ConstPart":
        return False
    return any(n._prod in ("Let", "Borrow") for n in descendants(item.value)) or \
        named_first(st, item.value) or is_tensor(ty) and maybe_uninit(item.value, fns, consts)


@outline_constant_values.on("Program")
def _program(run, program):
    st = Shaped()
    st.enter_program(program)
    taken = {i.name for i in program.items if "name" in i._fields}
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    consts = {i.name: i for i in program.items if i._prod == "ConstItem"}
    items = []
    for item in program.items:
        if item._prod == "ConstItem" and _outlined(item, st, fns, consts):
            items.extend(_fill(item, fresh_item(f"{item.name}$fill", taken)))
        else:
            items.append(item)
    return program.replace(items=tuple(items)) if len(items) > len(program.items) else program


def _fill(item, fill: str) -> list:
    """The function computing the constant `item`'s value and writing it through its
    parameter (returning it, a tensor), and the constant reading what it wrote."""
    sp = item.span
    taken = {n.name for n in descendants(item.value) if n._prod in ("Local", "Let", "PBind")}
    value, part = unused_name("value", taken), unused_name("part", taken)
    let = L["Let"](value, False, item.type, item.value, span=sp)
    if is_tensor(item.type):
        fn = L["Fn"](fill, (), None, item.type, (),
                     L["Block"]((let,), L["Local"](value, span=sp), span=sp), span=sp)
        return [fn, item.replace(value=L["ConstPart"](item.name, fill, 0, span=sp))]
    body = (let, L["Assign"](L["Deref"](L["Local"](part, span=sp), span=sp), "=",
                             L["Local"](value, span=sp), span=sp))
    param = L["Param"](part, L["BorrowType"](item.type, True, span=sp), span=sp)
    fn = L["Fn"](fill, (param,), None, None, (), L["Block"](body, None, span=sp), span=sp)
    return [fn, item.replace(value=L["ConstPart"](item.name, fill, 0, span=sp))]

"""split-computed-constants: Lassumed -> Lconstparts.

A constant whose value calls a function or may stop is computed once, at its first read, and
whole: a function computing it and writing each scalar part through a `&mut`, called by the
first read of any part, keeps both, where a literal at each read (inline-aggregate-constants)
would compute it again at each read, or only the part read."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..backend.machine_types import MACHINE
from ..languages.lassumed import Lassumed
from ..languages.lconstparts import Lconstparts as L
from ..languages.lresolved import unused_name
from ..nanopass import Pass, descendants
from ..scalars.aggregate_types import constant_shape, program_types
from ..scalars.aggregates import (TAG, Names, Shapes, Tree, concrete, copy_elements, is_tensor,
                                  strip)
from ..scalars.constant_values import calls, computed, may_share_tensors, may_stop, maybe_uninit


RETURNED, HELD = "returned", "held"  # a tensor leaf's role in the function computing it


@dataclass
class State:
    parts: dict = field(default_factory=dict)  # a split constant's name -> its parts' names


split_computed_constants = Pass("split-computed-constants", Lassumed, L, """
Make each constant holding a struct, a tuple or an enum of scalars and vectors (and tensors:
one, or several in a struct or a tuple, made as the value is computed but for those its
literal gives as other constants' reads and at most one other) whose value calls a
function, may stop the run, binds a variable or makes a tensor other than as a part of its
literal one constant per part, all computed by a function at the first read of any of them,
and each read of the constant the literal of its parts.

The interpreter computes a constant's value once, at its first read, and whole: a call in it
prints once, and a value that stops stops at that read, whichever part it reads. Native code
keeps a scalar constant in a global, and an aggregate is its scalar parts: here each part is a
constant (`C_x`, `C_0_1`, an enum's `C_tag` and `C_Some_0`) whose value is a `ConstPart`, and a
function `C$fill` computes the value as a `let` of the constant's type and writes each part
through a `&mut` (an enum's tag, the index of its variant, and that variant's parts, in a
`match`). The first read of any part calls it (select-instructions: one flag for the whole
constant, one global per part), every read after reads the part's global. A read of `C` is `P {
x: C_x, y: C_y }`, an enum's an `if` on its tag choosing the literal of its variant (their
spans the read's, where a read while the value computes stops, E9006), which the passes after
take apart as any literal. A value binding a variable (in an `if`'s arm) is computed so too: a
literal at each read would bind its local again at each read of one function. A tensor part is
the function's result, not a `&mut` parameter, which gives no buffer back, and the part after
the others (`fn C$fill(part: &mut i32) -> Tensor<..>`, `const C_t = const_part 1 of C by
C$fill`; an enum's carried by one variant is the value of the `match` writing its parts, a
`::new()` one of the variants carrying none, which no read of them reads): its global keeps the
buffer, which every read shares, as the interpreter's reads share the one tensor the value made
(a write through a copy, `let mut a = C; a.t[0] = 5.0;`, shows in `C.t`), so too one made in an
`if`'s arm, which a literal at each read would make again (hoist-constant-tensors makes a
constant of a tensor a literal makes as its part). A tensor after the first, of a struct or a
tuple holding several (`H { a: mk(), b: mk() }`), is a parameter by value, a buffer the first
read makes for its global (as for the written-flags flag-uninit-constants adds), into which
the function copies its elements: no read can tell the copy from the tensor where the value
made it, nothing else holding it (it reads no constant holding a tensor or an aggregate,
itself, through a function it calls or a constant it reads, calls no closure, takes no row,
a view of another's buffer, and calls no function lent a tensor that returns one), and never
by `::uninit()` (the copy would read elements never written). Where the value is a struct
or tuple literal (down to its tensors) one tensor of which alone may be one something else
holds too (`H { a: mk(), b: T }` of a constant `T`, a row, what a function lent a tensor
returns), the function returns that one instead, the buffer itself, which the part's global
then shares with what else holds it, as the interpreter's constant does, and copies the
others. A tensor the literal gives as another constant's read (`H { a: T, b: U, n: count()
}`), but one the function returns where no other may be shared, is a constant of its own,
`C_b`, whose function `C_b$fill` reads another part first (a scalar's where there is one),
which computes the whole value where it is not computed yet, as the interpreter's first
read of `C` computes it, then hands on the other constant's buffer, which `C_b`'s global
then shares: the two constants' buffers stay two, each shared as in the interpreter. Its
state is `C$b` (`const C_b = const_part 0 of C$b by C_b$fill;`): a read of it while `C`
computes stops as `C` depending on itself (E9006), as the interpreter's read of `C` there.
A generic struct's field of erased type is
typed as what the value puts there (aggregate_types.constant_shape): what the function a call
returning the whole value puts there (`const G: Pair<f64> = two();`, `two`'s literal's f64s),
or, in a literal, the type a called function's result, a constant, a local's `let` or a literal
is written with (`Pair { a: half(), b: 2.5 }` of `half() -> f64` holds two f64s), the value the
interpreter holds there, or by an `if`'s arms (`Pair { a: if c() { 1.5 } else { 0.5 }, .. }`).
A constant holding several tensors otherwise (two may be shared with something else,
neither another constant's read, or one whose literal does not say which, or one made by
`::uninit()`; an enum's: the `match` gives back one), or a generic aggregate's
field the value does not type (a `match` choosing it, its arms no type reaches), or one whose
value neither calls, nor may stop, nor binds, nor makes a tensor other than as a part of its
literal, is inline-aggregate-constants' to inline or refuse.
""", state=State)


def _returned(shape: Tree, item, fns: dict, consts: dict):
    """The index among shape's leaves of the tensor the function computing the constant
    `item` of this shape returns (None for no tensor), and those of the tensors it leaves to
    constants of their own (another constant's, each read from it), if the constant is split
    here: a struct, a tuple or an enum of such, down to scalars and vectors of scalars, each
    a global of its own, and at most one tensor; or a struct or a tuple holding several, each
    made as the value is computed and never by `::uninit()`, but for those its literal gives
    as a part of its own (a scalar part may read another's element) that another constant
    holds, each that constant's buffer, and one other the value may share with something
    else (a row): the function returns that one (else the first another constant holds,
    else the first) and copies each other into the buffer the first read makes for its
    global, a copy no read can tell from the tensor, which nothing else holds, and which
    reads no element never written. False where it is not split."""
    if not _parts_split(shape):
        return False
    tensors = [k for k, ty in enumerate(shape.leaves()) if is_tensor(ty)]
    if len(tensors) <= 1:
        return (tensors[0] if tensors else None), ()
    if _has_enum(shape) or maybe_uninit(item.value, fns, consts):
        return False
    if not may_share_tensors(item.value, fns, consts):
        return tensors[0], ()
    given = _leaf_values(item.value, shape)
    if given is None:
        return False
    held = [k for k in tensors if _held(given[k], consts)]
    shared = [k for k in tensors
              if k not in held and may_share_tensors(given[k], fns, consts)]
    if len(shared) > 1:
        return False
    first = (shared or held or tensors)[0]
    return first, tuple(k for k in held if k != first)


def _held(e, consts: dict) -> bool:
    """Whether e reads a constant holding a tensor, whose buffer every read shares."""
    return e._prod == "Global" and e.name in consts and is_tensor(consts[e.name].type)


def _leaf_values(e, shape: Tree):
    """The expression e, a struct or tuple literal of this shape down to its leaves, gives
    each leaf, in the order of shape's leaves; None where it is not such a literal."""
    if shape.kind == "leaf":
        return [e]
    if e._prod == "StructLit" and shape.kind == "struct":
        fields = {f.name: f.value for f in e.fields}
        parts = [_leaf_values(fields[label], p) for label, p in shape.parts]
    elif e._prod == "Tuple" and shape.kind == "tuple":
        parts = [_leaf_values(x, p) for x, (_, p) in zip(e.elems, shape.parts)]
    else:
        return None
    return None if None in parts else [x for part in parts for x in part]


def _has_enum(shape: Tree) -> bool:
    return shape.kind in ("enum", "variant") or \
        shape.kind != "leaf" and any(_has_enum(p) for _, p in shape.parts)


def _parts_split(shape: Tree) -> bool:
    """Whether each leaf of shape is a scalar, a vector of scalars or a tensor of known
    extents."""
    if shape.kind == "leaf":
        ty = strip(shape.leaf)
        if ty is not None and ty._prod == "VectorType":
            ty = strip(ty.elem)
        return ty is not None and (ty._prod == "Scalar" and ty.name in MACHINE or
                                   is_tensor(ty) and concrete(ty))
    return shape.kind in ("struct", "tuple", "enum", "variant") and \
        all(_parts_split(p) for _, p in shape.parts)


def _made_apart(e, shape: Tree) -> bool:
    """Whether e, a value of this shape, makes a tensor other than as a part of its literal
    (in an `if`'s arm, say), which hoist-constant-tensors would not make a constant of its
    own, and a literal at each read would make again at each read."""
    if shape.kind == "leaf":
        if e._prod in ("TensorNew", "TensorLit"):
            return False
    elif e._prod == "StructLit" and shape.kind == "struct":
        return any(_made_apart(f.value, shape.part(f.name)) for f in e.fields)
    elif e._prod == "Tuple" and shape.kind == "tuple":
        return any(_made_apart(x, shape.part(k)) for k, x in enumerate(e.elems))
    elif e._prod == "EnumValue" and shape.kind == "enum" and e.variant in shape.labels():
        return any(_made_apart(x, p) for x, (_, p) in zip(e.args, shape.part(e.variant).parts))
    return any(n._prod in ("TensorNew", "TensorLit") for n in descendants(e))


@split_computed_constants.on("Program")
def _program(run, program):
    st, shapes = run.state, Shapes(program)
    consts = [i for i in program.items if i._prod == "ConstItem" and i.value is not None]
    scalars = {i.name: i.value for i in consts if shapes.of(i.type) is None}
    taken = {i.name for i in program.items if "name" in i._fields}
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    named = {i.name: i for i in program.items if i._prod == "ConstItem"}
    split, sigs = {}, None
    for item in consts:
        shape = shapes.of(item.type)
        if shape is not None and None in shape.leaves():
            # A generic struct's erased field: typed as what the value puts there, as the
            # interpreter holds it.
            sigs = sigs if sigs is not None else program_types(program)[1]
            shape = constant_shape(item, shape, program, sigs)
        chosen = _returned(shape, item, fns, named) if shape is not None else False
        if chosen is False:
            continue
        nodes = computed(item.value, scalars)
        if calls(nodes) or any(map(may_stop, nodes)) or \
                any(n._prod == "Let" for n in descendants(item.value)) or \
                _made_apart(item.value, shape):
            names = [_unused(f"{item.name}_{path}", taken) for path in shape.paths()]
            st.parts[item.name] = shape.rebuilt(iter(names))
            split[item.name] = shape, chosen
    if not split:
        return program
    made = run.rebuild(program)  # the reads, in the functions and the constants' values
    items = []
    for item in made.items:
        if item._prod == "ConstItem" and item.name in split:
            shape, (first, held) = split[item.name]
            names = st.parts[item.name].leaves()
            paths = shape.paths()
            fills = {k: (f"{item.name}${paths[k]}", _unused(f"{names[k]}$fill", taken))
                     for k in held}
            items.extend(_split(item, shape, names, _unused(f"{item.name}$fill", taken),
                                first, fills))
        else:
            items.append(item)
    return made.replace(items=tuple(items))


@split_computed_constants.on("Global")
def _global(run, e):
    parts = run.state.parts.get(e.name)
    return e if parts is None else _literal(parts, e.span)


def _unused(base: str, taken: set) -> str:
    name, n = base, 0
    while name in taken:
        n += 1
        name = f"{base}{n}"
    taken.add(name)
    return name


def _literal(parts: Tree, span):
    """The literal of the constant whose parts' names `parts` holds, reading each; an enum's
    is an `if` on its tag choosing the literal of its variant."""
    if parts.kind == "leaf":
        return L["Global"](parts.leaf, span=span)
    if parts.kind == "enum":
        tag = parts.part(TAG).leaf
        chosen = None
        for k, (label, v) in reversed(list(enumerate(parts.variants()))):
            made = L["EnumValue"](parts.name, label, tuple(_literal(p, span) for _, p in v.parts),
                                  span=span)
            chosen = made if chosen is None else L["IfExpr"](
                L["Binary"]("==", L["Global"](tag, span=span), L["Int"](k, span=span),
                            span=span), False,
                L["Block"]((), made, span=span), L["Block"]((), chosen, span=span), span=span)
        return chosen
    made = [(label, _literal(p, span)) for label, p in parts.parts]
    if parts.kind == "struct":
        return L["StructLit"](parts.name, tuple(L["FieldInit"](label, v, span=span)
                                                for label, v in made), span=span)
    return L["Tuple"](tuple(v for _, v in made), span=span)


def _writes(shape: Tree, base, params, kept, taken: set, returned: list,
            copies: Names) -> list:
    """The statements writing each scalar part of the value `base` of this shape through the
    next of `params` (an iterator of their names, in order), the tensor the next of `kept`
    (each leaf's role, in order: RETURNED, HELD by another constant, which a constant of its
    own reads from it, or None) says is returned appended to `returned` (each other not held
    copied element by element into its parameter, the loops named by `copies`); an enum's a
    `match` on it that writes its variant's index as its
    tag, then the variant's parts, the value of each arm the tensor where the enum holds one
    (a `::new()` one in a variant not carrying it, which no read of that variant reads),
    bound by a `let` that is what is returned."""
    sp = base.span
    role = next(kept) if shape.kind == "leaf" else None
    if role == RETURNED:
        returned.append(base)
        return []
    if role == HELD:
        return []
    if shape.kind == "leaf" and is_tensor(shape.leaf):
        return copy_elements(copies, L["Local"](next(params), span=sp), base, shape.leaf, sp)
    if shape.kind == "leaf":
        return [L["Assign"](L["Deref"](L["Local"](next(params), span=sp), span=sp), "=", base,
                            span=sp)]
    if shape.kind != "enum":
        get = L["FieldGet"] if shape.kind == "struct" else L["TupleGet"]
        return [w for label, p in shape.parts
                for w in _writes(p, get(base, label, span=sp), params, kept, taken, returned,
                                 copies)]
    tag, cases = next(params), []
    next(kept)
    tensor = next((ty for ty in shape.leaves() if is_tensor(ty)), None)
    for k, (label, v) in enumerate(shape.variants()):
        bound = [unused_name("payload", taken) for _ in v.parts]
        body = [L["Assign"](L["Deref"](L["Local"](tag, span=sp), span=sp), "=",
                            L["Int"](k, span=sp), span=sp)]
        carried: list = []
        body += [w for (_, p), b in zip(v.parts, bound)
                 for w in _writes(p, L["Local"](b, span=sp), params, kept, taken, carried,
                                  copies)]
        value = None if tensor is None else carried[0] if carried else \
            L["TensorNew"](tensor, "new", (), span=sp)
        pattern = L["PVariant"](shape.name, label, tuple(L["PBind"](b, span=sp) for b in bound),
                                span=sp)
        cases.append(L["Case"](pattern, L["Block"](tuple(body), value, span=sp), span=sp))
    chosen = L["MatchValue"](base, tuple(cases), span=sp)
    if tensor is None:
        return [L["ExprStmt"](chosen, span=sp)]
    name = unused_name("carried", taken)
    returned.append(L["Local"](name, span=sp))
    return [L["Let"](name, False, tensor, chosen, span=sp)]


def _split(item, shape: Tree, names: list, fill: str, first: int | None, fills: dict) -> list:
    """The function computing the constant `item`, writing its parts and returning its
    tensor (leaf `first` of shape), and a constant per part, named `names`, reading what it
    wrote (the tensor the last part, after those it writes); `fills` gives each leaf holding
    another constant's tensor the state and the function of a constant of its own, which
    reads that tensor from the other constant once `item` is computed (reading one of its
    other parts first), so that the part's global holds the other constant's buffer."""
    sp = item.span
    taken = {n.name for n in descendants(item.value)
             if n._prod in ("Local", "Let", "Param", "PBind")}
    value = unused_name("value", taken)
    leaves = shape.leaves()
    written = [ty for k, ty in enumerate(leaves) if k != first and k not in fills]
    params = [L["Param"](unused_name("part", taken), ty if is_tensor(ty) else
                         L["BorrowType"](ty, True, span=sp), span=sp) for ty in written]
    returned: list = []
    roles = (RETURNED if k == first else HELD if k in fills else None
             for k in range(len(leaves)))
    stmts = [L["Let"](value, False, item.type, item.value, span=sp),
             *_writes(shape, L["Local"](value, span=sp), iter(p.name for p in params),
                      roles, taken, returned, Names(item.value))]
    ret = leaves[first] if first is not None else None
    fn = L["Fn"](fill, tuple(params), None, ret, (),
                 L["Block"](tuple(stmts), returned[0] if returned else None, span=sp), span=sp)
    order = iter(range(len(written)))
    made = [fn]
    computing = [k for k in range(len(leaves)) if k not in fills]
    forced = next((k for k in computing if not is_tensor(leaves[k])), computing[0])
    given = _leaf_values(item.value, shape) if fills else ()
    for k, (name, ty) in enumerate(zip(names, leaves)):
        if k in fills:
            made.extend(_held_part(name, ty, *fills[k], given[k],
                                   L["Global"](names[forced], span=sp), leaves[forced]))
            continue
        made.append(L["ConstItem"](name, ty, L["ConstPart"](
            item.name, fill, len(written) if k == first else next(order), span=sp), span=sp))
    return made


def _held_part(name: str, ty, state: str, fill: str, read, forced, forced_type) -> list:
    """The constant `name` of tensor type ty holding the tensor another constant holds,
    which `read` reads, and the function computing it at its first read: it reads another
    part first (`forced`), whose first read computes the whole constant, as the
    interpreter's first read of the constant would, then hands on the other constant's
    buffer, which the part's global then shares. Its state is `C$path` of the constant C
    it is a part of: a read of it while C computes is C depending on itself."""
    sp = read.span
    let = L["Let"]("computed", False, forced_type, forced, span=sp)
    fn = L["Fn"](fill, (), None, ty, (), L["Block"]((let,), read, span=sp), span=sp)
    return [fn, L["ConstItem"](name, ty, L["ConstPart"](state, fill, 0, span=sp), span=sp)]

"""dereference-constants: Lconstparts -> Lconstparts.

Same IL: what a read of the constant names holds the value the reference named, computed at
the first read, as the interpreter computes the reference there."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..backend.machine_types import MACHINE
from ..languages.lconstparts import Lconstparts as L
from ..nanopass import Pass, descendants
from ..scalars import refuse


@dataclass
class State:
    held: set = field(default_factory=set)  # the constants now holding what they named


dereference_constants = Pass("dereference-constants", L, L, """
Make each constant holding a `&` to a scalar whose value names nothing that may change (no
element of a tensor but one of a tensor it makes, no reference a call returns but one a
function hands on, no constant left so holds) hold the scalar, `*` of its value, and each read of it a borrow of it: `const R: &i32 = if c { let k = &5; k } else { &6 };` is
`const R: i32 = *if c { .. };`, `*R` is `*&R` (E5010 for one it leaves a reference whose
value calls a function of the program: `const G: &f32 = if pick() { &F[0] } else { &E[1] };`).

Native code holds no reference in a global: a constant's value is a global's scalar parts,
and `&5` borrows a local's cell, which a constant has none of. What the reference names
cannot change while the program runs (a literal, a value a call computes, a constant, a
part of a struct constant), so the number it names, read at the first read as the
interpreter computes the reference there (a call in it printing once, a stop in it stopping
there), is what every read through it sees, and a borrow of it at each read names that
number as the reference did; outline-constant-values then computes a value binding a
variable or borrowing by a function at the first read, and name-borrowed-temporaries gives
each read's borrow a local. An element of a tensor may be written through a copy of it,
which the reference would see (but of a tensor the value makes, by a constructor or a
literal, directly or through a `let` of it or a borrow of it: no name outside the value
holds it; not by `::uninit()`, whose element never written the interpreter stops on where
the reference is read through), and a reference a call returns or another constant holds may
name one: such constants stay as they are. A function returning a reference that names only
what the references it is given name (its body borrows no element, reads through no
reference but a parameter's to a scalar and calls only such functions, or functions
returning none: `fn at(r: &i32) -> &i32 { print(2); r }`) names nothing the value does not
name itself. A reference left so is the place its value names, which each read computes
again: a value calling a function (printing, or choosing another element each time) would
call it at each read, where the interpreter calls it once, and a place is not a value a
global can keep, so such a constant is refused (index-chosen-constant-elements made one
choosing among elements of one tensor constant at literal indices a constant of those).
""", state=State)


def _scalar_reference(item) -> bool:
    """Whether the constant `item` holds a `&` to a machine scalar."""
    ty = item.type
    return ty is not None and ty._prod == "BorrowType" and not ty.mutable and \
        item.value is not None and ty.inner._prod == "Scalar" and ty.inner.name in MACHINE


def _names_only_fixed(item, returning: set, referring: set) -> bool:
    """Whether the value of the constant `item` names nothing that may change: no element of
    a tensor but one the value makes itself, no call of a function in `returning` (of a
    reference), no constant in `referring` (holding a reference that may name one)."""
    made = _made_tensors(item.value)
    return not any(n._prod == "Index" and not _made(n.base, made) or n._prod == "Call" and (
        n.callee._prod != "Global" or n.callee.name in returning) or
        n._prod == "Global" and n.name in referring for n in descendants(item.value))


def _made_tensors(value) -> set:
    """The variables `value` binds by a `let` to a tensor it makes (a constructor but
    `::uninit()`, or a literal), to a borrow of one, or to another such variable: no name outside the value
    holds that tensor, so nothing writes an element of it the reference may name."""
    made: set = set()
    for n in descendants(value):
        if n._prod == "Let" and not n.mutable and n.value is not None and \
                _made(n.value, made):
            made.add(n.name)
    return made


def _made(e, made: set) -> bool:
    """Whether e is a tensor the constant's value makes: a constructor but `::uninit()`, a
    literal, a borrow
    of or through one, a row of one, or a variable of `made`."""
    if e._prod in ("Borrow", "Deref"):
        return _made(e.value, made)
    if e._prod == "Index":
        return _made(e.base, made)
    # Not one made by `::uninit()`: its element, never written, stops the interpreter at a
    # read through the reference, not at the constant's first read.
    return e._prod == "TensorLit" or e._prod == "TensorNew" and e.ctor != "uninit" or \
        e._prod == "Local" and e.name in made


def _passing_on(fns: dict, returning: set, referring: set) -> set:
    """The functions of `returning` whose reference names only what a reference they are
    given names, or what cannot change: their bodies borrow no element, read through no
    reference or pointer but a parameter's to a scalar, make none of a tensor (a method),
    read no constant of `referring`, and call only other such functions, or functions
    returning no reference (`fn at(r: &i32) -> &i32 { print(2); r }`): a constant's value
    calling one names what its arguments name, which the value names itself."""
    passing = set(returning)
    while True:
        kept = {name for name in passing if not any(
            n._prod in ("Index", "MethodCall") or
            n._prod == "Deref" and not _reads_scalar(n, fns[name]) or
            n._prod == "Call" and (n.callee._prod != "Global" or
                                   n.callee.name in returning - passing) or
            n._prod == "Global" and n.name in referring for n in descendants(fns[name].body))}
        if kept == passing:
            return passing
        passing = kept


def _refuse_computed(run, item, fns: dict) -> None:
    """E5010 for the reference constant `item` left as it is when its value calls a function
    of the program (fns) or one a variable holds."""
    called = [n for n in descendants(item.value) if n._prod == "Call" and (
        n.callee._prod != "Global" or n.callee.name in fns)]
    if called:
        refuse(run.ctx.diagnostics, item.name, called[0],
               "a constant holding a reference whose value calls a function")


def _reads_scalar(deref, fn) -> bool:
    """Whether `*r` reads the scalar a parameter of `fn` of a `&` to one names (its value
    names nothing)."""
    r = deref.value
    return r._prod == "Local" and any(
        p.name == r.name and p.type._prod == "BorrowType" and p.type.inner._prod == "Scalar"
        for p in fn.params)


@dereference_constants.on("Program")
def _program(run, program):
    st = run.state
    consts = [i for i in program.items if i._prod == "ConstItem"]
    returning = {i.name for i in program.items if i._prod == "Fn" and i.ret is not None
                 and any(n._prod == "BorrowType" for n in descendants(i.ret))}
    referring = {i.name for i in consts if i.type is not None and
                 any(n._prod == "BorrowType" for n in descendants(i.type))}
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    candidates = [i for i in consts if _scalar_reference(i)]
    while True:  # a constant reading one left a reference is left too, and so a function
        passing = _passing_on(fns, returning, referring - st.held)
        held = {i.name for i in candidates
                if _names_only_fixed(i, returning - passing, referring - st.held)}
        if held == st.held:
            break
        st.held = held
    for item in candidates:
        if item.name not in st.held:
            _refuse_computed(run, item, fns)
    if not st.held:
        return program
    made = run.rebuild(program)
    return made.replace(items=tuple(
        i.replace(type=i.type.inner, value=L["Deref"](i.value, span=i.value.span))
        if i._prod == "ConstItem" and i.name in st.held else i for i in made.items))


@dereference_constants.on("Global")
def _global(run, e):
    return L["Borrow"](e, False, span=e.span) if e.name in run.state.held else e

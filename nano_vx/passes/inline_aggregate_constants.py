"""inline-aggregate-constants: Lconstparts -> Lconstparts.

Same IL: a constant's read is its value, which the interpreter computes where the read is,
as it computed it at the first read."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lconstparts import Lconstparts as L
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.aggregates import Shapes, strip
from ..scalars.constant_values import calls, computed, may_stop
from ..scalars.literal_hints import cast, hinted, literal_kinds
from ..values.numbers import FLOAT_TYPES, INT_TYPES


@dataclass
class State:
    shapes: Shapes | None = None
    consts: dict = field(default_factory=dict)  # aggregate constant name -> its ConstItem
    values: dict = field(default_factory=dict)  # its value, its reads of the others inlined
    refused: set = field(default_factory=set)
    scalars: dict = field(default_factory=dict)  # every other constant's name -> its value


inline_aggregate_constants = Pass("inline-aggregate-constants", L, L, """
Replace each read of a constant holding a struct, a tuple or an enum by its value, and drop
the constant (E5010 for one making a tensor other than as a part of its literal, or whose
value calls a function, may stop the run or binds a variable, which split-computed-constants
did not split: holding several tensors, two of which may be shared with something else,
neither another constant's read, or one made by `::uninit()`, or a generic struct's field
its value does not type).

Native code makes a constant one global scalar; one holding an aggregate is a literal at
each read instead, which the passes after take apart as any other (`ORIGIN.x` is `P { x: 0,
y: 3 }.x`). The interpreter computes the value once, at the first read, and every read sees
it; computed again at each read, a value made of literals, operators and other constants is
the same. A call may print or run for as long as it likes, and a value that may stop the
run (an integer division by other than a literal, a shift by other than a small literal, an
index) the interpreter computes whole at the first read, where a read of one part computes
only that part: split-computed-constants made a struct, a tuple or an enum of scalars (and
tensors it makes) computing such a value (here or through a constant it reads) a constant per
part, and one left (tensors two of which may be shared with something else, an `if`
choosing another constant's or a row, or one made by `::uninit()`, which a copy would not be
or would read, a generic struct's field its value does not type) is refused (so is one whose value binds a variable, which a literal at two
reads of one function would bind twice). A tensor's buffer every read shares (a write
through a copy shows in the constant): hoist-constant-tensors made each tensor a part of
the literal makes a constant of its own, which select-instructions keeps in a global, and
a value making one otherwise (in an `if`'s arm, say) that split-computed-constants left is
refused, as a literal at each read would make it again at each read.
The interpreter types the value's numbers as it computes it: a struct's or an enum's
literal gives its scalar fields' literals their types, and the whole is then converted to
the constant's type, a number or a tuple's elements. No context at a read says those
types, so each is a cast: `const T: (i64, f32) = (1, 0.5);` is `(1 as i64, 0.5 as f32)`. A
generic struct's literal is one of the instance the constant's type names (`Box2 { .. }` of
a `Box2<(i32, bool)>` is a `Box2$(i32,bool)`), as a `let` of that type would make it.
""", state=State)


@inline_aggregate_constants.on("Program")
def _program(run, program):
    st = run.state
    st.shapes = Shapes(program)
    st.consts = {i.name: i for i in program.items if i._prod == "ConstItem"
                 and i.value is not None and st.shapes.of(i.type) is not None}
    st.scalars = {i.name: i.value for i in program.items if i._prod == "ConstItem"
                  and i.value is not None and i.name not in st.consts}
    made = run.rebuild(program)
    return made.replace(items=tuple(
        i for i in made.items if i.name not in st.consts or i._prod != "ConstItem"
        or i.name in st.refused))


@inline_aggregate_constants.on("ConstItem")
def _const(run, item):
    """An aggregate constant's value is walked where it is read: unread, it is dropped."""
    return item if item.name in run.state.consts else run.rebuild(item)


@inline_aggregate_constants.on("Global")
def _global(run, e):
    st = run.state
    item = st.consts.get(e.name)
    if item is None or item.name in st.refused:
        return e
    if item.name not in st.values:
        value = run.walk(item.value)  # the constants it reads, inlined first
        problem = _problem(value, item, st)
        if problem is not None:
            st.refused.add(item.name)
            refuse(run.ctx.diagnostics, item.name, *problem)
            return e
        st.values[item.name] = _typed(st.shapes, value, item.type, True)
    return st.values[item.name]


def _problem(value, item, st) -> tuple | None:
    """The node that keeps the constant `item` of value `value` from being a literal at each
    read, and why; None for none."""
    nodes = computed(value, st.scalars)
    made = calls(nodes)
    if made:
        return made[0], "a constant holding an aggregate whose value calls a function"
    stops = [n for n in nodes if may_stop(n)]
    if stops:
        return stops[0], "a constant holding an aggregate whose value may stop the program"
    bound = [n for n in descendants(value) if n._prod == "Let"]
    if bound:  # inlined at two reads of one function, it would bind one local twice
        return bound[0], "a constant holding an aggregate whose value binds a variable"
    made = [n for n in descendants(value) if n._prod in ("TensorNew", "TensorLit")]
    if made:  # a part of the literal hoist-constant-tensors made a constant of its own
        return made[0], "a constant holding a tensor it makes other than as a part of its literal"
    return None


def _typed(shapes, e, ty=None, conform=False):
    """e with its numbers typed as the interpreter types them in a constant's value: a
    struct's or an enum's literal gives each scalar field's literals its type, and the value
    is converted to the constant's type (`conform`), a number to its scalar type and a tuple
    literal element by element, each element's literals typed as that element's type says
    (`const D: (i64, f32) = (1000000 * 10000, 0.1)` multiplies i64s, as a `let` of it)."""
    p, ty = e._prod, strip(ty)
    if p == "StructLit" and ty is not None and ty._prod == "NamedType" and \
            ty.name.split("$")[0] == e.name and ty.name in shapes.structs:
        e = e.replace(name=ty.name)  # `Cell { .. }` of a `Cell<(i32, bool)>`: its instance's
    if p == "StructLit" and e.name in shapes.structs:
        types = {f.name: f.type for f in shapes.structs[e.name].fields}
        return e.replace(fields=tuple(f.replace(value=_typed(shapes, f.value, types.get(f.name)))
                                      for f in e.fields))
    if p == "EnumValue" and e.enum in shapes.enums:
        types = {v.name: v.fields for v in shapes.enums[e.enum].variants}.get(e.variant, ())
        return e.replace(args=tuple(_typed(shapes, x, types[k] if k < len(types) else None)
                                    for k, x in enumerate(e.args)))
    if p == "Tuple":
        types = ty.elems if conform and ty is not None and ty._prod == "TupleType" else ()
        return e.replace(elems=tuple(
            _typed(shapes, x, types[k] if len(types) == len(e.elems) else None, conform)
            for k, x in enumerate(e.elems)))
    if ty is None or ty._prod != "Scalar" or ty.name not in {**INT_TYPES, **FLOAT_TYPES}:
        return e
    typed = hinted(L, e, ty)
    # Typed by its literals alone, it is the constant's type already.
    return cast(L, typed, ty) if conform and literal_kinds(e) is None else typed

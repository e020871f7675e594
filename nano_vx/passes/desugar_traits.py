"""desugar-traits: Lhoisted -> Ltraitless."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages import Lhoisted, Ltraitless
from ..nanopass import Pass

L = Ltraitless

# The marker trait a program declares itself (`trait Copy {}`) and implements per type.
COPY = "Copy"

# What holds a value of its `inner` type, and is Copy exactly when that type is.
_HOLDERS = frozenset({"PinnedType", "VerifiedType", "RefType", "HardwareStateType"})


@dataclass
class State:
    traits: dict = field(default_factory=dict)  # name -> Trait
    types: dict = field(default_factory=dict)  # the program's structs and enums, by name
    copy: set = field(default_factory=set)  # the types the program implements Copy for


desugar_traits = Pass("desugar-traits", Lhoisted, Ltraitless, """
Make each `impl Trait for Type` an impl of the type with the trait's default methods, and mark
each struct that implements `Copy` (E2001 an unknown trait, E3037 an impl that does not match
its trait, E3031 `Copy` for a struct or an enum holding a tensor).

A trait is a list of methods, each required (`fn area(s: Self) -> f32;`) or with a default
body; calls are `Type::m(x)`, static dispatch, so an impl of a trait is an impl of its type
that holds the trait's methods: those it writes, then the defaults it does not override, whose
`Self` is then the type (flatten-impl-blocks writes it out). An impl that leaves a required
method out, or writes a method the trait does not have, is E3037. `Copy` is the one trait that
means something of its own: a marker the program declares (`trait Copy {}`) and implements
per type (`impl Copy for S {}`). The struct is then marked `copy`, and check-linearity copies
it where it would move one without: a struct moves when passed by value unless it is Copy.
An enum is copied unless what its variants carry moves, so `Copy` for an enum says what holds
already, and for one carrying a tensor it is refused as for a struct.
A Copy struct may hold only what copies (scalars, references, Copy structs, enums, tuples of
these): one holding a tensor, or a struct that moves, is E3031. The traits themselves make no
code and go.
""", state=State)


@desugar_traits.on("Program")
def _program(run, node):
    st = run.state
    st.traits = {i.name: i for i in node.items if i._prod == "Trait"}
    st.types = {i.name: i for i in node.items if i._prod in ("StructDecl", "EnumDecl")}
    st.copy = {_type_name(i.type) for i in node.items
               if i._prod == "ImplFor" and i.trait == COPY and COPY in st.traits}
    out = run.rebuild(node)
    for name in sorted(st.copy):
        if name in st.types:
            _check_copy(run, st.types[name])
    return out


@desugar_traits.on("Trait", "FnSig", splice=True)
def _trait(run, node):
    """A trait makes no code: its default methods are copied into each impl that wants them
    (a signature stands only in a trait)."""
    return ()


@desugar_traits.on("StructDecl")
def _struct(run, node):
    return L["StructDecl"](node.name, run.walk_seq(node.fields), run.walk_seq(node.generics),
                           node.name in run.state.copy, span=node.span)


@desugar_traits.on("ImplFor", splice=True)
def _impl(run, node):
    """The impl of the type the trait's impl means: none for a marker trait or an unknown
    trait, after its diagnostic."""
    trait = run.state.traits.get(node.trait)
    if trait is None:
        declare = "`trait Copy {}`" if node.trait == COPY else f"`trait {node.trait} {{ .. }}`"
        run.ctx.diagnostics.error(
            "E2001", node.span, f"there is no trait named '{node.trait}' to implement",
            help=[f"declare it: {declare}"], name=node.trait)
        return ()
    if _type_name(node.type) not in run.state.types:
        run.ctx.diagnostics.error(
            "E2001", node.type.span, f"'{node.trait}' is implemented for a struct or an enum "
                                     f"of the program, not for this type",
            help=["declare a struct and implement the trait for it"])
        return ()
    written = {fn.name: fn for fn in node.fns}
    methods = {m.name: m for m in trait.methods}
    for fn in node.fns:
        if fn.name not in methods:
            run.ctx.diagnostics.error(
                "E3037", fn.span, f"'{fn.name}' is not a method of the trait '{trait.name}'",
                help=[f"declare it in the trait, or in an impl of the type itself "
                      f"(`impl {_type_name(node.type)} {{ .. }}`)"],
                name=fn.name, trait=trait.name)
    missing = [m.name for m in trait.methods if m._prod == "FnSig" and m.name not in written]
    if missing:
        names = ", ".join(f"'{m}'" for m in missing)
        run.ctx.diagnostics.error(
            "E3037", node.span, f"the impl of '{trait.name}' for '{_type_name(node.type)}' "
                                f"lacks the method{'s' if len(missing) > 1 else ''} {names}",
            help=["write each method the trait declares without a default body"],
            missing=missing, trait=trait.name)
    defaults = [m for m in trait.methods if m._prod == "Fn" and m.name not in written]
    fns = run.walk_seq(node.fns) + run.walk_seq(tuple(defaults))
    if not fns:
        return ()
    return (L["Impl"](run.walk_seq(node.generics), run.walk(node.type), fns, span=node.span),)


def _type_name(ty) -> str | None:
    return ty.name if ty._prod in ("NamedType", "AppliedType") else None


def _check_copy(run, decl):
    """E3031 for each field of a Copy struct, or what a variant of a Copy enum carries, that
    would move."""
    enum = decl._prod == "EnumDecl"
    held = [(f"variant '{v.name}' carries", t) for v in decl.variants for t in v.fields] \
        if enum else [(f"field '{f.name}' holds", f.type) for f in decl.fields]
    for what, ty in held:
        why = _moves(ty, run.state)
        if why is not None:
            run.ctx.diagnostics.error(
                "E3031", ty.span or decl.span,
                f"the {'enum' if enum else 'struct'} '{decl.name}' is Copy, but its {what} "
                f"{why}, which moves",
                help=[f"remove `impl Copy for {decl.name} {{}}`: '{decl.name}' then moves "
                      f"when passed by value, and `&{decl.name}` lends it"],
                name=decl.name)


def _moves(ty, st) -> str | None:
    """What in a field of type `ty` moves (a tensor, a struct without Copy, an enum holding
    either), or None."""
    stack, seen = [ty], set()
    while stack:
        t = stack.pop()
        kind = t._prod
        if kind == "TensorType":
            return "a tensor"
        if kind in _HOLDERS:
            stack.append(t.inner)
        elif kind == "TupleType":
            stack.extend(t.elems)
        elif kind in ("NamedType", "AppliedType") and t.name not in seen:
            seen.add(t.name)
            decl = st.types.get(t.name)
            if decl is not None and decl._prod == "StructDecl" and t.name not in st.copy:
                return f"the struct '{t.name}', not Copy"
            if decl is not None and decl._prod == "EnumDecl":  # copied: unless it holds
                stack.extend(f for v in decl.variants for f in v.fields)
    return None

"""check-struct-fields: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.l0_source import DESCRIPTIONS
from ..languages.l8_routed import Lrouted
from ..nanopass import Analysis
from ..placement.scopes import Scope, Where, scopes_of
from ..placement.typer import Typer, fits, show, value_type
from ..placement.types import Machine


@dataclass
class State:
    typer: Typer | None = None
    structs: dict = field(default_factory=dict)  # name -> StructDecl
    scopes: dict[str, Scope] = field(default_factory=dict)
    scope: Scope | None = None
    where: Where | None = None


check_struct_fields = Analysis("check-struct-fields", Lrouted, """
Refuse a struct literal without every field (E3012), and a field not the struct's (E3013).

A field whose value has another type than the field's is E3013 too.

`S { a: 1, b: t }` gives every field S declares, each once, each a value of the field's type
(an unsuffixed literal fits any type of its kind); `s.f` names a field S declares. A field
whose type is a generic parameter of the struct takes any value: its parameters are erased
(monomorphize). A literal of a name that is no struct is E2001.
""", state=State, skip=DESCRIPTIONS, requires=("model",))


@check_struct_fields.on("Program")
def _program(run, node):
    st = run.state
    st.typer = Typer(node, Machine(run.ctx.model))
    st.structs = {i.name: i for i in node.items if i._prod == "StructDecl"}
    st.scopes = scopes_of(node, st.typer)
    run.descend(node)


@check_struct_fields.on("Fn")
def _fn(run, node):
    st = run.state
    st.scope, st.where = st.scopes[node.name], Where.of(node, st.typer)
    run.descend(node)


@check_struct_fields.on("Spawn")
def _spawn(run, node):
    st = run.state
    st.where.inside(run, node, st.typer.machine)


@check_struct_fields.on("StructLit")
def _literal(run, lit):
    run.descend(lit)
    decl = run.state.structs.get(lit.name)
    report = run.ctx.diagnostics.error
    if decl is None:
        report("E2001", lit.span, f"`{lit.name} {{ .. }}` builds a struct, but no struct is "
                                  f"named '{lit.name}'", name=lit.name)
        return
    declared = {f.name: f for f in decl.fields}
    seen = set()
    for given in lit.fields:
        if given.name not in declared or given.name in seen:
            again = given.name in seen
            report("E3013", given.span,
                   f"'{given.name}' is given twice in this `{lit.name}`" if again else
                   f"struct '{lit.name}' has no field '{given.name}'",
                   help=[f"its fields: {', '.join(declared)}"], struct=lit.name,
                   field=given.name)
            continue
        seen.add(given.name)
        _judge(run, lit.name, declared[given.name], given.value)
    missing = [name for name in declared if name not in seen]
    if missing:
        report("E3012", lit.span,
               f"this `{lit.name}` does not give its field{'s' * (len(missing) > 1)} "
               f"{', '.join(repr(m) for m in missing)}",
               help=["a struct literal gives every field"], struct=lit.name, missing=missing)


def _judge(run, struct: str, declared, value) -> None:
    st = run.state
    here = st.where.here[-1]
    expected = st.typer.field_type(struct, declared.name, here)
    found = st.scope.typer.of(value, here)
    if fits(found, expected):
        return
    run.ctx.diagnostics.error(
        "E3013", value.span,
        f"field '{declared.name}' of '{struct}' is {show(expected)}, but this value is "
        f"{show(found)}", struct=struct, field=declared.name, expected=show(expected),
        found=show(found))


@check_struct_fields.on("FieldGet")
def _field(run, get):
    run.descend(get)
    st = run.state
    t = value_type(st.scope.typer.of(get.base, st.where.here[-1]))
    if isinstance(t, str) or t._prod != "NamedType" or t.name not in st.structs:
        return
    names = [f.name for f in st.structs[t.name].fields]
    if get.field not in names:
        run.ctx.diagnostics.error(
            "E3013", get.span, f"struct '{t.name}' has no field '{get.field}'",
            help=[f"its fields: {', '.join(names)}"], struct=t.name, field=get.field)

"""resolve-names: Ltransfers -> Lresolved."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..global_names import BUILTINS, undefined
from ..languages import Lresolved, Ltransfers
from ..nanopass import Pass


class Scopes:
    """The locals of one item: a stack of block scopes, and the unique names handed out."""

    def __init__(self):
        self.stack = [{}]
        self.used: dict[str, int] = {}  # how many times each name was bound in this item

    # No try/finally: an exception ends the run, and the Scopes with it.
    def push(self):
        self.stack.append({})

    def pop(self):
        self.stack.pop()

    def bind(self, name: str) -> str:
        n = self.used.get(name, 0)
        self.used[name] = n + 1
        # `#` cannot occur in an identifier, so x#1 never meets a name the user wrote.
        unique = name if n == 0 else f"{name}#{n}"
        self.stack[-1][name] = unique
        return unique

    def lookup(self, name: str) -> str | None:
        for scope in reversed(self.stack):
            if name in scope:
                return scope[name]
        return None

    def visible(self) -> set[str]:
        """The names a lookup finds."""
        return {name for scope in self.stack for name in scope}


@dataclass
class State:
    globals: frozenset = frozenset()  # item names and builtins
    functions: frozenset = frozenset()  # the names of the program's functions
    scopes: Scopes = field(default_factory=Scopes)  # the current item's locals
    generics: frozenset = frozenset()  # the current function's generic parameters
    deferring: int = 0  # > 0 in a branch of an `if comptime`
    enums: dict = field(default_factory=dict)  # name -> EnumDecl
    ensuring: bool = False  # in an `ensures` clause, where `return` is the result


resolve_names = Pass("resolve-names", Ltransfers, Lresolved, """
Replace each `Var` by a `Local` with a name unique in its function, or by a `Global` (E2001 an
undefined name, E2003 and E2004 an unknown enum or variant, E2008 a variant or field declared
twice).

Items (functions, consts, structs, enums, memory spaces, topologies) and the builtin `print`
are global. Parameters, `let`, `for` variables, closure parameters, the binding of a `match`
arm, the names a `match` case's pattern binds and const generic parameters are locals with
block scope (an arm's binding is visible in its arm only); a `let` is visible from the
statement after it. `E::V(..)` names an enum of the program (E2003) and one of its variants,
with as many values as the variant carries (E2004). Every binding of a local gets a name
unique within its item: the first `x` stays `x`, the next is `x#1`, then
`x#2`, so a shadowing `let` can no longer be confused with the variable it hides; `return`
in an `ensures` is the local `return`, the function's result. An unknown
name is E2001 and becomes a `Global`, so the tree stays valid and later passes do not report
it again. `Memory::X`, `Topology::X` and type names are not variables; a name in an extent
(`Tensor<i32, [n]>`) reads the local in scope as any use of the name does, and takes its
unique name (a const item's or a const generic's stays as written). A name of
the program shadows a builtin: `splat(v)`, which the parser reads as the vector builtin, is a
call when a function or a local of the program is named `splat`.

In a branch of an `if comptime`, an unknown name is a `Global` without a word: which branch
is kept is known only once monomorphize prunes each function (an instance of a generic one
too: `if comptime N > 1 { .. }` is how a recursion over a const stops), and the one it prunes
may name what does not exist. check-deferred-names reports the name (E2001) if the kept
branch names it.
""", state=State)


def _opt(run, node):
    return None if node is None else run.walk(node)


@resolve_names.on("Program")
def _program(run, node):
    run.state.globals = frozenset(item.name for item in node.items) | BUILTINS
    run.state.enums = {i.name: i for i in node.items if i._prod == "EnumDecl"}
    run.state.functions = frozenset(i.name for i in node.items if i._prod == "Fn")
    items = []
    for item in node.items:
        run.state.scopes = Scopes()
        run.state.generics = frozenset()
        items.append(run.walk(item))
    if all(a is b for a, b in zip(items, node.items)):
        return node
    return Lresolved["Program"](items, span=node.span)


@resolve_names.on("Fn")
def _fn(run, node):
    run.state.generics = frozenset(g.name for g in node.generics)
    # A const generic is a value in the body (`let n = S;`), named as written.
    for g in node.generics:
        if g._prod == "ConstParam":
            run.state.scopes.bind(g.name)
    return run.rebuild(node)  # the parameters bind as they are walked, in order


@resolve_names.on("Param")
def _param(run, node):
    type_ = _opt(run, node.type)
    return Lresolved["Param"](run.state.scopes.bind(node.name), type_, span=node.span)


@resolve_names.on("StructDecl")
def _struct(run, node):
    _once_each(run, node.fields, f"struct '{node.name}'", "field")
    # Field names are not variables: keep them, resolve only inside their types.
    fields = [Lresolved["Param"](f.name, _opt(run, f.type), span=f.span) for f in node.fields]
    return Lresolved["StructDecl"](node.name, fields, run.walk_seq(node.generics), node.copy,
                                   span=node.span)


@resolve_names.on("Let")
def _let(run, node):
    value = run.walk(node.value)  # before binding: `let x = x + 1` reads the outer x
    type_ = _opt(run, node.type)
    name = run.state.scopes.bind(node.name)
    return Lresolved["Let"](name, node.mutable, type_, value, span=node.span)


@resolve_names.on("For")
def _for(run, node):
    start, end = run.walk(node.start), run.walk(node.end)
    scopes = run.state.scopes
    scopes.push()
    var = scopes.bind(node.var)
    body = run.walk(node.body)
    scopes.pop()
    return Lresolved["For"](var, start, end, body, span=node.span)


@resolve_names.on("Ensures")
def _ensures(run, node):
    run.state.ensuring = True
    out = run.rebuild(node)
    run.state.ensuring = False
    return out


@resolve_names.on("ReturnValue")
def _result(run, node):
    if not run.state.ensuring:  # the parser reads none elsewhere; a hand-written IL may
        undefined(run.ctx.diagnostics, "return", node.span,
                  notes=["`return` is the function's result only in an `ensures` clause"])
        return Lresolved["Global"]("return", span=node.span)
    # `return` cannot be an identifier, so the local never meets a name the user wrote.
    return Lresolved["Local"]("return", span=node.span)


@resolve_names.on("PBind")
def _bind(run, node):
    return Lresolved["PBind"](run.state.scopes.bind(node.name), span=node.span)


@resolve_names.on("EnumDecl")
def _enum(run, node):
    _once_each(run, node.variants, f"enum '{node.name}'", "variant")
    return run.rebuild(node)


def _once_each(run, members, owner: str, what: str) -> None:
    """E2008 for a second member of one name (a variant of an enum, a field of a struct)."""
    seen = {}
    for m in members:
        first = seen.setdefault(m.name, m)
        if first is not m:
            run.ctx.diagnostics.error(
                "E2008", m.span, f"{owner} has two {what}s named '{m.name}'",
                notes=[f"the first is at {first.span.line}:{first.span.col}"]
                if first.span is not None else [], help=[f"rename one of the {what}s"],
                name=m.name)


def _not_an_enum(st, node):
    """The note and help of E2003: what the path `A::b` names when A is no enum."""
    a, b = node.enum, node.variant
    if f"{a}::{b}" in st.globals:
        return {"notes": [f"`{a}::{b}` is a function of `impl {a}`, and nano-vx has no "
                          f"function values"], "help": [f"call it: `{a}::{b}(..)`"]}
    if a in st.generics:
        return {"notes": [f"'{a}' is a generic parameter: `{a}::{b}` is a function of what "
                          f"it is in each call, not a value"],
                "help": [f"call it: `{a}::{b}(..)`"]}
    if node._prod == "EnumValue" and a in st.globals:
        return {"notes": [f"'{a}' is not an enum, and no impl block of it declares a "
                          f"function '{b}'"],
                "help": [f"declare one: `impl {a} {{ fn {b}(..) {{ .. }} }}`"]}
    return {"help": [f"declare it: `enum {a} {{ {b} }}`"]}


@resolve_names.on("EnumValue", "PVariant")
def _variant(run, node):
    """`E::V(..)`: E an enum of the program (E2003), V one of its variants with as many
    values as it carries (E2004)."""
    if node._prod == "PVariant" and node.enum == "HardwareState":
        return run.rebuild(node)
    decl = run.state.enums.get(node.enum)
    report = run.ctx.diagnostics.error
    if decl is None:
        report("E2003", node.span, f"there is no enum named '{node.enum}'", name=node.enum,
               **_not_an_enum(run.state, node))
        return run.rebuild(node)
    variants = {v.name: v for v in decl.variants}
    variant = variants.get(node.variant)
    listed = ", ".join(v.name + ("(..)" if v.fields else "") for v in decl.variants)
    if variant is None:
        report("E2004", node.span, f"enum '{node.enum}' has no variant '{node.variant}'",
               help=[f"its variants: {listed}"], enum=node.enum, variant=node.variant)
    elif len(variant.fields) != len(node.args):
        report("E2004", node.span,
               f"'{node.enum}::{node.variant}' carries {len(variant.fields)} "
               f"value{'s' * (len(variant.fields) != 1)}, but this gives "
               f"{len(node.args)}", enum=node.enum, variant=node.variant)
    return run.rebuild(node)


@resolve_names.on("Block", "Closure", "Arm", "Case")
def _scoped(run, node):
    scopes = run.state.scopes
    scopes.push()
    out = run.rebuild(node)
    scopes.pop()
    return out


@resolve_names.on("If", "IfExpr")
def _if(run, node):
    st = run.state
    if not node.comptime:
        return run.rebuild(node)
    cond = run.walk(node.cond)
    st.deferring += 1
    then, orelse = run.walk(node.then), _opt(run, node.orelse)
    st.deferring -= 1
    return node.replace(cond=cond, then=then, orelse=orelse)


@resolve_names.on("Var")
def _var(run, node):
    unique = run.state.scopes.lookup(node.name)
    if unique is not None:
        return Lresolved["Local"](unique, span=node.span)
    # `T::area`, T a type parameter: a function of whatever T is, which each instance names.
    through = node.name.partition("::")[0] in run.state.generics and "::" in node.name
    if node.name not in run.state.globals and not run.state.deferring and not through:
        undefined(run.ctx.diagnostics, node.name, node.span,
                  near=run.state.scopes.visible() | run.state.globals)
    return Lresolved["Global"](node.name, span=node.span)


@resolve_names.on("DimName")
def _dim_name(run, node):
    """An extent in a function's body (`Tensor<i32, [n]>`) names a variable, a const item or
    a const generic: one naming none of them is E2001, as a read of it would be. One naming a
    local names the binding in scope, as any other use of the name does: after `let n = true;
    let n = 3;`, `[n]` is `[n#1]`."""
    st = run.state
    unique = st.scopes.lookup(node.name)
    if unique is not None:
        return Lresolved["DimName"](unique, span=node.span)
    inside = len(st.scopes.stack) > 1  # a block of a body; a signature's or a field's is not
    if inside and node.name not in st.globals and node.name not in st.generics \
            and not st.deferring:
        undefined(run.ctx.diagnostics, node.name, node.span,
                  near=st.scopes.visible() | st.globals)
    return Lresolved["DimName"](node.name, span=node.span)


@resolve_names.on("Splat")
def _splat(run, node):
    """`splat(v)` without a vector type is a call when the program names a function (or a
    local, a closure) `splat`: a name of the program's shadows the builtin."""
    st = run.state
    if node.type is None and ("splat" in st.functions or st.scopes.lookup("splat")):
        callee = _var(run, Ltransfers["Var"]("splat", span=node.span))
        return Lresolved["Call"](callee, (), (run.walk(node.value),), span=node.span)
    return run.rebuild(node)


@resolve_names.on("Grad", "Vjp", "Jvp")
def _differentiate(run, node):
    if node.fn not in run.state.globals and run.state.scopes.lookup(node.fn) is None:
        undefined(run.ctx.diagnostics, node.fn, node.span, near=run.state.functions)
    return run.rebuild(node)


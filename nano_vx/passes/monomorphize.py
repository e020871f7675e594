"""monomorphize: Lerased -> Linstances."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..comptime import Evaluator
from ..global_names import BUILTINS
from ..languages import Lerased, Linstances
from ..nanopass import Pass
from ..placement import generic_arguments
from ..placement.instances import concrete_bound, instance_name
from ..placement.typer import Signature, Typer, join, settle
from ..placement.prune_comptime_branches import Pruning, prune
from ..placement.types import OPAQUE, Machine, placed
from ..values.constants import const_item_value
from ..placement.substitute_generic_parameters import Substitution, substitute

MAX_DEPTH = 64  # generic calls deep, along one chain of instantiations
MAX_INSTANCES = 4096  # in the whole program


@dataclass
class Request:
    """An instance asked for and not yet walked: the generic with its parameters replaced
    (still Lerased), its where clauses made concrete, and the call chain that asked."""

    name: str
    fn: object
    bounds: tuple
    chain: tuple[str, ...]


@dataclass
class State:
    machine: Machine | None = None
    base: Typer | None = None  # every signature, instances' as they are made
    typer: Typer | None = None  # the function being walked: its locals
    here: list[str | None] = field(default_factory=list)  # the spaces the code runs in
    generics: dict = field(default_factory=dict)  # generic functions by name
    functions: frozenset[str] = frozenset()  # the other functions' names
    items: frozenset[str] = frozenset()  # every item's name, and the builtins
    consts: object = None  # an integer const item's name -> its value (None: not one)
    structs: dict = field(default_factory=dict)  # name -> StructDecl, instances' too
    instances: dict[str, list[str]] = field(default_factory=dict)  # generic -> its instances
    made: dict[str, object] = field(default_factory=dict)  # instance name -> its Fn
    todo: deque = field(default_factory=deque)  # Requests
    walking: Request | None = None  # the function being walked (name, bounds, chain)
    stopped: bool = False  # a runaway instantiation was refused: make no more
    pruning: Pruning | None = None  # decides an instance's `if comptime` conditions


monomorphize = Pass("monomorphize", Lerased, Linstances, """
Replace every generic function by one instance per distinct list of generic arguments;
refuse a call that leaves a parameter undetermined (E3016), arguments that bind a const twice
(E3046) or do not fit (E3047), and instances that never stop asking for new ones (E3032).

Generic arguments are written (`f<4>(x)`, `f<i32>(y)`, `f<Topology::GPU>(p)` or `f<GPU>(p)`),
else deduced from the types of the arguments: a type parameter from the argument in its
place or from the instance of a generic struct passed where the parameter's type applies it
(`w: Wrapper<T>` given a `Wrapper$Point`: its field `inner: Point` against the generic's
`inner: T`, and a const N of `Buf<T, N>` from its extents; a struct applied to scalars
is erased, and tells nothing), a topology from a
`Pinned<_, Topology::A>`, a const from a tensor extent (`placement/generic_arguments.py`). A const binds once, from the first argument that names
it, on any axis; a later argument with another extent is E3046 ('S' is bound to 4 by
argument 1, but argument 2 has extent 7). An instance is named by its generic and its
arguments (`stage$i32`, `scores$4`, `pipeline$GPU$CPU$Island`; `placement/instances.py`);
its body is the generic's with every parameter replaced (the helper rewrite
substitute-generic-parameters: a const's uses by its value, `[N * 2]` folded) and its where
clauses name the topologies. Instances are made from the calls of the non-generic
functions, then from the calls of the instances, so a generic function nothing calls
disappears unchecked. A generic parameter neither written nor deduced is E3016 ("type
parameter 'T' of 'f' is not determined by this call"), a generic argument that does not fit
its parameter E3047, and an integer const bound to a number outside its type (`f<300>()` for
`const N: u8`, or a tensor of 300 given for its extent) E3008, as the literal would be; an
instantiation more than 64 generic calls deep (polymorphic recursion) is E3032, naming the
chain. Each function's body, an instance's or not, is pruned
(the helper rewrite prune-comptime-branches) before its calls are walked: the branch an `if
comptime` does not take asks for no instance, so a recursion over a const can stop at a base
case, and no check after this pass sees the branch (what a kept branch names,
check-deferred-names judges). A generic struct loses its parameters, which
nothing applies since erase-struct-arguments but a generic function's parameter, which in
the instance names the struct's instance (`w: Wrapper$Point`), else the struct erased. A call of the builtin `sizeof` keeps its
generic arguments, the instance's, for fold-sizeof; every other call loses them.
""", state=State, requires=("model",))


@monomorphize.on("Program")
def _program(run, node):
    st = run.state
    st.machine = Machine(run.ctx.model)
    st.base = Typer(node, st.machine)
    st.pruning = Pruning(Evaluator(node, model=run.ctx.model))
    fns = [i for i in node.items if i._prod == "Fn"]
    st.generics = {f.name: f for f in fns if f.generics}
    st.functions = frozenset(f.name for f in fns if not f.generics)
    st.items = frozenset(i.name for i in node.items) | BUILTINS
    st.structs = {i.name: i for i in node.items if i._prod == "StructDecl"}
    items, memo = {i.name: i for i in node.items if i._prod == "ConstItem"}, {}
    st.consts = lambda name: const_item_value(name, items, memo) if name in items else None
    walked = {}
    for item in node.items:
        if item._prod != "Fn":
            walked[id(item)] = _walk_item(run, item, Request(item.name, item, (), ()))
        elif not item.generics:
            bounds = tuple(concrete_bound(b, {}) for b in item.bounds)
            pruned = prune.rewrite(item, run.ctx, state=st.pruning)
            walked[id(item)] = _walk_item(run, pruned, Request(item.name, pruned, bounds,
                                                               (item.name,)))
    while st.todo:
        request = st.todo.popleft()
        st.made[request.name] = _walk_item(run, request.fn, request)
    items = []
    for item in node.items:
        if item._prod == "Fn" and item.generics:
            items += [st.made[name] for name in st.instances.get(item.name, ())]
        else:
            items.append(walked[id(item)])
    return node.replace(items=tuple(items))


def _walk_item(run, item, request: Request):
    st = run.state
    st.walking = request
    st.typer = st.base.fresh()
    st.here = [st.base.functions[request.name].space if item._prod == "Fn"
               else st.machine.host_space]
    return run.walk(item)


@monomorphize.on("Fn")
def _fn(run, node):
    st = run.state
    params = run.walk_seq(node.params)
    body = run.walk(node.body)
    return Linstances["Fn"](st.walking.name, params, node.on, _type(run, node.ret),
                            st.walking.bounds, body, span=node.span)


def _type(run, ty):
    """A written type as Linstances has it, or None."""
    return run.walk(ty) if ty is not None else None


# -- the types of locals, which deduction reads ----------------------------------------


@monomorphize.on("StructDecl")
def _struct(run, node):
    # Nothing applies a generic struct's parameters since erase-struct-arguments: they go.
    # Fields are not locals: each keeps its name, and only its type is walked.
    fields = tuple(Linstances["Param"](f.name, _type(run, f.type), span=f.span)
                   for f in node.fields)
    return Linstances["StructDecl"](node.name, fields, node.copy, span=node.span)


@monomorphize.on("AppliedType")
def _applied(run, node):
    """An instance's parameter `w: Wrapper<Point>`, its arguments having told the call what
    the generic's are: the struct's instance of those arguments, `Wrapper$Point`, which a
    reference to one passed fits (`Buf$Point$3` of a `Buf<T, N>`); else the struct erased
    (`Wrapper<f64>` is a `Wrapper`)."""
    decl = run.state.structs.get(node.name)
    args = [run.walk(a.type) if a._prod == "TypeArg" else
            a.dim.value if a._prod == "DimArg" and a.dim._prod == "DimInt" else None
            for a in node.args]
    if decl is not None and None not in args:
        name = instance_name(decl, {g.name: a for g, a in zip(decl.generics, args)})
        if name in run.state.structs:
            return Linstances["NamedType"](name, span=node.span)
    return Linstances["NamedType"](node.name, span=node.span)


@monomorphize.on("Param")
def _param(run, node):
    st = run.state
    here = st.here[-1]
    written = _type(run, node.type)
    ty = placed(written, here, st.machine) if written is not None else OPAQUE
    st.typer.bind(node.name, ty, here)
    return node if written is node.type else node.replace(type=written)


@monomorphize.on("Let")
def _let(run, node):
    st = run.state
    value, written = run.walk(node.value), _type(run, node.type)
    here = st.here[-1]
    st.typer.bind(node.name, st.typer.let_type(written, value, here), here)
    return node if value is node.value and written is node.type else \
        node.replace(value=value, type=written)


@monomorphize.on("For")
def _for(run, node):
    st = run.state
    here = st.here[-1]
    start, end = run.walk(node.start), run.walk(node.end)
    st.typer.bind(node.var, settle(join(st.typer.of(start, here), st.typer.of(end, here))),
                  here)
    return node.replace(start=start, end=end, body=run.walk(node.body))


@monomorphize.on("Match")
def _match(run, node):
    """An arm's binding has the type its variant holds, so it can deduce a generic argument
    (`f(p)` in `Available(p)` binds a topology parameter from `Pinned<T, X>`)."""
    st = run.state
    here = st.here[-1]
    scrutinee = run.walk(node.scrutinee)
    state = settle(st.typer.of(scrutinee, here))
    arms = []
    for arm in node.arms:
        st.typer.bind(arm.binding.name, st.typer.arm_type(state, arm.variant), here)
        arms.append(arm.replace(body=run.walk(arm.body)))
    return node.replace(scrutinee=scrutinee, arms=tuple(arms))


@monomorphize.on("Spawn")
def _spawn(run, node):
    st = run.state
    st.here.append(st.machine.holds(node.topo.name))
    out = run.rebuild(node)
    st.here.pop()
    return out


# -- calls -------------------------------------------------------------------------------


@monomorphize.on("Global")
def _global(run, node):
    if node.name in run.state.generics:
        _refuse(run, node.span, f"'{node.name}' is generic, so it can only be called: each "
                                f"call gets the instance its generic arguments ask for",
                help=[f"call it (`{node.name}(..)`), or wrap the call in a closure"])
    return Linstances["Global"](node.name, span=node.span)


@monomorphize.on("Call")
def _call(run, node):
    st = run.state
    name = node.callee.name if node.callee._prod == "Global" else None
    if name == "sizeof" and name not in st.functions:
        # The builtin: fold-sizeof reads its type, the instance's by now.
        return node.replace(callee=Linstances["Global"](name, span=node.callee.span),
                            targs=run.walk_seq(node.targs), args=run.walk_seq(node.args))
    args = run.walk_seq(node.args)
    callee = Linstances["Global"](name, span=node.callee.span) if name in st.generics \
        else run.walk(node.callee)
    if name in st.generics:
        instance = _instance(run, node, st.generics[name], args)
        if instance is not None:
            callee = Linstances["Global"](instance, span=node.callee.span)
    elif node.targs and (name is None or name in st.items):  # an unknown one: E2001, later
        what = f"'{name}' is not generic" if name in st.functions else "this callee is not a " \
                                                                       "generic function"
        given = generic_arguments.count(len(node.targs))
        _refuse(run, node.span, f"{what}, but this call gives it {given}",
                help=["remove the `<..>` after the function's name"])
    return Linstances["Call"](callee, (), args, span=node.span)


def _instance(run, call, fn, args) -> str | None:
    """The name of the instance this call runs, made (or asked for) on first use; None when
    the call's generic arguments cannot be worked out (reported)."""
    st = run.state
    found = [settle(st.typer.of(arg, st.here[-1])) for _, arg in zip(fn.params, args)]
    binding = generic_arguments.binding(call, fn, found, run.ctx.diagnostics, st.consts,
                                        st.structs)
    if binding is None:
        return None
    name = instance_name(fn, binding)
    if name not in st.base.functions:
        return name if _make(run, call, fn, name, binding) else None
    return name


def _make(run, call, fn, name: str, binding: dict) -> bool:
    st = run.state
    chain = st.walking.chain + (name,)
    if st.stopped:
        return False
    if len(chain) > MAX_DEPTH or len(st.made) + len(st.todo) >= MAX_INSTANCES:
        st.stopped = True
        far = (f"{MAX_DEPTH} generic calls deep" if len(chain) > MAX_DEPTH
               else f"to {MAX_INSTANCES} instances")
        shown = chain if len(chain) <= 6 else chain[:3] + ("...",) + chain[-2:]
        _refuse(run, call.span, f"instantiating '{fn.name}' went {far} and was stopped: "
                                f"{' -> '.join(shown)}", code="E3032",
                notes=["each instance calls the generic with new arguments, so "
                       "monomorphization would never finish (polymorphic recursion)"],
                help=["stop the recursion with `if comptime` (the branch it does not take "
                      "makes no instance), or pass the changing value as an ordinary "
                      "argument"],
                chain=list(chain))
        return False
    concrete = substitute.rewrite(fn.replace(generics=()), run.ctx,
                                  state=Substitution(binding, name, fn))
    concrete = prune.rewrite(concrete, run.ctx, state=st.pruning)
    st.base.functions[name] = Signature(concrete, st.machine)
    st.instances.setdefault(fn.name, []).append(name)
    bounds = tuple(concrete_bound(b, binding) for b in fn.bounds)
    st.todo.append(Request(name, concrete, bounds, chain))
    return True


def _refuse(run, span, message, *, code="E3047", notes=(), help=(), **data) -> None:
    run.ctx.diagnostics.error(code, span, message, notes=notes, help=help, **data)

"""What differentiate-forward and differentiate-reverse share: the sites `grad`, `vjp` and
`jvp` name, which functions they differentiate (the named one, then every function it calls
with a value to differentiate, in turn), and what a differentiated function may hold
(E3060, E3061, E3062).

A function is differentiated with respect to its float parameters (f16, bf16, f32, f64) and
its tensors of floats; integers and bools are constants of the derivative. The generated
functions take a tensor by reference (`&Tensor<..>`), so a program that differentiates a
loss with respect to its parameters keeps them: a parameter the function took by value is
copied into a local of its name first, which the body may write as it wrote its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lresolved import display_name
from ..languages.linstances import generic_of
from ..nanopass import descendants
from ..placement.typer import FLOAT_LIT, Typer, join, literal, settle, show, written
from ..placement.types import Machine, placed
from ..values.math import MATH
from .code import (
    FLOATS, Build, Names, Refusal, active, dims_of, float_name, generated_name, rebuild,
    refuse, tensor_of,
)
from .quiet import Silencer

SITES = {"Grad": "grad", "Vjp": "vjp", "Jvp": "jvp"}

# Productions no derivative follows, and how a refusal names them.
UNFOLLOWED = {
    "Transfer": "a `transfer`", "Spawn": "a `spawn`", "Launch": "a kernel launch",
    "Closure": "a closure", "Match": "a `match` on a hardware state",
    "MatchValue": "a `match`", "Tuple": "a tuple", "TupleGet": "a tuple",
    "StructLit": "a struct value", "FieldGet": "a struct field", "EnumValue": "an enum value",
    "SomeTopo": "a topology value", "NoneTopo": "a topology value", "Deref": "`*` on a reference",
    "Grad": "`grad` inside a differentiated function", "Vjp": "`vjp` inside a differentiated "
    "function", "Jvp": "`jvp` inside a differentiated function", "Str": "a string",
}


# -- one function, as the generators see it -------------------------------------------------


@dataclass
class Site:
    """A `grad`, `vjp` or `jvp` in the program: what asks for a function's derivative."""

    node: object
    function: str  # the function holding it

    @property
    def mode(self) -> str:
        return "jvp" if self.node._prod == "Jvp" else "vjp"


class FnInfo:
    """One function to differentiate: its locals' types, its parameters' activity, and the
    typer that types its expressions (its locals bound as the type checks bind them)."""

    def __init__(self, program_info, fn):
        self.program, self.fn = program_info, fn
        self.names = Names(fn)
        self.typer = program_info.typer.fresh()
        self.here = program_info.machine.host_space
        self.types: dict[str, object] = {}  # local -> its type as declared (or inferred)
        for p in fn.params:
            self._bind(p.name, p.type)
        for node in descendants(fn.body):
            if node._prod == "Let":
                found = self.typer.of(node.value, self.here)
                loose = literal(found) and not written(node)
                self._bind(node.name, found if loose else node.type)
            elif node._prod == "For":
                t = settle(join(self.of(node.start), self.of(node.end)))
                self._bind(node.var, t)

    def declare(self, name: str, ty):
        """A local the generated code adds, typed for the rules that read it."""
        self._bind(name, ty)

    def _bind(self, name, ty):
        self.types[name] = ty
        self.typer.bind(name, ty, self.here)

    def of(self, e):
        return self.typer.of(e, self.here)

    def is_float(self, e) -> bool:
        return float_name(self.of(e)) is not None

    def float_of(self, name: str) -> str:
        """The float type of a local: the declared one; an unsuffixed literal's takes the
        function's floats, when they are of one type."""
        ty = self.types[name]
        return self.program.default_float(self.fn) if ty is FLOAT_LIT else float_name(ty)

    def active_params(self) -> list:
        return [p for p in self.fn.params if active(p.type)]


class ProgramInfo:
    """The program being differentiated: its functions, and the typer of its signatures."""

    def __init__(self, program, model):
        self.program = program
        self.machine = Machine(model)
        self.typer = Typer(program, self.machine)
        self.fns = {i.name: i for i in program.items if i._prod == "Fn"}
        self.consts = {i.name: i for i in program.items if i._prod == "ConstItem"}

    def default_float(self, fn) -> str:
        written_floats = {t.name for n in descendants(fn) if n._prod in ("Param", "Let")
                          for t in [n.type] if t is not None and t._prod == "Scalar"
                          and t.name in FLOATS and (n._prod == "Param" or written(n))}
        if fn.ret is not None and fn.ret._prod == "Scalar" and fn.ret.name in FLOATS:
            written_floats.add(fn.ret.name)
        return written_floats.pop() if len(written_floats) == 1 else "f64"

    def placed(self, ty):
        """A type as infer-placement writes it: tensors in the host's space."""
        return placed(ty, self.machine.host_space, self.machine)

    def differentiable_call(self, call) -> object | None:
        """The function a call differentiates through: one of the program's with a float
        or tensor result and a parameter to differentiate; None for a call that is a
        constant of the derivative (or a math built-in, which the rules know)."""
        if call.callee._prod != "Global":
            refuse(call, "a call of a closure or a local")
        fn = self.fns.get(call.callee.name)
        if fn is None:
            return None
        if fn.ret is None or not active(fn.ret) or not any(active(p.type) for p in fn.params):
            return None
        return fn


def is_math(call, name: str | None = None) -> bool:
    return call._prod == "Call" and call.callee._prod == "Global" and \
        call.callee.name in MATH and (name is None or call.callee.name == name)


# -- what a differentiated function may hold ------------------------------------------------


def check_function(info: FnInfo, named: bool, mode: str):
    """Refuse what no derivative follows in `info`'s function: E3060 for the function a
    site names with an integer or bool parameter or result, E3062 for a `while` whose
    trip count depends on the differentiated values, E3061 for the rest."""
    fn = info.fn
    if fn.on is not None:
        refuse(fn, f"a function that runs on Topology::{fn.on.name}")
    if named:
        for p in fn.params:
            if not active(p.type):
                raise Refusal("E3060", p, f"its parameter '{display_name(p.name)}' is "
                                          f"{show(p.type)}, not a float or a tensor of "
                                          f"floats", ("differentiate a function of the float "
                                                      "alone, which calls this one",))
        if fn.ret is None or not active(fn.ret):
            result = show(fn.ret) if fn.ret is not None else "nothing"
            raise Refusal("E3060", fn, f"its result is {result}, not a float or a tensor of "
                                       f"floats")
    for p in fn.params:
        ty = p.type
        if ty._prod == "BorrowType" and (tensor_of(ty) is None or ty.mutable and mode == "vjp"):
            refuse(p, f"the parameter '{display_name(p.name)}' of type {show(ty)}")
        if tensor_of(ty) is not None:
            dims_of(tensor_of(ty), p)
    if fn.ret is not None and fn.ret._prod == "BorrowType":
        refuse(fn, "a function that returns a reference")
    for node in descendants(fn.body):
        kind = node._prod
        if kind in UNFOLLOWED:
            refuse(node, UNFOLLOWED[kind])
        if kind == "MethodCall" and node.method != "extent":
            refuse(node, f"the method `.{node.method}()`")
        if kind == "Call":
            _check_call(info, node, mode)
        if kind == "Binary" and node.op == "%" and info.is_float(node) or \
                kind == "Assign" and node.op == "%=" and info.is_float(node.target):
            refuse(node, "`%` on floats")
        if kind == "Borrow":
            lent = info.of(node.value)
            if literal(lent) or lent._prod not in ("TensorType", "BorrowType") or \
                    node.mutable and mode == "vjp":
                refuse(node, f"a reference `&{'mut ' if node.mutable else ''}` to "
                             f"{show(lent)}")
        if kind == "Let" and tensor_of(node.type) is not None:
            dims_of(tensor_of(node.type), node)
    _check_whiles(info)


def _check_call(info: FnInfo, call, mode: str):
    """A call the derivative follows: of a function (not a closure), and, for the reverse
    sweep, one that moves no tensor, which the sweep reads again after the call."""
    fn = info.program.differentiable_call(call)
    if fn is not None and fn.name.rsplit("$", 1)[-1] in ("jvp", "vjp", "tape"):
        refuse(call, f"a call of '{fn.name}', a derivative: a derivative of a derivative")
    callee = info.program.fns.get(call.callee.name)
    if mode != "vjp" or callee is None:
        return
    for p, arg in zip(callee.params, call.args):
        if p.type is not None and p.type._prod == "TensorType" and arg._prod == "Local":
            refuse(arg, f"the tensor '{display_name(arg.name)}' moved into the call of "
                        f"'{generic_of(callee.name)}', which the reverse sweep reads again",
                   f"lend it: `&{display_name(arg.name)}`, with '{generic_of(callee.name)}' "
                   f"taking `&{show(p.type)}`")


def _check_whiles(info: FnInfo):
    """E3062: a `while` whose condition, or a `break` or `return` inside it under a
    condition, depends on the differentiated values, so its trip count does."""
    dep = {p.name for p in info.fn.params if active(p.type)}

    def depends(e) -> bool:
        return any(n._prod == "Local" and n.name in dep for n in _walk(e))

    def target(t):
        while t._prod in ("Index", "Deref"):
            t = t.base if t._prod == "Index" else t.value
        return t.name if t._prod == "Local" else None

    def visit(stmts, ctl: bool) -> bool:
        changed = False
        for s in stmts:
            k = s._prod
            if k in ("Let", "Assign"):
                name = s.name if k == "Let" else target(s.target)
                if name is not None and name not in dep and (ctl or depends(s.value)):
                    dep.add(name)
                    changed = True
            for child_ctl, block in _blocks(s):
                changed |= visit(block.stmts, ctl or child_ctl and depends(child_ctl))
        return changed

    while visit(info.fn.body.stmts, False):
        pass
    for node in descendants(info.fn.body):
        if node._prod == "While" and (depends(node.cond) or _leaves_under(node.body, depends)):
            raise Refusal("E3062", node, "a `while` loop whose trip count depends on the "
                                         "differentiated value",
                          ("make it a `for` loop whose bounds are known when it starts",))


def _blocks(s):
    """The blocks of a statement, each with the condition it runs under (or None)."""
    k = s._prod
    if k == "If":
        return [(s.cond, s.then)] + ([(s.cond, s.orelse)] if s.orelse is not None else [])
    if k == "While":
        return [(s.cond, s.body)]
    if k in ("For", "BlockStmt"):
        return [(None, s.body)]
    return []


def _leaves_under(block, depends) -> bool:
    """A `break` or `return` of this loop under a condition that depends."""
    def visit(stmts, ctl):
        for s in stmts:
            if s._prod in ("Break", "Return") and ctl:
                return True
            if s._prod in ("While", "For"):  # a break there leaves that loop
                if any(n._prod == "Return" for n in descendants(s)) and ctl:
                    return True
                continue
            for cond, b in _blocks(s):
                if visit(b.stmts, ctl or cond is not None and depends(cond)):
                    return True
        return False
    return visit(block.stmts, False)


def _walk(e):
    yield e
    yield from descendants(e)


# -- the sites and the worklist ------------------------------------------------------------


def sites_of(program) -> list[Site]:
    out = []
    for item in program.items:
        if item._prod == "Fn":
            out += [Site(n, item.name) for n in descendants(item) if n._prod in SITES]
    return out


def callees(fn_node, program_info: ProgramInfo) -> list:
    """The calls of `fn_node` that differentiate through another function, in order."""
    return [n for n in descendants(fn_node.body)
            if n._prod == "Call" and program_info.differentiable_call(n) is not None]


def site_callee(site: Site, program_info: ProgramInfo):
    """The function a site names and the arity check: E3010 for a function that does not
    take one argument, E3061 for a name that is not one of the program's functions."""
    node = site.node
    fn = program_info.fns.get(node.fn)
    if fn is None:
        if any(generic_of(n) == node.fn for n in program_info.fns):
            refuse(node, "a generic function named directly",
                   f"differentiate a function that calls the instance of '{node.fn}' wanted")
        refuse(node, "a name that is not a function of the program (a closure, a variable)")
    if len(fn.params) != 1:
        raise Refusal("E3010", node, f"`{SITES[node._prod]}({node.fn}, ..)` passes one "
                                     f"argument, but '{node.fn}' takes {len(fn.params)}")
    if node._prod == "Grad" and float_name(fn.ret) is None and fn.ret is not None \
            and active(fn.ret):
        raise Refusal("E3060", node, f"`grad` needs a float result, but '{node.fn}' returns "
                                     f"{show(fn.ret)}",
                      ("use `vjp(f, x, seed)` with a seed of the result's type",))
    return fn


def site_call(node, fn, x, second):
    """The call a site becomes, given its arguments: of `f$jvp` or `f$vjp`, a tensor passed
    by reference; grad's seed is 1 of the result's type."""
    b = Build(node.span)
    param = fn.params[0].type

    def by_ref(e, ty):
        return b.borrow(e) if ty._prod == "TensorType" else e
    if node._prod == "Grad":
        second = b.flt(1.0)
    else:
        second = by_ref(second, fn.ret if node._prod == "Vjp" else param)
    mode = "jvp" if node._prod == "Jvp" else "vjp"
    return b.call(generated_name(fn.name, mode), [by_ref(x, param), second])


def report(run, refusal: Refusal, fn_name: str, why: list[str]):
    """A refusal as a diagnostic naming the function and the construct."""
    node = refusal.node
    if refusal.code == "E3010":
        message = refusal.what
    elif refusal.code == "E3061":
        message = f"cannot differentiate '{fn_name}': no derivative follows {refusal.what}"
    else:
        message = f"cannot differentiate '{fn_name}': {refusal.what}"
    run.ctx.diagnostics.error(refusal.code, node.span, message, notes=why,
                              help=list(refusal.help), function=fn_name,
                              construct=refusal.what)


def differentiate_all(run, program, mode: str, generate) -> object:
    """The program with every site of `mode` a call of its generated function, and the
    generated functions after the ones they differentiate. `generate(info, name)` makes
    one function's derivative (and any helper function) as a list of Fn; it raises
    Refusal. Functions are differentiated in the order the sites and calls reach them."""
    sites = [s for s in sites_of(program) if s.mode == mode]
    if not sites:
        return program
    info = ProgramInfo(program, run.ctx.model)
    made: dict[str, list] = {}
    why: dict[str, list[str]] = {}
    todo: list[tuple[str, bool]] = []
    calls = {}
    for site in sites:
        try:
            fn = site_callee(site, info)
        except Refusal as r:
            report(run, r, site.node.fn, [])
            continue
        calls[id(site.node)] = fn
        if fn.name not in why:
            line, col = _at(site.node)
            why[fn.name] = [f"'{fn.name}' is differentiated for `{SITES[site.node._prod]}` "
                            f"in '{site.function}' at {line}:{col}"]
            todo.append((fn.name, True))
    while todo:
        name, named = todo.pop(0)
        if name in made:
            continue
        fn_info = FnInfo(info, info.fns[name])
        try:
            check_function(fn_info, named, mode)
            made[name] = generate(fn_info, name)
        except Refusal as r:
            report(run, r, name, why[name])
            made[name] = []
            continue
        for call in callees(info.fns[name], info):
            callee = call.callee.name
            if callee not in why:
                line, col = _at(call)
                why[callee] = why[name] + [f"'{callee}' is differentiated because '{name}' "
                                           f"calls it at {line}:{col}"]
                todo.append((callee, False))
    quiet = Silencer(program)
    made = {name: [quiet.calls_in(fn) for fn in fns] for name, fns in made.items()}
    items = []
    for item in program.items:
        items.append(_rewrite_sites(item, calls, info) if item._prod == "Fn" else item)
        if item._prod == "Fn":
            items += quiet.copy_of(item.name) + made.get(item.name, [])
    return program.replace(items=tuple(items))


def _at(node) -> tuple[int, int]:
    span = node.span
    return span.source.line_col(span.start) if span is not None else (0, 0)


def _rewrite_sites(fn, calls: dict, info: ProgramInfo):
    """`fn` with each site `calls` maps replaced by its call (the sites in its arguments
    first); a `let` that infer-placement could not type (a site had no type then) takes the
    generated function's result type."""
    if not any(id(n) in calls for n in descendants(fn)):
        return fn

    def replace(node):
        if id(node) in calls:
            args = [rebuild(a, replace) for a in node.values()[1:]]
            return site_call(node, calls[id(node)], args[0], args[-1])
        if node._prod == "Let" and id(node.value) in calls \
                and node.type._prod == "OpaqueType":
            ty = result_type(node.value, calls[id(node.value)], info)
            return node.replace(type=ty.replace(span=node.span),
                                value=rebuild(node.value, replace))
        return None
    return rebuild(fn, replace)


def result_type(site_node, fn, info: ProgramInfo):
    """The type of a site's value: the argument's for grad and vjp, the result's for jvp."""
    if site_node._prod == "Jvp":
        ty = fn.ret
    else:
        ty = fn.params[0].type
        if ty._prod == "BorrowType":
            ty = ty.inner
    return info.placed(ty)



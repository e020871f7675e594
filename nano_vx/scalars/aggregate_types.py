"""The shape of what an expression computes, for the passes that take aggregates apart:
each function's signature in shapes, and the shape of each local, parameter and pattern
name of a function, from what declares it and what gives it its value."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import descendants
from .aggregate_values import merged
from .aggregates import Names, Shapes, Tree, concrete, is_tensor, strip


@dataclass
class Sig:
    params: list  # per parameter, its shape or None
    out: Tree | None = None  # the result's shape, when it is an aggregate
    result: int | None = None  # the leaf of `out` returned as the function's result, a tensor

    @property
    def aggregate(self) -> bool:
        """Whether the function takes or returns an aggregate, which scalarize-aggregates
        takes apart."""
        return self.out is not None or any(shape is not None for shape in self.params)


@dataclass
class _Scope:
    """What types a value of one function: the program's shapes and signatures, the
    function's aggregate locals' shapes and the written types of its other locals (and,
    for a `let`'s value, those of its scalar locals of no written type: _arm_shape)."""
    shapes: Shapes
    sigs: dict
    env: dict
    written: dict
    untyped: frozenset = frozenset()
    named: dict = field(default_factory=dict)  # a constant's value's: _leaf_type


def program_types(program) -> tuple:
    """The program's Shapes, and each function's Sig by name. A leaf whose type a generic
    struct's erased parameter was is typed (or, holding an aggregate, given its shape) as
    what the function returns puts there, and a parameter's as every call of the function
    gives it alike (the type argument of the signature, erased, said no more: the
    interpreter holds there what it is given), and an enum's payload's as every value of
    the enum the program makes puts it alike (Shapes.payloads). Again
    while that types a leaf anew, since a parameter typed types what the function returns,
    and a result its callers' locals, and they the calls they make and the enum values."""
    shapes = Shapes(program)
    fns = [fn for fn in program.items if fn._prod == "Fn"]
    sigs = {fn.name: Sig([shapes.of(p.type) for p in fn.params], shapes.of(fn.ret))
            for fn in fns}
    erased = {name: shape for name, d in shapes.enums.items()
              if None in (shape := shapes.of(L["NamedType"](name, span=d.span))).leaves()}
    if erased or any(None in s.leaves() for sig in sigs.values()
                     for s in (*sig.params, sig.out) if s is not None):
        given: dict = {}  # (callee, k) -> the leaf types each call gives parameter k
        while True:
            typed = {fn.name: _sig(fn, sigs, given, shapes) for fn in fns}
            calls = _given(fns, typed, shapes)
            payloads = _payloads(fns, typed, shapes, erased)
            if typed == sigs and calls == given and payloads == shapes.payloads:
                break
            sigs, given, shapes.payloads = typed, calls, payloads
    for fn in fns:
        out, written = sigs[fn.name].out, shapes.of(fn.ret, typed=is_tensor)
        sigs[fn.name].result = _result_leaf(
            fn, written if out is not None and written.form() == out.form() else out)
    return shapes, sigs


def _result_leaf(fn, shape: Tree | None) -> int | None:
    """The leaf of the aggregate fn returns that is its result, which its caller gets as the
    buffer itself, where every other tensor is given back: copied into the caller's
    (copy-out-tensors) or, one a parameter handed over, made the caller's own
    (hand-on-lent-tensors). The first tensor, or the first one a value fn returns puts a
    call's result in, which may be a buffer someone else holds (an argument), which neither
    keeps the same buffer. (copy-out-tensors refuses another given back so.)"""
    tensors = [k for k, t in enumerate(shape.leaves() if shape is not None else ())
               if is_tensor(t)]
    if not tensors:
        return None
    lets = {n.name: n.value for n in descendants(fn.body) if n._prod == "Let"}
    values = [fn.body.value] + [n.value for n in descendants(fn.body) if n._prod == "Return"]
    called = {k for v in values if v is not None
              for k, x in enumerate(_leaf_values(v, shape)) if _called(x, lets)}
    return next((k for k in tensors if k in called), tensors[0])


def _leaf_values(e, shape: Tree) -> list:
    """The expression the value e puts at each leaf of `shape`, where a literal writes it;
    None elsewhere."""
    if shape.kind == "leaf":
        return [e]
    if e._prod == "StructLit" and shape.kind == "struct" and e.name == shape.name:
        given = {f.name: f.value for f in e.fields}
        return [x for k, part in shape.parts
                for x in (_leaf_values(given[k], part) if k in given
                          else [None] * len(part.leaves()))]
    if e._prod == "Tuple" and shape.kind == "tuple" and len(e.elems) == len(shape.parts):
        return [x for v, (_, part) in zip(e.elems, shape.parts)
                for x in _leaf_values(v, part)]
    return [None] * len(shape.leaves())


def _called(x, lets: dict) -> bool:
    """Whether x is what a call returns, or a local bound to it."""
    while x is not None and x._prod == "Local" and x.name in lets:
        x = lets[x.name]
    return x is not None and x._prod == "Call"


def _sig(fn, sigs: dict, given: dict, shapes: Shapes) -> Sig:
    """fn's Sig, its leaves typed as far as `sigs` and what its calls give say."""
    sig = sigs[fn.name]
    called = [s if s is None else _alike(s.filled(shapes.of(p.type)),
                                         given.get((fn.name, k), []))
              for k, (s, p) in enumerate(zip(sig.params, fn.params))]
    out = sig.out
    if out is not None:
        out = out.filled(shapes.of(fn.ret))
        scope = _Scope(shapes, sigs, local_shapes(fn, shapes, sigs), _written(fn))
        for value in [fn.body.value] + [n.value for n in descendants(fn.body)
                                        if n._prod == "Return"]:
            if value is not None:
                out = _value_shape(value, out, scope)
    return Sig(called, out)


def _payloads(fns: list, sigs: dict, shapes: Shapes, erased: dict) -> dict:
    """enum name -> the shape `erased` gives it (as declared), each erased field of a
    variant's payload typed as every value of the enum the program makes puts there alike
    (_value_shape). An erased field of a variant no value is made of holds nothing any read
    sees, which the interpreter never runs: an i32, which `0` starts. The
    literal a `print` is given makes none: it is printed as it is, its other variants holding
    nothing, and expand-aggregate-prints writes there the reads of the payload printed. A
    field a value puts there read off a value of the same variant at the same place says
    nothing of it (`Slot::Full(Cell { n: c.n + 1, v: c.v })`), as a recursive call handing
    a parameter on says nothing of it: it holds what the others put there."""
    found: dict = {}  # (enum, variant, k) -> the shape each value gives payload k
    for fn in fns:
        scope = _Scope(shapes, sigs, local_shapes(fn, shapes, sigs), _written(fn))
        lets = {n.name: n.value for n in descendants(fn.body)
                if n._prod == "Let" and not n.mutable}
        shown = {id(x) for n in descendants(fn.body) if (arg := printed(n, sigs)) is not None
                 for x in _literal(arg)}
        for e in descendants(fn.body):
            if e._prod == "EnumValue" and e.enum in erased and id(e) not in shown:
                declared = dict(erased[e.enum].parts).get(e.variant)
                for k, (a, (_, part)) in enumerate(zip(e.args, declared.parts)
                                                   if declared is not None else ()):
                    given = _value_shape(a, part, scope)
                    if len(given.leaves()) == len(part.leaves()):
                        given = given.rebuilt(iter(
                            _ITSELF if _rereads(x, lets, e, k, path, scope) else t
                            for t, x, path in zip(given.leaves(), _leaf_values(a, part),
                                                  _label_paths(part))))
                    found.setdefault((e.enum, e.variant, k), []).append(given)
    made = {(name, label) for name, label, _ in found}
    return {name: Tree("enum", name, tuple(
        (label, v if v.kind != "variant" else Tree("variant", label, tuple(
            (k, _alike(part, found.get((name, label, k), [])) if (name, label) in made
             else part.rebuilt(iter(t or _UNSEEN for t in part.leaves())))
            for k, part in v.parts)))
        for label, v in shape.parts)) for name, shape in erased.items()}


_UNSEEN = L["Scalar"]("i32", span=None)
_ITSELF = object()  # a leaf of a payload a value puts there read off the same place


def _label_paths(shape: Tree) -> list:
    """Each leaf's labels from the root of shape down."""
    if shape.kind == "leaf":
        return [()]
    return [(label, *p) for label, part in shape.parts for p in _label_paths(part)]


def _rereads(x, lets: dict, e, k: int, path: tuple, scope: _Scope) -> bool:
    """Whether x reads the leaf at `path` of payload k of a value of the enum value e's
    variant (through fields and `let`s that are not `mut`)."""
    labels: list = []
    while x is not None:
        if x._prod in ("FieldGet", "TupleGet"):
            labels.insert(0, x.field if x._prod == "FieldGet" else x.index)
            x = x.base
        elif x._prod == "Local" and x.name in lets:
            x = lets[x.name]
        else:
            break
    if x is None or x._prod != "VariantField" or (x.variant, x.index, tuple(labels)) != \
            (e.variant, k, path):
        return False
    base = shape_of(x.base, scope.shapes, scope.sigs, scope.env.get)
    return base is not None and base.kind == "enum" and base.name == e.enum


def _literal(e) -> list:
    """The nodes of the literal e is, down to what it holds that is no literal: a struct's,
    a tuple's, an enum value's and an `if`'s choosing among them."""
    p = e._prod
    parts = [f.value for f in e.fields] if p == "StructLit" else e.elems if p == "Tuple" \
        else e.args if p == "EnumValue" else (e.then.value, e.orelse.value) \
        if p == "IfExpr" and e.then.value is not None and e.orelse is not None else ()
    return [e, *(x for part in parts if part is not None for x in _literal(part))]


def _given(fns: list, sigs: dict, shapes: Shapes) -> dict:
    """(callee, k) -> the shape each call of the program gives the callee's aggregate
    parameter k, its leaves filled as its argument says (_value_shape). A recursive call
    handing the parameter on says nothing of it, nor does a call handing on a parameter of
    its caller whose form nothing says yet (`pong(c)` in `ping(c)`, which `pong` calls
    back: what the other calls give `ping` says it)."""
    given: dict = {}
    for fn in fns:
        params = {p.name for p in fn.params}
        for call, forms in call_shapes(fn, shapes, sigs):
            for k, shape in enumerate(forms):
                a = call.args[k]
                if shape is not None and not (
                        call.callee.name == fn.name and a._prod == "Local" and
                        a.name == fn.params[k].name) and not (
                        a._prod == "Local" and a.name in params and None in shape.leaves()):
                    given.setdefault((call.callee.name, k), []).append(shape)
    return given


def call_shapes(fn, shapes: Shapes, sigs: dict, declared: dict | None = None) -> list:
    """Each call fn makes of a function of `sigs`, with the shape it gives each parameter
    (None for one that takes no aggregate): the parameter's shape in the callee's Sig, or in
    `declared` (function -> its parameters' shapes as written), its leaves filled as the
    argument says."""
    scope = _Scope(shapes, sigs, local_shapes(fn, shapes, sigs), _written(fn))
    params = declared if declared is not None else {f: sig.params for f, sig in sigs.items()}
    return [(call, [shape if shape is None else _value_shape(a, shape, scope)
                    for a, shape in zip(call.args, params[call.callee.name])])
            for call in descendants(fn.body)
            if call._prod == "Call" and call.callee._prod == "Global" and
            call.callee.name in sigs]


def _written(fn) -> dict:
    """The written type of each parameter and `let` of fn that has a scalar, vector or
    tensor one (not one infer-placement chose: its span is its `let`'s)."""
    written = {p.name: p.type for p in fn.params if concrete(p.type)}
    written.update({n.name: n.type for n in descendants(fn.body)
                    if n._prod == "Let" and concrete(n.type) and n.type.span != n.span})
    return written


def _alike(shape: Tree, found: list) -> Tree:
    """shape filled as every call gives it alike (found: each call's shape): a leaf not typed
    by the type every call gives it, a generic struct's erased field by the shape of the
    aggregate every call puts there, its leaves typed so; as it is where one differs or says
    nothing (_ITSELF says nothing)."""
    found = [f for f in found if f.leaf is not _ITSELF]
    if not found or shape.kind == "leaf" and shape.leaf is not None:
        return shape
    first, form = found[0], shape
    if shape.kind == "leaf":
        if first.kind == "leaf":
            return first if all(f == first for f in found) else shape
        form = Tree(first.kind, first.name, tuple((k, Tree("leaf")) for k, _ in first.parts))
    if any(f.kind != form.kind or f.labels() != form.labels() for f in found):
        return shape
    return Tree(form.kind, form.name, tuple((k, _alike(part, [f.part(k) for f in found]))
                                            for k, part in form.parts))


def _value_shape(e, shape: Tree, scope: _Scope) -> Tree:
    """shape, each leaf not typed filled as the value e says: by the type of the local,
    tensor or literal a literal writes there (_leaf_type), or every arm of an `if` or a
    `match` writes there alike (a scalar one chooses too), and, where a generic struct's
    erased field holds an aggregate, by that aggregate's shape (a literal's, an aggregate
    local's or a call's), filled so in turn."""
    if shape.kind == "leaf":
        if shape.leaf is not None:
            return shape
        found = shape_of(e, scope.shapes, scope.sigs, scope.env.get)
        if found is not None:
            return _value_shape(e, found, scope)
        arms = _arms(e)
        return _alike(shape, [_arm_shape(x, shape, scope) for x in arms]) if arms else \
            Tree("leaf", leaf=_leaf_type(e, scope))
    p = e._prod
    if p == "StructLit" and shape.kind == "struct" and e.name == shape.name:
        given = {f.name: f.value for f in e.fields}
        return Tree("struct", shape.name, tuple(
            (k, _value_shape(given[k], part, scope) if k in given else part)
            for k, part in shape.parts))
    if p == "Tuple" and shape.kind == "tuple" and len(e.elems) == len(shape.parts):
        return Tree("tuple", None, tuple((k, _value_shape(x, part, scope))
                                         for x, (k, part) in zip(e.elems, shape.parts)))
    arms = _arms(e)
    if arms:
        return _alike(shape, [_arm_shape(x, shape, scope) for x in arms])
    found = shape_of(e, scope.shapes, scope.sigs, scope.env.get)
    return shape.filled(found) if found is not None else shape


def _arms(e) -> list:
    """The values of the arms of e, an `if` with an `else` or a `match` each arm of which
    has one; none for any other value."""
    arms = [e.then.value, e.orelse.value] if e._prod == "IfExpr" and e.orelse is not None \
        else [c.body.value for c in e.cases] if e._prod == "MatchValue" else []
    return arms if None not in arms else []


def _arm_shape(x, shape: Tree, scope: _Scope) -> Tree:
    """shape filled as the arm x of an `if` or a `match` says, a scalar local of no written
    type it puts somewhere (or arithmetic on it) saying nothing there: type-scalars solves
    that local's type after the split, as what the other arms put there (`let k = 9; if c {
    (k, true) } else { (7, false) }` holds an i32, and a later use fixing k to another type
    is refused there)."""
    found = _value_shape(x, shape, scope)
    return found.rebuilt(iter(
        _ITSELF if t is None and v is not None and _untyped(v, scope) else t
        for t, v in zip(found.leaves(), _leaf_values(x, found))))


def _untyped(v, scope: _Scope) -> bool:
    """Whether v is a scalar local of no written type, or arithmetic on such locals and
    unsuffixed literals, which take its type."""
    if v._prod == "Local":
        return v.name in scope.untyped
    if v._prod == "Unary" and v.op == "-":
        return _untyped(v.operand, scope)
    if v._prod != "Binary" or v.op not in _ARITHMETIC:
        return False
    sides = [x for x in (v.left, v.right) if x._prod not in ("Int", "Float")]
    return bool(sides) and all(_untyped(x, scope) for x in sides)


# What an unsuffixed literal is when nothing fixes its type: the interpreter computes with it
# so (a generic struct's field type is erased), and type-scalars solves it so.
_LITERALS = {"Int": "i32", "Float": "f64", "Bool": "bool"}
_ARITHMETIC = frozenset("+ - * / %".split())


def _leaf_type(x, scope: _Scope):
    """The type of the scalar or tensor x: a local's written one, a field's its aggregate's
    shape says, a tensor made or a literal (or one cast, or arithmetic on such of one type,
    or `-` or `!` of one); None for any other value."""
    if x._prod == "Local":
        return scope.written.get(x.name)
    if x._prod == "Global" or x._prod == "Call" and x.callee._prod == "Global":
        return scope.named.get(x.name if x._prod == "Global" else x.callee.name)
    if x._prod in ("FieldGet", "TupleGet", "VariantField"):
        base = shape_of(x.base, scope.shapes, scope.sigs, scope.env.get)
        if base is not None and x._prod == "VariantField":
            base = dict(base.parts).get(x.variant)
        part = dict(base.parts).get(x.field if x._prod == "FieldGet" else x.index) \
            if base is not None else None
        return part.leaf if part is not None and part.kind == "leaf" else None
    if x._prod in ("TensorNew", "TensorLit", "Cast"):
        return x.type if concrete(x.type) else None
    if x._prod == "Binary" and x.op in _ARITHMETIC:
        left, right = _leaf_type(x.left, scope), _leaf_type(x.right, scope)
        return left if left is not None and left == right and \
            strip(left)._prod == "Scalar" else None
    if x._prod == "Unary" and x.op in ("-", "!"):
        operand = _leaf_type(x.operand, scope)
        return operand if operand is not None and strip(operand)._prod == "Scalar" else None
    name = _LITERALS.get(x._prod)
    return L["Scalar"](name, span=x.span) if name is not None else None


def shape_of(e, shapes: Shapes, sigs: dict, env) -> Tree | None:
    """The shape of e's value, None for a scalar or a tensor; env(name) is a local's."""
    p = e._prod
    if p == "Local":
        return env(e.name)
    if p in ("Borrow", "Deref"):
        return shape_of(e.value, shapes, sigs, env)
    if p == "StructLit":
        return shapes.of(L["NamedType"](e.name, span=e.span))
    if p == "EnumValue":
        return shapes.of(L["NamedType"](e.enum, span=e.span))
    if p == "Tuple":
        return Tree("tuple", None, tuple((k, shape_of(x, shapes, sigs, env) or Tree("leaf"))
                                         for k, x in enumerate(e.elems)))
    if p == "Call" and e.callee._prod == "Global" and e.callee.name in sigs:
        return sigs[e.callee.name].out
    if p in ("FieldGet", "TupleGet", "VariantField"):
        base = shape_of(e.base, shapes, sigs, env)
        if base is not None and p == "VariantField":
            base = dict(base.parts).get(e.variant)
        label = e.field if p == "FieldGet" else e.index
        part = dict(base.parts).get(label) if base is not None else None
        return part if part is not None and part.kind != "leaf" else None
    if p == "IfExpr" and e.then.value is not None:
        return shape_of(e.then.value, shapes, sigs, env)
    if p == "MatchValue" and e.cases and e.cases[0].body.value is not None:
        return shape_of(e.cases[0].body.value, shapes, sigs, env)
    return None


def constant_shape(item, shape: Tree, program, sigs: dict) -> Tree:
    """shape, the type of the constant `item`, each leaf not typed (a generic struct's erased
    field) filled as its value puts it: a call's by its function's written result, a
    constant's by its written type, a local its `let`s bind by the type infer-placement gave
    it, what the interpreter holds there (`Pair { a: half(), b: 2.5 }` of `half() -> f64`
    holds two f64s), the rest as in a function (_value_shape)."""
    named = {i.name: t for i in program.items if i._prod in ("Fn", "ConstItem")
             and (t := i.ret if i._prod == "Fn" else i.type) is not None and concrete(t)}
    written = {n.name: n.type for n in descendants(item.value)
               if n._prod == "Let" and concrete(n.type)}
    return _value_shape(item.value, shape, _Scope(Shapes(program), sigs, {}, written,
                                                  named=named))


def local_shapes(fn, shapes: Shapes, sigs: dict) -> dict:
    """The shape of each aggregate local, parameter and pattern name of fn, by name, a
    `let`'s leaves typed as its value puts them where its type does not say."""
    env = {p.name: s for p, s in zip(fn.params, sigs[fn.name].params) if s is not None}
    written = _written(fn)
    untyped = frozenset(n.name for n in descendants(fn.body) if n._prod == "Let"
                        and n.name not in written and strip(n.type)._prod == "Scalar")
    scope = _Scope(shapes, sigs, env, written, untyped)
    for node in descendants(fn.body):
        if node._prod == "Let":
            found = merged(shape_of(node.value, shapes, sigs, env.get), shapes.of(node.type))
            if found is not None:
                env[node.name] = _value_shape(node.value, found, scope)
        elif node._prod == "MatchValue":
            scrutinee = shape_of(node.scrutinee, shapes, sigs, env.get)
            for case in node.cases:
                _bind(case.pattern, scrutinee, env)
    return env


def _bind(pattern, shape, env) -> None:
    if shape is None or shape.kind == "leaf":
        return
    if pattern._prod == "PBind":
        env[pattern.name] = shape
    elif pattern._prod == "PVariant" and pattern.variant in dict(shape.parts):
        variant = shape.part(pattern.variant)
        for sub, (_, part) in zip(pattern.args, variant.parts):
            _bind(sub, part, env)
    elif pattern._prod == "POr":
        for alt in pattern.alts:
            _bind(alt, shape, env)


def settled(e) -> bool:
    """Whether e may be computed once per read of it: reads of locals, and literals."""
    p = e._prod
    if p in ("Local", "Int", "Float", "Bool"):
        return True
    if p in ("FieldGet", "TupleGet", "VariantField"):
        return settled(e.base)
    if p in ("EnumValue", "Tuple"):
        return all(settled(x) for x in (e.args if p == "EnumValue" else e.elems))
    return p == "StructLit" and all(settled(f.value) for f in e.fields)


_AGGREGATE = frozenset({"StructLit", "Tuple", "EnumValue", "FieldGet", "TupleGet",
                        "VariantIs", "VariantField"})


def holds_aggregates(fn, sigs: dict) -> bool:
    """Whether fn holds an aggregate: a parameter, its result, a value or a call of a
    function that takes or returns one."""
    def splits(name):
        return name in sigs and (any(sigs[name].params) or sigs[name].out is not None)
    return splits(fn.name) or any(
        n._prod in _AGGREGATE or n._prod == "Call" and n.callee._prod == "Global"
        and splits(n.callee.name) for n in descendants(fn.body))


def printed(e, sigs: dict):
    """What the built-in `print` call e prints, None when e is no such call."""
    if e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" and \
            "print" not in sigs and len(e.args) == 1:
        return e.args[0]
    return None


@dataclass
class Typed:
    """The state of a pass that reads the shapes of values: the program's shapes and
    signatures (`enter_program`), and the current function's aggregate locals' shapes
    (`enter_function`)."""
    shapes: Shapes | None = None
    sigs: dict = field(default_factory=dict)  # function name -> Sig
    types: dict = field(default_factory=dict)  # the current function's aggregate locals' shapes

    def enter_program(self, program) -> None:
        self.shapes, self.sigs = program_types(program)

    def enter_function(self, fn) -> None:
        self.types = local_shapes(fn, self.shapes, self.sigs)

    def shape(self, e) -> Tree | None:
        """The shape of e's value, None for a scalar or a tensor."""
        return shape_of(e, self.shapes, self.sigs, self.types.get)


@dataclass
class Shaped:
    """The state of a pass that names the aggregates a function computes: the program's shapes
    and signatures (`enter_program`), and the function being rebuilt's aggregate locals'
    shapes and fresh names (`enter_function`)."""
    shapes: Shapes | None = None
    sigs: dict = field(default_factory=dict)
    env: dict = field(default_factory=dict)  # the current function's aggregate locals' shapes
    names: Names | None = None
    # The current function's locals a `let` binds to a closure whose value is an aggregate
    # (or a function returning one, or an `if` choosing among those), and its parameters a
    # launch gives one.
    results: set = field(default_factory=set)
    launched: dict = field(default_factory=dict)  # a kernel -> those of its parameters

    def enter_program(self, program) -> None:
        self.shapes, self.sigs = program_types(program)
        self.launched = {}
        fns = {i.name: i for i in program.items if i._prod == "Fn"}
        for fn in fns.values():
            launches = [n for n in descendants(fn.body) if n._prod == "Launch"]
            if not launches:
                continue
            results = self._results(fn, local_shapes(fn, self.shapes, self.sigs))
            for launch in launches:
                kernel = fns.get(launch.kernel)
                self.launched.setdefault(launch.kernel, set()).update(
                    p.name for p, a in zip(kernel.params if kernel else (), launch.args)
                    if a._prod == "Local" and a.name in results)

    def enter_function(self, fn) -> None:
        self.env, self.names = local_shapes(fn, self.shapes, self.sigs), Names(fn)
        self.results = self._results(fn, self.env) | self.launched.get(fn.name, set())

    def _results(self, fn, env: dict) -> set:
        return {n.name for n in descendants(fn.body) if n._prod == "Let"
                and self._gives_aggregate(n.value, env)}

    def _gives_aggregate(self, v, env: dict) -> bool:
        """Whether v is a closure whose value is an aggregate, a function returning one, or an
        `if` choosing among those (which wrap-aggregate-function-values makes closures)."""
        if v._prod == "Closure":
            return v.body.value is not None and \
                shape_of(v.body.value, self.shapes, self.sigs, env.get) is not None
        if v._prod == "Global":
            return v.name in self.sigs and self.sigs[v.name].out is not None
        return v._prod == "IfExpr" and v.orelse is not None and all(
            b.value is not None and self._gives_aggregate(b.value, env)
            for b in (v.then, v.orelse))

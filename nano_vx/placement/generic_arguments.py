"""What one call binds a generic function's parameters to: the generic arguments it writes
(`f<4>(x)`, `f<GPU>(p)`), then what its arguments' types give (a type from the argument in
its place, a topology from a `Pinned<_, Topology::A>`, a const from a tensor extent). A
parameter neither gives is E3016; one that does not fit, E3047; a const bound to two extents,
E3046.
monomorphize names and makes the instance a binding asks for."""

from __future__ import annotations

from ..dump.text import to_text
from ..languages import Lerased
from ..languages.linstances import as_written, generic_of
from ..nanopass import descendants, with_span
from ..values.literal_ranges import holders, refuse_out_of_range
from ..values.numbers import INT_TYPES
from ..values.sizes import extent
from .typer import show
from .types import OPAQUE


def binding(call, fn, found, diagnostics, consts=None, structs=None) -> dict | None:
    """Each generic parameter of `fn` -> a type, a TopoRef, or a number, for `call`, whose
    arguments' types are `found` (settled; OPAQUE where unknown); None when some parameter
    cannot be bound (reported). `consts(name)` is the value of an integer `const` item, which
    a const parameter may be given (`f<N>(x)`, `f<N - 1>(x)`), else None. `structs` are the
    program's struct declarations by name: a generic one's (whose scalar arguments
    erase-struct-arguments erased) and its instances' (`Wrapper$Point`, whose fields give a
    parameter written `Wrapper<T>` its T)."""
    return _Binder(call, fn, diagnostics, consts, structs).bind(found)


def count(n: int) -> str:
    """`n` generic arguments, as a message counts them."""
    return f"{n} generic argument{'s' * (n != 1)}"


class _Binder:
    def __init__(self, call, fn, diagnostics, consts=None, structs=None):
        self.call, self.fn, self.diagnostics, self.consts = call, fn, diagnostics, consts
        self.structs = structs or {}
        self.kinds = {g.name: g for g in fn.generics}
        self.binding = {}  # parameter -> what it is bound to
        self.by = {}  # a const's parameter -> the argument that bound it (0: `<..>`)
        self.spans = {}  # a const's parameter -> where what bound it is written
        self.found = ()  # the arguments' types, as bind is given them

    def bind(self, found) -> dict | None:
        fn, call = self.fn, self.call
        self.found = found
        if not self._explicit():
            return None
        for i, (param, arg, ty) in enumerate(zip(fn.params, call.args, found), 1):
            if param.type is None or ty is OPAQUE:
                continue  # nothing to learn from it
            if not self._deduce(param.type, with_span(ty, arg.span), i, arg):
                return None
        missing = [g for g in fn.generics if g.name not in self.binding]
        if missing:
            self._undetermined(missing[0])
            return None
        return self.binding if self._in_range() else None

    def _in_range(self) -> bool:
        """Whether each integer const is bound to a number its type holds: `f<300>()` for
        `const N: u8` is refused as the literal `300` would be (E3008), not wrapped."""
        for g in self.fn.generics:
            t = INT_TYPES.get(g.type.name) if g._prod == "ConstParam" and \
                g.type._prod == "Scalar" else None
            value = self.binding[g.name]
            if t is None or type(value) is not int or t.lo <= value <= t.hi:
                continue
            fits = holders(value, t)
            refuse_out_of_range(
                self.diagnostics, self.spans.get(g.name, self.call.span), str(value), t,
                notes=[f"it is given to '{g.name}' of '{self.fn.name}', a const {t.name}"],
                help=[f"give '{g.name}' a value its type holds, or make it a const "
                      f"{fits[0].name}" if fits else f"give '{g.name}' a value its type holds"])
            return False
        return True

    def _undetermined(self, g) -> None:
        fn, call = self.fn, self.call
        order = f"in the order {', '.join(_kind(g) for g in fn.generics)}"
        structs = [(i, p, t.name) for i, p in enumerate(fn.params, 1) if p.type is not None
                   for t in descendants(p.type) if t._prod in ("NamedType", "AppliedType")
                   and self._generic(t.name)]
        # `first((3, 4))` for `fn first<T>(p: (T, T))`: the parameter names T, but a tuple of
        # unsuffixed literals has no type yet, its elements taking theirs from where it goes
        # (nor has a closure's parameter written without one).
        unknown = [i for i, (p, ty) in enumerate(zip(fn.params, self.found), 1)
                   if p.type is not None and any(n._prod == "NamedType" and n.name == g.name
                                                 for n in descendants(p.type))
                   and any(n._prod == "OpaqueType" for n in descendants(ty))]
        if unknown and not structs:
            self._refuse(call.span, f"{_parameter(g)} '{g.name}' of '{fn.name}' is not "
                                    f"determined by this call: argument {unknown[0]}, whose "
                                    f"parameter's type names it, has no type known yet",
                         code="E3016",
                         notes=["a tuple of unsuffixed literals, `(3, 4)`, has no type of its "
                                "own (its elements take theirs from where it goes), nor has a "
                                "closure's parameter written without one"],
                         help=[f"write the generic arguments out, {_written_out(fn.name)}, "
                               f"{order}, or give the literals a suffix (`3i32`)"],
                         parameter=g.name, callee=fn.name, argument=unknown[0])
            return
        if not structs:
            self._refuse(call.span, f"{_parameter(g)} '{g.name}' of '{fn.name}' is not "
                                    f"determined by this call: no argument's type names it and "
                                    f"no generic argument gives it", code="E3016",
                         help=[f"write the generic arguments out, {_written_out(fn.name)}, "
                               f"{order}"],
                         parameter=g.name, callee=fn.name)
            return
        # `fn swap<T>(p: Pair<T>)`: the written type names T, but a generic struct's scalar
        # arguments are erased, so a `Pair<f64>` passed cannot say what T is (a
        # `Pair<Point>` is the instance `Pair$Point`, which does: _deduce).
        i, param, struct = structs[0]
        example = f": {_example(fn, struct)}" if len(fn.generics) == 1 and \
            g._prod == "TypeParam" and not g.topology else ""
        kept = [n.name for n in descendants(self.found[i - 1]) if n._prod == "NamedType"
                and n.name != struct and generic_of(n.name) == struct]
        if kept:
            note = (f"argument {i} is a '{as_written(kept[0])}': an instance keeps the "
                    f"arguments that are structs, enums, tuples or tensors, and a scalar "
                    f"one, `_` there, is erased")
        else:
            note = (f"a generic struct applied to scalars is erased: '{param.name}' is a "
                    f"'{struct}' whatever they are (applied to a struct, an enum, a tuple or "
                    f"a tensor, it is an instance, `{struct}<Point>`, which keeps them)")
        self._refuse(call.span, f"{_parameter(g)} '{g.name}' of '{fn.name}' is not "
                                f"determined by this call: argument {i} is a '{struct}', a "
                                f"generic struct, whose scalar arguments a value does not "
                                f"keep", code="E3016", notes=[note],
                     help=[f"write the generic arguments out, {_written_out(fn.name)}, "
                           f"{order}, as the argument's type gives them{example}"],
                     parameter=g.name, callee=fn.name, struct=struct, argument=i)

    def _explicit(self) -> bool:
        """Bind what `f<..>` writes, in the order of the generic parameters."""
        fn, call = self.fn, self.call
        if len(call.targs) > len(fn.generics):
            self._refuse(call.span, f"'{fn.name}' takes {count(len(fn.generics))}, but this "
                                    f"call gives it {len(call.targs)}")
            return False
        for g, targ in zip(fn.generics, call.targs):
            value = _written(g, targ, self.consts)
            if value is None:
                self._refuse(targ.span, f"'{g.name}' of '{fn.name}' is "
                                        f"{_kind(g, named=False)}, but this call gives it "
                                        f"`{show(targ)}`")
                return False
            self.binding[g.name], self.by[g.name] = value, 0
            self.spans[g.name] = targ.span
        return True

    def _deduce(self, param, found, i, arg) -> bool:
        """Bind the generic parameters `param` (a parameter's written type) names from
        `found` (the argument's type); False when a const is bound twice to different
        extents (reported)."""
        kinds, binding = self.kinds, self.binding
        k = param._prod
        if k == "NamedType" and param.name in kinds and kinds[param.name]._prod == "TypeParam" \
                and not kinds[param.name].topology:
            if not any(n._prod == "OpaqueType" for n in descendants(found)):
                binding.setdefault(param.name, found)
            return True
        if k == "AppliedType":
            return self._instance(param, found, i, arg)
        if k != found._prod:
            return True  # a mismatch: check-calls names both types once the instance exists
        if k == "TensorType":
            for d, e in zip(param.dims, found.dims):
                value = extent(e, self.consts)  # `[N]` of a const item N is its number
                if d._prod != "DimName" or d.name not in kinds or value is None:
                    continue
                if not self._extent(d.name, value, i, arg):
                    return False
            return self._deduce(param.elem, found.elem, i, arg)
        if k in ("PinnedType", "HardwareStateType"):
            topo = param.topo.name
            if topo in kinds and kinds[topo]._prod == "TypeParam" and kinds[topo].topology:
                binding.setdefault(topo, found.topo)
        if k in ("PinnedType", "HardwareStateType", "VerifiedType", "RefType", "BorrowType"):
            return self._deduce(param.inner, found.inner, i, arg)
        if k == "TupleType":  # `p: (A, B)` given a `(i32, f64)`
            return all(self._deduce(p, f, i, arg) for p, f in zip(param.elems, found.elems))
        return True

    def _instance(self, param, found, i, arg) -> bool:
        """Bind what `param`, a generic struct applied (`Wrapper<T>`), names from `found`
        when it is an instance of that struct (`Wrapper$Point`): matching the generic's
        fields against the instance's (`inner: T` against `inner: Point`) binds the
        struct's parameters, each then deduced into the argument written in its place."""
        generic, instance = self.structs.get(param.name), self.structs.get(found.name) \
            if found._prod == "NamedType" else None
        if generic is None or instance is None or instance.generics or \
                generic_of(found.name) != param.name:
            return True  # the struct erased: _undetermined says so, if T is not bound else
        struct = _Binder(self.call, generic, self.diagnostics, self.consts, self.structs)
        own = {g.name for g in generic.generics}
        for written, made in zip(generic.fields, instance.fields):
            # A field of a parameter the instance keeps erased (`Two$_$Point { a: A, .. }`)
            # is of no type yet.
            if not any(n._prod == "NamedType" and n.name in own for n in descendants(made)):
                struct._deduce(written.type, made.type, i, arg)
        for g, a in zip(generic.generics, param.args):
            value = struct.binding.get(g.name)
            if type(value) is int:  # `Buf<T, N>` given a `Buf$Point$3`: N is 3
                written = a.dim if a._prod == "DimArg" else a.type
                if written._prod in ("DimName", "NamedType") and \
                        written.name in self.kinds and \
                        self.kinds[written.name]._prod == "ConstParam" and \
                        not self._extent(written.name, value, i, arg):
                    return False
            elif value is not None and a._prod == "TypeArg" and \
                    not self._deduce(a.type, with_span(value, arg.span), i, arg):
                return False
        return True

    def _extent(self, name, value, i, arg) -> bool:
        """Bind the const `name` to `value`, which argument i gives; False when it is bound
        to another already (reported)."""
        if name not in self.binding:
            self.binding[name], self.by[name] = value, i
            self.spans[name] = arg.span
        elif self.binding[name] != value:
            self._twice(name, i, value, arg)
            return False
        return True

    def _generic(self, name) -> bool:
        decl = self.structs.get(name)
        return decl is not None and bool(decl.generics)

    def _twice(self, name, i, other, arg) -> None:
        bound, first, callee = self.binding[name], self.by[name], self.call.callee.name
        origin = "the generic argument `<..>`" if first == 0 else f"argument {first}"
        self._refuse(arg.span, f"'{name}' is bound to {bound} by {origin}, but argument {i} "
                               f"has extent {other}", code="E3046",
                     notes=[f"in this call to '{callee}', every argument that names "
                            f"'{name}' must have the same extent there"],
                     help=[f"pass arguments that agree on '{name}' (here, each of extent "
                           f"{bound} where the parameter's type names '{name}')"],
                     parameter=name, bound=bound, bound_by=first, argument=i, extent=other,
                     callee=callee)

    def _refuse(self, span, message, *, code="E3047", notes=(), help=(), **data) -> None:
        self.diagnostics.error(code, span, message, notes=notes, help=help, **data)


def _written(g, targ, consts=None):
    """What a written generic argument binds `g` to, or None when it cannot be that."""
    if g._prod == "ConstParam":
        if g.type._prod == "Scalar" and g.type.name == "bool":
            return targ.value if targ._prod == "BoolArg" else None
        if targ._prod == "BoolArg":
            return None
        if targ._prod == "TypeArg" and targ.type._prod == "NamedType":  # a bare name
            value = consts(targ.type.name) if consts is not None else None
        else:
            value = extent(targ.dim, consts) if targ._prod == "DimArg" else None
        if g.type._prod == "Scalar" and g.type.name in ("f16", "bf16", "f32", "f64"):
            return targ.value if targ._prod == "FloatArg" else \
                float(value) if value is not None else None
        return value
    if g.topology and targ._prod == "TopoArg":
        return targ.topo
    if targ._prod != "TypeArg":
        return None
    if g.topology:  # a bare name, `f<GPU>(p)`
        t = targ.type
        return Lerased["TopoRef"](t.name, None, None, span=t.span) \
            if t._prod == "NamedType" else None
    return targ.type


def _written_out(name):
    """Where a call writes its generic arguments: a function of a generic type's impl block
    takes the type's first, `Pair<i32>::with<4>(..)`."""
    owner, _, fn = name.rpartition("::")
    if owner:
        return f"`{owner}<..>::{fn}(..)` (the type's first, then `{owner}<..>::{fn}<..>(..)`)"
    return f"`{name}<..>(..)`"


def _example(fn, struct) -> str:
    """A call written out, `swap<f64>(..)` for a `Pair<f64>`, in the form `fn` takes."""
    owner, _, name = fn.name.rpartition("::")
    written = f"{owner}<f64>::{name}(..)" if owner else f"{fn.name}<f64>(..)"
    return f"`{written}` for a `{struct}<f64>`"


def _parameter(g) -> str:
    return ("const" if g._prod == "ConstParam" else "topology" if g.topology else "type") + \
        " parameter"


def _kind(g, named: bool = True) -> str:
    kind = (f"a const {to_text(g.type).strip()}" if g._prod == "ConstParam"
            else "a topology" if g.topology else "a type")
    return f"'{g.name}' ({kind})" if named else kind

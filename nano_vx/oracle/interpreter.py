"""The program being run: its items, its globals, the builtins, and the entry point."""

from __future__ import annotations

from functools import partial

import sys

from ..deep import run_deep
from ..languages.linstances import generic_of
from ..diagnostics import Diagnostics
from ..model import build_model
from ..model.builtin import TOPOLOGIES
from ..nanopass.verify import child_nodes
from ..values.vectors import Vector
from ..values.literals import literal_hint
from ..values.math import MATH, apply
from ..values.numbers import TInt, describe, format_scalar, unplace, wrap32
from ..values.structs import EnumValue, StructValue
from ..values.places import NoTopo, SomeTopo, Topo
from ..values.stops import MAX_CALL_DEPTH, stop, wrong_kind
from ..values.tensors import Tensor, format_tensor
from .contracts import ContractMixin
from .functions import Builtin, FnValue
from .references import referent
from .scope import FnScope
from .ssa import is_lmlir, run_ssa
from .statements import StmtMixin
from .types import TypeMixin
from .typestates import Occupancy, TypestateMixin


# The built-in machine model (vx-reference §2): the memory space each topology holds.
BUILTIN_HOLDS = {t.name: t.memory for t in TOPOLOGIES.values()}


class _Const:
    """A `const` item, evaluated on first use (one const may name another)."""

    __slots__ = ("interp", "node", "state", "value")

    def __init__(self, interp, node):
        self.interp, self.node, self.state, self.value = interp, node, "new", None

    def get(self, span):
        if self.state == "done":
            return self.value
        # A part of a constant split-computed-constants split: the constant says it, by name.
        if self.state == "running" and self.node.value._prod != "ConstPart":
            wrong_kind(span, f"the constant '{self.node.name}' depends on itself")
        self.state = "running"
        sc = FnScope()
        value = self.interp.expr(self.node.value, sc, _constant_hint(self.node.type))
        conform = self.interp.conformer(self.node.type, self.node.span)
        v = value([None] * sc.nslots)
        self.value = conform(v) if conform is not None else v
        self.state = "done"
        return self.value


def _constant_hint(ty):
    """What a constant's type fixes for the literals of its value, as a `let` of that type
    gives it: a scalar type's, a tuple's per element, a generic struct's arguments for its
    literal's fields (`const P: Pair<f32> = Pair { .. }`)."""
    return literal_hint(ty)


def format_value(v, span) -> str:
    v = referent(v, span)  # a reference prints as what it names, as in Rust
    text = format_scalar(v)
    if text is not None:
        return text
    v = unplace(v)
    if type(v) is Tensor:
        return format_tensor(v, span)
    if type(v) is Vector:
        return v.text()
    if type(v) is tuple:
        return "(" + ", ".join(format_value(x, span) for x in v) + ")"
    if type(v) is EnumValue:
        args = "(" + ", ".join(format_value(x, span) for x in v.args) + ")" if v.args else ""
        return f"{v.enum}::{v.variant}{args}"
    if type(v) is StructValue:
        return generic_of(v.name) + " { " + ", ".join(f"{k}: {format_value(x, span)}"
                                          for k, x in v.fields.items()) + " }"
    if type(v) is Topo:
        return str(v)
    if type(v) is SomeTopo:
        return f"Some({v.topo})"
    if type(v) is NoTopo:
        return "None"
    wrong_kind(span, f"cannot print a value of type {describe(v)}")


class Interpreter(StmtMixin, TypeMixin, TypestateMixin, ContractMixin):
    def __init__(self, program, out, max_depth=MAX_CALL_DEPTH, check_contracts=False):
        self.out = out
        self.check_contracts = check_contracts
        self.depth = 0
        self.place_type = None  # the scalar type of the place an assignment writes (PLACE)
        self.max_depth = max_depth
        self.functions: dict[str, FnValue] = {}
        self.consts: dict[str, _Const] = {}
        # A constant split-computed-constants split -> its parts once its function wrote
        # them, or None while it runs.
        self.const_parts: dict[str, list | None] = {}
        self.holds = dict(BUILTIN_HOLDS)
        self.replicas: dict[str, int] = {}  # a topology's pins held at once, when not 1
        # A struct's field names, in order, each with the scalar type its literals take.
        self.struct_fields: dict[str, dict] = {}
        # A generic struct's fields of a type parameter's type, each with that parameter's
        # index: the literals given it take the type the struct's argument there fixes.
        self.struct_params: dict[str, dict] = {}
        # A generic struct -> for each of its parameters, the (field, axis) of a tensor field
        # whose extent it is, or None: a generic function's `b: Buf<T, N>` binds N there.
        self.struct_extents: dict[str, list] = {}
        # A variant's values, `(enum, variant)` -> the scalar type each one's literal takes.
        self.variant_fields: dict[tuple, tuple] = {}
        self.items = tuple(_items(program))
        self._model = None
        # Before desugar-traits: an impl of a trait also declares the defaults it leaves.
        self.traits = {i.name: i for i in self.items if i._prod == "Trait"}
        for item in self.items:
            self._declare(item)
        self.pins = Occupancy(self.replicas)
        self.builtins = {"print": Builtin("print", self._print)} | {
            name: Builtin(name, partial(apply, name)) for name in MATH}

    def model(self):
        """The memory model of the program's declarations, built when a question needs it
        (what is wrong in them the checks report, not the interpreter)."""
        if self._model is None:
            self._model = build_model(self.items, Diagnostics())
        return self._model

    def _declare(self, item):
        kind = item._prod
        if kind == "Fn":
            self.functions[item.name] = FnValue(self, item)
        elif kind == "ConstItem":
            self.consts[item.name] = _Const(self, item)
        elif kind == "TopologyDecl":
            for fld in item.fields:  # `memory: Memory::X` is the space the device holds
                if fld._prod != "DeclField" or fld.value is None:
                    continue
                if fld.key == "memory" and fld.value._prod == "MemRef":
                    self.holds[item.name] = fld.value.name
                elif fld.key == "replicas" and fld.value._prod == "Quantity" \
                        and fld.value.unit is None and fld.value.number.isdigit():
                    self.replicas[item.name] = int(fld.value.number)  # else refused: E6016
        elif kind in ("Impl", "ImplFor"):  # before flatten-impl-blocks: `impl P { fn f }`
            for fn in _impl_functions(item, self.traits):  # declares `P::f`
                self.functions[f"{item.type.name}::{fn.name}"] = FnValue(
                    self, fn, item.generics, item.type.name)
        elif kind == "StructDecl":
            self.struct_fields[item.name] = {f.name: literal_hint(f.type) for f in item.fields}
            params = [g.name for g in getattr(item, "generics", ())]
            self.struct_params[item.name] = {
                f.name: params.index(t.name) for f in item.fields
                if (t := f.type.elem if f.type._prod == "TensorType" else f.type)._prod
                == "NamedType" and t.name in params}
            self.struct_extents[item.name] = [
                next(((f.name, k) for f in item.fields if f.type._prod == "TensorType"
                      for k, d in enumerate(f.type.dims) if d._prod == "DimName" and
                      d.name == g), None) for g in params]
        elif kind == "EnumDecl":
            for v in item.variants:
                self.variant_fields[item.name, v.name] = tuple(map(literal_hint, v.fields))
        # MemoryDecl has no run-time effect.

    def _print(self, args, span):
        if len(args) != 1:
            wrong_kind(span, f"print takes one argument, {len(args)} were given")
        self.out.write(format_value(args[0], span) + "\n")

    def global_value(self, name, span):
        """A closure reading a name no local binds: a function, constant or builtin."""
        if name in self.functions:
            fn = self.functions[name]
            return lambda f: fn
        if name in self.consts:
            const = self.consts[name]
            return lambda f: const.get(span)
        if name in self.builtins:
            builtin = self.builtins[name]
            return lambda f: builtin

        def undefined(f):
            stop("E9006", span, f"'{name}' is not defined")
        return undefined

    def run(self, entry: str) -> int:
        fn = self.functions.get(entry)
        if fn is None:
            stop("E9006", None, f"the program has no function '{entry}' to run")
        try:
            result = fn.call([], [], fn.node.span)
        except RecursionError:  # the Python stack ran out before the Vx depth bound did
            stop("E9006", fn.node.span, f"call depth exceeded what the interpreter can hold "
                                        f"({self.depth} nested calls)")
        result = unplace(result)
        if result is None:
            return 0
        if type(result) is int:
            return wrap32(result)
        if type(result) is TInt:
            return result.v
        wrong_kind(fn.node.span, f"'{entry}' returned a {describe(result)}, not an integer")


def _items(program):
    """The program's items, including those written inside blocks (the playground form):
    they are visible everywhere, as after hoist-nested-items."""
    stack = list(reversed(program.items))
    while stack:
        node = stack.pop()
        if node._nt == "Item":
            yield node
        if node._prod in ("Impl", "ImplFor", "Trait"):  # its functions are declared through
            fns = node.methods if node._prod == "Trait" else node.fns  # a type; their bodies
            for fn in reversed(fns):  # may still hold items of their own
                stack.extend(reversed(child_nodes(fn)))
            continue
        if node._prod == "ItemStmt":
            stack.append(node.item)
            continue
        stack.extend(reversed(child_nodes(node)))


def _impl_functions(impl, traits):
    """The functions an impl block declares through its type: its own, and for an impl of a
    trait the trait's default methods it does not write."""
    if impl._prod == "Impl" or impl.trait not in traits:
        return impl.fns
    written = {fn.name for fn in impl.fns}
    return impl.fns + tuple(m for m in traits[impl.trait].methods
                            if m._prod == "Fn" and m.name not in written)


def run_program(program, *, out=sys.stdout, entry: str = "main",
                max_depth: int = MAX_CALL_DEPTH, check_contracts: bool = False) -> int:
    """Run `program` (a tree in any IL of the chain) from `entry`; its return value, or 0
    for a `fn main()` without a return type. A run-time stop raises RuntimeStop. With
    `check_contracts`, a false `requires`, `ensures` or loop `invariant` stops it (E9007)."""
    if is_lmlir(program):
        return run_deep(run_ssa, program, out, entry, max_depth)
    return run_deep(lambda: Interpreter(program, out, max_depth, check_contracts).run(entry))

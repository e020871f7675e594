"""The text dump: any IL printed as Rust-like Vx surface syntax, one form per production (see
forms.py: each form both writes and reads, keyed by the production and the field names it
writes), and the generic form for the rest. The back end's tree ILs add forms of their own
(text_lowered.py); Lmlir prints as MLIR text and a spatial program in its own text form."""

from __future__ import annotations

import importlib
import math

from ..deep import run_deep
from ..languages.lsrc import CONTRACTS, UNITS
from ..languages.lmlir import Lmlir
from ..nanopass.nodes import Node
from ..spatial import is_spatial_program
from .forms import Choice, Flag, Inferred, Lines, Opt, Slot, expr, line
from .transfer_facts import TransferFacts
from .vx_pieces import (Bare, Braced, BracedBody, ElseChain, Guarded, Marked, Number,
                        TensorRows, TupleElems, literal_prec, nested)
from .writer import (ATOM, BINARY_PREC, BLOCKLIKE, CAST, CLOSURE, HEADER, POSTFIX, UNARY,
                     Writer, il_header)


def to_text(node: Node, language=None) -> str:
    """The text dump of any node of any IL, newline-terminated; with its `language`, it
    starts with the line naming the IL, `// IL: Lresolved`, so that it reads back."""
    return text_heading(node, language) + text_body(node)


def text_heading(node: Node, language) -> str:
    """The line naming the IL, when there is a `language` to name: a spatial program's text
    names its IL itself."""
    if language is None or is_spatial_program(node):
        return ""
    return il_header(language)


def text_body(node: Node) -> str:
    """The text dump without the line naming the IL."""
    if is_spatial_program(node):
        # A spatial program dumps in the spatial text form, which names its IL and which its
        # parser reads back.
        from ..spatial.text import to_spatial_text

        return to_spatial_text(node)
    if type(node) is Lmlir["Module"]:  # MLIR text, as emit-mlir hands it to MLIR
        from .mlir_text import to_mlir_text

        return to_mlir_text(node)
    return run_deep(_to_text, node)


def _to_text(node: Node) -> str:
    w = Writer()
    w.node(node)
    w.put("\n")
    return "".join(w.parts)


def _literal(n) -> int:
    # A number the surface cannot write (`const -1`) is an operand of lower precedence.
    return literal_prec(n, UNARY, ATOM)


def _binary(n) -> int:
    return BINARY_PREC[n.op]


def _dotted(base) -> int:
    """What a `.` follows: a number in parentheses, since `0.0` and `1.f` read as floats,
    and an instance's name, since `@f$2.5` and `@f$NPU[0]` are names."""
    return ATOM + 1 if base._prod in ("Int", "Float") or _instance(base) else POSTFIX


def _instance(e) -> bool:
    return e._prod == "Global" and "$" in e.name


def _callee(e) -> int:
    # `E::V(x)` is the enum's value carrying x, `a.f(x)` a method call, `Reachable<A, B>()` a
    # call with generic arguments: a call of the value `E::V`, of the field `a.f` or of a
    # reachability is `(E::V)(x)`, `(a.f)(x)`, `(Reachable<A, B>)()`.
    return ATOM + 1 if e._prod in ("EnumValue", "FieldGet", "ReachableQ") else POSTFIX


def _indexed(e) -> int:
    # `Topology::T[i]` is the topology's unit i: an index into `Topology::T` is `(..)[i]`.
    unit = e._prod == "TopoRef" and e.index is None and e.end is None
    return ATOM + 1 if unit or _instance(e) else POSTFIX


def _stmt_expr(e) -> int:
    # `comptime { .. };` at the start of a statement reads back as a ComptimeStmt, and an
    # `if` as an `if` statement: the parentheses keep an expression statement one.
    return HEADER if e._prod in ("Comptime", "IfExpr") else CLOSURE


# `Memory::M` and `Topology::T` are a space and a topology, no enum's value or path.
_PLACES = ("Memory", "Topology")


def _no_place(n) -> bool:
    return n.enum not in _PLACES


def _pinning(e) -> bool:
    return e._prod == "MethodCall" and e.method == "try_pin"


def _tensor_typed(n) -> bool:
    return n.type._prod == "TensorType"


def _vector_typed(n) -> bool:
    return n.type._prod == "VectorType"


def _as_item(field: str) -> Lines:
    """One item or statement written as a line of its own where it stands."""
    return Lines(field, nest=False, lead=False, close=False, stmt=True)


def _guarded(field: str, mark: str | None = None) -> Guarded:
    return Guarded(field, CONTRACTS, mark)


# `unsafe fn`: the mark its body holds after its contract clauses, written before `fn`.
_UNSAFE_FN = Marked("body", CONTRACTS, "UnsafeFn", "unsafe", "fn")


# Items and the program -------------------------------------------------------------------

line("Program", "items", Lines("items", blank=True, nest=False, lead=False, close=False,
                               stmt=True))
line("Fn", "name generics params on ret bounds body",
     _UNSAFE_FN, "fn {name}", Opt("<{generics}>"), "({params})", Opt(" on {on}"),
     Opt(" -> {ret}"), Opt(" where {bounds}"), _guarded("body", "UnsafeFn"))
# From Lmono on, generics are instances.
line("Fn", "name params on ret bounds body",
     _UNSAFE_FN, "fn {name}({params})", Opt(" on {on}"), Opt(" -> {ret}"),
     Opt(" where {bounds}"), _guarded("body", "UnsafeFn"))
line("MemoryDecl", "name fields", "Memory {name} {{", Opt(" {fields} "), "}}")
line("TopologyDecl", "name fields", "Topology {name} {{", Opt(" {fields} "), "}}")
line("ConstItem", "name type value", "const {name}: {type}", Opt(" = {value}"), ";")
line("Import", "path", "import {path/::};")
line("EnumDecl", "name variants", "enum {name} {{", Lines("variants", ","), "}}")
expr("Variant", "name fields", "{name}", Opt("({fields})"))
line("Impl", "generics type fns",
     "impl", Opt("<{generics}>"), " {type} {{", Lines("fns", blank=True, stmt=True), "}}")
line("ImplFor", "trait generics type fns",
     "impl", Opt("<{generics}>"), " {trait} for {type} {{", Lines("fns", blank=True, stmt=True),
     "}}")
line("Trait", "name methods", "trait {name} {{", Lines("methods", blank=True, stmt=True), "}}")
line("FnSig", "name generics params ret",
     "fn {name}", Opt("<{generics}>"), "({params})", Opt(" -> {ret}"), ";")
line("StructDecl", "name fields generics",
     "struct {name}", Opt("<{generics}>"), " {{", Lines("fields", ","), "}}")
# From Ltraitless on, a struct says whether it is Copy (`impl Copy for S {}` said so).
line("StructDecl", "name fields generics copy",
     "struct {name}", Opt("<{generics}>"), Flag("copy", ": Copy"), " {{", Lines("fields", ","),
     "}}")
# From Linstances on, a generic struct's parameters are erased.
line("StructDecl", "name fields copy",
     "struct {name}", Flag("copy", ": Copy"), " {{", Lines("fields", ","), "}}")
expr("TypeParam", "name topology", "{name}", Flag("topology", ": Topology"))
expr("ConstParam", "name type", "const {name}: {type}")
expr("Param", "name type", "{name}", Opt(": {type}"))
expr("ReachableBound", "src dst", "Reachable<{src}, {dst}>")
expr("ReachableBound", "src dst written", "Reachable<{src}, {dst}> /* {written} */")
expr("DeclField", "key value", "{key}", Opt(": {value}"))
# A flag spelled as a unit after a cost written without one would read as the cost's unit.
expr("TransferEdge", "src dst cost flags",
     "transfer {src} -> {dst}", Opt(" : {cost}"), Opt(" {flags/ }"),
     when=lambda n: not (n.flags and n.flags[0] in UNITS and n.cost is not None
                         and n.cost._prod == "Quantity" and n.cost.unit is None))
expr("Quantity", "number unit", "{number}", Opt(" {unit}"))
expr("Word", "word", "{word}")
expr("DeclList", "items", "[{items}]")

# Statements --------------------------------------------------------------------------------

expr("Block", "stmts value", Braced())
line("Let", "name mutable type value",
     "let ", Flag("mutable", "mut "), "{name}", Opt(": ", Inferred("type")), " = {value};")
line("Declare", "name mutable type", "let ", Flag("mutable", "mut "), "{name}: {type};")
line("Assign", "target op value", "{target} {op} {value};")
line("For", "var start end body", "for {var} in {start:HEADER}..{end:HEADER}", _guarded("body"))
line("Loop", "body", "loop", _guarded("body"))
line("While", "cond body", "while {cond:HEADER}", _guarded("body"))
# `else if` is a block holding just the inner `if`; it prints the way it was written.
line("If", "cond comptime then orelse",
     "if ", Flag("comptime", "comptime "), "{cond:HEADER} {then}",
     Opt(" else ", ElseChain("orelse", as_value=False)))
expr("IfExpr", "cond comptime then orelse",
     "if ", Flag("comptime", "comptime "), "{cond:HEADER} {then} else ",
     ElseChain("orelse", as_value=True), prec=BLOCKLIKE)
line("Return", "value", "return", Opt(" {value}"), ";")
line("Break", "", "break;")
line("Continue", "", "continue;")
line("Assume", "cond", "assume({cond});")
# lower-pins' and lower-pin-matches' pins: taken (when fewer than `replicas` are held), a value
# pinned, given back.
expr("TakePin", "topo replicas", "take_pin {topo} of {replicas}", prec=CLOSURE)
expr("PinnedTo", "value topo", "pinned({value}) on {topo}", prec=CLOSURE)
line("ReleasePin", "topo", "release_pin {topo};")
# hold-states-by-reference's states: one bound from the parts its `let`s compute, and a part
# of one read.
line("LetState", "name mutable type value took held topo",
     "let_state ", Flag("mutable", "mut "), "{name}: {type} on {topo}, took {took}, "
     "held {held} = {value};")
expr("StatePart", "state part", "state_part {part} of {state:ATOM}", prec=CLOSURE)
# lower-state-tuples' states: a part of one read where it stands, and one bound from the parts
# of an element of a tuple a call returned.
expr("StateRead", "state part", "state_read {part} of {state:ATOM}", prec=CLOSURE)
line("LetElement", "name type value took held by_ref topo",
     "let_element {name}: {type} on {topo}, took {took}, held ", Flag("by_ref", "*"),
     "{held} = {value};")
# split-computed-constants' part of a constant, which its function computes with the others.
expr("ConstPart", "constant fill part", "const_part {part} of {constant} by {fill}",
     prec=CLOSURE)
# lower-pins' and tag-places' `print` of a value the interpreter stops on.
line("Halt", "code message", "halt {code}, {message};")
# erase-variable-extents' and compute-wide-extents' stop showing a value they compute.
expr("HaltWith", "code message value", "halt_with({code}, {message}, {value})", prec=POSTFIX)
# lower-pins' `match` on a state: its value, whether it took a pin and the place of its `held`.
expr("PinMatch", "value took held topo arms",
     "pin_match {value:HEADER} on {topo}, took {took:HEADER}, held {held:HEADER} {{",
     Lines("arms"), "}}", prec=BLOCKLIKE)
line("Assert", "cond message", "assert({cond}", Opt(", {message}"), ");")
# Contract clauses: written in the header of the function or loop whose body they start.
expr("Requires", "cond", "requires {cond:HEADER}")
expr("Ensures", "cond", "ensures {cond:HEADER}")
expr("Invariant", "cond", "invariant {cond:HEADER}")
expr("ReturnValue", "", "return")
line("ComptimeStmt", "body", "comptime {body}")
line("UnsafeFn", "", "unsafe fn;")
line("BlockStmt", "body", "{body}")
line("UnrollAcross", "topo var body", "unroll across({topo}) ", BracedBody("body", " |{var}|"))
line("LetTuple", "names value", "let ({names}) = {value};")
# `return;` is a Return: the result of an `ensures` alone is no statement to write so.
line("ExprStmt", "expr", Slot("expr", _stmt_expr), ";",
     when=lambda n: n.expr._prod != "ReturnValue")
line("ItemStmt", "item", _as_item("item"))

# Expressions -------------------------------------------------------------------------------

expr("Int", "value", Number("value"), prec=_literal)
expr("Float", "value", Number("value"), prec=_literal)
expr("Suffixed", "value suffix", "{value:ATOM}{suffix}",
     when=lambda n: n.value._prod in ("Int", "Float"))
expr("Bool", "value", Flag("value", "true", "false"))
expr("Str", "value", "{value}")
expr("Var", "name", "{name!path}")
expr("Local", "name", "{name}")
expr("Global", "name", "@{name}")
expr("Binary", "op left right", "{left:=} {op} {right:+}", prec=_binary)  # left-associative
expr("DimBinary", "op left right", "{left:=} {op} {right:+}", prec=_binary)
# `-(-x)` and `&(&x)`, never `--x`.
expr("Unary", "op operand", "{op}{operand:POSTFIX}", prec=UNARY)
expr("Borrow", "value mutable", Flag("mutable", "&mut ", "&"), "{value:POSTFIX}", prec=UNARY)
expr("Deref", "value", "*{value:POSTFIX}", prec=UNARY)
expr("Cast", "value type", "{value:CAST} as {type}", prec=CAST)
expr("Call", "callee targs args", Slot("callee", _callee), Opt("<{targs}>"), "({args})",
     prec=POSTFIX)
# From Lmono on, the callee names the instance.
expr("Call", "callee args", Slot("callee", _callee), "({args})", prec=POSTFIX)
# `t.as_ptr()` is AsPtr, and `t.flatten()` Lsafe's Flatten: a MethodCall of such a name
# (hand-built) takes the generic form.
expr("MethodCall", "receiver method args", Slot("receiver", _dotted), ".{method}({args})",
     prec=POSTFIX,
     when=lambda n: n.method not in ("as_ptr", "as_mut_ptr", "flatten") or bool(n.args))
expr("Index", "base index", Slot("base", _indexed), "[{index}]", prec=POSTFIX)
# Lcopied's mark opening a copy of a function for the tensors made by `uninit()` it is given
# or returns.
line("WrittenCopy", "given returned", "written copy ({given})", Flag("returned", " -> returned"),
     ";")
# Lallset's tensor made otherwise given a marked closure, with its flags all set.
expr("AllWritten", "value flags", "all_written[{flags}] {value:POSTFIX}", prec=UNARY)
# Lwritten's read of an element of a tensor made by `uninit()`, checked against its flags.
expr("ReadWritten", "element flags", "written[{flags}] {element:POSTFIX}", prec=UNARY)
expr("FieldGet", "base field", Slot("base", _dotted), ".{field}", prec=POSTFIX)
expr("TupleGet", "base index", Slot("base", _dotted), ".{index}", prec=POSTFIX)
# Lblocks' `if` value inside an expression, written as the `if` it was.
expr("Select", "cond then orelse", "if {cond:HEADER} {{ {then} }} else {{ {orelse} }}",
     prec=BLOCKLIKE)
# A tuple, and its type: written alike.
expr("Tuple", "elems", TupleElems("elems"))
expr("TupleType", "elems", TupleElems("elems"))
# A struct literal has a field: `x {}` after `if` or `while` is a name and a block.
expr("StructLit", "name targs fields", "{name}", Opt("::<{targs}>"), " {{ {fields} }}",
     when=lambda n: n.fields)
expr("StructLit", "name fields", "{name} {{ {fields} }}", when=lambda n: n.fields)
expr("FieldInit", "name value", "{name}: {value}")
# A constructor names a tensor type: another type's path is a call or an enum's value.
expr("TensorNew", "type ctor args", "{type}::{ctor}({args})", when=_tensor_typed)
expr("TensorCall", "elem dims shaped place args",
     "Tensor<{elem}", Opt(", [{dims}]", Opt(", {place}"), on="shaped"), ">(",
     Slot("args", item=nested), ")")
expr("TensorLit", "type elems", "{type}", TensorRows("elems", "type"), when=_tensor_typed)
expr("ArrayLit", "elems", "[{elems}]")
# A vector names a vector type: another type there takes the generic form.
expr("VecLit", "type elems", "vec{type}({elems})", prec=POSTFIX, when=_vector_typed)
# A splat whose type decide-vector-splats gave it: `splat::<4 x f32>(v)`.
expr("Splat", "value type", "splat", Opt("::{type}"), "({value})", prec=POSTFIX,
     when=lambda n: n.type is None or _vector_typed(n))
expr("Transfer", "value dest", "transfer({value}, {dest})")
expr("Transfer", "value dest mark", "transfer[{mark}]({value}, {dest})")
expr("Transfer", "value dest mark src",
     "transfer[{mark}, from ", Bare("src", "an unknown space"), "]({value}, {dest})")
expr("Transfer", "value dest mark src route",
     "transfer[{mark}, ", TransferFacts("src", "route"), "]({value}, {dest})")
expr("Transfer", "value dest mark src route slot",
     "transfer[{mark}, ", TransferFacts("src", "route", "slot"), "]({value}, {dest})")
# A route, a hop, a slot and a space's descriptor by themselves (a placed transfer writes
# them in its brackets, transfer_facts.py): in a Transfer no form fits.
expr("Route", "hops cost", "route[{hops}; cost {cost}]")
expr("Hop", "src dst cost via",
     "{src}", Choice("via", {"edge": " -> ", "within": " => "}), "{dst} ({cost})")
expr("Slot", "offset slots space", "slot[+{offset}, {slots} granules of {space}]")
expr("SubSpace", "name capacity granule within scope managed replicas overcommit",
     "space {name}[granule {granule}", Opt(", capacity {capacity}"), Opt(", within {within}"),
     Opt(", scope {scope}"), ", managed {managed}, replicas {replicas}",
     Flag("overcommit", ", overcommit"), "]")
expr("Spawn", "topo body", "spawn on({topo}) {body}", prec=BLOCKLIKE)
expr("Launch", "kernel topo args", "launch {kernel} on({topo})({args})", prec=POSTFIX)
expr("Comptime", "body", "comptime {body}", prec=BLOCKLIKE)
expr("Unsafe", "body", "unsafe {body}", prec=BLOCKLIKE)
expr("AsPtr", "value mutable", "{value:POSTFIX}", Flag("mutable", ".as_mut_ptr()", ".as_ptr()"),
     prec=POSTFIX)
expr("Flatten", "value", "{value:POSTFIX}.flatten()", prec=POSTFIX)
# With no arm, `match h {}` is a match on the result of `try_pin` when h is a call of it
# (as the parser tells them apart), and a match on a value otherwise.
expr("Match", "scrutinee arms", "match {scrutinee:HEADER} {{", Lines("arms"), "}}",
     prec=BLOCKLIKE, when=lambda n: n.arms or _pinning(n.scrutinee))
expr("MatchValue", "scrutinee cases", "match {scrutinee:HEADER} {{", Lines("cases", ","), "}}",
     prec=BLOCKLIKE, when=lambda n: n.cases or not _pinning(n.scrutinee))
expr("Case", "pattern body", "{pattern} => {body}")
expr("PWild", "", "_")
# A literal pattern is a literal (or a minus and a number): a name written bare would read as
# a binding, a path as a variant, `|` as alternatives.
_LITERALS = frozenset({"Int", "Float", "Bool", "Str", "Suffixed"})
expr("PLit", "value", "{value}",
     when=lambda n: n.value._prod in _LITERALS
     or n.value._prod == "Unary" and n.value.operand._prod in _LITERALS)
expr("PBind", "name", "{name}")
# A pattern, and a value: written alike.
expr("PVariant", "enum variant args", "{enum}::{variant}", Opt("({args})"), when=_no_place)
# Lmatched's reads of an enum, which a `match` on it became.
expr("VariantIs", "base enum variant", "{base:POSTFIX} is {enum}::{variant}", prec=CAST)
expr("VariantField", "base enum variant index", "{base:POSTFIX}.{enum}::{variant}.{index}",
     prec=POSTFIX)
expr("EnumValue", "enum variant args", "{enum}::{variant}", Opt("({args})"), when=_no_place)
# Lparted's tensor given back through an out-parameter, which copy-out-tensors copies.
line("GiveBack", "param value", "give_back {param} = {value};")
# Until resolve-type-paths, a value with what it carries is a PathCall.
expr("EnumValue", "enum variant", "{enum}::{variant}", when=_no_place)
expr("PathCall", "type targs fn fargs args",
     "{type}", Opt("<{targs}>"), "::{fn}", Opt("<{fargs}>"), "({args})",
     when=lambda n: n.type not in _PLACES)
# Alternatives are atoms: `(1 | 2) | 3` keeps its grouping, one alone is no alternative.
expr("POr", "alts", "{alts:ATOM/ | }", prec=CLOSURE, when=lambda n: len(n.alts) >= 2)
# The binding prints as a parameter: with its type once infer-placement gave it one.
expr("Arm", "variant binding body", "{variant}({binding}) => {body}")
expr("Closure", "params body", "|{params}| {body}", prec=CLOSURE)
expr("Grad", "fn arg", "grad({fn}, {arg})")
expr("Vjp", "fn primal cotangent", "vjp({fn}, {primal}, {cotangent})")
expr("Jvp", "fn primal tangent", "jvp({fn}, {primal}, {tangent})")
expr("ReachableQ", "src dst", "Reachable<{src}, {dst}>")
expr("SomeTopo", "topo", "Some({topo})")
expr("NoneTopo", "", "None")
expr("TypeArg", "type", "{type}")
# A bare name is a type argument: a dimension named alone is written in the generic form.
expr("DimArg", "dim", "{dim}", when=lambda n: n.dim._prod != "DimName")
expr("FloatArg", "value", "{value}", when=lambda n: math.isfinite(n.value))
expr("BoolArg", "value", Flag("value", "true", "false"))
expr("TopoArg", "topo", "{topo}")
expr("MemRef", "name", "Memory::{name}")
expr("TopoRef", "name index end",
     "Topology::{name}", Opt("[", Opt("{index:HEADER}"), Opt("..{end:HEADER}"), "]",
                           on=("index", "end")))

# Types and dimensions ----------------------------------------------------------------------

expr("Scalar", "name", "{name}")
expr("VectorType", "lanes elem", "<{lanes} x {elem}>")
expr("TensorType", "elem dims place", "Tensor<{elem}, [{dims}]", Opt(", {place}"), ">")
expr("PinnedType", "inner topo", "Pinned<{inner}, {topo}>")
expr("VerifiedType", "inner", "Verified<{inner}>")
expr("HardwareStateType", "inner topo", "HardwareState<{inner}, {topo}>")
expr("RefType", "inner mem", "Ref<{inner}, {mem}>")
expr("BorrowType", "inner mutable", Flag("mutable", "&mut ", "&"), "{inner}")


def _ends_in_place(t) -> bool:
    """Whether the type `t` is written ending in a pointer's ` in {place}`."""
    while t._prod in ("BorrowType", "PtrType"):
        if t._prod == "PtrType" and t.place is not None:
            return True
        t = t.inner
    return False


# A pointer to a type that ends in a place, `*const *const f32 in Memory::A`, would not say
# whose the place is: it is written in the generic form.
expr("PtrType", "inner mutable place", Flag("mutable", "*mut ", "*const "), "{inner}",
     Opt(" in {place}"), when=lambda n: not _ends_in_place(n.inner))
# A type placement inference leaves open, written as Rust writes a type left to the compiler
# (`let f: _ = |x| ..`).
expr("OpaqueType", "", "_")
expr("AppliedType", "name args", "{name}<{args}>")
expr("NamedType", "name", "{name}")
expr("DimInt", "value", Number("value"), prec=_literal)
expr("DimAny", "", "?")
expr("DimName", "name", "{name}")

# The back end's tree ILs print through forms of their own, registered by importing them.
importlib.import_module(".text_lowered", __package__)

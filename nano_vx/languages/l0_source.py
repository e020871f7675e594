"""Lsrc: the surface language as parsed, nested items, `unroll across` and transfer methods included."""

from __future__ import annotations

import re

from ..nanopass import Language, Nonterminal, Terminal, prod

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?\Z")

BINARY_OPS = frozenset("|| && == != < <= > >= + - * / % & | ^ << >>".split())
UNARY_OPS = frozenset({"-", "!"})
ASSIGN_OPS = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="})
SCALARS = frozenset("i8 i16 i32 i64 u8 u32 u64 f16 bf16 f32 f64 bool void".split())
# The variants of HardwareState (semantics §3.2), the patterns a `match` arm names.
VARIANTS = ("Available", "Saturated")
UNITS = frozenset(
    "B KB MB GB TB KiB MiB GiB TiB B/s KB/s MB/s GB/s TB/s KiB/s MiB/s GiB/s TiB/s "
    "B/cyc Hz KHz MHz GHz".split()
)


def is_name(v) -> bool:
    return type(v) is str and _IDENT.match(v) is not None


TERMINALS = [
    Terminal("name", is_name, "an identifier"),
    Terminal("int", lambda v: type(v) is int, "an integer literal's value (unbounded)"),
    Terminal("float", lambda v: type(v) is float, "a float literal's value"),
    Terminal("bool", lambda v: type(v) is bool, "true or false"),
    Terminal("string", lambda v: type(v) is str, "a string literal's text"),
    Terminal("binop", lambda v: v in BINARY_OPS, " ".join(sorted(BINARY_OPS))),
    Terminal("unop", lambda v: v in UNARY_OPS, "- !"),
    Terminal("assignop", lambda v: v in ASSIGN_OPS, " ".join(sorted(ASSIGN_OPS))),
    Terminal("scalar", lambda v: v in SCALARS, "a scalar type name"),
    Terminal("decimal", lambda v: type(v) is str and _DECIMAL.match(v) is not None,
             "a number as written in a declaration, kept exact"),
    Terminal("unit", lambda v: v in UNITS, "a unit of size, bandwidth or clock"),
    Terminal("variant", lambda v: v in VARIANTS, "Available Saturated: a HardwareState variant"),
]

NONTERMINALS = [
    Nonterminal("Program", (prod("Program", "items: Item*"),)),
    Nonterminal("Item", (
        prod("Fn", "name: name, generics: GParam*, params: Param*, on: Topo?, ret: Type?, "
                   "bounds: Bound*, body: Block"),
        prod("MemoryDecl", "name: name, fields: DeclField*"),
        prod("TopologyDecl", "name: name, fields: DeclField*"),
        prod("ConstItem", "name: name, type: Type, value: Expr"),
        prod("StructDecl", "name: name, fields: Param*"),
    )),
    Nonterminal("GParam", (
        prod("TypeParam", "name: name, topology: bool"),
        prod("ConstParam", "name: name, type: Type"),
    )),
    Nonterminal("Param", (prod("Param", "name: name, type: Type?"),)),
    Nonterminal("Bound", (prod("ReachableBound", "src: name, dst: name"),)),
    Nonterminal("DeclField", (
        prod("DeclField", "key: name, value: DeclValue?", "key: value, or a bare flag"),
        prod("TransferEdge", "src: Mem, dst: Mem, cost: DeclValue"),
    )),
    Nonterminal("DeclValue", (
        prod("Quantity", "number: decimal, unit: unit?"),
        prod("Word", "word: name"),
        prod("DeclList", "items: DeclValue*"),
    ), includes=("Mem",)),
    Nonterminal("Block", (prod("Block", "stmts: Stmt*, value: Expr?"),)),
    Nonterminal("Stmt", (
        prod("Let", "name: name, mutable: bool, type: Type?, value: Expr"),
        prod("Assign", "target: Expr, op: assignop, value: Expr"),
        prod("For", "var: name, start: Expr, end: Expr, body: Block"),
        prod("While", "cond: Expr, body: Block"),
        prod("Loop", "body: Block", "`loop { .. }`: runs until a `break` or a `return`"),
        prod("If", "cond: Expr, comptime: bool, then: Block, orelse: Block?"),
        prod("Return", "value: Expr?"),
        prod("Break"),
        prod("Continue"),
        prod("Assert", "cond: Expr, message: string?"),
        prod("ComptimeStmt", "body: Block"),
        prod("BlockStmt", "body: Block", "a block written as a statement: its own scope"),
        prod("UnrollAcross", "topo: Topo, var: name, body: Block"),
        prod("ExprStmt", "expr: Expr"),
        prod("ItemStmt", "item: Item", "an item written inside a block (the playground form)"),
    )),
    Nonterminal("Expr", (
        prod("Int", "value: int"),
        prod("Float", "value: float"),
        prod("Bool", "value: bool"),
        prod("Str", "value: string"),
        prod("Suffixed", "value: Expr, suffix: scalar",
             "a literal with its type written after it: `0i64`, `10f32` (value: Int or Float)"),
        prod("Var", "name: name"),
        prod("Binary", "op: binop, left: Expr, right: Expr"),
        prod("Unary", "op: unop, operand: Expr"),
        prod("Cast", "value: Expr, type: Type"),
        prod("Call", "callee: Expr, targs: GArg*, args: Expr*"),
        prod("MethodCall", "receiver: Expr, method: name, args: Expr*"),
        prod("Index", "base: Expr, index: Expr"),
        prod("FieldGet", "base: Expr, field: name"),
        prod("TensorNew", "type: Type, ctor: name, args: Expr*", "Tensor<..>::new() and friends"),
        prod("Transfer", "value: Expr, dest: Mem"),
        prod("Spawn", "topo: Topo, body: Block"),
        prod("Comptime", "body: Block"),
        prod("Closure", "params: Param*, body: Block"),
        prod("Grad", "fn: name, arg: Expr"),
        prod("Vjp", "fn: name, primal: Expr, cotangent: Expr"),
        prod("Jvp", "fn: name, primal: Expr, tangent: Expr"),
        prod("ReachableQ", "src: Topo, dst: Topo", "Reachable<A, B> as a compile-time bool"),
        prod("SomeTopo", "topo: Topo"),
        prod("NoneTopo"),
        prod("Match", "scrutinee: Expr, arms: Arm*",
             "match on the result of try_pin: the arm of the variant it holds runs"),
    ), includes=("Mem", "Topo")),
    Nonterminal("Arm", (
        prod("Arm", "variant: variant, binding: Param, body: Block",
             "`Available(p) => { .. }`: the binding is a local of the arm's body"),
    )),
    Nonterminal("GArg", (
        prod("TypeArg", "type: Type"),
        prod("DimArg", "dim: Dim"),
        prod("TopoArg", "topo: Topo", "a topology parameter's argument, `f<Topology::GPU>(p)`"),
    )),
    Nonterminal("Mem", (prod("MemRef", "name: name"),)),
    Nonterminal("Topo", (prod("TopoRef", "name: name, index: Expr?, end: Expr?"),)),
    Nonterminal("Type", (
        prod("Scalar", "name: scalar"),
        prod("TensorType", "elem: Type, dims: Dim*, place: Place?"),
        prod("PinnedType", "inner: Type, topo: Topo"),
        prod("VerifiedType", "inner: Type"),
        prod("HardwareStateType", "inner: Type, topo: Topo"),
        prod("RefType", "inner: Type, mem: Mem"),
        prod("NamedType", "name: name", "a generic type parameter or a struct"),
    )),
    Nonterminal("Place", (), includes=("Mem", "Topo")),
    Nonterminal("Dim", (
        prod("DimInt", "value: int"),
        prod("DimName", "name: name"),
        prod("DimBinary", "op: binop, left: Dim, right: Dim"),
    )),
]

# What describes a value rather than computes one: an analysis of evaluation (which values are
# read, moved, resident) does not walk into these.
DESCRIPTIONS = ("Type", "Dim", "Mem", "GArg")

Lsrc = Language(
    "Lsrc",
    "the surface language as parsed",
    TERMINALS,
    NONTERMINALS,
    entry="Program",
)


def assertion_message(node) -> str:
    """What a false `assert` says when it stops the program: its message, else its condition
    as written."""
    if node.message is not None:
        return f"assertion failed: {node.message}"
    c = node.cond.span
    return f"assertion failed: {c.source.text[c.start:c.end]}" if c is not None \
        else "assertion failed"


def nested_blocks(stmt):
    """The blocks a statement holds, in order: an `if`'s branches (also as an expression
    statement), a loop's body, a block statement's block."""
    for name in ("then", "orelse", "body"):
        child = getattr(stmt, name, None)
        if child is not None and getattr(child, "_prod", None) == "Block":
            yield child
    expr = getattr(stmt, "expr", None)
    if expr is not None and getattr(expr, "_prod", None) == "If":
        yield from nested_blocks(expr)

"""Lsrc: the surface language as parsed, nested items, `unroll across` and transfer methods included."""

from __future__ import annotations

import re

from ..nanopass import Language, Nonterminal, Terminal, prod

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?\Z")

BINARY_OPS = frozenset("|| && == != < <= > >= + - * / % & | ^ << >>".split())
UNARY_OPS = frozenset({"-", "!"})
ASSIGN_OPS = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="})
SCALAR_NAMES = tuple("i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 f64 bool void".split())
SCALARS = frozenset(SCALAR_NAMES)
# Another spelling of a scalar type, read as the scalar itself.
SPELLINGS = {"Bool": "bool"}
# Storage formats of accelerators: a tensor's element type, never a scalar's (its elements are
# read and written as values of a scalar type, values/narrow.py).
NARROW = ("i4", "u4", "f8e4m3", "f8e5m2", "f4e2m1")
# The variants of HardwareState (semantics §3.2), the patterns a `match` arm names.
VARIANTS = ("Available", "Saturated")
UNITS = frozenset(
    "B KB MB GB TB KiB MiB GiB TiB B/s KB/s MB/s GB/s TB/s KiB/s MiB/s GiB/s TiB/s "
    "B/cyc Hz KHz MHz GHz".split()
)

# The words a transfer edge may carry after its spaces and cost (`: 63 GB/s copy_engine`).
EDGE_FLAGS = ("relaxed", "sync", "copy_engine")


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
    Terminal("scalar", lambda v: v in SCALARS or v in NARROW or v == "i128",
             "a scalar type name, a narrow storage type (a tensor's element only), or i128, "
             "which no program names (compute-wide-extents computes in it an extent's "
             "arithmetic that might leave i64)"),
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
        prod("ConstItem", "name: name, type: Type, value: Expr?",
             "a constant; one without a value is refused (E3044)"),
        prod("EnumDecl", "name: name, variants: Variant*", "`enum Shape { Dot, Circle(f32) }`"),
        prod("Import", "path: name*", "`import a::b;`: nano-vx compiles one file, and warns"),
        prod("StructDecl", "name: name, fields: Param*, generics: GParam*",
             "`struct S<T, const N: i32> { a: T, b: Tensor<f32, [N]> }`"),
        prod("Impl", "generics: GParam*, type: Type, fns: Item*",
             "`impl<T> Pair<T> { fn new(..) -> Self { .. } }`: functions called through the "
             "type, `Pair::new(..)`"),
        prod("Trait", "name: name, methods: Item*",
             "`trait Shape { fn area(s: Self) -> f32; }`: methods required (FnSig) or with a "
             "default body (Fn)"),
        prod("FnSig", "name: name, generics: GParam*, params: Param*, ret: Type?",
             "a method a trait requires, `fn area(s: Self) -> f32;`: each impl gives its body"),
        prod("ImplFor", "trait: name, generics: GParam*, type: Type, fns: Item*",
             "`impl Shape for Square { .. }`: the trait's methods for a type, called through "
             "it (`Square::area(s)`); `impl Copy for S {}` makes S copied on use"),
    )),
    Nonterminal("GParam", (
        prod("TypeParam", "name: name, topology: bool"),
        prod("ConstParam", "name: name, type: Type"),
    )),
    Nonterminal("Param", (prod("Param", "name: name, type: Type?"),)),
    Nonterminal("Bound", (prod("ReachableBound", "src: name, dst: name"),)),
    Nonterminal("DeclField", (
        prod("DeclField", "key: name, value: DeclValue?", "key: value, or a bare flag"),
        prod("TransferEdge", "src: Mem, dst: Mem, cost: DeclValue?, flags: name*",
             "an edge; no cost: derived from the bandwidths along `within:`"),
    )),
    Nonterminal("DeclValue", (
        prod("Quantity", "number: decimal, unit: unit?"),
        prod("Word", "word: name"),
        prod("DeclList", "items: DeclValue*"),
    ), includes=("Mem",)),
    Nonterminal("Block", (prod("Block", "stmts: Stmt*, value: Expr?"),)),
    Nonterminal("Stmt", (
        prod("Let", "name: name, mutable: bool, type: Type?, value: Expr"),
        prod("Declare", "name: name, mutable: bool, type: Type",
             "`let x: T;`: declared, assigned later (desugar-deferred-lets)"),
        prod("Assign", "target: Expr, op: assignop, value: Expr"),
        prod("For", "var: name, start: Expr, end: Expr, body: Block"),
        prod("While", "cond: Expr, body: Block"),
        prod("Loop", "body: Block", "`loop { .. }`: runs until a `break` or a `return`"),
        prod("If", "cond: Expr, comptime: bool, then: Block, orelse: Block?"),
        prod("Return", "value: Expr?"),
        prod("Break"),
        prod("Continue"),
        prod("Assert", "cond: Expr, message: string?"),
        prod("Requires", "cond: Expr",
             "`requires c` in a function's header, kept at the start of its body: c holds "
             "whenever the function is called, an obligation on every caller"),
        prod("Ensures", "cond: Expr",
             "`ensures c` in a function's header, kept at the start of its body: c holds "
             "whenever the function returns (`return` in c is the result, a parameter its "
             "value on entry)"),
        prod("Invariant", "cond: Expr",
             "`invariant c` in a loop's header, kept at the start of its body: c holds "
             "before every iteration and when the loop ends"),
        prod("UnsafeFn", "", "`unsafe fn`, kept after its function's contract clauses: a "
                             "call of it is made inside `unsafe`, and its body is unsafe"),
        prod("ComptimeStmt", "body: Block"),
        prod("BlockStmt", "body: Block", "a block written as a statement: its own scope"),
        prod("UnrollAcross", "topo: Topo, var: name, body: Block"),
        prod("ExprStmt", "expr: Expr"),
        prod("LetTuple", "names: name*, value: Expr",
             "`let (a, b) = t;`: one variable per element of the tuple t"),
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
        prod("Borrow", "value: Expr, mutable: bool",
             "`&x`, `&mut x`: a reference to the place `value` names (a variable, an "
             "element of a tensor, a field or element of an aggregate in such a place), or to "
             "a temporary holding its value"),
        prod("Deref", "value: Expr", "`*p`: the place the reference `p` names"),
        prod("Call", "callee: Expr, targs: GArg*, args: Expr*"),
        prod("MethodCall", "receiver: Expr, method: name, args: Expr*"),
        prod("Index", "base: Expr, index: Expr"),
        prod("FieldGet", "base: Expr, field: name"),
        prod("TensorNew", "type: Type, ctor: name, args: Expr*",
             "Tensor<..>::new() and friends; with `?` extents, the extents come first, as a "
             "list (`::uninit([n, m])`)"),
        prod("TensorCall", "elem: Type, dims: Dim*, shaped: bool, place: Place?, args: Expr*",
             "`Tensor<f32>([[1.0, 2.0]])`, `Tensor<f32, [4]>()` as written (shaped: the "
             "extents are written)"),
        prod("ArrayLit", "elems: Expr*", "`[a, b, c]`: a rank-1 tensor of scalars"),
        prod("VecLit", "type: Type, elems: Expr*",
             "`vec<4 x f32>(a, b, c, d)`: a vector, one value per lane"),
        prod("Splat", "value: Expr, type: Type?",
             "`splat(v)`: a vector of v in every lane, its type (as written, none) what "
             "the place it goes to wants"),
        prod("Tuple", "elems: Expr*", "`(a, b)`: 2 to 6 values of any types"),
        prod("StructLit", "name: name, targs: GArg*, fields: FieldInit*",
             "`S { a: 1, b: t }` (`S::<f32> { .. }` with generic arguments)"),
        prod("TupleGet", "base: Expr, index: int", "`t.0`: one element of a tuple"),
        prod("Transfer", "value: Expr, dest: Mem"),
        prod("Spawn", "topo: Topo, body: Block"),
        prod("Comptime", "body: Block"),
        prod("Unsafe", "body: Block", "`unsafe { .. }`: the block, where raw pointers may be "
                                      "read and written and `unsafe fn`s called"),
        prod("AsPtr", "value: Expr, mutable: bool",
             "`t.as_ptr()`, `t.as_mut_ptr()`: a raw pointer to t's first element"),
        prod("Closure", "params: Param*, body: Block"),
        prod("Grad", "fn: name, arg: Expr"),
        prod("Vjp", "fn: name, primal: Expr, cotangent: Expr"),
        prod("Jvp", "fn: name, primal: Expr, tangent: Expr"),
        prod("ReachableQ", "src: Place, dst: Place",
             "Reachable<A, B> (or Transfer<A, B>) as a compile-time bool: A and B topologies "
             "or memory spaces"),
        prod("ReturnValue", "", "`return` in an `ensures`: the function's result"),
        prod("SomeTopo", "topo: Topo"),
        prod("NoneTopo"),
        prod("IfExpr", "cond: Expr, comptime: bool, then: Block, orelse: Block",
             "`if` used as a value: the value of the branch that runs (each ends in its value, "
             "or leaves by `return`, `break` or `continue`); an `if comptime` only ends a "
             "block"),
        prod("EnumValue", "enum: name, variant: name",
             "`Shape::Dot`: a path with no call (with one, it is a PathCall)"),
        prod("PathCall", "type: name, targs: GArg*, fn: name, fargs: GArg*, args: Expr*",
             "`Shape::Circle(1.5)`, `Pair::new(a, b)`, `Vec<i32>::with<4>()`: a variant given "
             "what it carries, or a call of a function of an impl block (targs: the type's "
             "generic arguments, fargs: the function's)"),
        prod("MatchValue", "scrutinee: Expr, cases: Case*",
             "match on a value (an integer, a bool, an enum): the first case whose pattern "
             "matches runs"),
        prod("Match", "scrutinee: Expr, arms: Arm*",
             "match on the result of try_pin: the arm of the variant it holds runs"),
    ), includes=("Mem", "Topo")),
    Nonterminal("Arm", (
        prod("Arm", "variant: variant, binding: Param, body: Block",
             "`Available(p) => { .. }`: the binding is a local of the arm's body"),
    )),
    Nonterminal("FieldInit", (prod("FieldInit", "name: name, value: Expr"),)),
    Nonterminal("Variant", (prod("Variant", "name: name, fields: Type*",
                                 "a variant of an enum, with the types of what it carries"),)),
    Nonterminal("Case", (prod("Case", "pattern: Pattern, body: Block",
                              "`pattern => value`: the names the pattern binds are locals of "
                              "the body"),)),
    Nonterminal("Pattern", (
        prod("PWild", "", "`_`: anything"),
        prod("PLit", "value: Expr", "an integer or bool literal: a value equal to it"),
        prod("PBind", "name: name", "a name: anything, bound to it"),
        prod("PVariant", "enum: name, variant: name, args: Pattern*",
             "`Shape::Circle(r)`: that variant, what it carries matching `args`"),
        prod("POr", "alts: Pattern*", "`1 | 2`: any of them (they bind no name)"),
    )),
    Nonterminal("GArg", (
        prod("TypeArg", "type: Type"),
        prod("DimArg", "dim: Dim"),
        prod("TopoArg", "topo: Topo", "a topology parameter's argument, `f<Topology::GPU>(p)`"),
        prod("FloatArg", "value: float", "a float const parameter's argument, `f<2.5>(x)`"),
        prod("BoolArg", "value: bool", "a bool const parameter's argument, `f<true>(x)`"),
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
        prod("BorrowType", "inner: Type, mutable: bool", "`&T`, `&mut T`: a reference to a T"),
        prod("PtrType", "inner: Type, mutable: bool, place: Place?",
             "`*const T`, `*mut T`: a raw pointer to Ts in a memory space (as written, with no "
             "place: host memory)"),
        prod("NamedType", "name: name", "a generic type parameter or a struct"),
        prod("TupleType", "elems: Type*", "`(i32, f32)`"),
        prod("VectorType", "lanes: Dim, elem: Type",
             "`<4 x f32>`: a value of `lanes` lanes of the scalar `elem`, elementwise"),
        prod("AppliedType", "name: name, args: GArg*",
             "a generic struct with its arguments: `Pair<f32, 4>`"),
    )),
    Nonterminal("Place", (), includes=("Mem", "Topo")),
    Nonterminal("Dim", (
        prod("DimInt", "value: int"),
        prod("DimName", "name: name"),
        prod("DimBinary", "op: binop, left: Dim, right: Dim"),
        prod("DimAny", "", "`?`: an extent known only when the program runs, given to the "
                           "constructor (`Tensor<f32, [?]>::new([n])`)"),
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


_LEAVES = frozenset({"Return", "Break", "Continue"})


def gives_value(block) -> bool:
    """Whether a branch of an `if` gives a value (or leaves before it needs one): it ends in
    a value, in a statement that leaves, or in an `if` that gives one."""
    if block.value is not None:
        return True
    if not block.stmts:
        return False
    last = block.stmts[-1]
    return last._prod in _LEAVES or (last._prod == "If" and is_valued_if(last))


def is_valued_if(stmt) -> bool:
    """An `if` statement that reads as a value where its block ends: an `else` present, both
    branches giving a value and at least one of them an actual value (`if c { return 1; }
    else { return 2; }` stays a statement)."""
    if stmt.orelse is None:
        return False
    if not (gives_value(stmt.then) and gives_value(stmt.orelse)):
        return False
    return _has_value(stmt.then) or _has_value(stmt.orelse)


def _has_value(block) -> bool:
    if block.value is not None:
        return True
    last = block.stmts[-1] if block.stmts else None
    return last is not None and last._prod == "If" and is_valued_if(last)


CONTRACTS = frozenset({"Requires", "Ensures", "Invariant"})


def contract_clauses(block) -> tuple:
    """The contract clauses a function's or a loop's body starts with, as its header wrote
    them (`requires`, `ensures`, `invariant`)."""
    n = 0
    while n < len(block.stmts) and block.stmts[n]._prod in CONTRACTS:
        n += 1
    return block.stmts[:n]


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


def malloc_constructor(let, language=None):
    """`let b: Tensor<f32, CPU_DRAM> = malloc(n);` (an older spelling): the constructor its
    `malloc(n)` means under the `let`'s rank-1 tensor type, `Tensor<..>::uninit([n])`, made
    of `language`'s nodes (Lsrc's by default); None for any other `let`."""
    value, ty = let.value, let.type
    if not (is_malloc(value) and ty is not None and ty._prod == "TensorType"
            and len(ty.dims) == 1):
        return None
    nodes = language or Lsrc
    size = nodes["ArrayLit"]((value.args[0],), span=value.span)
    return nodes["TensorNew"](ty, "uninit", (size,), span=value.span)


def is_malloc(e) -> bool:
    """A call `malloc(n)`, the older spelling of an uninitialised rank-1 tensor."""
    return e._prod == "Call" and e.callee._prod == "Var" and e.callee.name == "malloc" \
        and len(e.args) == 1 and not e.targs

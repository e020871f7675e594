"""Lmlir: the operations of MLIR's func, arith, cf, memref, vector and llvm dialects, and
vx.transfer."""

# One production per operation (or per family of operations with one shape), in SSA form:
# each value is defined once, by an operation or as a block argument, and named without its
# `%`. emit-mlir prints this IL as MLIR text and hands it to the real MLIR parser, so its
# productions follow MLIR's operations field for field. What the program asks of the machine
# at run time (print a value, stop with a diagnostic, check that the machine can hold a
# tensor) is a call of a runtime function, declared as `func.func private`; the sites say what
# each call site prints or reports.

from __future__ import annotations

import re

from ..nanopass import Language, Nonterminal, Terminal, prod
from .lerased import is_iname
from .lcalls import Lcalls

_SSA = re.compile(r"[A-Za-z_$.][A-Za-z0-9_$.-]*\Z|[0-9]+\Z")
_LABEL = re.compile(r"bb[0-9]+\Z")
# i4, f8E4M3FN, f8E5M2 and f4E2M1FN: an element of a narrow tensor between its byte and its value type.
_SCALAR_TYPES = frozenset("i1 i4 i8 i16 i32 i64 i128 f16 bf16 f32 f64 f8E4M3FN f8E5M2 f4E2M1FN index".split())
# No memref of i1: a bool is stored as a byte (MLIR's memref lowering cannot store an i1).
_ELEMENT = r"(i8|i16|i32|i64|f16|bf16|f32|f64)"
# A vector: N lanes of a scalar (a bool's lanes are i1), a value and a cell's content.
_VECTOR = r"vector<[1-9][0-9]*x(?:i1|i8|i16|i32|i64|f16|bf16|f32|f64)>"
# A tensor's buffer, or a cell holding one (a tensor variable assigned after its `let`).
# A place a reference names: rank 0 at an offset (backend/machine_types.py's PLACE_LAYOUT).
_PLACE = rf"memref<(?:{_ELEMENT}|{_VECTOR}), strided<\[\], offset: \?>>"
# A `?` extent is a dynamic dimension, which memref.dim reads.
_MEMREF = re.compile(rf"memref<(([0-9]+|\?)x)*{_ELEMENT}>\Z|memref<memref<(([0-9]+|\?)x)*{_ELEMENT}>>\Z|"
                     rf"{_PLACE}\Z|memref<{_PLACE}>\Z|{_VECTOR}\Z|memref<{_VECTOR}>\Z")

ARITH_OPS = frozenset(
    "addi subi muli divsi divui remsi remui andi ori xori shli shrsi shrui "
    "addf subf mulf divf remf maxsi minsi maxui minui".split())
MATH_OPS = frozenset("exp log sqrt absf absi".split())
COMPARE_OPS = frozenset({"cmpi", "cmpf"})
PREDICATES = {
    "cmpi": frozenset("eq ne slt sle sgt sge ult ule ugt uge".split()),
    "cmpf": frozenset("oeq une olt ole ogt oge".split()),
}
CONVERT_OPS = frozenset(
    "arith.extsi arith.extui arith.trunci arith.sitofp arith.uitofp arith.extf arith.truncf "
    "arith.index_cast arith.index_castui arith.bitcast "
    "llvm.intr.fptosi.sat llvm.intr.fptoui.sat".split())
PRINT_KINDS = frozenset({"int", "float", "bool", "str", "tensor", "record"})


def is_mtype(v) -> bool:
    """An MLIR type as its text: a scalar, `index`, a memref (its extents numbers or `?`),
    or a rank-0 memref holding one, a vector or a rank-0 memref holding one."""
    return type(v) is str and (v in _SCALAR_TYPES or _MEMREF.match(v) is not None)


def is_number(v) -> bool:
    return type(v) in (int, float)


def _code(v) -> bool:
    return type(v) is str and re.match(r"E9[0-9]{3}\Z", v) is not None


TERMINALS = [
    Terminal("iname", is_iname, "a function's name, as the front end gave it"),
    Terminal("name", lambda v: type(v) is str and re.match(r"[A-Za-z_][A-Za-z0-9_]*\Z", v)
             is not None, "an identifier: a runtime function, a space, a topology"),
    Terminal("ssa", lambda v: type(v) is str and _SSA.match(v) is not None,
             "an SSA value's name, without its %"),
    Terminal("label", lambda v: type(v) is str and _LABEL.match(v) is not None,
             "a block's label, without its ^"),
    Terminal("mtype", is_mtype, "an MLIR type: i1, i4, i8 .. i64, i128, f16, bf16, f32, f64, f8E4M3FN, "
                                "f8E5M2, f4E2M1FN, index, "
                                "memref<4x3xf32>, memref<?x3xf32>, memref<memref<4xf32>>, "
                                "memref<f32, strided<[], offset: ?>>, vector<4xf32>, "
                                "memref<vector<4xf32>>"),
    Terminal("number", is_number, "a constant's value"),
    Terminal("arithop", lambda v: v in ARITH_OPS, " ".join(sorted(ARITH_OPS))),
    Terminal("mathop", lambda v: v in MATH_OPS, " ".join(sorted(MATH_OPS))),
    Terminal("cmpop", lambda v: v in COMPARE_OPS, "cmpi cmpf"),
    Terminal("predicate", lambda v: v in PREDICATES["cmpi"] | PREDICATES["cmpf"],
             "a comparison predicate: eq slt ult .. for cmpi, oeq olt .. for cmpf"),
    Terminal("convop", lambda v: v in CONVERT_OPS, "a conversion's full operation name"),
    Terminal("int", lambda v: type(v) is int and not isinstance(v, bool), "an integer"),
    Terminal("string", lambda v: type(v) is str, "text"),
    Terminal("code", _code, "a run-time stop's diagnostic code, E9001 .. E9006"),
    Terminal("scalar", lambda v: v in ("bool", "i8", "i16", "i32", "i64", "i128", "u8", "u16", "u32", "u64",
                                       "f16", "bf16", "f32", "f64", "i4", "u4", "f8e4m3",
                                       "f8e5m2", "f4e2m1"),
             "a Vx scalar type (or a tensor's narrow float): how a value printed or reported "
             "is read"),
    Terminal("printkind", lambda v: v in PRINT_KINDS, "int float bool str tensor record"),
]

NONTERMINALS = [
    Nonterminal("Module", (prod("Module", "items: Item*", "builtin.module"),)),
    Nonterminal("Item", (
        prod("Func", "name: iname, args: Arg*, results: mtype*, topology: name?, "
                     "blocks: Block*",
             "func.func; topology: the device a kernel runs on (the vx.topology attribute)"),
        prod("Declare", "name: name, args: mtype*, results: mtype*",
             "func.func private: a function of the runtime"),
        prod("Global", "name: iname, type: mtype, value: number?",
             "memref.global: a cell the whole program shares, starting at `value` (the depth "
             "of nested calls), or at nothing (a vector, written before it is read)"),
        prod("PrintSite", "id: int, kind: printkind, type: scalar?, text: string?, dims: int*",
             "what vx_print(id, payload) prints: an integer, float or bool of `type` (the "
             "payload holds its bits), the string `text`, or a tensor of `type` and `dims` "
             "(the payload is its address), or an aggregate's `text`, `{T}` for each of its "
             "scalars of type T (the payload is the address of their bits, an i64 each)"),
        prod("StopSite", "id: int, code: code, message: string, operand: scalar?",
             "what vx_stop(id, a, b) and vx_check_alloc(id, bytes) report, at this node's "
             "span: `{a}` and `{b}` in the message are the operands, read as `operand`, "
             "and `{a*b}` their product as unsigned integers (a count past 64 bits); of an "
             "`operand` i128, `{a}` is the integer whose low word is a and high word b"),
    )),
    Nonterminal("Arg", (prod("Arg", "name: ssa, type: mtype", "a typed value: a block's "
                                                               "argument, a call's result"),
                        prod("NoAlias", "name: ssa, type: mtype",
                             "a function's memref argument whose buffer no other argument "
                             "shares at any call (llvm.noalias)"))),
    Nonterminal("Block", (prod("Block", "label: label, args: Arg*, ops: Op*, term: Term"),)),
    Nonterminal("Op", (
        prod("Constant", "result: ssa, value: number, type: mtype", "arith.constant"),
        prod("Arith", "result: ssa, op: arithop, lhs: ssa, rhs: ssa, type: mtype",
             "arith.addi .. arith.remf"),
        prod("Math", "result: ssa, op: mathop, value: ssa, type: mtype",
             "math.exp, math.log, math.sqrt, math.absf, math.absi"),
        prod("Compare", "result: ssa, op: cmpop, predicate: predicate, lhs: ssa, rhs: ssa, "
                        "type: mtype", "arith.cmpi / arith.cmpf; type: the operands'"),
        prod("Convert", "result: ssa, op: convop, value: ssa, source: mtype, type: mtype",
             "a conversion from `source` to `type`"),
        prod("Alloca", "result: ssa, type: mtype", "memref.alloca: a mutable local's cell"),
        prod("GetGlobal", "result: ssa, name: iname, type: mtype", "memref.get_global"),
        prod("Alloc", "result: ssa, sizes: ssa*, type: mtype",
             "memref.alloc: a tensor's elements; sizes: its `?` extents, in order, as index"),
        prod("Dim", "result: ssa, ref: ssa, index: ssa, type: mtype",
             "memref.dim: the extent of the dimension `index` of a buffer, an index; type: "
             "the memref's"),
        prod("Dealloc", "ref: ssa, type: mtype", "memref.dealloc: a buffer given back"),
        prod("Load", "result: ssa, ref: ssa, indices: ssa*, type: mtype",
             "memref.load; type: the memref's"),
        prod("Store", "value: ssa, ref: ssa, indices: ssa*, type: mtype",
             "memref.store; type: the memref's"),
        prod("Collapse", "result: ssa, ref: ssa, source: mtype, type: mtype",
             "memref.collapse_shape of every dimension into one (memref.expand_shape of a "
             "rank-0 memref's one element)"),
        prod("Pointer", "result: ssa, ref: ssa, type: mtype",
             "memref.extract_aligned_pointer_as_index; type: the memref's"),
        prod("Cast", "result: ssa, ref: ssa, source: mtype, type: mtype",
             "memref.cast: a variable's cell as the place a reference names, a buffer of "
             "static extent as one of `?` extent"),
        prod("Subview", "result: ssa, ref: ssa, indices: ssa*, source: mtype, type: mtype",
             "memref.subview of one element, of rank 0: the place `&t[i]` names"),
        prod("Row", "result: ssa, ref: ssa, indices: ssa*, sizes: ssa*, source: mtype, "
                    "type: mtype",
             "a row `t[i]` as a buffer of its own: memref.subview of the row, its aligned "
             "pointer moved to the row's first element in the LLVM descriptor, of offset 0; "
             "sizes: the row's `?` extents, in order"),
        prod("Transfer", "result: ssa, value: ssa, type: mtype, source: name?, dest: name, "
                         "route: string?, slot: string?",
             "vx.transfer: the value moved into space `dest` (a tensor is copied into a "
             "buffer of that space); route and slot are the front end's facts, as text"),
        prod("Call", "results: Arg*, callee: iname, args: ssa*, launch: name?",
             "func.call; launch: the topology a kernel launch runs it on"),
        prod("Assume", "cond: ssa", "llvm.intr.assume"),
        prod("FromElements", "result: ssa, elements: ssa*, type: mtype",
             "vector.from_elements: a vector of `type` whose lanes are the elements"),
        prod("Broadcast", "result: ssa, value: ssa, source: mtype, type: mtype",
             "vector.broadcast: a vector of `type` holding the value in every lane"),
        prod("Extract", "result: ssa, vector: ssa, index: ssa, source: mtype, type: mtype",
             "vector.extract at a dynamic position: lane `index` (an index, in range) of a "
             "vector of `source`"),
    )),
    Nonterminal("Term", (
        prod("Br", "dest: label, args: ssa*", "cf.br"),
        prod("CondBr", "cond: ssa, then: label, then_args: ssa*, orelse: label, "
                       "orelse_args: ssa*", "cf.cond_br"),
        prod("Ret", "values: ssa*", "func.return"),
        prod("Unreachable", "", "llvm.unreachable: after a call that stops the program"),
    )),
]

# Every production of Lcalls gives way: this IL is written afresh, with Lcalls as the one
# before it so that --diff-language shows the whole change. Its root is a Module, not a
# Program: a node class is shared by every IL with the same production, and an MLIR module
# must be told apart from a Vx program by its class.
Lmlir = Language(
    "Lmlir",
    "MLIR operations in SSA form (func, arith, cf, memref, vector, llvm, vx.transfer) and the "
    "runtime's print and stop sites",
    TERMINALS,
    NONTERMINALS,
    entry="Module",
    parent=Lcalls,
)

"""The MLIR stage: an Lmlir program's text parsed and verified by the real MLIR, rewritten
with the bindings (vx.transfer ops into copies; bf16 computed in f32 and rounded in integer
operations, as the interpreter rounds; the narrow floats converted in them too), lowered to
the LLVM dialect and translated to LLVM IR.

The MLIR Python bindings are imported inside the functions: the CLI must start without them.
"""

from __future__ import annotations

import contextlib
import threading

from .errors import BackendBug
from .narrow_floats import narrow_in_integers
from ..dump.mlir_text import site_comments, to_mlir_text

# Transfers become memref.alloc + memref.copy before this runs (lower_transfers), so every
# op left is one of func, arith, math, cf, memref, vector or llvm (the vector ops become LLVM's
# insertelement, shufflevector and extractelement; math.exp and math.log become LLVM
# intrinsics, which LLVM calls libm for). expand-strided-metadata rewrites
# memref.collapse_shape, memref.expand_shape (a pointer into a tensor of rank 0) and
# memref.subview (a reference's place) into reinterpret_casts that
# finalize-memref-to-llvm can lower, computing an offset with affine.apply (lower-affine).
# memref.alloc calls the runtime's allocator (use-generic-functions): _mlir_memref_to_llvm_alloc,
# which maps zeroed pages the machine backs only when they are first written (runtime.py).
PIPELINE = ("builtin.module(convert-vector-to-llvm, expand-strided-metadata, lower-affine, "
            "finalize-memref-to-llvm{use-generic-functions=true}, "
            "convert-math-to-llvm, convert-arith-to-llvm, convert-cf-to-llvm, "
            "convert-func-to-llvm, "
            "reconcile-unrealized-casts)")

# Every bf16 operation as the same operation in f32 and an arith.truncf of its result, which
# bf16_in_integers then rounds (LLVM would do the arithmetic in f32 all the same, but round it
# with whatever instruction the target has). f16 stays: its instructions round as IEEE says.
BF16_IN_F32 = ("builtin.module(arith-emulate-unsupported-floats{source-types=bf16 "
               "target-type=f32}, func.func(math-extend-to-supported-types{extra-types=f16 "
               "target-type=f32}))")


def emit_mlir(program) -> str:
    """The verified module as MLIR prints it, vx.transfer ops and all, after what its print
    and stop sites mean."""
    with _module(program) as module:
        return "".join(f"{line}\n" for line in site_comments(program)) + str(module)


def to_llvm_ir(program) -> str:
    """The program as LLVM IR text, before any LLVM optimization."""
    from mlir.dialects.llvm import translate_module_to_llvmir
    from mlir.passmanager import PassManager

    with _module(program) as module:
        own_symbols(module)
        lower_transfers(module)
        bf16_through_f32(module)
        with _mlir_errors("computing bf16 in f32"):
            PassManager.parse(BF16_IN_F32).run(module.operation)
        bf16_in_integers(module)
        narrow_in_integers(_ops_named(module, "arith.extf", "arith.truncf"))
        noalias = noalias_pointers(module)
        with _mlir_errors("lowering to the LLVM dialect"):
            PassManager.parse(PIPELINE).run(module.operation)
        mark_noalias(module, noalias)
        _check_lowered(module)
        with _mlir_errors("translating to LLVM IR"):
            return str(translate_module_to_llvmir(module.operation))


def noalias_pointers(module) -> dict:
    """Function -> (how many arguments it takes once lowered, the positions of the aligned
    pointers of its memref arguments marked llvm.noalias). convert-func-to-llvm spreads a
    memref argument into its descriptor's fields (allocated and aligned pointers, offset,
    sizes, strides) and drops the mark, so mark_noalias puts it back on the pointer every
    load and store goes through."""
    from mlir import ir

    marks = {}
    for op in _ops_named(module, "func.func"):
        types = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value).inputs
        attrs = op.attributes["arg_attrs"] if "arg_attrs" in op.attributes else None
        at, aligned = 0, []
        for k, t in enumerate(types):
            if isinstance(t, ir.MemRefType):
                if attrs is not None and "llvm.noalias" in ir.DictAttr(attrs[k]):
                    aligned.append(at + 1)
                at += 3 + 2 * ir.MemRefType(t).rank
            else:
                at += 1
        if aligned:
            marks[ir.StringAttr(op.attributes["sym_name"]).value] = (at, aligned)
    return marks


def mark_noalias(module, marks: dict) -> None:
    from mlir import ir

    for op in _ops_named(module, "llvm.func"):
        name = ir.StringAttr(op.attributes["sym_name"]).value
        if name in marks:
            count, aligned = marks[name]
            noalias = ir.DictAttr.get({"llvm.noalias": ir.UnitAttr.get()})
            op.attributes["arg_attrs"] = ir.ArrayAttr.get(
                [noalias if k in aligned else ir.DictAttr.get({}) for k in range(count)])


def own_symbols(module) -> None:
    """Every function of the program but `main` gets a symbol no library has: `vx.NAME` (a
    Vx name holds no dot). LLVM takes a function named as a C library's for that function
    (it folded a program's own `exp(1.0)` to e, and a program's `free` would take the
    runtime's calls), so the program's names must not reach it."""
    from mlir import ir

    for op in module.body.operations:
        if op.operation.name != "func.func" or not op.regions[0].blocks:
            continue  # a declaration: the runtime's own function
        name = ir.StringAttr(op.attributes["sym_name"]).value
        if name != "main":
            ir.SymbolTable.replace_all_symbol_uses(name, f"vx.{name}", module.operation)
            ir.SymbolTable.set_symbol_name(op, f"vx.{name}")


def lower_transfers(module) -> None:
    """Rewrite each vx.transfer: a memref into a fresh buffer of its type (of the source's
    extents, memref.dim reading each dynamic one) holding a copy of its elements (as a move
    between per-space buffers would give), a scalar into itself."""
    from mlir import ir
    from mlir.dialects import arith, memref

    for op in _ops_named(module, "vx.transfer"):
        source, result = op.operands[0], op.results[0]
        if isinstance(source.type, ir.MemRefType):
            with ir.InsertionPoint(op), op.location:
                shape, index = ir.MemRefType(source.type).shape, ir.IndexType.get()
                sizes = [memref.DimOp(source, arith.constant(index, k)).result
                         for k, d in enumerate(shape) if ir.ShapedType.is_dynamic_size(d)]
                copy = memref.AllocOp(source.type, sizes, []).result
                memref.CopyOp(source, copy)
            result.replace_all_uses_with(copy)
        else:
            result.replace_all_uses_with(source)
        op.erase()


def bf16_through_f32(module) -> None:
    """Make each conversion to bf16 from an f64 or an integer go through f32, as the
    interpreter's bf16 rounding does (values/numbers.py): LLVM would round once, straight to
    bf16, when it folds a constant, and the two differ where the f32 lands on a tie."""
    from mlir import ir
    from mlir.dialects import arith

    first_step = {"arith.truncf": arith.TruncFOp, "arith.sitofp": arith.SIToFPOp,
                  "arith.uitofp": arith.UIToFPOp}
    for op in _ops_named(module, *first_step):
        source, result = op.operands[0], op.results[0]
        if not isinstance(result.type, ir.BF16Type) or isinstance(source.type, ir.F32Type):
            continue
        with ir.InsertionPoint(op), op.location:
            f32 = first_step[op.name](ir.F32Type.get(), source).result
            bf16 = arith.TruncFOp(result.type, f32).result
        result.replace_all_uses_with(bf16)
        op.erase()


def bf16_in_integers(module) -> None:
    """Round each f32 to bf16 in integer operations, to nearest even, subnormals included, a
    NaN kept and made quiet, as __truncsfbf2 does (softfloat.py), on every CPU. Inline, LLVM
    vectorizes it: a bf16 loop ran 4 to 10 times slower calling __truncsfbf2 per value."""
    from mlir import ir
    from mlir.dialects import arith

    i32 = ir.IntegerType.get_signless(32)

    def const(value):
        return arith.constant(i32, value)

    for op in _ops_named(module, "arith.truncf"):
        source, result = op.operands[0], op.results[0]
        if not (isinstance(result.type, ir.BF16Type) and isinstance(source.type, ir.F32Type)):
            continue
        with ir.InsertionPoint(op), op.location:
            bits = arith.bitcast(i32, source)
            magnitude = arith.andi(bits, const(0x7FFFFFFF))
            nan = arith.cmpi(arith.CmpIPredicate.ugt, magnitude, const(0x7F800000))
            # Adding 0x7FFF, or 0x8000 when the half kept is odd, carries into it exactly
            # when the half dropped is above the midpoint or on it and the kept half is odd;
            # a carry out of the significand moves the exponent, to infinity at the top.
            odd = arith.andi(arith.shrui(bits, const(16)), const(1))
            rounded = arith.addi(bits, arith.addi(odd, const(0x7FFF)))
            quiet = arith.ori(bits, const(0x00400000))
            picked = arith.select(nan, quiet, rounded)
            high = arith.trunci(ir.IntegerType.get_signless(16), arith.shrui(picked, const(16)))
            bf16 = arith.bitcast(result.type, high)
        result.replace_all_uses_with(bf16)
        op.erase()


def _ops_named(module, *names) -> list:
    """The module's ops of these names, collected before any is rewritten."""
    return [op for op in module_ops(module) if op.name in names]


def module_ops(module) -> list:
    """Every op of the module, the module first."""
    from mlir import ir

    found = []

    def visit(op):
        found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def _check_lowered(module) -> None:
    """Refuse a module with an op left outside the LLVM dialect: the translation to LLVM IR
    crashes the process on one instead of reporting it."""
    left = [f"{op.name} at {op.location}" for op in module_ops(module)
            if not op.name.startswith("llvm.") and op.name != "builtin.module"]
    if left:
        raise BackendBug(f"lowering to the LLVM dialect left {', '.join(left)}")


# A context takes 13 ms to make and almost nothing to reuse, which a process compiling many
# programs (the tests, the docs' examples) pays for each one: the modules share one, made
# anew after _CONTEXT_USES of them so that what it interns (every module's types and
# constants, kept as long as it lives) stays bounded. The lock keeps it to one module at once.
_CONTEXT_USES = 100
_shared: dict = {"context": None, "uses": 0}
_context_lock = threading.RLock()  # reentrant, so a caller holding it may open a module too


@contextlib.contextmanager
def _module(program):
    """The program parsed and verified (parsing verifies)."""
    from mlir import ir

    text = to_mlir_text(program)
    with mlir_context():
        with _mlir_errors("parsing and verifying the module"):
            module = ir.Module.parse(text)
        yield module


@contextlib.contextmanager
def mlir_context():
    """The process's shared context (see _CONTEXT_USES), which allows the vx dialect's
    unregistered ops, held by one module at once."""
    from mlir import ir

    with _context_lock:
        if _shared["context"] is None or _shared["uses"] == _CONTEXT_USES:
            _shared["context"], _shared["uses"] = ir.Context(), 0
            _shared["context"].allow_unregistered_dialects = True
        _shared["uses"] += 1
        context = _shared["context"]
        with context, ir.Location.unknown():
            yield context


@contextlib.contextmanager
def _mlir_errors(step: str):
    from mlir.ir import MLIRError

    try:
        yield
    except MLIRError as error:
        raise BackendBug(f"MLIR failed {step}: {error}") from error

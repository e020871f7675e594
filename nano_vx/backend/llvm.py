"""The LLVM stage: LLVM IR parsed by llvmlite, verified, and optimized at -O0..-O3 for the
host (or a CPU named for a test), with LLVM's new pass manager.

llvmlite is imported inside the functions: the CLI must start without it.
"""

from __future__ import annotations

import functools

from .errors import BackendBug


@functools.cache
def binding():
    """llvmlite's binding, with the native target initialised (llvm.initialize() raises in
    llvmlite 0.50: the target and its printer are initialised one by one)."""
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    return llvm


# The bf16 instructions of these features (AVX512-BF16's and AVX-NE-CONVERT's VCVTNEPS2BF16,
# AVX10.2's bf16 arithmetic, which implies AVX512-BF16) read subnormal inputs as zero and flush
# subnormal results, whatever MXCSR says, where the interpreter rounds to nearest even. The
# MLIR stage leaves no bf16 rounding to LLVM (mlir.py, bf16_in_integers); without these
# features, one LLVM makes anyway (its own, or in IR from elsewhere) is a call of __truncsfbf2
# (softfloat.py), as on a CPU that lacks them, slower but exact. Clearing a feature clears
# those that imply it (AVX10.1, AVX10.2). The f16 instructions (F16C, AVX512-FP16) round as
# IEEE says and stay.
NOT_IEEE = ("avx512bf16", "avxneconvert")


def target_machine(level: int, cpu: str | None = None):
    """A target machine for this host's CPU and its features (or for `cpu`, an LLVM CPU name,
    and its features), less NOT_IEEE's, generating code at `level`, fit for MCJIT."""
    llvm = binding()
    features = llvm.get_host_cpu_features().flatten() if cpu is None else ""
    features = ",".join(filter(None, (features, *(f"-{f}" for f in NOT_IEEE))))
    return llvm.Target.from_default_triple().create_target_machine(
        cpu=cpu or llvm.get_host_cpu_name(), features=features, opt=level, jit=True)


def optimize(llvm_ir: str, level: int, cpu: str | None = None):
    """The IR parsed, verified and optimized at -O`level` for the host (or `cpu`): (the
    llvmlite module, the target machine to compile it with)."""
    if level not in (0, 1, 2, 3):
        raise ValueError(f"optimization level {level} is not 0, 1, 2 or 3")
    llvm = binding()
    tm = target_machine(level, cpu)
    try:
        module = llvm.parse_assembly(llvm_ir)
        module.triple = tm.triple
        module.data_layout = str(tm.target_data)
        module.verify()
    except RuntimeError as error:
        raise BackendBug(f"LLVM refused the IR MLIR produced: {error}") from error
    builder = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=level))
    builder.getModulePassManager().run(module, builder)
    return module, tm


def optimized_ir(llvm_ir: str, level: int) -> str:
    """The LLVM IR after optimization at -O`level`."""
    module, _ = optimize(llvm_ir, level)
    return str(module)

"""The LLVM stage: LLVM IR parsed by llvmlite, verified, and optimized at -O0..-O3 for the
host, with LLVM's new pass manager.

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


def target_machine(level: int):
    """A target machine for this host's CPU and its features, generating code at `level`,
    fit for MCJIT."""
    llvm = binding()
    return llvm.Target.from_default_triple().create_target_machine(
        cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(),
        opt=level, jit=True)


def optimize(llvm_ir: str, level: int):
    """The IR parsed, verified and optimized at -O`level` for the host: (the llvmlite module,
    the target machine to compile it with)."""
    if level not in (0, 1, 2, 3):
        raise ValueError(f"optimization level {level} is not 0, 1, 2 or 3")
    llvm = binding()
    tm = target_machine(level)
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

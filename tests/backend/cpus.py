"""The x86-64 CPUs the float tests compile for, by LLVM's names: those whose code runs on a host
with the features listed (from a generic x86-64 without F16C to one with AVX512-BF16 and
AVX512-FP16), and more whose code is only read: other bf16 and f16 instructions (AVX-NE-CONVERT,
AVX10.2), AMD's."""

from __future__ import annotations

import pytest

from nano_vx.backend.llvm import binding

# What each CPU's code may use that a generic x86-64 lacks, as LLVM names the features.
RUN = {
    "x86-64": (),
    "haswell": ("avx2", "fma", "f16c", "bmi2", "movbe"),
    "skylake-avx512": ("avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"),
    "sapphirerapids": ("avx512fp16", "avx512bf16", "avx512vbmi", "avx512vbmi2", "avx512ifma",
                       "avx512bitalg", "avx512vnni", "avx512vpopcntdq", "avxvnni"),
}
READ = ("x86-64-v2", "x86-64-v3", "x86-64-v4", "cooperlake", "znver4", "znver5",
        "graniterapids", "sierraforest", "arrowlake", "diamondrapids")


def skip_unless_runnable(cpu: str) -> None:
    """Skip the test when this host lacks a feature `cpu`'s code may use."""
    features = binding().get_host_cpu_features()
    missing = [f for f in RUN.get(cpu, ()) if not features.get(f)]
    if missing:
        pytest.skip(f"this host cannot run code for {cpu}: it lacks {', '.join(missing)}")

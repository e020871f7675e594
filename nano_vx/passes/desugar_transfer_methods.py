"""desugar-transfer-methods: Lunrolled -> Ltransfers."""

from __future__ import annotations

from ..languages import Ltransfers, Lunrolled
from ..nanopass import Pass

desugar_transfer_methods = Pass("desugar-transfer-methods", Lunrolled, Ltransfers, """
Turn `x.to_device()` and its three siblings into `Transfer` nodes with a mark.

`transfer(x, M)` is a synchronizing move ("sync"); `x.to_device()` is
`transfer(x, Memory::NPU_HBM)` "sync" and `x.to_device_relaxed()` the same move "relaxed",
without the release; `to_gpu()` / `to_gpu_relaxed()` target `GPU_HBM`. Only calls with no
arguments are these methods; any other method call stays a MethodCall.
""")

METHODS = {
    "to_device": ("NPU_HBM", "sync"),
    "to_device_relaxed": ("NPU_HBM", "relaxed"),
    "to_gpu": ("GPU_HBM", "sync"),
    "to_gpu_relaxed": ("GPU_HBM", "relaxed"),
}


@desugar_transfer_methods.on("Transfer")
def _transfer(run, node):
    return Ltransfers["Transfer"](run.walk(node.value), node.dest, "sync", span=node.span)


@desugar_transfer_methods.on("MethodCall")
def _method_call(run, node):
    if node.method not in METHODS or node.args:
        return run.rebuild(node)
    space, mark = METHODS[node.method]
    dest = Ltransfers["MemRef"](space, span=node.span)
    return Ltransfers["Transfer"](run.walk(node.receiver), dest, mark, span=node.span)

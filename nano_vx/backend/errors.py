"""The back end's one failure: a compiler bug it found, never a mistake in the program.

Every refusal of a program is select-instructions' (a diagnostic, a stop); past it, MLIR's
verifier refusing the module, LLVM refusing the IR, or the native code dying of a signal
means nano-vx built something wrong.
"""


class BackendBug(Exception):
    """The back end found a bug of the compiler: what failed, and the tool's own words."""

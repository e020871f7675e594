"""The runtime's interface as generated code sees it: the functions it
calls, with their MLIR argument types, and the global counting nested calls.

backend/runtime.py implements these functions; this module is what select-instructions
declares and calls, so the two meet only here and there."""

from __future__ import annotations

# vx_print(site, payload): print what the print site says the payload holds.
# vx_stop(site, a, b): stop with the stop site's report, `{a}` and `{b}` its operands.
# vx_check_alloc(site, bytes): stop with the site's report when the machine cannot hold them.
FUNCTIONS = {"vx_print": ("i32", "i64"), "vx_stop": ("i32", "i64", "i64"),
             "vx_check_alloc": ("i32", "i64")}

# The memref.global counting nested calls: `main` runs at depth 1, as in the interpreter,
# and each call goes one deeper.
DEPTH = "vx_depth"
DEPTH_TYPE = "memref<i64>"
DEPTH_START = 1

# The memref.global counting the pins held on a topology kind, one per kind `try_pin` names:
# PINS_PREFIX + the kind's name, starting at 0.
PINS_PREFIX = "vx_pins_"
PINS_TYPE = "memref<i64>"

# The memref.globals of a constant whose value calls a function (backend/const_cells.py):
# CONST_PREFIX + its name holds its value once computed, CONST_STATE_PREFIX + its name whether
# it is, starting at 0 (not yet).
CONST_PREFIX = "vx_const_"
CONST_STATE_PREFIX = "vx_const_state_"
CONST_STATE_TYPE = "memref<i8>"

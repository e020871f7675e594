"""What a Vx value is and how it computes, shared by the reference interpreter
(nano_vx/oracle) and the compile-time evaluator (nano_vx/comptime), so that the two cannot
disagree about what a program means.

- numbers: the scalar types, integer wrapping, truncating division, float rounding and
  formatting, conversions (`coerce`, `as`), and the placement mark on a scalar.
- tensors: lazily allocated tensors.
- places: topologies, memory spaces and placement queries.
- literals: how a literal takes its type from its context.
- control: the signals by which `break`, `continue` and `return` leave a block.
- stops: RuntimeStop, the stop of a running program (E9001-E9006).

The compiler's passes import this package, never the interpreter.
"""

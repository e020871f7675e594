"""The back end: Lmlir to MLIR text, LLVM, native code, and the runtime it calls."""

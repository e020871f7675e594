"""The reference interpreter: runs a Vx program given as a tree in any IL of the chain, Lsrc
to Lmlir, and prints what it prints.

Each function body is compiled once, on its first call, to Python closures (one per node),
dispatching on production names, so one evaluator serves every IL from Lsrc to Lblocks (a
function of basic blocks runs through blocks.py); an Lmlir module, MLIR operations in SSA
form, runs in ssa.py. The values it computes with, and the RuntimeStop a run raises, live in
nano_vx/values, which the compile-time evaluator shares.
"""

from .interpreter import run_program

__all__ = ["run_program"]

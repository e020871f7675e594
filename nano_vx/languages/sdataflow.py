"""Sdataflow: the first IL of the spatial lane, an unbounded synchronous-dataflow graph.

Tensors live in DRAM. Stages fire a fixed number of times; each firing takes `rate` tokens
from every input port and puts `rate` tokens on every output port, so the number of firings
of each stage follows from the balance equations (check-balance). A load reads its whole
tensor and a store writes its whole tensor at every firing until `tile` gives them tiles.
"""

from __future__ import annotations

import re

from ..nanopass import Language, Nonterminal, Terminal, prod

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

DTYPES = ("i32", "i64", "f32", "f64", "bf16", "f16", "bfp8", "bfp4")
ROLES = ("input", "output")
# The compute ops (docs/spatial.md, "The ILs").
OPS = ("matmul_acc", "add", "sub", "mul", "div", "scale", "exp", "sum", "max", "transpose")
SCALAR_BINOPS = ("+", "-", "*", "/", "max", "min")
SCALAR_UNOPS = ("-", "exp", "recip")


def is_name(v) -> bool:
    return type(v) is str and _IDENT.match(v) is not None


def _ints(v) -> bool:
    return type(v) is tuple and all(type(x) is int for x in v)


TERMINALS = [
    Terminal("name", is_name, "an identifier"),
    Terminal("int", lambda v: type(v) is int, "an integer"),
    Terminal("ints", _ints, "a tuple of integers (a shape, a tile, a site)"),
    Terminal("number", lambda v: type(v) in (int, float), "an integer or float constant"),
    Terminal("dtype", lambda v: v in DTYPES, " ".join(DTYPES)),
    Terminal("role", lambda v: v in ROLES, "input (given) or output (computed)"),
    Terminal("op", lambda v: v in OPS, " ".join(OPS)),
    Terminal("sbinop", lambda v: v in SCALAR_BINOPS, " ".join(SCALAR_BINOPS)),
    Terminal("sunop", lambda v: v in SCALAR_UNOPS, " ".join(SCALAR_UNOPS)),
]

Sdataflow = Language(
    "Sdataflow",
    "stages joined by unbounded streams; rates fix how often each stage fires",
    TERMINALS,
    [
        Nonterminal("Program", (
            prod("Graph", "name: name, tensors: Tensor*, streams: Stream*, stages: Stage*",
                 "a spatial program: its DRAM tensors, its streams, its stages"),
        )),
        Nonterminal("Tensor", (
            prod("Tensor", "name: name, dtype: dtype, shape: ints, role: role",
                 "a tensor in DRAM"),
        )),
        Nonterminal("Stream", (
            prod("Stream", "name: name, dtype: dtype",
                 "a stream of tiles from one stage's output port to one stage's input port"),
        )),
        Nonterminal("Stage", (
            prod("Load", "name: name, tensor: name, outs: Port*",
                 "each firing reads the whole tensor and puts it on every output port"),
            prod("Store", "name: name, tensor: name, input: Port",
                 "each firing writes a token over the whole tensor"),
            prod("Compute", "name: name, op: op, axis: int?, factor: number?, ins: Port*, "
                            "outs: Port*, via: dtype?",
                 "a tile op; sum and max reduce along `axis`, scale multiplies by `factor`, "
                 "transpose swaps a matrix's axes; "
                 "operands of different types are converted to `via` first"),
            prod("Scalar", "name: name, params: name*, body: SExpr, ins: Port*, outs: Port*, "
                           "via: dtype?",
                 "an expression over scalars, applied element by element to its inputs; "
                 "operands of different types are converted to `via` first"),
        )),
        Nonterminal("Port", (
            prod("Port", "stream: name, rate: int", "a stream end and its tokens per firing"),
        )),
        Nonterminal("SExpr", (
            prod("Arg", "name: name", "a parameter of the scalar body"),
            prod("Num", "value: number", "a constant"),
            prod("Bin", "op: sbinop, a: SExpr, b: SExpr", "a binary operation"),
            prod("Un", "op: sunop, a: SExpr", "a unary operation"),
        )),
    ],
    "Program",
)

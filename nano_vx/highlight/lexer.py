"""Pygments lexers for Vx (`vx`) and the spatial text form (`sdf`).

Registered under the `pygments.lexers` entry point group, so `pygmentize -l vx` and any tool
built on Pygments (Sphinx, MkDocs, nbconvert) highlight Vx once nano-vx is installed. The
lexer also reads the compiler's text dumps: `@print` (a global), `x#1` (a local renamed
apart), `larger$i32` (an instance) and the basic-block words of Lblocks.

The word lists are this module's own: importing the parser for them would cost a fifth of a
second per highlight. `tests/highlight/test_lexer.py` checks that they cover every keyword
the parser knows.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, include, words
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation, String,
                            Whitespace)

DECLARATIONS = ("fn", "let", "mut", "const", "struct", "enum", "impl", "trait", "import",
                "where")
CONTROL = ("for", "in", "while", "loop", "if", "else", "return", "break", "continue",
           "match", "assert", "comptime", "unroll", "across", "spawn", "on", "unsafe",
           "transfer", "as", "grad", "vjp", "jvp")
SCALARS = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf16", "f32", "f64",
           "bool", "void")
BUILTIN_TYPES = ("Tensor", "Pinned", "Verified", "HardwareState", "Ref", "Reachable",
                 "Transfer", "Some", "None", "Self", "Memory", "Topology")
# What builds a vector: a name like any other unless the vector's `<` or `(` follows it.
VECTOR_BUILDERS = ("vec", "splat")
CONSTANTS = ("true", "false")
# Contract clauses: words only where a clause can stand, so a variable may still be called
# `requires`; marked wherever they appear, as in most editors.
CONTRACTS = ("requires", "ensures", "invariant")
# What the text dumps of later ILs add to the surface: blocks, launches, assumptions.
DUMP_WORDS = ("goto", "branch", "launch", "assume")
SUFFIXES = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf16", "f32", "f64")
UNITS = ("B", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB", "B/s", "KB/s", "MB/s",
         "GB/s", "TB/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s", "B/cyc", "Hz", "KHz", "MHz", "GHz")

_SUFFIX = r"(_*(?:%s))?" % "|".join(sorted(SUFFIXES, key=len, reverse=True))
_UNIT = r"(\s+)(%s)(?![A-Za-z0-9_/])" % "|".join(sorted(UNITS, key=len, reverse=True))
# A name as the dumps write it: `x`, `x#1`, `larger$i32`, `Type::f$kernel0`.
_NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:\$[A-Za-z0-9_$]*)?(?:#[0-9]+)?"


class VxLexer(RegexLexer):
    """Vx programs and nano-vx's text dumps of them."""

    name = "Vx"
    aliases = ["vx"]
    filenames = ["*.vx"]
    mimetypes = ["text/x-vx"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"//[^\n]*", Comment.Single),
            (r"#!?\[", Name.Decorator, "attribute"),
            (r'"', String, "string"),
            include("numbers"),
            (r"(Memory|Topology)(::)([A-Za-z_][A-Za-z0-9_]*)",
             bygroups(Keyword.Type, Punctuation, Name.Namespace)),
            (r"(fn)(\s+)(" + _NAME + ")", bygroups(Keyword.Declaration, Whitespace,
                                                     Name.Function)),
            (r"(struct|enum|impl)(\s+)([A-Za-z_][A-Za-z0-9_]*)",
             bygroups(Keyword.Declaration, Whitespace, Name.Class)),
            (r"(Memory|Topology)(\s+)([A-Za-z_][A-Za-z0-9_]*)",
             bygroups(Keyword.Declaration, Whitespace, Name.Namespace)),
            (words(DECLARATIONS, suffix=r"\b"), Keyword.Declaration),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(CONTROL + DUMP_WORDS, suffix=r"\b"), Keyword),
            (words(CONTRACTS, suffix=r"\b"), Keyword.Reserved),
            (words(SCALARS, suffix=r"\b"), Keyword.Type),
            (words(BUILTIN_TYPES, suffix=r"\b"), Name.Builtin),
            (words(VECTOR_BUILDERS, suffix=r"(?=\s*[<(])"), Name.Builtin),
            (r"(bb[0-9]+)(:)(?!:)", bygroups(Name.Label, Punctuation)),
            (r"@" + _NAME, Name.Function),
            (r"[A-Z][A-Za-z0-9_]*(?=::)", Name.Class),
            (_NAME + r"(?=\s*!?\()", Name.Function),
            (_NAME, Name),
            (r"<<=|>>=|->|=>|\.\.=?|::|==|!=|<=|>=|&&|\|\||<<|>>|[-+*/%&|^]=", Operator),
            (r"[-+*/%&|^!<>=?]", Operator),
            (r"[()\[\]{},;:.]", Punctuation),
        ],
        "numbers": [
            (r"(0[xX][0-9A-Fa-f_]*[0-9A-Fa-f])(_*(?:u8|u32|u64|i8|i16|i32|i64))?",
             bygroups(Number.Hex, Keyword.Type)),
            (r"([0-9][0-9_]*(?:\.[0-9][0-9_]*)?[eE][+-]?[0-9]+)" + _SUFFIX,
             bygroups(Number.Float, Keyword.Type)),
            (r"([0-9][0-9_]*\.[0-9][0-9_]*)" + _SUFFIX, bygroups(Number.Float, Keyword.Type)),
            (r"([0-9][0-9_]*)" + _UNIT, bygroups(Number.Integer, Whitespace, Keyword.Constant)),
            (r"([0-9][0-9_]*)" + _SUFFIX, bygroups(Number.Integer, Keyword.Type)),
        ],
        "string": [
            (r'\\[nrt0\\"]', String.Escape),
            (r'[^"\\\n]+', String),
            (r'"', String, "#pop"),
            # An unknown escape is the parser's E1006; shown as what it is, not as an error.
            (r"\\.", String),
            (r"\n", String, "#pop"),  # unterminated: E1002, the line ends the string
        ],
        "attribute": [
            (r"\[", Name.Decorator, "#push"),
            (r"\]", Name.Decorator, "#pop"),
            (r'"(?:[^"\\\n]|\\.)*"', String),
            (r"[^\[\]\"]+", Name.Decorator),
        ],
    }


SDF_ITEMS = ("tensor", "stream", "load", "store", "compute", "scalar", "place", "buffer",
             "group", "handshake", "semaphore", "schedule")
SDF_WORDS = ("input", "output", "tile", "for", "in", "depth", "bytes", "initial", "repeat")
SDF_OPS = ("read", "write", "reserve", "push", "send", "multicast", "wait_front", "pop",
           "wait", "signal", "barrier", "fire")


class SdfLexer(RegexLexer):
    """The spatial text form (`.sdf`): one item per line, words reserved only where an item
    puts them, so the item keywords are marked at the start of a line."""

    name = "Vx spatial program"
    aliases = ["sdf", "vx-spatial"]
    filenames = ["*.sdf"]
    mimetypes = ["text/x-vx-spatial"]

    tokens = {
        "root": [
            (r"^([ \t]*)(" + "|".join(SDF_ITEMS) + r")\b",
             bygroups(Whitespace, Keyword.Declaration)),
            (r"\n|[ \t\r]+", Whitespace),
            (r"//[^\n]*", Comment.Single),
            (r"(spatial)(\s+)([A-Za-z_][A-Za-z0-9_]*)",
             bygroups(Keyword.Declaration, Whitespace, Name.Class)),
            (r"S[a-z]+(?=\s*\{)", Name.Namespace),  # the IL the header names
            (words(SDF_WORDS, suffix=r"\b"), Keyword),
            (words(SDF_OPS, suffix=r"\b"), Name.Builtin),
            (words(SCALARS, suffix=r"\b"), Keyword.Type),
            (r"[0-9]+(?:\.[0-9]+(?:[eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+)", Number.Float),
            (r"[0-9]+", Number.Integer),
            (r"[A-Za-z_][A-Za-z0-9_]*(?=\()", Name.Function),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r"->|\.\.", Operator),
            (r"[=+\-*/]", Operator),
            (r"[{}()\[\],:]", Punctuation),
        ],
    }


class MlirLexer(RegexLexer):
    """The MLIR text of Lmlir (Pygments has no MLIR lexer): values, symbols, blocks, operation
    names, types. Not registered: the name belongs to MLIR's own lexer should one come."""

    name = "MLIR (nano-vx)"
    aliases = []
    filenames = []

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"//[^\n]*", Comment.Single),
            (r'"(?:[^"\\\n]|\\.)*"', String),
            (r"%[A-Za-z0-9_.$#]+", Name.Variable),
            (r'@(?:[A-Za-z0-9_.$]+|"(?:[^"\\\n]|\\.)*")', Name.Function),
            (r"\^[A-Za-z0-9_]+", Name.Label),
            (r"[a-z_][a-z0-9_]*\.[a-z0-9_.]+", Keyword),  # an operation: dialect.op
            (r"(?:[iuf][0-9]+|bf16|index)\b", Keyword.Type),
            (r"(memref|tensor|vector)(<)", bygroups(Keyword.Type, Punctuation)),
            (r"-?[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?", Number.Float),
            (r"0x[0-9A-Fa-f]+|-?[0-9]+", Number.Integer),
            (r"[0-9]+x", Keyword.Type),  # a dimension of a shaped type: `4x`
            (r"[A-Za-z_][A-Za-z0-9_$]*", Name),
            (r"->|[-+*=:?]", Operator),
            (r"[()\[\]{}<>,.`']", Punctuation),
        ],
    }

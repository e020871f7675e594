"""Inputs a few edits away from good programs, and raw bytes.

Token edits (delete, duplicate, swap, insert a token, or a near miss: a name, a number or an
operator replaced by another the corpus uses) make what a typo or a half-finished edit makes;
byte splices and random bytes make what a truncated download or a binary opened by mistake
makes. The corpus is every example and every pass case of the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
CORPUS = {str(p.relative_to(ROOT)): p.read_text()
          for pattern in ("examples/**/*.vx", "tests/passes/cases/**/*.vx")
          for p in sorted(ROOT.glob(pattern))}

TOKEN = re.compile(r"\s+|//[^\n]*|[A-Za-z_]\w*|\d+(?:\.\d+)?|\S")
NAME = re.compile(r"[A-Za-z_]\w*")
KEYWORDS = frozenset("fn let mut for in while if else return break continue assert comptime "
                     "unroll across spawn on transfer Memory Topology Tensor true false Some None "
                     "as where const struct impl Self".split())
WORDS = sorted({t for text in CORPUS.values() for t in TOKEN.findall(text)
                if NAME.fullmatch(t) and t not in KEYWORDS})
NUMBERS = ["0", "1", "-1", "7", "128", "255", "2147483647", "4294967296", "1.5"]
OPERATORS = list("+-*/%<>")
# What an insertion may add: every keyword and punctuation mark, and what a bad file brings.
INSERTS = sorted(KEYWORDS) + list("{}()[];:,.=<>+-*/%!|&#@\"'\\") + [
    "::", "..", "->", "=>", "==", "&&", "||", "//", "/*", "0x", "1_", "1e999", "1.", ".5",
    "18446744073709551616", "99999999999999999999999999999999", "9" * 5000, "\t", "\r",
    "\x00", "\x1b[31m",
    "\u00e9", "\u202e", "\ufeff", *NUMBERS]
EDITS = ("delete", "duplicate", "swap", "insert", "near-miss")


def near_miss(token: str, pick: int) -> str:
    """Another token of the same sort: a name for a name, a number for a number, an operator
    for an operator; keywords and punctuation stay."""
    if NAME.fullmatch(token) and token not in KEYWORDS:
        return WORDS[pick % len(WORDS)]
    if token[0].isdigit():
        return NUMBERS[pick % len(NUMBERS)]
    if token in OPERATORS:
        return OPERATORS[pick % len(OPERATORS)]
    return token


def mutate(text: str, edits) -> str:
    """`text` after the (edit, at, pick) edits, each on the token `at` points to (modulo the
    count of tokens that are not white space)."""
    tokens = TOKEN.findall(text)
    for edit, at, pick in edits:
        solid = [i for i, t in enumerate(tokens) if not t.isspace()]
        if not solid:
            break
        i = solid[at % len(solid)]
        if edit == "delete":
            del tokens[i]
        elif edit == "duplicate":
            tokens.insert(i, tokens[i])
        elif edit == "swap":
            j = solid[pick % len(solid)]
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif edit == "insert":
            tokens.insert(i, INSERTS[pick % len(INSERTS)] + " " * (pick % 2))
        else:
            tokens[i] = near_miss(tokens[i], pick)
    return "".join(tokens)


def edits(kinds=EDITS, most: int = 4):
    return st.lists(st.tuples(st.sampled_from(kinds), st.integers(0, 10**6), st.integers(0, 10**6)),
                    min_size=1, max_size=most)


def mutants(texts, kinds=EDITS):
    """Texts drawn from `texts`, then edited a token at a time."""
    return st.builds(mutate, texts, edits(kinds))


def splice(text: str, at: int, junk: bytes, cut: int) -> bytes:
    """`text` as UTF-8 with `junk` written over it at `at`, and `cut` bytes dropped there."""
    data = text.encode()
    i = at % (len(data) + 1)
    return data[:i] + junk + data[i + cut:]


def spliced(texts):
    """Good texts with a few random bytes written into them (often not UTF-8 any more)."""
    return st.builds(splice, texts, st.integers(0, 10**6), st.binary(min_size=1, max_size=8),
                     st.integers(0, 8))


def raw_bytes():
    return st.binary(max_size=512)

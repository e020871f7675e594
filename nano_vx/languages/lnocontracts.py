"""Lnocontracts: removes `Requires`, `Ensures` and `Invariant`, which make no code."""

from __future__ import annotations

from .lsrc import CONTRACTS
from .lwritten import Lwritten

# verify-contracts proved them, or the interpreter checks them when asked (--check-contracts,
# on the front end's tree): native code has nothing to do with them.
Lnocontracts = Lwritten.extend(
    "Lnocontracts",
    "Lwritten without contracts: native code makes none",
    remove={"Stmt": sorted(CONTRACTS)},
)

"""erase-contracts: Lwritten -> Lnocontracts."""

from __future__ import annotations

from ..languages.lsrc import CONTRACTS
from ..languages.lwritten import Lwritten
from ..languages.lnocontracts import Lnocontracts
from ..nanopass import Pass

erase_contracts = Pass("erase-contracts", Lwritten, Lnocontracts, """
Remove `requires`, `ensures` and `invariant`: they make no code.

verify-contracts proved them, or the interpreter checks them when asked (--check-contracts
runs the front end's tree, with its contracts), so native code leaves them out.
""")


@erase_contracts.on(*CONTRACTS, splice=True)
def _contract(run, node):
    return ()

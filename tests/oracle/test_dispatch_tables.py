"""The interpreter's conversions to a type, tensor extents and block exits dispatch through
checked tables: a handler for a production their ILs do not have is refused at import."""

from __future__ import annotations

import pytest

from nano_vx.nanopass import DispatchError
from nano_vx.oracle.blocks import _EXITS
from nano_vx.oracle.interpreter import Interpreter
from nano_vx.oracle.types import CONFORMERS, EXTENTS


def test_every_exit_and_every_written_extent_has_a_handler():
    assert set(_EXITS) == _EXITS.productions == {"Return", "Goto", "Branch", "Stop"}
    # `?` is refused before anything runs (E1001, E3001): only written extents compute.
    assert set(EXTENTS) == EXTENTS.productions - {"DimAny"}


def test_the_types_converted_at_run_time():
    assert set(Interpreter.conformers) == {"Scalar", "TensorType", "TupleType", "PinnedType",
                                           "VerifiedType", "RefType"}
    assert Interpreter.extents is EXTENTS


def test_a_misspelt_handler_is_refused():
    with pytest.raises(DispatchError, match=r"the interpreter's block exits: the handler \S+ is "
                                            r"for Brnach, which is no Exit production of Lblocks, Lstops "
                                            r"\(did you mean Branch\?\)"):
        _EXITS.on("Brnach")(lambda interp, node, sc, cells: None)
    with pytest.raises(DispatchError, match=r"is for TensorTyp, which is no Type production "
                                            r"of Lsrc to Lblocks \(did you mean TensorType\?\)"):
        CONFORMERS.on("TensorTyp")(lambda self, ty, span: None)
    with pytest.raises(DispatchError, match=r"is for DimInt, which is no Type production"):
        CONFORMERS.on("DimInt")(lambda self, ty, span: None)

"""The front-end pipeline as a table: the passes in order, and every IL they pass through."""

from __future__ import annotations

from .nanopass import Pipeline
from .passes.check_memory_declarations import check_memory_declarations
from .passes.desugar_comptime import desugar_comptime
from .passes.desugar_transfer_methods import desugar_transfer_methods
from .passes.desugar_unroll_across import desugar_unroll_across
from .passes.hoist_nested_items import hoist_nested_items
from .passes.load_machine_files import load_machine_files
from .passes.parse import parse_pass
from .passes.resolve_names import resolve_names

PIPELINE = Pipeline([
    parse_pass,
    load_machine_files,
    hoist_nested_items,
    desugar_unroll_across,
    desugar_transfer_methods,
    resolve_names,
    check_memory_declarations,
    desugar_comptime,
])

# Every IL by name, in pipeline order (Lsrc first).
LANGUAGES = {lang.name: lang for lang in PIPELINE.languages()}

"""The front end up to resolve-names with fold-negative-literals appended: the table checks
that Lresolved, which resolve-names produces, is what the new pass reads."""

from nano_vx.nanopass import Pipeline
from nano_vx.pipeline import PIPELINE

from .fold_negative_literals import fold_negative_literals

UPTO = [p.name for p in PIPELINE.passes].index("resolve-names") + 1
PIPELINE_WITH_FOLD = Pipeline([*PIPELINE.passes[:UPTO], fold_negative_literals])

"""The front end with fold-negative-literals appended: the table checks that Lresolved,
which the last pass produces, is what the new pass reads."""

from nano_vx.nanopass import Pipeline
from nano_vx.pipeline import PIPELINE

from .fold_negative_literals import fold_negative_literals

PIPELINE_WITH_FOLD = Pipeline([*PIPELINE, fold_negative_literals])

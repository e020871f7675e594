"""The nanopass framework: languages as data, node classes, passes (rewriting and analysis),
the pipeline, and checked handler tables for evaluators that walk ILs by hand."""

from .analysis import Analysis, AnalysisRun
from .dispatch import DispatchError, Handlers, lineage
from .language import Field, Language, LanguageError, Nonterminal, Production, Terminal, prod
from .nodes import Node, NodeError
from .passes import Pass, PassError, PassRun
from .pipeline import Pipeline, PipelineError
from .rebuild import rebuild
from .show import diff_languages, show_language
from .spans import with_span
from .verify import VerifyError, child_nodes, children, descendants, path_to, verify

__all__ = [
    "Analysis", "AnalysisRun", "DispatchError", "Field", "Handlers", "Language",
    "LanguageError", "Node", "NodeError", "Nonterminal", "Pass", "PassError", "PassRun",
    "Pipeline", "PipelineError", "Production", "Terminal", "VerifyError", "child_nodes",
    "children", "descendants", "diff_languages", "lineage", "path_to", "prod", "rebuild",
    "show_language", "verify", "with_span",
]

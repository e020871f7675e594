"""The nanopass framework: languages as data, node classes, passes (rewriting and analysis),
the pipeline."""

from .analysis import Analysis, AnalysisRun
from .language import Field, Language, LanguageError, Nonterminal, Production, Terminal, prod
from .nodes import Node, NodeError
from .passes import Pass, PassError, PassRun
from .pipeline import Pipeline, PipelineError
from .show import diff_languages, show_language
from .spans import with_span
from .verify import VerifyError, child_nodes, children, descendants, path_to, verify

__all__ = [
    "Analysis", "AnalysisRun", "Field", "Language", "LanguageError", "Node", "NodeError",
    "Nonterminal", "Pass", "PassError", "PassRun", "Pipeline", "PipelineError", "Production",
    "Terminal", "VerifyError", "child_nodes", "children", "descendants", "diff_languages",
    "path_to", "prod", "show_language", "verify", "with_span",
]

"""The pipeline tables: the front-end passes in order, the back end's after them, and the IL
chain they walk."""

import importlib

from nano_vx.pipeline import BACK_END, LANGUAGES, NATIVE, PIPELINE

IL_MODULES = ["l0_source", "l0_plain", "l0_loops", "l1_hoisted", "l1_flat", "l1_paths",
              "l2_unrolled", "l3_transfers", "l4_resolved", "lerased", "linstances",
              "l5_monomorphic", "l6_typed", "l7_folded", "l8_routed", "l9_scheduled",
              "l10_kernels", "l11_assumed", "lnocontracts", "lnative", "l12_scalars",
              "l13_lifted", "l14_blocks", "lstops", "lcells", "l15_mlir"]


ORDER = ["parse", "load-machine-files", "drop-imports", "desugar-tensor-constructors",
         "desugar-literal-suffixes", "desugar-loops",
         "desugar-tuple-lets",
         "hoist-nested-items", "flatten-impl-blocks", "resolve-type-paths",
         "desugar-unroll-across",
           "desugar-transfer-methods", "resolve-names", "check-constants", "check-memory-declarations",
           "erase-struct-arguments", "monomorphize", "fold-sizeof", "fold-const-extents", "check-where-clauses", "check-locations", "infer-placement",
           "check-literal-ranges",
           "check-match-arms", "check-element-types", "check-extent-queries", "check-tensor-literals", "check-tensor-constructors", "check-declared-tiles", "desugar-value-matches",
           "fold-comptime-lambdas", "desugar-comptime",
           "resolve-sub-space-ancestors", "differentiate-forward", "differentiate-reverse", "check-types", "check-returns", "check-loop-exits", "check-linearity", "check-borrows", "check-visibility", "check-calls", "check-struct-fields",
           "verify-contracts", "verify-seams",
           "summarize-working-sets", "check-capacity", "fold-working-sets",
           "schedule-sub-spaces", "outline-kernels", "insert-seam-assumes"]


BACK_END_ORDER = ["check-native-subset", "erase-contracts", "drop-type-declarations",
                  "erase-tensor-references", "type-scalars", "lift-closures", "explicate-control",
                  "explicate-assertions", "choose-memory-cells", "select-instructions"]


def test_the_passes_are_in_chain_order():
    assert PIPELINE.names() == ORDER
    assert [p.name for p in BACK_END] == BACK_END_ORDER
    assert NATIVE.names() == ORDER + BACK_END_ORDER


def test_every_language_by_name_each_extending_the_one_before():
    assert list(LANGUAGES) == ["Lsrc", "Lonefile", "Lshaped", "Lplain", "Lwhile", "Lunpacked", "Lhoisted",
                               "Lflat", "Lpaths", "Lunrolled", "Ltransfers", "Lresolved",
                               "Lerased", "Linstances", "Lmono", "Ltyped", "Lfolded", "Lrouted", "Lscheduled",
                               "Lkernels", "Lassumed", "Lnocontracts", "Lnative",
                               "Lscalars", "Llifted", "Lblocks", "Lstops", "Lcells", "Lmlir"]
    langs = list(LANGUAGES.values())
    for before, after in zip(langs, langs[1:]):
        assert after.parent is before


def test_each_il_module_and_pass_says_what_it_does_in_one_line():
    for name in IL_MODULES:
        doc = importlib.import_module(f"nano_vx.languages.{name}").__doc__
        assert doc and "\n" not in doc.strip(), name
    for p in NATIVE.passes[1:]:
        assert p.summary and p.summary.endswith("."), p.name

"""The worked example of docs/adding-a-pass.md: the IL Lnegint, the rewriting pass
fold-negative-literals with its interpreter rule and its pipeline, and the analysis
find-negated-literals that checks what the pass promises."""

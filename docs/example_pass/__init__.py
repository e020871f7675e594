"""The worked example of docs/adding-a-pass.md: the IL Lnegint and the pass
fold-negative-literals, with its printer, its interpreter rule and its pipeline."""

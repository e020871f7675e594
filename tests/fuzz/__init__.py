"""The fuzz campaign: inputs that must never make the compiler fail.

`programs` draws random well-formed Vx programs, `mutations` breaks them and the examples a
few tokens or bytes at a time, `inputs` mixes every kind, `runner` puts each through the whole
pipeline in a worker process (`worker`) with a time and a memory bound and says how it ended,
`minimize` shrinks a failing input while it fails the same way, and `known` tells the failures
an open issue already names from new ones. tests/fuzz/test_fuzz.py runs a bounded,
reproducible campaign in the suite (and tests the runner and the minimizer on `planted` failures);
benchmarks/fuzz.py runs a long one on every core.
"""

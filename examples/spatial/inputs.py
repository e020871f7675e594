"""Write the inputs of the reference programs beside them (`NAME.npz`, one array per input
tensor), from a fixed seed: `python examples/spatial/inputs.py`. The tests compute the
expected outputs from these with numpy; nothing expected is stored."""

from pathlib import Path

import ml_dtypes
import numpy as np

HERE = Path(__file__).resolve().parent


def main() -> None:
    rng = np.random.default_rng(2026)
    arrays = {
        "gemm": {"A": rng.integers(-8, 9, (64, 64)).astype(np.int32),
                 "B": rng.integers(-8, 9, (64, 64)).astype(np.int32)},
        "gemv": {"x": rng.standard_normal((1, 512)).astype(np.float32),
                 "W": (rng.standard_normal((512, 256)) / 16).astype(np.float32)},
        "softmax": {"X": (4 * rng.standard_normal((16, 256))).astype(np.float32)},
        "row_sums": {"X": rng.integers(-100, 101, (64, 256)).astype(np.int32)},
        "attention": {name: rng.standard_normal((32, 32)).astype(ml_dtypes.bfloat16)
                      for name in ("Q", "K", "V")},
        "mlp": {"X": rng.standard_normal((32, 64)).astype(ml_dtypes.bfloat16),
                "W": (rng.standard_normal((64, 64)) / 8).astype(ml_dtypes.bfloat16),
                "b": rng.standard_normal((1, 64)).astype(ml_dtypes.bfloat16)},
    }
    for name, tensors in arrays.items():
        np.savez(HERE / f"{name}.npz", **tensors)


if __name__ == "__main__":
    main()

"""The front-end passes, one module each; the pipeline table is `nano_vx.pipeline`."""

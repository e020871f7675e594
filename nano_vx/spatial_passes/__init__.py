"""The passes of the spatial lane, one module each, in the order of nano_vx/spatial_pipeline.py."""

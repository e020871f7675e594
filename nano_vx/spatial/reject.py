"""`SpatialReject`: a spatial pass that cannot apply says why, with a typed reason that names
the stage, site or buffer, and the CLI reports it as a coded diagnostic."""

from __future__ import annotations


class SpatialReject(Exception):
    def __init__(self, code: str, pass_name: str, message: str, *, stage: str | None = None,
                 site: tuple | None = None, buffer: str | None = None):
        super().__init__(message)
        self.code = code
        self.pass_name = pass_name
        self.message = message
        self.stage = stage
        self.site = site
        self.buffer = buffer

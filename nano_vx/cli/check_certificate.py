"""`nano-vx check-certificate FILE.json`: check a certificate of the spatial lane."""

from __future__ import annotations

from typing import TextIO

from .options import Parser, Usage
from .paths import Named

DESCRIPTION = """\
Check a certificate that `nano-vx spatial --certificate FILE.json` wrote
(docs/certificate.md), without the compiler: its structure, the replay of its witness,
and each site's fit (or, for a refusal, the refutation). Print what was checked; the
exit status is 0 when the certificate is accepted, 1 when it is refused or is not a
certificate, 2 when there is no file or it cannot be read. The checker also runs on its own:
python nano_vx/oracle/checkers/check_certificate.py FILE.json

  nano-vx check-certificate gemv.json
"""


def build_parser() -> Parser:
    ap = Parser("nano-vx check-certificate", DESCRIPTION)
    ap.add_argument("certificate", nargs="?", metavar="FILE.json", help="the certificate")
    return ap


def paths(args) -> list[Named]:
    return [] if args.certificate is None else [Named("the certificate", args.certificate,
                                                      "input")]


def run(args, stdout: TextIO, stderr: TextIO) -> int:
    if args.certificate is None:
        raise Usage("check-certificate: no certificate (nano-vx check-certificate FILE.json)")
    from ..oracle.checkers.check_certificate import main as check_certificate

    return check_certificate([args.certificate], stdout, stderr)

"""A compiler with planted failures, called as `nano-vx` is, for testing the runner and the
minimizer without waiting for a real bug: each word of the input asks for one way to end."""

from __future__ import annotations

import os
import traceback


def divide() -> float:
    return 1 / 0


def spin() -> None:
    while True:
        pass


def main(argv, stdout, stderr) -> int:
    with open(argv[0], "rb") as fh:
        data = fh.read()
    running = "--action" not in argv
    if b"xyzzy" in data and b"plugh" in data:
        raise KeyError("planted")
    if b"ice" in data:
        try:
            divide()
        except ZeroDivisionError as error:
            with open("nano-vx-ice-planted.txt", "w") as fh:
                fh.write("nano-vx internal compiler error in pass planted\n\n"
                         + "".join(traceback.format_exception(error)))
        stderr.write("nano-vx: internal compiler error in pass planted: ZeroDivisionError\n")
        return 70
    if b"hang" in data or (b"endless" in data and running):
        spin()
    if b"hog" in data:
        return len(bytearray(1 << 40))
    if b"abort" in data:
        os.abort()
    if b"status" in data:
        return 3
    if b"refuse" in data:
        stderr.write("error[E1001]: planted\n")
        return 1
    return 0

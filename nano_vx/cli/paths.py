"""The files a command line names, checked before any work starts: each input can be read,
each output can be written and is none of the inputs (`nano-vx explore F.vx -o F.vx` would
replace the program with the page). A file that fails is a usage error, exit status 2: found
after every pass has run, it would waste the run, or destroy what it read.

A command module says which of its arguments name files with `paths(args)`: a list of Named.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from dataclasses import dataclass

from ..source import INPUT_LIMIT
from .options import Usage


@dataclass(frozen=True)
class Named:
    flag: str  # how the command line names it: "the program", "--machine", "-o"
    path: str
    # "input"; "diagnosed", an input the command reports on itself when it cannot be read
    # (a target, E7004), checked only for what would never end; "output" (a file);
    # "directory" (an output directory).
    role: str


def model_files(args) -> list[Named]:
    """The files --machine and --host name (`--host default` names none)."""
    return [Named(f"--{flag}", path, "input")
            for flag, path in (("machine", args.machine), ("host", args.host))
            if path is not None and (flag, path) != ("host", "default")]


def target_file(args) -> list[Named]:
    """--target when it names a file rather than a target of machines/spatial/: read by the
    lane, which reports one it cannot read (E7004), but one that never ends is refused."""
    target = args.target or ""
    if target.endswith(".toml") or "/" in target or os.sep in target:
        return [Named("--target", target, "diagnosed")]
    return []


def check_paths(paths: list[Named], stdout) -> None:
    for p in paths:
        if p.role == "input":
            _readable(p)
        elif p.role == "diagnosed" and os.path.exists(p.path) and not os.path.isdir(p.path):
            _bounded(p)
    read = [p for p in paths if p.role in ("input", "diagnosed") and os.path.exists(p.path)]
    _stdout_not_an_input(stdout, read)
    for p in paths:
        if p.role == "output":
            _not_an_input(p, read)
            _writable(p)
        elif p.role == "directory":
            _directory(p)


def _named(p: Named) -> str:
    return f"{p.flag}: " if p.flag.startswith("-") else ""


def _refuse(p: Named, verb: str, code: int) -> None:
    raise Usage(f"{_named(p)}cannot {verb} {p.path!r}: {os.strerror(code)}")


def _readable(p: Named) -> None:
    """A file or a pipe (`nano-vx /dev/stdin`) that can be read, not a device (/dev/zero
    never ends), and at most INPUT_LIMIT bytes (_bounded)."""
    if not os.path.exists(p.path):
        _refuse(p, "read", errno.ENOENT)
    if os.path.isdir(p.path):
        _refuse(p, "read", errno.EISDIR)
    if not os.access(p.path, os.R_OK):
        _refuse(p, "read", errno.EACCES)
    _bounded(p)


def _bounded(p: Named) -> None:
    mode = os.stat(p.path).st_mode
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):
        raise Usage(f"{_named(p)}{p.path!r} is a device, not a file")
    size = os.path.getsize(p.path)
    if size > INPUT_LIMIT:
        raise Usage(f"{_named(p)}{p.path!r} is {size:,} bytes; nano-vx reads files of at "
                    f"most {INPUT_LIMIT:,} bytes")


def _not_an_input(p: Named, inputs: list[Named]) -> None:
    if not os.path.exists(p.path):
        return
    for given in inputs:
        if os.path.samefile(p.path, given.path):
            what = f"the {given.flag} file" if given.flag.startswith("-") else given.flag
            raise Usage(f"{p.flag} {p.path!r} is {what} {given.path!r}: writing it would "
                        f"destroy the input; name another file")


def _stdout_not_an_input(stdout, inputs: list[Named]) -> None:
    """`nano-vx F.vx >> F.vx` would write the output into the program (and `> F.vx` has
    emptied it already)."""
    try:
        out = os.fstat(stdout.fileno())
    except (AttributeError, OSError, ValueError):  # not a file: a StringIO, a closed stream
        return
    if not stat.S_ISREG(out.st_mode):
        return
    for given in inputs:
        if os.path.samestat(out, os.stat(given.path)):
            what = f"the {given.flag} file" if given.flag.startswith("-") else given.flag
            raise Usage(f"stdout is {what} {given.path!r}: writing it would destroy the "
                        f"input; redirect stdout to another file")


def _writable(p: Named) -> None:
    """Open the file for writing without changing it: an existing file is not truncated, a
    new one is removed again. A named pipe is left alone: opening it would hang until a
    reader comes, and closing it would end that reader's input."""
    if os.path.isdir(p.path):
        _refuse(p, "write", errno.EISDIR)
    created = not os.path.exists(p.path)
    if not created and stat.S_ISFIFO(os.stat(p.path).st_mode):
        return
    try:
        fd = os.open(p.path, os.O_WRONLY | (os.O_CREAT | os.O_EXCL if created else 0))
    except OSError as err:
        _refuse(p, "write", err.errno)
    os.close(fd)
    if created:
        os.unlink(p.path)


def _directory(p: Named) -> None:
    """Make the directory, as the command would, and write a file in it."""
    if os.path.exists(p.path) and not os.path.isdir(p.path):
        raise Usage(f"{p.flag}: {p.path!r} is not a directory")
    try:
        os.makedirs(p.path, exist_ok=True)
    except OSError as err:
        raise Usage(f"{p.flag}: cannot create the directory {p.path!r}: "
                    f"{os.strerror(err.errno)}") from None
    try:
        with tempfile.TemporaryFile(dir=p.path):
            pass
    except OSError as err:
        raise Usage(f"{p.flag}: cannot write in the directory {p.path!r}: "
                    f"{os.strerror(err.errno)}") from None

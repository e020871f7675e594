"""The `nano-vx` command: `nano-vx FILE [options]`, and the commands named by the first word
(`spatial`, `explore`, `explain`, `check-certificate`), one module each with its own options.

Only argparse and the one command's parser are loaded at start-up; the pipeline (and with it
pyparsing and the passes) is imported when a command runs, so `nano-vx --help` stays fast.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
from typing import TextIO

from .options import EXIT_ERROR, EXIT_USAGE, Parser, Usage, wants_color
from .streams import GuardedStream, OutputError, drop_stdout, say

__all__ = ["entry", "main", "wants_color"]

# The first word that names a command, and its module; any other first word is `nano-vx FILE`.
COMMANDS = {"spatial": "spatial", "explore": "explore", "explain": "explain",
            "check-certificate": "check_certificate"}
PLAIN = "plain"


def _label(name: str | None) -> str:
    return f"nano-vx {name or 'FILE'}"


def _module(name: str | None):
    return importlib.import_module(f"{__name__}.{COMMANDS.get(name, PLAIN)}")


def main(argv: list[str] | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    argv = sys.argv[1:] if argv is None else list(argv)
    name = argv[0] if argv and argv[0] in COMMANDS else None
    command = _module(name)
    parser = command.build_parser()
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            args, extra = parser.parse_known_args(argv[1:] if name else argv)
            if extra:
                _refuse(parser, name, args, extra)
    except SystemExit as stop:  # argparse already printed the usage error or the help
        return int(stop.code or 0)
    except Usage as problem:  # one line, naming the command
        stderr.write(f"{parser.prog}: error: {problem}\n")
        return EXIT_USAGE
    try:
        return command.run(args, stdout, stderr)
    except Usage as problem:  # one line: the options parsed, one of them cannot be used
        stderr.write(f"nano-vx: error: {problem}\n")
        return EXIT_USAGE


def _refuse(parser: Parser, name: str | None, args, extra: list[str]) -> None:
    """Words the command does not take: an option of another command is refused naming the
    commands it belongs to, an unknown option as argparse refuses it, a word too many as
    one line."""
    for word in extra:
        if word.startswith("-") and len(word) > 1:
            flag = word.split("=", 1)[0] if word.startswith("--") else word[:2]
            owners = [_label(other) for other in (None, *COMMANDS)
                      if other != name and _takes(_module(other).build_parser(), flag)]
            if owners:
                belongs = (f"{', '.join(owners[:-1])} and {owners[-1]}" if len(owners) > 1
                           else owners[0])
                raise Usage(f"{flag} is not an option of {_label(name)} (it belongs to "
                            f"{belongs})")
    if any(word.startswith("-") and len(word) > 1 for word in extra):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    hint = ""
    if name is None and getattr(args, "file", None) in COMMANDS:
        hint = (f" (a command is the first word: nano-vx {args.file} ...; a program file "
                f"named {args.file} is ./{args.file})")
    raise Usage(f"unexpected argument {extra[0]!r}{hint}")


def _takes(parser: Parser, flag: str) -> bool:
    """Whether `parser` takes `flag`, or, as argparse reads a long option, a flag it
    abbreviates."""
    flags = parser.flags()
    return flag in flags or (flag.startswith("--")
                             and any(f.startswith(flag) for f in flags))


def entry() -> None:
    stdout = GuardedStream(sys.stdout, "stdout")
    stderr = GuardedStream(sys.stderr, "stderr")
    try:
        code = main(stdout=stdout, stderr=stderr)
        stdout.flush()
    except BrokenPipeError:
        # The reader went away (`nano-vx --dump-after=all | head`): stop quietly.
        drop_stdout()
        code = 128 + signal.SIGPIPE
    except OutputError as err:
        drop_stdout()
        say(stderr, f"nano-vx: error: {err}\n")
        code = EXIT_ERROR
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C changes nothing now
        with contextlib.suppress(OSError, OutputError):
            stdout.flush()  # what the program printed before the interruption
        say(stderr, "nano-vx: interrupted\n")
        # The pipeline or the program may still be running on run_deep's worker thread,
        # which cannot be stopped; a normal exit would wait for it to finish.
        os._exit(128 + signal.SIGINT)
    sys.exit(code)

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

from .failures import Failure, JsonChannel, classify, say_text, wants_json
from .options import EXIT_ERROR, Parser, Usage, wants_color
from .paths import check_paths
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
    """Run one command. Whatever stops it (a usage error, a file the system will not write,
    a bug) is one failure, said on stderr as text or, under --error-format=json, in the one
    JSON document stderr then holds."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    argv = sys.argv[1:] if argv is None else list(argv)
    name = argv[0] if argv and argv[0] in COMMANDS else None
    command = _module(name)
    parser = command.build_parser()
    channel = JsonChannel() if wants_json(parser, argv) else None
    err = channel or stderr
    failure = None
    # A usage error names the command while its line is read, nano-vx once it runs.
    prog = parser.prog
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(err):
            args, extra = parser.parse_known_args(argv[1:] if name else argv)
            if extra:
                _refuse(parser, name, args, extra)
        parser.refuse_empty(args)
        check_paths(command.paths(args), stdout)
        prog = "nano-vx"
        code = command.run(args, stdout, err)
        stdout.flush()
    except SystemExit as stop:  # --help, printed by argparse
        code = int(stop.code or 0)
    except BrokenPipeError:
        raise  # the reader went away: entry stops quietly
    except KeyboardInterrupt as stop:  # entry says it, unless the document does
        if channel is not None:
            with contextlib.suppress(OSError, OutputError):
                stderr.write(channel.document(Failure("interrupted", "interrupted")))
            stop.said = True
        raise
    except Exception as problem:  # noqa: BLE001 - every stop is said the one way
        failure = classify(problem, prog)
        code = failure.status
    try:
        if channel is not None:
            stderr.write(channel.document(failure))
        elif failure is not None:
            say_text(failure, stderr)
    except OutputError:  # stderr itself fails: the status is all that is left to tell
        code = code or EXIT_ERROR
    return code


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
    except BrokenPipeError:
        # The reader went away (`nano-vx --dump-after=all | head`): stop quietly.
        drop_stdout()
        code = 128 + signal.SIGPIPE
    except OutputError:  # stderr cannot be written (a Ctrl-C's last word): nothing more
        drop_stdout()
        code = EXIT_ERROR
    except KeyboardInterrupt as stop:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C changes nothing now
        with contextlib.suppress(OSError, OutputError):
            stdout.flush()  # what the program printed before the interruption
        if not getattr(stop, "said", False):
            say(stderr, "nano-vx: interrupted\n")
        # The pipeline or the program may still be running on run_deep's worker thread,
        # which cannot be stopped; a normal exit would wait for it to finish.
        os._exit(128 + signal.SIGINT)
    if stdout.failed:  # said: Python's own flush at exit must not try again
        drop_stdout()
    sys.exit(code)

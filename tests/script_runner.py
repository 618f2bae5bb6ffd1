"""The ``sheetgm`` script as a user runs it, in process: cli/main.py's ``main`` (the fast path for the scheduled
commands, Typer for the rest) under CliRunner's isolation, giving Typer's own Result. ``CliRunner.invoke(app)``
goes straight to Typer and would never see the fast path."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

from typer.testing import CliRunner, Result

from sheetgm.cli.main import main


def run_script(args: Sequence[str], env: Mapping[str, str | None] | None = None) -> Result:
    runner = CliRunner()
    exception: BaseException | None = None
    exc_info = None
    with runner.isolation(env=env) as out:
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if code:
                exception, exc_info = exc, sys.exc_info()
        except Exception as exc:  # as CliRunner does: the failure is the test's to read
            code, exception, exc_info = 1, exc, sys.exc_info()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            stdout, stderr, output = out[0].getvalue(), out[1].getvalue(), out[2].getvalue()
    return Result(runner=runner, stdout_bytes=stdout, stderr_bytes=stderr, output_bytes=output, return_value=None,
                  exit_code=code, exception=exception, exc_info=exc_info)

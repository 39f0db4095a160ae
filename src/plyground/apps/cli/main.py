"""The ``plyground`` command: the root app, its game sub-apps, and one-line errors.

Run it as ``plyground`` (the installed script) or ``python -m plyground.apps.cli.main``.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
import typer.core

from plyground import __version__
from plyground.apps.cli import arena, g2048, kinrow, web
from plyground.errors import InvalidInputError, PlygroundError

__all__ = ["app", "main"]

BAD_PATH_ERRORS = frozenset(
    {
        errno.ENOENT,
        errno.ENOTDIR,
        errno.EISDIR,
        errno.EEXIST,
        errno.ENAMETOOLONG,
        errno.ELOOP,
        errno.EACCES,
        errno.EPERM,
        errno.EROFS,
    }
)
"""What a path given on the command line can be wrong with: bad input (status 2), where a full disk
or a port in use (the other ``OSError`` s) is a failure (status 1)."""


class _Commands(typer.core.TyperGroup):
    """The root group: a Ctrl-C that no command turned into its own summary line ends with ``interrupted``."""

    def invoke(self, ctx: Any) -> Any:  # a click Context (typer carries its own click)
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # e.g. while the kernels compile, before a command stops cleanly
            print("interrupted", file=sys.stderr)
            raise typer.Exit(130) from None


app = typer.Typer(
    cls=_Commands,
    name="plyground",
    help="Search-based game AI: an exact 2048 engine with expectimax and a solver, and k-in-a-row.",
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help: rewrapped to the terminal, never cut
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

# One line per game; each sub-app lives in its own module of this package.
app.add_typer(g2048.app, name="2048", short_help="2048: show, play, watch the AI, hint, solve, bench, learn.")
app.add_typer(kinrow.app, name="kinrow", short_help="k-in-a-row: play the AI, run a match, a Gomocup brain.")
app.add_typer(arena.app, name="arena", short_help="Matches against other programs: gomoku between Gomocup brains.")
app.command(name="web", short_help="Serve the web lab: 2048 and k-in-a-row in the browser.")(web.web)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"plyground {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_show_version, is_eager=True, help="Show the version and exit."),
    ] = False,
) -> None:
    """Search-based game AI: an exact 2048 engine with expectimax and a solver, and k-in-a-row."""


def main(args: Sequence[str] | None = None) -> int:
    """Run the command line with ``args`` (default: ``sys.argv[1:]``); return the exit status.

    An error prints one line on stderr, ``error: <message>``, never a traceback: the
    status is 2 for bad input (a malformed board, a bad option value, a corrupt file, a
    path that does not exist or cannot be written) and 1 for other failures. Ctrl-C ends with
    status 130 and one line (the command's summary, else ``interrupted``).
    """
    command = typer.main.get_command(app)
    try:
        result = command.main(
            args=list(args) if args is not None else None, prog_name="plyground", standalone_mode=False
        )
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        return _fail("aborted", 1)
    except typer.TyperException as exc:  # a usage error: unknown command, bad option value...
        if type(exc).__name__ == "NoArgsIsHelpError":  # no arguments: the help, on stdout
            typer.echo(exc.format_message())
            return 0
        ctx = getattr(exc, "ctx", None)
        hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        return _fail(exc.format_message() + hint, 2 if exc.exit_code == 2 else 1)
    except InvalidInputError as exc:
        return _fail(str(exc), 2)
    except PlygroundError as exc:
        return _fail(str(exc), 1)
    except OSError as exc:
        return _fail(os_message(exc), 2 if exc.errno in BAD_PATH_ERRORS else 1)
    return result if isinstance(result, int) else 0


def os_message(exc: OSError) -> str:
    """``missing.json: No such file or directory``, not ``[Errno 2] No such file or directory: 'missing.json'``.

    >>> os_message(FileNotFoundError(2, "No such file or directory", "missing.json"))
    'missing.json: No such file or directory'
    """
    if exc.filename is not None and exc.strerror:
        return f"{exc.filename}: {exc.strerror}"
    return exc.strerror or str(exc)


def _fail(message: str, status: int) -> int:
    print(f"error: {' '.join(message.split())}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())

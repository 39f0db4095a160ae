"""``plyground web``: serve the web lab (2048 and k-in-a-row in the browser) on this machine.

Starlette, uvicorn and the game packages are imported inside the command, so that
``--help`` stays fast and works without the ``web`` extra.
"""

from __future__ import annotations

from typing import Annotated

import typer

from plyground.apps.cli import compile_kernels
from plyground.apps.cli.options import (
    DEFAULT_P_FOUR,
    TablebasesOption,
    load_evaluator_option,
    load_tablebases,
    number_option,
)
from plyground.errors import DependencyNotInstalled, install_command

__all__ = ["web"]


def web(
    host: Annotated[
        str,
        typer.Option("--host", metavar="ADDRESS", help="Address to listen on (the default serves this machine only)."),
    ] = "127.0.0.1",
    port: Annotated[
        int,
        number_option("--port", help="Port to listen on, {range} (0: any free port).", low=0, high=65535, integer=True),
    ] = 8048,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Do not open the page in a browser.")] = False,
    evaluator: Annotated[
        str,
        typer.Option(
            "--evaluator",
            metavar="network|heuristic|ntuple:PATH",
            help="The n-tuple network the page's 2048 AI values boards of its size with, by default: the one "
            "shipped with plyground (network), another trained one (ntuple:PATH: its file, the folder of its "
            "training run from 'plyground 2048 learn', or 'latest'), or none (heuristic). The heuristic is always "
            "there, and the only one on boards of other sizes.",
        ),
    ] = "network",
    tablebases: TablebasesOption = None,
) -> None:
    """Serve the web lab: play 2048 and k-in-a-row in the browser, ask for hints, watch the AI play.

    Prints the page's URL and opens it in the browser (unless --no-browser); Ctrl-C stops.
    With --tablebases, the 2048 AI plays and hints an endgame table's move where one advises,
    and the page says so with the table's exact probability (the tables built for the lab's
    games, whose new tiles are 4s one time in ten).
    """
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise DependencyNotInstalled(f"the web lab needs starlette and uvicorn: {install_command('web')}") from None
    from plyground.g2048 import registry as g2048_kinds  # these load no kernel
    from plyground.kinrow import registry as kinrow_kinds

    compile_kernels(
        *g2048_kinds.kernel_groups([g2048_kinds.HEURISTIC]),  # the lab always has the heuristic
        *kinrow_kinds.kernel_groups(kinrow_kinds.OPPONENTS),  # every opponent the lab offers, its default first
    )
    chosen = load_evaluator_option(evaluator, None)
    advisor = load_tablebases(tablebases, DEFAULT_P_FOUR)  # the lab's games: a new tile is a 4 one time in ten
    from plyground.apps.web.server import serve
    from plyground.apps.web.sessions import HEURISTIC

    network = None if chosen.kind == HEURISTIC else chosen  # the lab always has the heuristic too
    name = network.to_json().get("file") if network is not None else None
    serve(host, port, open_browser=not no_browser, network=network, network_name=name, tablebases=advisor)

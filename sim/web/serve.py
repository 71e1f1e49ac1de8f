"""``gongzhu-sim serve``: a local web page for players — should I expose? what should I play?

Thin: check the options, build :func:`sim.web.app.create_app` and run it with uvicorn.  The
web libraries are the optional extra ``web`` (``pip install -e '.[web]'``); without them the
command says so in one ``Error:`` line.  docs/serve.md describes the page.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from pathlib import Path

import click

from sim.commands.choices import IntNumber
from sim.commands.options import deal_count

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@click.command()
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True,
              help="the port to listen on")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="the address to listen on; anything but loopback lets other machines use "
              "the page (a warning says so)")
@click.option("--results", type=click.Path(exists=True, file_okay=False), default=None,
              help="the folder whose run/study/tune results the Reports page lists (nothing "
              "outside it is served)")
@click.option("--models", type=click.Path(exists=True, file_okay=False), default=None,
              help="a folder of model files the page may name as learned:model=FILE (a path "
              "relative to it; regular files only, no symlinks); without it only the shipped "
              "models (learned1.npz, learned2.npz)")
@click.option("--max-deals", type=deal_count(1, 10**8), default=200_000,
              show_default=True, help="most deals per expose request")
@click.option("--max-worlds", type=IntNumber(1, 100_000), default=2_000,
              show_default=True, help="most worlds per advise request")
@click.option("--time-limit", type=click.FloatRange(1, 86_400), default=120.0,
              show_default=True, help="seconds per request; a run then stops with the "
              "estimate so far")
@click.option("--max-running", type=click.IntRange(1, 1024), default=None,
              help="most analyses running at once over all pages (more are refused with "
              "'the server is busy') [default: the number of CPU cores, at least 2]")
@click.option("--open", "open_browser", is_flag=True, help="open the page in the browser")
def serve(port, host, results, models, max_deals, max_worlds, time_limit, max_running,
          open_browser):
    """Start the local web page: "Should I expose?", "What should I play?", Play (打一局:
    a deal against the table, with hints and the review at the end) and Reports.

    The page calls the same analysis as `expose`, `advise` and `review` (the same numbers
    for the same seed) and works offline.  It listens on 127.0.0.1 only unless --host is given;
    requests whose Host or Origin is not this server's are refused, each page runs one
    analysis at a time (cancelled when the page goes away), the server at most --max-running
    at once, and every request is capped by --max-deals / --max-worlds and --time-limit.
    Stop it with Ctrl-C.  See docs/serve.md.
    """
    from sim.errors import InputError

    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError as exc:
        raise InputError(f"gongzhu-sim serve needs the web extra ({exc.name} is missing): "
                         "pip install -e '.[web]'") from None
    from sim.web.app import ServerConfig, create_app

    check_listen(host, port)
    extra: tuple[str, ...] = ()
    if not _is_loopback(host):
        extra = _own_names(host)
        click.echo(f"warning: --host {host}: anyone who can reach this machine on port {port} "
                   "can use this page and start analyses on it (requests naming another "
                   "host are still refused)", err=True)
    config = ServerConfig(host=host, port=port,
                          results=Path(results).resolve() if results else None,
                          models=Path(models).resolve() if models else None,
                          max_deals=max_deals, max_worlds=max_worlds, time_limit=time_limit,
                          max_running=max_running or max(2, os.cpu_count() or 1),
                          extra_hosts=extra)
    app = create_app(config)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{port}/"
    click.echo(f"gongzhu-sim serve: open {url} (Ctrl-C stops it)", err=True)
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    try:
        _server(uvicorn, app, host, port).run()
    except OSError as exc:
        raise InputError(f"cannot listen on {host}:{port}: {exc}") from None
    except KeyboardInterrupt:
        # Ctrl-C or SIGTERM: uvicorn shuts down, then raises the signal again, which the
        # command group would report as an analysis stopped before its first result
        click.echo("gongzhu-sim serve: server stopped", err=True)


def _server(uvicorn, app, host: str, port: int):
    """uvicorn's server for ``app``, whose Ctrl-C (SIGINT/SIGTERM) first stops the running
    analyses: uvicorn waits for the requests in flight before it stops, and a synchronous
    /api/expose would otherwise keep it up to --time-limit seconds after Ctrl-C."""

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            app.state.jobs.close()  # jobs and synchronous runs stop at their next batch
            super().handle_exit(sig, frame)

    return Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))


def check_listen(host: str, port: int) -> None:
    """Raise InputError (one ``Error:`` line, exit 2) when ``host:port`` cannot be listened
    on — a port in use, an address not of this machine, an unknown name — before anything is
    printed; uvicorn would log its own ``ERROR:`` line and exit with status 3."""
    from sim.errors import InputError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, proto, _, addr = infos[0]
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
            sock.bind(addr)
    except OSError as exc:
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _own_names(host: str) -> tuple[str, ...]:
    """The names a browser on another machine may use for this one (the Host check)."""
    names = {host}
    if host in ("0.0.0.0", "::"):
        try:
            hn = socket.gethostname()
            names |= {hn, socket.getfqdn()}
            names |= set(socket.gethostbyname_ex(hn)[2])
        except OSError:
            pass
    return tuple(f"[{n}]" if ":" in n else n for n in sorted(names))

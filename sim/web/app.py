"""The web application of ``gongzhu-sim serve`` (Starlette): the page, its JSON API, the reports.

Routes (every POST takes and returns JSON; an error is ``{"error": "Error: …"}``, the CLI's
own text, with status 400 for bad input, 403 for a refused Host/Origin, 404 for an unknown
job or report, 429 when the server already runs ``max_running`` analyses, its most at once):

- ``GET /``: the page (sim/web/static: plain HTML, CSS and JavaScript modules, nothing
  fetched from elsewhere).
- ``POST /api/expose``, ``POST /api/advise``: the CLI's option names in, the command's
  ``--format json`` out (:func:`sim.commands.api.command_json`), synchronously, within the
  server's deal/world and time caps (a run stopped by the time cap is the estimate so far,
  ``stop``/``stopped`` ``interrupted``, with ``"stopped_by"`` saying why).
- ``POST /api/jobs`` ``{"page", "command", "options"}``: the same analysis in a worker
  thread (the page's running job is cancelled first); ``GET /api/jobs/{id}?page=…``: its
  state and the estimate so far (a poll; a page that stops polling is gone and its job is
  cancelled); ``POST /api/jobs/{id}/cancel?page=…``; ``POST /api/pages/{page}/gone`` (the
  page's ``pagehide`` beacon).
- ``POST /api/position``: the position editor's check (:mod:`sim.web.position`).
- ``POST /api/hand`` ``{"hand", "decks"}``: the paste box — the card list of a hand in any
  form the CLI accepts (the CLI's parser).
- ``GET /api/meta``: the rule options, players and exposure policies for the forms.
- The Play tab (:mod:`sim.web.play`), ``{"page", "game", …}`` in: ``POST /api/play/new``
  (a seeded deal or entered hands, your seat, the table), ``POST /api/play/expose``
  (``cards``), ``POST /api/play/card`` (``card``; an illegal one is a 400 naming the rule),
  each answering the deal's view after the table has played to your turn;
  ``GET /api/play/record?page=…&game=…``: the finished deal's record JSON as a download
  (what ``gongzhu-sim review`` reads); ``POST /api/play/review``: the review of your
  decisions as a job of the page (polled as ``/api/jobs/{id}``).
- A player name's ``learned:model=PATH`` may name only a shipped model or a regular file
  under the server's ``--models`` folder (:mod:`sim.web.models`), refused otherwise with
  one message whether or not the path exists.
- ``GET /api/reports``: the run/study/tune folders under ``--results``; ``GET
  /reports/{path}``: a file of one of them (no ``..``, no symlinks, nothing outside).

Safety: every request's ``Host`` must be one of the server's own names and port, and a
request with an ``Origin`` must come from such an origin (403 otherwise), so a web page
elsewhere cannot start jobs on the user's machine (DNS rebinding included).
"""

from __future__ import annotations

import contextlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.responses import JSONResponse as _StarletteJSON
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from sim.commands.api import (
    NOT_FROM_THE_WEB,
    command_json,
    parse_options,
    unset_table_defaults,
)
from sim.errors import InputError
from sim.web.jobs import Busy, JobManager
from sim.web.models import vet_models
from sim.web.reports import ReportError, list_reports, report_file

STATIC = Path(__file__).with_name("static")

#: The largest request body taken (bytes): a hand, a position and options are far smaller.
MAX_BODY = 64 * 1024


class TooLarge(InputError):
    """A request body over :data:`MAX_BODY` (HTTP 413)."""


@dataclass
class ServerConfig:
    """What one server allows: its address, the results folder and the per-request caps."""

    host: str = "127.0.0.1"
    port: int = 8765
    results: Path | None = None
    models: Path | None = None  # the folder of model files a page may name (--models)
    max_deals: int = 200_000  # expose: most deals per request
    max_worlds: int = 2_000  # advise: most worlds per request
    time_limit: float = 120.0  # seconds per request (sync or job)
    page_timeout: float = 20.0  # a page that has not polled for this long is gone
    max_running: int = 2  # analyses at once over all pages (jobs and synchronous requests)
    extra_hosts: tuple[str, ...] = field(default_factory=tuple)

    def hosts(self) -> set[str]:
        """The ``Host`` header values this server answers to (name:port)."""
        names = {"127.0.0.1", "localhost", "[::1]", *self.extra_hosts}
        h = self.host
        if h not in ("0.0.0.0", "::"):
            names.add(f"[{h}]" if ":" in h and not h.startswith("[") else h)
        return {f"{n}:{self.port}" for n in names} | (
            set(names) if self.port == 80 else set())


def _finite(x: Any) -> Any:
    """``x`` with every NaN/±inf float as None (JSON has no NaN: a CI of one world is NaN)."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_finite(v) for v in x]
    return x


class JSONResponse(_StarletteJSON):
    """Starlette's JSONResponse, with non-finite numbers as ``null`` (Starlette refuses them
    with a ValueError, i.e. a 500; the CLI's ``--format json`` prints ``NaN``, which a
    browser's JSON.parse refuses too)."""

    def render(self, content: Any) -> bytes:
        return super().render(_finite(content))


def _error(msg: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": msg if msg.startswith("Error:") else f"Error: {msg}"},
                        status_code=status)


def _status(exc: InputError) -> int:
    return 413 if isinstance(exc, TooLarge) else 400


async def _http_error(request: Request, exc: HTTPException) -> Response:
    """Starlette's own errors (no such route 404, wrong method 405) as ``Error:`` JSON."""
    what = {404: f"no such page or API route: {request.url.path}",
            405: f"{request.method} is not allowed on {request.url.path}"}
    resp = _error(what.get(exc.status_code, str(exc.detail)), exc.status_code)
    if exc.headers:
        resp.headers.update(exc.headers)
    return resp


async def _internal_error(request: Request, exc: Exception) -> Response:
    """A bug (not bad input): one ``Error:`` line for the page, status 500; the traceback
    stays in the server's console."""
    return _error(f"internal error: {type(exc).__name__}: {exc}", 500)


class HostOriginCheck:
    """ASGI middleware: refuse (403) a request whose Host is not the server's, or whose
    Origin (when sent) is not ``http://`` + one of those hosts."""

    def __init__(self, app, config: ServerConfig) -> None:
        self.app, self.config = app, config

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers: dict[str, list[str]] = {}
        for k, v in scope.get("headers", []):
            headers.setdefault(k.decode("latin-1").lower(), []).append(v.decode("latin-1"))
        allowed = self.config.hosts()
        why = None
        # every value counts: a request with a foreign Host or Origin among several is refused
        for host in headers.get("host", [""]):
            if host.lower() not in allowed:
                why = f"Host {host!r} is not this server's"
        for origin in headers.get("origin", []):
            o = urlsplit(origin)
            if why is None and (o.scheme != "http" or o.netloc.lower() not in allowed):
                why = f"Origin {origin!r} is not this server's"
        if why is not None:
            resp = _error(f"request refused: {why} (gongzhu-sim serve answers only to "
                          f"http://{sorted(allowed)[0]} and its other local names)", 403)
            return await resp(scope, receive, send)
        return await self.app(scope, receive, send)


#: Headers of the page and its modules: nothing from elsewhere can load (the offline promise
#: enforced by the browser), no other site may frame the page (clickjacking the Run button).
PAGE_HEADERS = {"content-security-policy": "default-src 'self'; frame-ancestors 'none'; "
                "base-uri 'none'; form-action 'none'",
                "x-content-type-options": "nosniff", "x-frame-options": "DENY"}
#: Headers of a file under /reports: a sandbox (an opaque origin, no scripts), so an HTML file
#: in a results folder that came from elsewhere cannot use this server's API as its own page.
REPORT_HEADERS = {"content-security-policy": "sandbox; default-src 'none'; img-src 'self' "
                  "data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
                  "x-content-type-options": "nosniff", "x-frame-options": "DENY"}


class SecurityHeaders:
    """ASGI middleware: :data:`PAGE_HEADERS` on every response, :data:`REPORT_HEADERS` on
    those under ``/reports/``."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        extra = REPORT_HEADERS if scope["path"].startswith("/reports/") else PAGE_HEADERS

        async def send_with(message):
            if message["type"] == "http.response.start":
                given = {k.lower() for k, _ in message.get("headers", [])}
                message = {**message, "headers": [*message.get("headers", []), *(
                    (k.encode(), v.encode()) for k, v in extra.items()
                    if k.encode() not in given)]}
            await send(message)

        return await self.app(scope, receive, send_with)


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The Starlette application of ``gongzhu-sim serve`` for ``config`` (module doc)."""
    config = config or ServerConfig()

    def check(command: str, options: dict) -> None:
        """The request's options as the CLI reads them, then this server's caps."""
        params = parse_options(command, options, NOT_FROM_THE_WEB)
        if command == "advise":
            mw = params["max_worlds"]
            if mw > config.max_worlds:
                raise InputError(f"--max-worlds {mw:,} is over this server's cap of "
                                 f"{config.max_worlds:,} worlds per request (gongzhu-sim "
                                 "serve --max-worlds)")
        elif params.get("tables") is not None:
            unset_table_defaults(command, options, params)
            n, md = _n_tables(params), params["max_deals"]
            if n > 1 and md is not None and md * n > config.max_deals:
                raise InputError(f"--max-deals {md:,} for each of {n} tables is over this "
                                 f"server's cap of {config.max_deals:,} deals per request "
                                 f"(gongzhu-sim serve --max-deals): give "
                                 f"{config.max_deals // n:,} or less")
        check_search_work(command, params)

    def run(command: str, options: dict, progress) -> dict:
        options = vet_models(options, config.models)
        check(command, options)
        # the deal cap is the whole request's: with --tables, shared among the tables
        n = _n_tables(parse_options(command, options, NOT_FROM_THE_WEB)) \
            if command == "expose" else 1
        return command_json(command, options, refused=NOT_FROM_THE_WEB, progress=progress,
                            deal_cap=max(1, config.max_deals // n), jobs=1)

    def run_sync(command: str, options: dict, job: _SyncJob) -> dict | None:
        try:
            return run(command, options, job.progress)
        except KeyboardInterrupt:  # stopped by the time limit before any estimate
            return None

    from sim.web.play import PlayManager

    plays = PlayManager()

    def run_job(command: str, options: dict, progress) -> dict:
        if command == "review":  # the Play tab's review of a finished deal
            return plays.review(options, progress, config.max_worlds, _review_deals(config))
        return run(command, options, progress)

    jobs = JobManager(run_job, config.time_limit, config.page_timeout,
                      max_running=config.max_running)

    async def body_of(request: Request) -> dict:
        size = request.headers.get("content-length", "")
        if size.isdigit() and int(size) > MAX_BODY:
            raise TooLarge(f"the request body has {int(size):,} bytes, over this server's "
                           f"limit of {MAX_BODY:,}")
        raw = b""
        async for chunk in request.stream():  # a chunked body has no Content-Length
            raw += chunk
            if len(raw) > MAX_BODY:
                raise TooLarge(f"the request body is over this server's limit of "
                               f"{MAX_BODY:,} bytes")
        try:
            data = json.loads(raw or b"{}")
        except ValueError as exc:
            raise InputError(f"the request body is not JSON: {exc}") from None
        except RecursionError:  # [[[[…]]]]: valid JSON, nested deeper than the parser goes
            raise InputError("the request body is nested too deeply to be read") from None
        if not isinstance(data, dict):
            raise InputError("the request body must be a JSON object")
        return data

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def sync(request: Request) -> Response:
        command = request.url.path.rsplit("/", 1)[-1]
        try:
            options = vet_models(await body_of(request), config.models)
            job = _SyncJob(config.time_limit, jobs.stopping)
            with jobs.slot():
                data = await _unless_gone(request, job,
                                          run_in_threadpool(run_sync, command, options, job))
        except Busy as exc:
            return _error(str(exc), 429)
        except InputError as exc:
            return _error(str(exc), _status(exc))
        if data is None:
            return _error(f"stopped by the server's time limit of {config.time_limit:g} s "
                          "before any estimate", 503)
        if job.stopped_by:
            data["stopped_by"] = job.stopped_by
        return JSONResponse(data)

    async def start_job(request: Request) -> Response:
        try:
            body = await body_of(request)
            page, command = body.get("page"), body.get("command")
            options = vet_models(body.get("options", {}), config.models)
            if not isinstance(page, str) or not page or len(page) > 100:
                raise InputError("a job needs the page's id ('page': text)")
            if command not in ("expose", "advise"):
                raise InputError(f"unknown command {command!r}; valid: expose, advise")
            check(command, options)  # option errors and caps: now, as 400
        except InputError as exc:
            return _error(str(exc), _status(exc))
        try:
            job = jobs.start(page, command, options)
        except Busy as exc:
            return _error(str(exc), 429)
        return JSONResponse(job.view())

    def _job(request: Request):
        return jobs.get(request.path_params["job"], request.query_params.get("page", ""))

    async def poll(request: Request) -> Response:
        job = _job(request)
        if job is None:
            return _error("no such job for this page", 404)
        view = job.view()
        return JSONResponse(view, status_code=400 if view["state"] == "error" else 200)

    async def cancel(request: Request) -> Response:
        job = jobs.cancel(request.path_params["job"], request.query_params.get("page", ""))
        if job is None:
            return _error("no such job for this page", 404)
        return JSONResponse(job.view())

    async def page_gone(request: Request) -> Response:
        return JSONResponse({"cancelled": jobs.page_gone(request.path_params["page"])})

    async def position(request: Request) -> Response:
        from sim.web.position import check_position

        try:
            body = await body_of(request)
            return JSONResponse(await run_in_threadpool(check_position, body))
        except InputError as exc:
            return _error(str(exc), _status(exc))

    async def hand(request: Request) -> Response:
        """The paste box: any hand form the CLI accepts, parsed by the CLI's parser."""
        from sim.game.cards import CardError, card_str, parse_hand

        try:
            body = await body_of(request)
            decks, text = body.get("decks", 1), body.get("hand", "")
            if isinstance(decks, bool) or decks not in (1, 2):
                raise InputError(f"decks must be 1 or 2, got {decks!r}")
            if not isinstance(text, str):
                raise InputError(f"HAND must be text, got {text!r}")
            try:
                cards = parse_hand(text, decks=int(decks))
            except CardError as exc:
                raise InputError(f"HAND: {exc}") from None
        except InputError as exc:
            return _error(str(exc), _status(exc))
        return JSONResponse({"cards": [card_str(c) for c in cards]})

    def play_route(action: str):
        async def route(request: Request) -> Response:
            try:
                body = await body_of(request)
                with jobs.slot():  # the table's players compute: one of the analysis places
                    view = await run_in_threadpool(getattr(plays, action), body)
            except Busy as exc:
                return _error(str(exc), 429)
            except InputError as exc:
                return _error(str(exc), _status(exc))
            return JSONResponse(view)
        return route

    async def play_record(request: Request) -> Response:
        try:
            rec = plays.record(dict(request.query_params))
        except InputError as exc:
            return _error(str(exc), _status(exc))
        name = f"gongzhu-deal-{rec.get('seed', 'hands')}-{rec.get('deal', 'x')}.json"
        return Response(json.dumps(rec, ensure_ascii=False, indent=1) + "\n",
                        media_type="application/json",
                        headers={"content-disposition": f'attachment; filename="{name}"'})

    async def play_review(request: Request) -> Response:
        try:
            body = await body_of(request)
            page = body.get("page")
            # no such deal, not over, settings out of range or over the caps: 400 now
            plays.review_settings(body, config.max_worlds, _review_deals(config))
        except InputError as exc:
            return _error(str(exc), _status(exc))
        try:
            job = jobs.start(page, "review", body)
        except Busy as exc:
            return _error(str(exc), 429)
        return JSONResponse(job.view())

    async def meta(request: Request) -> Response:
        return JSONResponse(_meta(config))

    async def reports(request: Request) -> Response:
        if config.results is None:
            return JSONResponse({"results": None, "folders": []})
        return JSONResponse({"results": str(config.results),
                             "folders": list_reports(config.results)})

    async def report(request: Request) -> Response:
        if config.results is None:
            return _error("no --results folder was given to gongzhu-sim serve", 404)
        try:
            path = report_file(config.results, request.path_params["path"])
        except ReportError as exc:
            return _error(str(exc), exc.status)
        return FileResponse(path)

    routes = [
        Route("/", index),
        Route("/api/expose", sync, methods=["POST"]),
        Route("/api/advise", sync, methods=["POST"]),
        Route("/api/jobs", start_job, methods=["POST"]),
        Route("/api/jobs/{job}", poll),
        Route("/api/jobs/{job}/cancel", cancel, methods=["POST"]),
        Route("/api/pages/{page}/gone", page_gone, methods=["POST"]),
        Route("/api/position", position, methods=["POST"]),
        Route("/api/hand", hand, methods=["POST"]),
        Route("/api/meta", meta),
        Route("/api/play/new", play_route("new"), methods=["POST"]),
        Route("/api/play/expose", play_route("expose"), methods=["POST"]),
        Route("/api/play/card", play_route("play"), methods=["POST"]),
        Route("/api/play/record", play_record),
        Route("/api/play/review", play_review, methods=["POST"]),
        Route("/api/reports", reports),
        Route("/reports/{path:path}", report),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        jobs.close()  # server shutdown: every running job is cancelled

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: _http_error,
                                        Exception: _internal_error})
    app.state.jobs = jobs
    app.state.plays = plays
    app.state.config = config
    app.add_middleware(HostOriginCheck, config=config)
    app.add_middleware(SecurityHeaders)  # outermost: the 403s get the headers too
    return app


async def _unless_gone(request: Request, job: _SyncJob, work) -> Any:
    """Await ``work`` (a synchronous request's analysis); when the client hangs up first,
    stop it at its next batch (``job.gone``) instead of computing an answer nobody reads."""
    import asyncio

    task = asyncio.ensure_future(work)
    while not task.done():
        await asyncio.wait({task}, timeout=0.25)
        if not task.done() and await request.is_disconnected():
            job.gone = True
            break
    return await task


class _SyncJob:
    """The time limit of a synchronous request (the progress callback's part of it),
    ``gone``: the client hung up, ``stopping``: the server's stop event (Ctrl-C)."""

    def __init__(self, time_limit: float, stopping: Any = None) -> None:
        import time

        from sim.core import kernel_cache

        self.t0, self.time_limit, self.stopped_by = time.monotonic(), time_limit, None
        self.gone, self.stopping = False, stopping
        self.compile0 = kernel_cache.compile_seconds()  # the limit does not count a compile

    def progress(self, *args: Any) -> None:
        import time

        if self.gone:
            self.stopped_by = "the client went away"
            raise KeyboardInterrupt
        if self.stopping is not None and self.stopping.is_set():
            self.stopped_by = "the server is stopping"
            raise KeyboardInterrupt
        from sim.core import kernel_cache

        compiled = kernel_cache.compile_seconds() - self.compile0
        if time.monotonic() - self.t0 - compiled > self.time_limit:
            self.stopped_by = f"the server's time limit of {self.time_limit:g} s per request"
            raise KeyboardInterrupt


#: The most search work between two checks of the time limit and Cancel (which the analyses
#: see only between batches: expose's ``--batch`` deals, advise's 16 worlds), in deals (advise:
#: worlds) × the search worlds of every searching seat, a two-deck deal counted SEARCH_COST2
#: (45) times: the larger of each command's defaults with every seat searching — expose: one
#: deck 250 × 4 × 56 = 56,000 (a one-deck search of 56 worlds, top=2), two decks
#: 10 × 4 × 32 × 45 = 57,600 (about a second per exposure option on a core); advise: one deck
#: 16 × 4 × 56 = 3,584 (56 worlds), two decks 16 × 4 × 32 × 45 = 92,160 (each world plays
#: every legal card to the end).
MAX_SEARCH_WORK = {"expose": 57_600, "advise": 92_160}


def _review_deals(config: ServerConfig) -> int:
    """The most deals the Play tab's review plays for the exposure decision: the server's
    deal cap, at most 10 × the review's default (:data:`sim.web.play.REVIEW_DEALS`)."""
    from sim.web.play import REVIEW_DEALS

    return min(config.max_deals, 10 * REVIEW_DEALS)


def _n_tables(params: dict) -> int:
    """How many tables an expose request plays (``tables``; 1 without it or when the names
    cannot be read: the command then says why)."""
    from sim.analysis.exposure.tables import split_tables

    if params.get("tables") is None:
        return 1
    try:
        return len(split_tables(params["tables"]))
    except InputError:
        return 1


def check_search_work(command: str, params: dict) -> None:
    """Refuse (InputError) a request whose batch of search play is more than
    :data:`MAX_SEARCH_WORK`, so the server's time limit and Cancel take hold in seconds, not
    hours: ``params`` are the parsed CLI parameters of ``command`` (expose or advise).

    Expose with ``tables``: every table is checked (the tables play one after the other, each
    with its own batch): a table T plays T at every seat but the hand's, and at the hand's
    seat too unless ``params["player"]`` is given (not None), as ``--opponents T`` does; a
    table of a ``slow`` registry player gets search's smaller default batch, as the command.
    """
    from sim.analysis.exposure.costs import SEARCH_COST2, search_batch
    from sim.analysis.exposure.options import split_names
    from sim.commands.options import pop_rules
    from strategies.registry import PLAYER, PLAYERS, lookup, parse_player, parse_seats
    from strategies.search_entry import cost_worlds, for_variant

    def search_worlds(names: list[str]) -> tuple[int, bool]:
        """(search worlds per decision over the seats, whether a seat's player is slow)."""
        worlds, slow = 0, False
        for name in names:
            entry = lookup(PLAYER, str(name).split(":", 1)[0].strip())
            if entry is None or not entry.slow:
                continue
            slow = True
            choice = for_variant(parse_player(str(name), decks), rules)
            if choice.id == PLAYERS["search"]:
                worlds += cost_worlds(choice.params)  # adapt=k: about what it costs
        return worlds, slow

    try:
        rules = pop_rules(dict(params))
        decks = rules.decks
        if command == "expose":
            if params.get("tables") is None:
                names = [params["player"], *split_names(params["opponents"], "opponents")]
                names = names[:1] + names[1:] * (3 if len(names) == 2 else 1)
                seats = [(None, names)]
            else:
                from sim.analysis.exposure.tables import split_tables

                seats = [(t, [params["player"] or t, t, t, t])
                         for t in split_tables(params["tables"])]
        else:
            seats = [(None, parse_seats(params["players"], "players"))]
        work = [(t, *search_worlds(names)) for t, names in seats]
    except InputError:  # bad rules or names: the command says so, in its own words and order
        return
    for table, worlds, slow in work:
        if not worlds:
            continue
        per = worlds * (SEARCH_COST2 if decks == 2 else 1)
        if command == "expose":
            batch = search_batch(slow, decks, params["batch"] or None)
            what = f"a batch of {batch:,} deals"
        else:
            from sim.analysis.advise.compute import BATCH as batch

            what = f"{batch} worlds (advise's batch)"
        cap = MAX_SEARCH_WORK[command]
        if batch * per <= cap:
            continue
        most = cap // per
        fix = (f"give batch {most:,} or less" if command == "expose" and most >= 1 else
               "use fewer search worlds or seats, or the command line")
        where = f"table {table}: " if table is not None else ""
        raise InputError(f"{where}{what} with {worlds:,} search worlds per decision over the "
                         f"searching seats is more play than gongzhu-sim serve runs between "
                         f"two checks of its time limit and Cancel ({cap:,} deal-worlds"
                         f"{', a two-deck deal counting 45' if decks == 2 else ''}): {fix}")


def _meta(config: ServerConfig) -> dict:
    """The forms' choices: rule options (name, default, help, choices), players (and
    ``table_player``, the commands' default table), exposure policies and measures, and the
    server's caps."""
    from sim.commands.choices import TABLE_PLAYER
    from sim.game.measures import MEASURES
    from sim.game.rules import rule_option_specs
    from strategies.registry import EXPOSURE, PLAYER, strategies

    def names(kind):
        return [{"name": s.name, "decks": list(s.decks), "help": s.help, "slow": s.slow}
                for s in strategies(kind)]

    return {
        "rules": [{"name": n, "default": d, "help": h, "choices": list(c) if c else None,
                   "type": ("bool" if isinstance(d, bool) else "int" if isinstance(d, int)
                            else "float" if isinstance(d, float) else "text")}
                  for n, d, h, c in rule_option_specs()],
        "players": names(PLAYER),
        "table_player": TABLE_PLAYER,
        "exposures": names(EXPOSURE),
        "measures": list(MEASURES),
        "caps": {"max_deals": config.max_deals, "max_worlds": config.max_worlds,
                 "time_limit": config.time_limit},
        "results": config.results is not None,
    }

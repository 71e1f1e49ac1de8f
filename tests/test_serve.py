"""``gongzhu-sim serve`` (issue 27): the JSON API with Starlette's TestClient.

The API answers with the CLI's own analysis: the same options and seed give the same JSON as
``--format json``, and bad input the CLI's ``Error:`` line.  Small deal and world counts.
Skipped where the ``web`` extra (starlette, httpx) is not installed, except the test of the
message that says to install it.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.errors import InputError

SHEEP = "S:543 H:32 D:AKQJT98 C:2"
#: A hand with all four exposable cards: 16 options, so 200,000 deals take many seconds on any
#: machine and a test that stops a job (time limit, cancel, hang-up, page timeout) never races
#: the job's own end (the sheep hand's 2 options can finish within a second on a warm one).
LONG_JOB = "AKQ5.A93.J4.T863"
POSITION = {"hand": "KQ2.QJ.76.95", "seat": 3, "exposed": {"1": "HA,DJ"},
            "plays": "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3"}
POSITION_ARGS = ["KQ2.QJ.76.95", "--seat", "3", "--exposed", "1=HA,DJ", "--plays",
                 POSITION["plays"]]
BASE = "http://127.0.0.1:8765"


def _cli(*args):
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture()
def app_for():
    pytest.importorskip("starlette", reason="the web extra is not installed: "
                        "pip install -e '.[web]'")
    try:
        import httpx2  # noqa: F401 - Starlette >= 1.x's test client
    except ImportError:
        pytest.importorskip("httpx", reason="the web extra is not installed: "
                            "pip install -e '.[web]'")
    from starlette.testclient import TestClient

    from sim.web.app import ServerConfig, create_app

    clients = []

    def make(**kw):
        c = TestClient(create_app(ServerConfig(**kw)), base_url=BASE)
        clients.append(c)
        return c

    yield make
    for c in clients:
        c.app.state.jobs.close()
        c.close()


@pytest.fixture()
def client(app_for):
    return app_for()


# ---------------------------------------------------------------- the same numbers as the CLI


def test_expose_gives_the_cli_json_for_the_same_seed(client):
    opts = {"hand": SHEEP, "max_deals": 1500, "batch": 500, "precision": 0, "seed": 7,
            "options": "none;DJ"}
    r = client.post("/api/expose", json=opts)
    assert r.status_code == 200, r.text
    code, out, err = _cli("expose", SHEEP, "--max-deals", "1500", "--batch", "500",
                          "--precision", "0", "--seed", "7", "--options", "none;DJ",
                          "--format", "json", "--quiet", "--jobs", "2")
    assert code == 0, err
    cli = json.loads(out)
    assert r.json() == cli
    assert cli["runs"][0]["n"] == 1500 and cli["runs"][0]["recommended"] == "DJ"
    # another seed gives other numbers (the seed is really passed on)
    other = client.post("/api/expose", json={**opts, "seed": 8}).json()
    assert other["rows"][0]["ev"] != cli["rows"][0]["ev"]


def test_expose_options_by_flag_spelling_and_rule_flags(client):
    a = client.post("/api/expose", json={"hand": SHEEP, "--max-deals": 600, "batch": 300,
                                         "precision": 0, "variant": "partners",
                                         "auto-expose-fourth": False}).json()
    code, out, err = _cli("expose", SHEEP, "--max-deals", "600", "--batch", "300",
                          "--precision", "0", "--variant", "partners",
                          "--no-auto-expose-fourth", "--format", "json", "--quiet")
    assert code == 0, err
    assert a == json.loads(out)
    assert a["settings"]["rules"]["variant"] == "partners"
    assert a["settings"]["rules"]["auto_expose_fourth"] is False


def test_advise_gives_the_cli_json_for_the_same_seed(client):
    r = client.post("/api/advise", json={**POSITION, "max_worlds": 32, "seed": 5})
    assert r.status_code == 200, r.text
    code, out, err = _cli("advise", *POSITION_ARGS, "--max-worlds", "32", "--seed", "5",
                          "--format", "json")
    assert code == 0, err
    assert r.json() == json.loads(out)
    assert r.json()["recommended"] == "S2" and r.json()["worlds"] == 32


# ---------------------------------------------------------------- bad input: the CLI's Error: line


@pytest.mark.parametrize("command,opts,args", [
    ("expose", {"hand": "S:543 H:32"}, ["S:543 H:32"]),
    ("expose", {"hand": "S:543 H:32 D:AKQJT98 C:2X"}, ["S:543 H:32 D:AKQJT98 C:2X"]),
    ("expose", {"hand": SHEEP, "seat": 9}, [SHEEP, "--seat", "9"]),
    ("expose", {"hand": SHEEP, "options": "none;HK"}, [SHEEP, "--options", "none;HK"]),
    ("advise", {**POSITION, "plays": POSITION["plays"] + " SQ"}, None),
    ("advise", {**POSITION, "hand": "KQ2.QJ.76.9"}, None),
])
def test_bad_input_gets_the_cli_error_line(client, command, opts, args):
    r = client.post(f"/api/{command}", json=opts)
    assert r.status_code == 400
    msg = r.json()["error"]
    assert msg.startswith("Error: ") and "Traceback" not in msg
    if args is None:  # advise: the same options as command-line arguments
        args = [opts["hand"], "--seat", "3", "--exposed", "1=HA,DJ", "--plays", opts["plays"]]
    code, _, err = _cli(command, *args)
    assert code == 2
    assert msg in err.splitlines()


def test_an_illegal_play_is_refused_with_the_rule(client):
    # trick 3 (♦ led by seat 2): seat 3 holds ♦6 ♦7 ♦Q and must follow suit
    bad = {**POSITION, "plays": "C2 CA C8 CK C3 C6 C4 CQ D4 SK DT DA S9 S8",
           "hand": "Q42.QJ.Q76.95"}
    r = client.post("/api/advise", json=bad)
    assert r.status_code == 400
    assert r.json()["error"] == ("Error: --plays break a rule: trick 3: seat 3 may not play "
                                 "♠K: must follow suit: ♦ was led and the hand holds ♦6 ♦7 "
                                 "♦Q (RULES §4)")
    code, _, err = _cli("advise", bad["hand"], "--seat", "3", "--exposed", "1=HA,DJ",
                        "--plays", bad["plays"])
    assert code == 2 and r.json()["error"] in err.splitlines()
    # the position editor (hand as dealt, plays one by one) refuses it the same way
    ed = {"hand": "S:KQ42 H:QJ D:Q76 C:A953", "seat": 3, "first_leader": 2,
          "exposed": {"1": "HA,DJ"}}
    ok = client.post("/api/position", json={**ed, "plays": "C2 CA C8 CK C3 C6 C4 CQ D4"})
    assert ok.status_code == 200 and ok.json()["to_play"] == 3 and ok.json()["your_turn"]
    assert ok.json()["legal"] == ["D6", "D7", "DQ"]
    r = client.post("/api/position", json={**ed, "plays": "C2 CA C8 CK C3 C6 C4 CQ D4 SK"})
    assert r.status_code == 400
    assert "seat 3 may not play ♠K: must follow suit" in r.json()["error"]


def test_position_editor_shows_whose_turn_and_the_advise_options(client):
    ed = {"hand": "S:KQ42 H:QJ D:Q76 C:A953", "seat": 3, "first_leader": 2,
          "exposed": {"1": "HA,DJ"}}
    plays = POSITION["plays"].split()
    r = client.post("/api/position", json={**ed, "plays": " ".join(plays[:5])}).json()
    assert (r["to_play"], r["trick"], r["your_turn"]) == (0, 2, False)
    assert r["tricks"][0] == [{"seat": 2, "play": "C2"}, {"seat": 3, "play": "CA"},
                              {"seat": 0, "play": "C8"}, {"seat": 1, "play": "CK"}]
    r = client.post("/api/position", json={**ed, "plays": " ".join(plays)}).json()
    assert r["your_turn"] and r["legal"] == ["S2", "SQ", "SK"]
    # the advise options it gives are the README position: the same answer as the CLI
    j = client.post("/api/advise", json={**r["options"], "max_worlds": 32, "seed": 5}).json()
    code, out, _ = _cli("advise", *POSITION_ARGS, "--max-worlds", "32", "--seed", "5",
                        "--format", "json")
    assert j == json.loads(out)


def test_options_the_server_does_not_take_and_caps(app_for):
    client = app_for(max_deals=5000, max_worlds=100)
    for key, val in (("plot", "x.png"), ("hands_file", "/etc/passwd"), ("jobs", 2),
                     ("format", "text")):
        r = client.post("/api/expose", json={"hand": SHEEP, key: val})
        assert r.status_code == 400
        assert r.json()["error"] == (f"Error: option {key!r} is not available through "
                                     "gongzhu-sim serve")
    r = client.post("/api/expose", json={"hand": SHEEP, "max_deals": 6000})
    assert r.status_code == 400 and "cap of 5,000 deals" in r.json()["error"]
    r = client.post("/api/advise", json={**POSITION, "max_worlds": 101})
    assert r.status_code == 400 and "cap of 100 worlds" in r.json()["error"]
    r = client.post("/api/expose", json={"hand": SHEEP, "bogus": 1})
    assert r.json()["error"] == ("Error: unknown option 'bogus' for expose; see gongzhu-sim "
                                 "expose --help for its options")
    r = client.post("/api/expose", content=b"not json")
    assert r.status_code == 400 and r.json()["error"].startswith("Error: the request body")


def test_a_huge_body_and_unknown_routes_get_an_error_line(client):
    from sim.web.app import MAX_BODY

    big = {"hand": SHEEP, "known": ["1=SA"] * (MAX_BODY // 4)}
    for path in ("/api/expose", "/api/jobs", "/api/position", "/api/hand"):
        r = client.post(path, json=big)
        assert r.status_code == 413, path
        assert r.json()["error"].startswith("Error: the request body has ")

    def chunks():  # no Content-Length: the limit holds while reading
        for _ in range(MAX_BODY // 1000 + 2):
            yield b" " * 1000

    r = client.post("/api/expose", content=chunks())
    assert r.status_code == 413
    assert r.json()["error"] == (f"Error: the request body is over this server's limit of "
                                 f"{MAX_BODY:,} bytes")
    deep = b"[" * 30_000 + b"]" * 30_000  # under the size limit, over the parser's depth
    for path in ("/api/expose", "/api/jobs", "/api/position", "/api/hand"):
        r = client.post(path, content=deep)
        assert (r.status_code, r.json()["error"]) == (
            400, "Error: the request body is nested too deeply to be read"), path
    r = client.get("/api/expose")
    assert (r.status_code, r.json()["error"]) == (
        405, "Error: GET is not allowed on /api/expose")
    assert r.headers["allow"] == "POST"
    r = client.get("/api/nothing")
    assert (r.status_code, r.json()["error"]) == (
        404, "Error: no such page or API route: /api/nothing")
    assert client.get("/static/nothing.js").json()["error"].startswith("Error: no such page")


def test_search_play_between_two_time_checks_is_bounded(client):
    """The time limit and Cancel act between batches: a huge batch of search play (hours
    for one batch) is refused up front, the CLI's default search settings are not."""
    from sim.commands.api import NOT_FROM_THE_WEB, parse_options
    from sim.web.app import check_search_work

    heavy = {"hand": SHEEP, "player": "search:worlds=1024,adapt=0", "batch": 2000,
             "max_deals": 2000}
    want = ("Error: a batch of 2,000 deals with 1,024 search worlds per decision over the "
            "searching seats is more play than gongzhu-sim serve runs between two checks of "
            "its time limit and Cancel (57,600 deal-worlds): give batch 56 or less")
    r = client.post("/api/expose", json=heavy)
    assert (r.status_code, r.json()["error"]) == (400, want)
    r = client.post("/api/jobs", json={"page": "p", "command": "expose", "options": heavy})
    assert (r.status_code, r.json()["error"]) == (400, want)
    assert not client.app.state.jobs.running()
    # the CLI's default batch with search:worlds=1024,adapt=0 is refused too; batch 56 is not
    r = client.post("/api/jobs", json={"page": "p", "command": "expose", "options": {
        "hand": SHEEP, "player": "search:worlds=1024,adapt=0"}})
    assert r.status_code == 400 and "a batch of 250 deals" in r.json()["error"]
    two = SHEEP + " " + SHEEP
    r = client.post("/api/advise", json={"hand": two, "decks": 2, "seat": 0,
                                         "players": "search:worlds=64"})
    assert r.status_code == 400 and r.json()["error"] == (
        "Error: 16 worlds (advise's batch) with 256 search worlds per decision over the "
        "searching seats is more play than gongzhu-sim serve runs between two checks of its "
        "time limit and Cancel (92,160 deal-worlds, a two-deck deal counting 45): use fewer "
        "search worlds or seats, or the command line")
    for command, opts in (
            ("expose", {"hand": SHEEP, "player": "search:worlds=1024,adapt=0", "batch": 56}),
            ("expose", {"hand": SHEEP, "player": "search", "opponents": "search"}),
            ("expose", {"hand": two, "decks": 2, "player": "search", "opponents": "search"}),
            ("advise", {**POSITION, "players": "search"}),
            ("advise", {"hand": two, "decks": 2, "seat": 0, "players": "search"})):
        check_search_work(command, parse_options(command, opts, NOT_FROM_THE_WEB))
    with pytest.raises(InputError, match="give batch 10 or less"):
        check_search_work("expose", parse_options("expose", {
            "hand": two, "decks": 2, "player": "search", "opponents": "search", "batch": 11}))


def test_expose_tables_gives_the_cli_json_for_the_same_seed(app_for):
    """``tables`` (the page's "compare tables"): the CLI's --tables JSON, by_table and
    verdict included; the job API gives the same."""
    client = app_for(time_limit=3600.0)  # a cold numba cache compiles for minutes
    opts = {"hand": SHEEP, "tables": "heuristic,lowest", "max_deals": 400, "batch": 200,
            "precision": 0, "seed": 3, "options": "none;DJ"}
    r = client.post("/api/expose", json=opts)
    assert r.status_code == 200, r.text
    code, out, err = _cli("expose", SHEEP, "--tables", "heuristic,lowest", "--max-deals",
                          "400", "--batch", "200", "--precision", "0", "--seed", "3",
                          "--options", "none;DJ", "--format", "json", "--quiet")
    assert code == 0, err
    cli = json.loads(out)
    assert r.json() == cli
    assert cli["settings"]["tables"] == ["heuristic", "lowest"]
    dj = next(row for row in cli["rows"] if row["option"] == "DJ")
    assert set(dj["by_table"]) == {"heuristic", "lowest"}
    assert dj["by_table"]["lowest"]["n"] == 400
    assert dj["verdict"] in ("robust", "depends", "undecided")
    v = client.post("/api/jobs", json={"page": "t", "command": "expose",
                                       "options": opts}).json()
    assert _wait(client, v["job"], "t").json()["result"] == cli


def test_expose_tables_errors_and_caps(app_for):
    client = app_for(max_deals=1000, time_limit=3600.0)
    code, out, err = _cli("expose", SHEEP, "--tables", "heuristic,nosuch", "--quiet")
    assert code == 2 and err.startswith("Error: --tables nosuch: ")
    r = client.post("/api/expose", json={"hand": SHEEP, "tables": "heuristic,nosuch"})
    assert (r.status_code, r.json()["error"]) == (400, err.strip())
    # the deal cap is the whole request's: 600 deals for each of 2 tables is over 1,000
    r = client.post("/api/expose", json={"hand": SHEEP, "tables": "heuristic,lowest",
                                         "max_deals": 600})
    assert (r.status_code, r.json()["error"]) == (
        400, "Error: --max-deals 600 for each of 2 tables is over this server's cap of "
        "1,000 deals per request (gongzhu-sim serve --max-deals): give 500 or less")
    # without max_deals each table gets its share of the cap
    r = client.post("/api/expose", json={"hand": SHEEP, "tables": "heuristic,lowest",
                                         "precision": 0, "batch": 250, "options": "none;DJ"})
    assert r.status_code == 200, r.text
    row = r.json()["rows"][0]
    assert [row["by_table"][t]["n"] for t in ("heuristic", "lowest")] == [500, 500]


def test_search_work_counts_every_table(client):
    """A search table plays search at the three other seats (and the hand's, unless
    player is given): its batch is bounded as with --opponents search."""
    from sim.commands.api import NOT_FROM_THE_WEB, parse_options, unset_table_defaults
    from sim.web.app import check_search_work

    heavy = {"hand": SHEEP, "tables": "heuristic,search:worlds=64,adapt=0"}
    want = ("Error: table search:worlds=64,adapt=0: a batch of 250 deals with 256 search "
            "worlds per decision over the searching seats is more play than gongzhu-sim serve runs "
            "between two checks of its time limit and Cancel (57,600 deal-worlds): give "
            "batch 225 or less")
    r = client.post("/api/expose", json=heavy)
    assert (r.status_code, r.json()["error"]) == (400, want)
    r = client.post("/api/jobs", json={"page": "p", "command": "expose", "options": heavy})
    assert (r.status_code, r.json()["error"]) == (400, want)
    assert not client.app.state.jobs.running()
    # the hero's own player given: three searching seats, 192 worlds: the default batch fits
    ok = {**heavy, "player": "heuristic"}
    params = unset_table_defaults("expose", ok, parse_options("expose", ok, NOT_FROM_THE_WEB))
    check_search_work("expose", params)
    # the default search table (adaptive worlds, about 56 × 4 seats) fits; a heuristic
    # table with an explicit batch of search-free play is not search work at all
    for opts in ({"hand": SHEEP, "tables": "heuristic,search"},
                 {"hand": SHEEP, "tables": "heuristic,lowest", "batch": 100_000}):
        params = unset_table_defaults("expose", opts,
                                      parse_options("expose", opts, NOT_FROM_THE_WEB))
        check_search_work("expose", params)
    with pytest.raises(InputError, match="table search: a batch of 500 deals"):
        opts = {"hand": SHEEP, "tables": "lowest,search", "batch": 500}
        check_search_work("expose", unset_table_defaults(
            "expose", opts, parse_options("expose", opts, NOT_FROM_THE_WEB)))


def test_values_of_the_wrong_kind_are_named(client):
    """A list or null where text belongs is refused as such, not parsed as "['SA']"."""
    r = client.post("/api/expose", json={"hand": SHEEP, "known": {"1": ["SA"]}})
    assert r.json()["error"] == "Error: option 'known.1': expected a number or text, got ['SA']"
    for hand in (["SA", "SK"], None, {"a": 1}):
        want = (400, f"Error: HAND must be text, got {hand!r}")
        r = client.post("/api/hand", json={"hand": hand})
        assert (r.status_code, r.json()["error"]) == want
        r = client.post("/api/position", json={"hand": hand, "seat": 0, "first_leader": 0})
        assert (r.status_code, r.json()["error"]) == want
    r = client.post("/api/hand", json={"hand": SHEEP, "decks": True})
    assert (r.status_code, r.json()["error"]) == (400, "Error: decks must be 1 or 2, got True")
    assert client.post("/api/hand", json={"hand": SHEEP, "decks": 1}).json()["cards"][0] == "S3"


def test_a_ci_that_does_not_exist_yet_is_null_not_a_500(client):
    """One world: no CI (the CLI prints NaN); JSON has no NaN, so the API says null."""
    r = client.post("/api/advise", json={**POSITION, "max_worlds": 1})
    assert r.status_code == 200, r.text
    cards = r.json()["cards"]
    assert r.json()["worlds"] == 1 and len(cards) == 3
    assert all(c["ci_low"] is None and c["delta_ci_high"] is None and c["n"] == 1
               for c in cards)
    assert all(isinstance(c["ev"], float) for c in cards)
    v = client.post("/api/jobs", json={"page": "p", "command": "advise",
                                       "options": {**POSITION, "max_worlds": 1}}).json()
    done = _wait(client, v["job"], "p")
    assert done.status_code == 200 and done.json()["result"] == r.json()


def test_a_bug_is_one_error_line_not_a_bare_500(app_for, monkeypatch):
    from starlette.testclient import TestClient

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("sim.web.app.command_json", broken)
    client = app_for()
    quiet = TestClient(client.app, base_url=BASE, raise_server_exceptions=False)
    r = quiet.post("/api/expose", json={"hand": SHEEP})
    assert (r.status_code, r.json()) == (500, {"error": "Error: internal error: RuntimeError: "
                                                        "boom"})
    v = client.post("/api/jobs", json={"page": "p", "command": "expose",
                                       "options": {"hand": SHEEP}}).json()
    r = _wait(client, v["job"], "p")
    assert r.json()["error"] == "Error: internal error: RuntimeError: boom"


def test_time_limit_stops_with_the_estimate_so_far(app_for):
    client = app_for(time_limit=1.0)
    r = client.post("/api/expose", json={"hand": LONG_JOB, "max_deals": 200_000, "batch": 200,
                                         "precision": 0})
    assert r.status_code == 200
    j = r.json()
    assert j["runs"][0]["stop"] == "interrupted" and 0 < j["runs"][0]["n"] < 200_000
    assert j["stopped_by"] == "the server's time limit of 1 s per request"


def test_a_client_that_hangs_up_stops_its_synchronous_run(client):
    """curl interrupted: the analysis stops at its next batch, its slot is free again."""
    import anyio

    body = json.dumps({"hand": LONG_JOB, "max_deals": 200_000, "batch": 200,
                       "precision": 0}).encode()
    sent: list[dict] = []
    state = {"read": 0.0}

    async def receive():  # as uvicorn's: the disconnect once the client hung up, else wait
        if not state["read"]:
            state["read"] = time.monotonic()
            return {"type": "http.request", "body": body, "more_body": False}
        if time.monotonic() - state["read"] < 0.5:  # the client hangs up half a second in
            await anyio.sleep(0.5 - (time.monotonic() - state["read"]))
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/api/expose", "raw_path":
             b"/api/expose", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"127.0.0.1:8765"), (b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode())],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 8765)}

    async def call():
        with anyio.fail_after(60):
            await client.app(scope, receive, send)

    client.get("/api/meta")  # the app's lifespan has started
    anyio.run(call)
    j = json.loads(b"".join(m.get("body", b"") for m in sent if m["type"] ==
                            "http.response.body"))
    assert j["stopped_by"] == "the client went away"
    assert j["runs"][0]["stop"] == "interrupted" and 0 < j["runs"][0]["n"] < 200_000
    assert not client.app.state.jobs._sync


# ---------------------------------------------------------------- Host / Origin


def test_foreign_host_or_origin_is_refused(client):
    r = client.get("/api/meta", headers={"Host": "evil.example:8765"})
    assert r.status_code == 403
    assert r.json()["error"].startswith("Error: request refused: Host 'evil.example:8765'")
    r = client.post("/api/expose", json={"hand": SHEEP},
                    headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and "Origin 'http://evil.example'" in r.json()["error"]
    # a page on another port of this machine is another origin
    r = client.post("/api/jobs", json={}, headers={"Origin": "http://127.0.0.1:9999"})
    assert r.status_code == 403
    # DNS rebinding: the right port under a foreign name
    assert client.get("/", headers={"Host": "attacker.example:8765"}).status_code == 403
    # the server's own origin is fine
    r = client.get("/api/meta", headers={"Origin": BASE})
    assert r.status_code == 200 and r.json()["caps"]["max_deals"] == 200_000
    assert client.get("/", headers={"Host": "localhost:8765"}).status_code == 200


def test_a_foreign_origin_among_several_is_refused(client):
    """Duplicate headers: the check must not look at the last value only."""
    for name, values in (("origin", ["http://evil.example", BASE]),
                         ("origin", [BASE, "null"]),
                         ("host", ["127.0.0.1:8765", "evil.example:8765"])):
        headers = [(name.encode(), v.encode()) for v in values]
        if name != "host":
            headers.append((b"host", b"127.0.0.1:8765"))
        r = client.get("/api/meta", headers=headers)
        assert r.status_code == 403, (name, values)
        assert r.json()["error"].startswith("Error: request refused: ")


# ---------------------------------------------------------------- jobs


def _wait(client, job, page, limit=120.0):
    t0 = time.monotonic()
    while True:
        v = client.get(f"/api/jobs/{job}?page={page}")
        if v.json()["state"] != "running" or time.monotonic() - t0 > limit:
            return v
        time.sleep(0.05)


def test_a_job_gives_the_same_result_as_the_sync_api(client):
    opts = {"hand": SHEEP, "max_deals": 1200, "batch": 200, "precision": 0, "seed": 2}
    v = client.post("/api/jobs", json={"page": "p1", "command": "expose", "options": opts})
    assert v.status_code == 200 and v.json()["state"] == "running"
    done = _wait(client, v.json()["job"], "p1")
    assert done.status_code == 200 and done.json()["state"] == "done"
    assert done.json()["result"] == client.post("/api/expose", json=opts).json()
    # another page cannot see it
    assert client.get(f"/api/jobs/{v.json()['job']}?page=p2").status_code == 404


def test_partial_estimates_grow_batch_by_batch_and_end_in_the_final_one():
    """The page's table fills in from these snapshots (analyse_exposure's ``partial``,
    advise's ``progress``): n grows by the batch, marked running; the last one is the
    final estimate."""
    from sim.analysis.exposure.format import to_json as expose_json
    from sim.commands.api import command_json

    snaps = []
    final = command_json("expose", {"hand": SHEEP, "max_deals": 1000, "batch": 250,
                                    "precision": 0, "seed": 4},
                         progress=lambda snap: snaps.append(expose_json([snap()])))
    assert [s["runs"][0]["n"] for s in snaps] == [250, 500, 750, 1000]
    assert {s["runs"][0]["stop"] for s in snaps} == {"running"}
    def strip(rows):
        return [{k: v for k, v in r.items() if k != "stop"} for r in rows]

    assert strip(snaps[-1]["rows"]) == strip(final["rows"])
    assert final["runs"][0]["stop"] == "max_deals"
    assert snaps[0]["runs"][0]["stop_text"].startswith("Running: 250 deals so far")

    from sim.analysis.advise.format import to_json as advise_json

    seen = []
    final = command_json("advise", {**POSITION, "max_worlds": 48},
                         progress=lambda w, cap, snap: seen.append((w, cap,
                                                                    advise_json(snap()))))
    assert [(w, cap) for w, cap, _ in seen] == [(16, 48), (32, 48), (48, 48)]
    assert seen[0][2]["stopped"] == "running" and seen[0][2]["worlds"] == 16
    assert seen[-1][2]["cards"] == final["cards"]


def test_cancel_and_one_job_per_page(client):
    opts = {"hand": LONG_JOB, "max_deals": 200_000, "batch": 200, "precision": 0}
    a = client.post("/api/jobs", json={"page": "pa", "command": "expose", "options": opts})
    b = client.post("/api/jobs", json={"page": "pa", "command": "expose", "options": opts})
    ja, jb = a.json()["job"], b.json()["job"]
    va = _wait(client, ja, "pa").json()  # the page's first job is cancelled by its second
    assert va["state"] in ("done", "cancelled") and va["stopped_by"] == "cancelled"
    time.sleep(0.3)
    c = client.post(f"/api/jobs/{jb}/cancel?page=pa")
    assert c.status_code == 200
    vb = _wait(client, jb, "pa").json()
    assert vb["stopped_by"] == "cancelled"
    if vb["state"] == "done":  # an estimate existed: the partial one, marked interrupted
        assert vb["result"]["runs"][0]["stop"] == "interrupted"


def test_a_page_that_goes_away_has_its_job_cancelled(client):
    opts = {"hand": LONG_JOB, "max_deals": 200_000, "batch": 200, "precision": 0}
    j = client.post("/api/jobs", json={"page": "gone", "command": "expose",
                                       "options": opts}).json()["job"]
    assert client.post("/api/pages/gone/gone").json() == {"cancelled": 1}
    jobs = client.app.state.jobs
    t0 = time.monotonic()
    while jobs.running() and time.monotonic() - t0 < 60:
        time.sleep(0.05)
    assert not jobs.running()
    assert jobs._jobs[j].stopped_by == "cancelled"


def test_a_page_that_stops_polling_has_its_job_cancelled(app_for):
    client = app_for(page_timeout=0.5)
    # 16 options (♠Q ♦J ♣10 ♥A held) × 200,000 deals: far more than the reaper's first
    # look (≤ 1 s plus the timeout) on any machine; the sheep hand's 2 options could finish
    # first on a fast, warm one (the job then ended "done", stopped by nobody)
    opts = {"hand": LONG_JOB, "max_deals": 200_000, "batch": 200, "precision": 0}
    j = client.post("/api/jobs", json={"page": "quiet", "command": "expose",
                                       "options": opts}).json()["job"]
    jobs = client.app.state.jobs
    t0 = time.monotonic()
    while jobs.running() and time.monotonic() - t0 < 60:
        time.sleep(0.1)
    assert not jobs.running()
    job = jobs._jobs[j]
    assert "stopped asking" in (job.stopped_by or ""), (job.state, job.error, job.stopped_by)


def test_a_job_with_bad_options_is_refused_at_once(client):
    r = client.post("/api/jobs", json={"page": "p", "command": "expose",
                                       "options": {"hand": SHEEP, "seat": 5}})
    assert r.status_code == 400
    assert r.json()["error"] == ("Error: Invalid value for '--seat': 5 is not in the range "
                                 "0<=x<=3.")
    # a bad hand is found by the analysis: the poll says so, with 400
    v = client.post("/api/jobs", json={"page": "p", "command": "expose",
                                       "options": {"hand": "S:543"}}).json()
    r = _wait(client, v["job"], "p")
    assert r.status_code == 400
    assert r.json()["error"] == "Error: hand 'S:543' has 3 cards, expected 13"


def test_running_analyses_have_a_global_bound(app_for):
    """Page ids are the client's choice: one id per job must not start unbounded threads."""
    client = app_for(max_running=2)
    jobs = client.app.state.jobs
    release = threading.Event()

    def stuck(command, options, progress):  # an analysis that ignores its cancel flag
        release.wait(30)
        raise KeyboardInterrupt

    jobs._run = stuck
    start = {"command": "expose", "options": {"hand": SHEEP}}
    try:
        for page in ("p1", "p2"):
            assert client.post("/api/jobs", json={"page": page, **start}).status_code == 200
        busy = ("Error: the server is busy: 2 analyses are running, its most at once "
                "(gongzhu-sim serve --max-running); try again when one has ended")
        r = client.post("/api/jobs", json={"page": "p3", **start})
        assert (r.status_code, r.json()["error"]) == (429, busy)
        # restarting on the same page while its cancelled job has not stopped yet: still 2
        assert client.post("/api/jobs", json={"page": "p1", **start}).status_code == 429
        r = client.post("/api/expose", json={"hand": SHEEP, "max_deals": 100})
        assert (r.status_code, r.json()["error"]) == (429, busy)
        assert len(jobs.running()) == 2
    finally:
        release.set()
    t0 = time.monotonic()
    while jobs.running() and time.monotonic() - t0 < 10:
        time.sleep(0.02)
    assert client.post("/api/jobs", json={"page": "p3", **start}).status_code == 200


def test_a_cancelled_job_keeps_its_reason_while_it_winds_down():
    """The reaper must not relabel a job cancelled by its page as 'stopped asking'."""
    from sim.web.jobs import JobManager

    release = threading.Event()

    def slow(command, options, progress):
        release.wait(10)
        progress(lambda: None)  # the next batch: raises KeyboardInterrupt, cancelled
        return {"n": 1}

    jobs = JobManager(slow, 60.0, page_timeout=0.1)
    try:
        job = jobs.start("p", "expose", {})
        assert jobs.page_gone("p") == 1
        time.sleep(1.5)  # the reaper (every second) sees a page that stopped polling
        release.set()
        t0 = time.monotonic()
        while job.state == "running" and time.monotonic() - t0 < 10:
            time.sleep(0.01)
        assert (job.state, job.stopped_by) == ("cancelled", None)
    finally:
        release.set()
        jobs.close()


def test_finished_jobs_and_their_pages_are_not_kept_without_bound():
    """A client starting job after job under new page ids must not grow the server."""
    from sim.web.jobs import JobManager

    jobs = JobManager(lambda command, options, progress: {"n": 1}, 60.0, max_kept=3)
    try:
        for i in range(10):
            job = jobs.start(f"page-{i}", "expose", {})
            t0 = time.monotonic()
            while job.state == "running" and time.monotonic() - t0 < 10:
                time.sleep(0.005)
        jobs.start("last", "expose", {})
        assert len(jobs._jobs) <= 4
        assert set(jobs._seen) <= {j.page for j in jobs._jobs.values()}
        assert jobs.get(job.id, "page-9") is not None  # the most recent ones are kept
        assert jobs.get("1-x", "page-0") is None
    finally:
        jobs.close()


# ---------------------------------------------------------------- reports


def _results(tmp_path):
    root = tmp_path / "results"
    run = root / "gongzhu-results-1"
    run.mkdir(parents=True)
    (run / "manifest.json").write_text(json.dumps({"kind": "study", "status": "done",
                                                   "started": "2026-12-01T10:00:00"}))
    (run / "report.html").write_text("<html>the report</html>")
    tune = root / "nested" / "my-tune"
    tune.mkdir(parents=True)
    (tune / "tune.json").write_text("{}")
    (root / "empty").mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("do not serve")
    return root, secret


def test_reports_lists_folders_and_serves_their_files(app_for, tmp_path):
    root, _ = _results(tmp_path)
    client = app_for(results=root)
    folders = client.get("/api/reports").json()["folders"]
    assert [(f["path"], f["kind"], f["report"]) for f in folders] == [
        ("gongzhu-results-1", "study", "gongzhu-results-1/report.html"),
        ("nested/my-tune", "tune", None)]
    r = client.get("/reports/gongzhu-results-1/report.html")
    assert r.status_code == 200 and r.text == "<html>the report</html>"
    assert client.get("/reports/gongzhu-results-1/nothing.html").status_code == 404


def test_only_files_of_results_folders_are_served(app_for, tmp_path):
    """--results may be a home folder: its other files are not the page's to serve."""
    root, _ = _results(tmp_path)
    (root / "private.txt").write_text("not a report")
    (root / "empty" / "notes.html").write_text("not a report either")
    (root / "nested" / "my-tune" / "figs").mkdir()
    (root / "nested" / "my-tune" / "figs" / "a.png").write_bytes(b"png")
    client = app_for(results=root)
    for p in ("private.txt", "empty/notes.html"):
        r = client.get(f"/reports/{p}")
        assert r.status_code == 403 and "not a report" not in r.text
        assert r.json()["error"] == (f"Error: report path {p!r} refused: not inside a run, "
                                     "study or tune folder under --results")
    assert client.get("/reports/nested/my-tune/figs/a.png").content == b"png"
    assert client.get("/reports/nested/my-tune/tune.json").status_code == 200


@pytest.mark.parametrize("path", ["%2E%2E/secret.txt", "gongzhu-results-1/%2E%2E/%2E%2E/secret.txt",
                                  "..%2Fsecret.txt", "gongzhu-results-1/%2E/report.html"])
def test_a_dotdot_report_path_is_refused(app_for, tmp_path, path):
    root, _ = _results(tmp_path)
    client = app_for(results=root)
    r = client.get(f"/reports/{path}")
    assert r.status_code == 400
    assert "'..', '.' and hidden names are not allowed" in r.json()["error"]
    assert "do not serve" not in r.text


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks here")
def test_a_symlink_out_of_results_is_neither_listed_nor_served(app_for, tmp_path):
    root, secret = _results(tmp_path)
    (root / "link.txt").symlink_to(secret)
    outside = tmp_path / "outside-run"
    outside.mkdir()
    (outside / "manifest.json").write_text("{}")
    (outside / "report.html").write_text("outside")
    (root / "linked-run").symlink_to(outside, target_is_directory=True)
    client = app_for(results=root)
    assert "linked-run" not in [f["path"] for f in client.get("/api/reports").json()["folders"]]
    for p in ("link.txt", "linked-run/report.html"):
        r = client.get(f"/reports/{p}")
        assert r.status_code == 403 and "is a symlink" in r.json()["error"]


def test_the_page_cannot_be_framed_or_load_from_elsewhere_and_reports_are_sandboxed(
        app_for, tmp_path):
    root, _ = _results(tmp_path)
    (root / "gongzhu-results-1" / "report.html").write_text(
        "<script>fetch('/api/jobs', {method: 'POST'})</script>")  # results from elsewhere
    client = app_for(results=root)
    for path in ("/", "/static/app.js", "/api/meta"):
        h = client.get(path).headers
        assert h["content-security-policy"].startswith("default-src 'self'; "
                                                       "frame-ancestors 'none'"), path
        assert h["x-frame-options"] == "DENY" and h["x-content-type-options"] == "nosniff"
    r = client.get("/reports/gongzhu-results-1/report.html")
    assert r.status_code == 200
    assert r.headers["content-security-policy"].startswith("sandbox; default-src 'none'")
    r = client.get("/", headers={"Host": "evil.example:8765"})
    assert r.status_code == 403 and r.headers["x-frame-options"] == "DENY"


# ---------------------------------------------------------------- the page itself


def test_the_page_and_its_modules_are_served_and_fetch_nothing_outside(client):
    html = client.get("/").text
    assert "Should I expose?" in html and "What should I play?" in html
    for f in ("app.js", "api.js", "cards.js", "style.css"):
        r = client.get(f"/static/{f}")
        assert r.status_code == 200
        assert "http://" not in r.text and "https://" not in r.text, f
    assert "http://" not in html and "https://" not in html
    r = client.post("/api/hand", json={"hand": "543.32.AKQJT98.2"})
    assert r.json()["cards"] == ["S3", "S4", "S5", "H2", "H3", "D8", "D9", "DT", "DJ", "DQ",
                                 "DK", "DA", "C2"]
    r = client.post("/api/hand", json={"hand": "S:5X"})
    assert r.status_code == 400 and r.json()["error"].startswith("Error: HAND: ")


# ---------------------------------------------------------------- the command


def test_serve_without_the_web_extra_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn → ImportError
    code, out, err = _cli("serve")
    assert code == 2
    assert err.strip().splitlines() == [
        "Error: gongzhu-sim serve needs the web extra (uvicorn is missing): "
        "pip install -e '.[web]'"]


def _serve(monkeypatch, *args, check=True):
    """``gongzhu-sim serve ARGS`` with uvicorn's Server.run replaced: (exit code, stderr,
    what the server was given: app, host, port, and the server)."""
    uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed: "
                                  "pip install -e '.[web]'")
    got = {}

    def run(server):
        c = server.config
        got.update(app=c.app, host=c.host, port=c.port, server=server)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    if check:
        monkeypatch.setattr("sim.web.serve.check_listen", lambda host, port: None)
    code, _, err = _cli("serve", *args)
    return code, err, got


def test_ctrl_c_stops_the_running_analyses_first(monkeypatch, client):
    """uvicorn drains requests in flight before it stops: they must end at their next batch
    (a synchronous run, else up to --time-limit), and the jobs are cancelled."""
    import signal

    code, err, got = _serve(monkeypatch)
    assert code == 0, err
    jobs = got["app"].state.jobs
    assert not jobs.stopping.is_set()
    got["server"].handle_exit(signal.SIGINT, None)
    assert jobs.stopping.is_set() and got["server"].should_exit
    # a synchronous run sees it at its next batch
    client.app.state.jobs.close()
    r = client.post("/api/expose", json={"hand": LONG_JOB, "max_deals": 200_000, "batch": 200,
                                         "precision": 0})
    assert r.status_code == 200 and r.json()["stopped_by"] == "the server is stopping"
    assert r.json()["runs"][0]["stop"] == "interrupted" and r.json()["runs"][0]["n"] == 200


def test_serve_stopped_by_a_signal_says_server_stopped(monkeypatch):
    """uvicorn raises SIGINT/SIGTERM again after its shutdown (a KeyboardInterrupt here):
    the server says it stopped, not that an analysis had nothing to show."""
    uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed: "
                                  "pip install -e '.[web]'")

    def run(server):
        raise KeyboardInterrupt

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr("sim.web.serve.check_listen", lambda host, port: None)
    code, out, err = _cli("serve")
    assert code == 0
    assert err.strip().splitlines()[-1] == "gongzhu-sim serve: server stopped"
    assert "Interrupted before" not in err


def test_serve_on_a_port_in_use_says_so_in_one_line(monkeypatch):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code, err, got = _serve(monkeypatch, "--port", str(port), check=False)
    assert code == 2 and not got
    assert err == f"Error: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    code, err, got = _serve(monkeypatch, "--host", "no-such-host.invalid", check=False)
    assert code == 2 and not got and err.startswith(
        "Error: cannot listen on no-such-host.invalid:8765: ") and "warning" not in err


def test_serve_listens_on_loopback_by_default(monkeypatch):
    code, err, got = _serve(monkeypatch)
    assert code == 0, err
    assert (got["host"], got["port"]) == ("127.0.0.1", 8765)
    assert "warning" not in err and "open http://127.0.0.1:8765/" in err
    assert got["app"].state.config.hosts() == {"127.0.0.1:8765", "localhost:8765",
                                               "[::1]:8765"}


def test_serve_on_another_host_warns_who_can_reach_it(monkeypatch):
    code, err, got = _serve(monkeypatch, "--host", "0.0.0.0", "--port", "9000")
    assert code == 0, err
    assert got["host"] == "0.0.0.0"
    assert err.splitlines()[0].startswith("warning: --host 0.0.0.0: anyone who can reach "
                                          "this machine on port 9000 can use this page")
    assert "localhost:9000" in got["app"].state.config.hosts()


def test_serve_refuses_a_missing_results_folder(monkeypatch, tmp_path):
    code, err, got = _serve(monkeypatch, "--results", str(tmp_path / "nope"))
    assert code == 2 and not got
    assert err.strip().startswith("Error: Invalid value for '--results'")


# ---------------------------------------------------------------- learned:model=PATH (--models)


def _model_error(client, spec):
    r = client.post("/api/expose", json={"hand": SHEEP, "player": spec, "max_deals": 100,
                                         "options": "none;DJ"})
    assert r.status_code == 400, r.text
    return r.json()["error"]


def test_model_outside_the_models_folder_is_refused_alike_whether_it_exists(app_for, tmp_path):
    # issue 37 friction 5: "learned:model=PATH accepts any path from the page — a FIFO blocks
    # every analysis slot until written to, and the error tells whether a file exists"
    from strategies.model import default_model_path

    models = tmp_path / "models"
    models.mkdir()
    outside = tmp_path / "elsewhere.npz"
    outside.write_bytes(default_model_path(1).read_bytes())
    for client in (app_for(), app_for(models=models.resolve())):
        there = _model_error(client, f"learned:model={outside}")
        missing = _model_error(client, f"learned:model={tmp_path / 'nothing.npz'}")
        assert there.replace(str(outside), "P") == missing.replace(
            str(tmp_path / "nothing.npz"), "P")
        assert "not found" not in there and "exist" not in there
        up = _model_error(client, "learned:model=../elsewhere.npz")
        assert up.replace("../elsewhere.npz", "P") == there.replace(str(outside), "P")
    assert "--models DIR" in _model_error(app_for(), f"learned:model={outside}")


def test_model_fifo_and_symlink_under_the_models_folder_are_refused(app_for, tmp_path):
    from strategies.model import default_model_path

    models = (tmp_path / "models").resolve()
    models.mkdir()
    os.mkfifo(models / "pipe.npz")
    (models / "link.npz").symlink_to(default_model_path(1))
    client = app_for(models=models)
    t0 = time.monotonic()
    err = _model_error(client, "learned:model=pipe.npz")
    assert "not a regular file" in err
    assert time.monotonic() - t0 < 60  # answered, not blocked on the FIFO (generous bound)
    assert "symlink" in _model_error(client, "learned:model=link.npz")
    # in a job too, and in a list of seats
    r = client.post("/api/jobs", json={"page": "p1", "command": "expose", "options": {
        "hand": SHEEP, "opponents": f"heuristic,learned:model={models / 'pipe.npz'},heuristic",
        "max_deals": 100}})
    assert r.status_code == 400 and "not a regular file" in r.json()["error"]


def test_model_under_the_models_folder_and_shipped_models_play(app_for, tmp_path):
    from strategies.model import default_model_path

    models = (tmp_path / "models").resolve()
    (models / "sub").mkdir(parents=True)
    (models / "sub" / "mine.npz").write_bytes(default_model_path(1).read_bytes())
    client = app_for(models=models)
    base = {"hand": SHEEP, "options": "none;DJ", "max_deals": 300, "batch": 300,
            "precision": 0, "seed": 5, "opponents": "heuristic"}
    evs = []
    for spec in ("learned", "learned:model=learned1.npz", "learned:model=sub/mine.npz",
                 f"learned:model={models / 'sub' / 'mine.npz'}"):
        r = client.post("/api/expose", json={**base, "player": spec})
        assert r.status_code == 200, (spec, r.text)
        evs.append([row["ev"] for row in r.json()["rows"]])
    assert evs[1] == evs[0] and evs[2] == evs[0] and evs[3] == evs[0]


# ---------------------------------------------------------------- the page's languages


def _i18n_tables():
    import re
    from pathlib import Path

    static = Path(__file__).resolve().parents[1] / "sim" / "web" / "static"
    src = (static / "i18n.js").read_text(encoding="utf-8")
    en = src[src.index("  en: {"):src.index("  zh: {")]
    zh = src[src.index("  zh: {"):src.index("export const LANGS")]
    key = re.compile(r'"([^"]+)":\s*"')
    return static, set(key.findall(en)), set(key.findall(zh)), dict(
        zip(key.findall(zh), re.findall(r'"[^"]+":\s*"((?:[^"\\]|\\.)*)"', zh), strict=True))


def test_every_page_text_exists_in_english_and_chinese():
    # issue 37: "the page in 中文 and English … every message of the page"
    import re

    static, en, zh, zh_text = _i18n_tables()
    assert en == zh, (en ^ zh)
    html = (static / "index.html").read_text(encoding="utf-8")
    used = set(re.findall(r'data-i18n(?:-title|-placeholder)?="([^"]+)"', html))
    app = (static / "app.js").read_text(encoding="utf-8")
    used |= set(re.findall(r'\bt\("([^"]+)"', app))
    assert used and used <= en, used - en
    # the game's own terms in the Chinese table
    joined = " ".join(zh_text.values())
    for term in ("亮", "猪", "羊", "变压器", "满红", "满贯", "打对家", "猪羊一家", "元宝", "单副",
                 "双副"):
        assert term in joined, term
    # English texts of the Chinese terms name them in Latin too (legible without CJK fonts)
    src = (static / "i18n.js").read_text(encoding="utf-8")
    en_block = src[src.index("  en: {"):src.index("  zh: {")]
    for term, latin in (("满红", "full hearts"), ("满贯", "grand slam"), ("元宝", "yuanbao")):
        lines = [ln for ln in en_block.splitlines()
                 if term in ln and any(k in ln for k in ("col.", "legend", "unit."))]
        assert lines and all(latin in ln for ln in lines), term


# ---------------------------------------------------------------- the Play tab (打一局)


def _play(client, path, **body):
    r = client.post(f"/api/play/{path}", json={"page": "play-page", **body})
    return r.status_code, r.json()


def _to_the_end(client, v, choose=lambda legal: legal[0]):
    """Play the page's deal to its end, ``choose`` picking the player's card."""
    while v["phase"] == "play":
        assert v["to_play"] == v["seat"] and v["legal"]
        code, v = _play(client, "card", game=v["game"], card=choose(v["legal"]))
        assert code == 200, v
    return v


def test_play_deals_the_engine_deal_and_refuses_an_illegal_card_with_the_rule(client):
    from sim import GameState
    from sim.game.cards import EXPOSABLE, card_str

    code, v = _play(client, "new", seat=1, table="heuristic", seed=3, deal=0)
    assert code == 200, v
    dealt = GameState.from_seed(3, 0).hands[1]
    assert v["dealt"] == [card_str(c) for c in dealt] and v["phase"] == "expose"
    assert v["exposable"] == [card_str(c) for c in dealt if c in EXPOSABLE]
    code, err = _play(client, "card", game=v["game"], card=v["dealt"][0])
    assert code == 400 and "expose first" in err["error"]
    code, v = _play(client, "expose", game=v["game"], cards=[])
    assert code == 200 and v["phase"] == "play" and v["to_play"] == 1
    # seat 3 holds ♣2 and leads; seat 0 followed: seat 1 must follow ♣
    assert [p["seat"] for p in v["trick"]] == [3, 0] and v["trick"][0]["play"] == "C2"
    assert v["legal"] == [c for c in v["hand"] if c[0] == "C"]
    bad = next(c for c in v["hand"] if c[0] != "C")
    code, err = _play(client, "card", game=v["game"], card=bad)
    assert code == 400
    assert err["error"].startswith("Error: trick 1: seat 1 may not play ")
    assert "must follow suit" in err["error"] and "(RULES §4)" in err["error"]
    code, again = _play(client, "expose", game=v["game"], cards=["SQ"])
    assert code == 400 and "exposure phase is over" in again["error"]
    # the deal is unchanged by the refused card; the hint's options are advise's position
    code, same = _play(client, "card", game=v["game"], card=v["legal"][0])
    assert code == 200 and len(same["trick"]) + 4 * len(same["tricks"]) >= 4
    assert v["advise"] == {"hand": " ".join(v["hand"]), "seat": 1, "first_leader": 3,
                           "plays": "C2 " + v["trick"][1]["play"], "players": "heuristic",
                           **({"exposed": [f"{s}={','.join(e)}" for s, e in
                                           enumerate(v["exposed"]) if e]}
                              if any(v["exposed"]) else {})}
    # another page cannot play this page's deal; bad requests are one Error: line
    r = client.post("/api/play/card", json={"page": "other", "game": v["game"], "card": "C8"})
    assert r.status_code == 400 and "no such deal for this page" in r.json()["error"]
    for body, what in (({"table": "random"}, "table must be one of"),
                       ({"seat": 4}, "seat must be 0..3"),
                       ({"hands": ["S:AK", "", "", ""]}, "seat 0's hand has 2 cards"),
                       ({"decks": 3}, "decks")):
        code, err = _play(client, "new", **body)
        assert code == 400 and what in err["error"], (body, err)


def test_play_a_whole_deal_to_the_end_the_record_reads_back_and_review_accepts_it(
        client, tmp_path):
    import sim
    from sim import GameState
    from sim.engine.gameloop import exposure_policies
    from sim.game.cards import parse_card
    from sim.game.record import parse_record

    code, v = _play(client, "new", seat=2, table="heuristic", seed=5, deal=1)
    assert code == 200, v
    mine = [c for c in v["exposable"] if c == "DJ"]  # expose the sheep when dealt it
    if v["phase"] == "expose":
        code, v = _play(client, "expose", game=v["game"], cards=mine)
    v = _to_the_end(client, v, choose=lambda legal: legal[-1])
    assert v["phase"] == "over" and len(v["tricks"]) == 13
    # the same deal played by GameState with sim.bot in the other seats, the highest legal
    # card in seat 2, the rule exposure policy for the others
    pol = exposure_policies("rule", sim.Rules(), 5, 1)
    flags = sum(1 << 1 for _ in mine)  # bit 1: ♦J (EXPOSABLE order SQ, DJ, CT, HA)
    pol[2] = lambda seat, hand, announced: flags
    st = GameState.from_seed(5, 1, exposure=pol)
    bots = [sim.bot("heuristic", seed=5, deal=1, seat=p) for p in range(4)]
    while not st.is_over:
        p = st.to_play
        st.play(st.legal_plays()[-1] if p == 2 else bots[p](st.observation(p),
                                                              st.legal_plays()))
    sc = st.scores()
    assert v["scores"] == {"raw": list(sc.raw), "zero_sum": [round(z, 2) for z in sc.zero_sum],
                           "points": list(sc.points)}
    assert v["scores"]["points"] == [round(z) * 12 for z in sc.zero_sum]
    plays = [p["play"] for tr in v["tricks"] for p in tr["plays"]]
    assert [parse_card(p) for p in plays] == [c for _, ps, _ in st.tricks for _, c in ps]
    # the download: the record JSON, read back by sim.game.record and by gongzhu-sim review
    r = client.get(f"/api/play/record?page=play-page&game={v['game']}")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rec = parse_record(r.text)
    assert [list(h) for h in rec.hands] == [sorted(h) for h in st.hands]
    assert list(rec.plays) == [parse_card(p) for p in plays] and rec.leader == st.leader
    assert [list(e) for e in rec.exposed] == st.exposed
    assert (rec.seed, rec.deal) == (5, 1)
    path = tmp_path / "deal.json"
    path.write_text(r.text, encoding="utf-8")
    code, out, err = _cli("review", str(path), "--seat", "2", "--players", "heuristic",
                          "--max-worlds", "8", "--max-deals", "300", "--seed", "5",
                          "--format", "json", "--quiet", "--jobs", "1")
    assert code == 0, err
    cli = json.loads(out)
    assert cli["decisions"] and all(d["seat"] == 2 for d in cli["decisions"])
    for d in cli["decisions"]:  # each reviewed decision is seat 2's play in that trick
        assert d["played"] == next(p["play"] for p in v["tricks"][d["trick"] - 1]["plays"]
                                   if p["seat"] == 2)
    # the page's review job: the CLI's numbers for the same settings
    r = client.post("/api/play/review", json={"page": "play-page", "game": v["game"],
                                              "max_worlds": 8, "max_deals": 300})
    assert r.status_code == 200, r.text
    job = r.json()
    while job["state"] == "running":
        time.sleep(0.2)
        job = client.get(f"/api/jobs/{job['job']}?page=play-page").json()
    assert job["state"] == "done", job
    res = job["result"]
    assert res["decisions"] == cli["decisions"] and res["exposure"] == cli["exposure"]
    assert res["totals"] == cli["totals"] and res["settings"]["seats"] == [2]
    # a review before the end, over the server's world cap or with a bad setting: refused
    for extra, what in (({"max_worlds": 2001}, "over this server's cap of 2,000 worlds"),
                        ({"precision": -1}, "--precision must be a finite number ≥ 0"),
                        ({"max_deals": "many"}, "max_deals must be a whole number")):
        r = client.post("/api/play/review", json={"page": "play-page", "game": v["game"],
                                                  **extra})
        assert r.status_code == 400 and what in r.json()["error"], (extra, r.text)
    code, v2 = _play(client, "new", seat=0, table="heuristic", seed=5)
    r = client.post("/api/play/review", json={"page": "play-page", "game": v2["game"]})
    assert r.status_code == 400 and "not over yet" in r.json()["error"]
    r = client.get(f"/api/play/record?page=play-page&game={v2['game']}")
    assert r.status_code == 400 and "not over yet" in r.json()["error"]


def test_play_entered_hand_deals_the_rest_and_keeps_it(client):
    from collections import Counter

    from sim.game.cards import parse_hand

    code, v = _play(client, "new", seat=0, table="heuristic", seed=9,
                    hands=["S:543 H:32 D:AKQJT98 C:2", "", "", ""])
    assert code == 200, v
    assert sorted(parse_hand(" ".join(v["dealt"]))) == sorted(
        parse_hand("S:543 H:32 D:AKQJT98 C:2"))
    assert v["deal"] is None and v["exposable"] == ["DJ"]
    code, err = _play(client, "expose", game=v["game"], cards=["SQ"])
    assert code == 400 and "you may not expose ♠Q" in err["error"]
    # a held card twice (one deck, one copy): named as such, not "may not expose"
    code, err = _play(client, "expose", game=v["game"], cards=["DJ", "DJ"])
    assert code == 400 and err["error"] == ("Error: you may expose ♦J at most 1 time: you "
                                            "hold 1 copy (RULES §3)")
    code, v = _play(client, "expose", game=v["game"], cards=["DJ"])
    assert code == 200 and v["exposed"][0] == ["DJ"]
    v = _to_the_end(client, v)
    r = client.get(f"/api/play/record?page=play-page&game={v['game']}")
    rec = r.json()
    cards = Counter(c for h in rec["hands"] for c in parse_hand(h))
    assert len(cards) == 52 and set(cards.values()) == {1}
    assert "seed" not in rec and "deal" not in rec


def test_play_sequential_exposure_shows_what_was_exposed_before_your_turn(client):
    import sim
    from sim.engine.gameloop import exposure_policies
    from sim.game.cards import card_str
    from sim.game.deal_setup import run_exposure

    rules = sim.Rules(exposure_order="sequential")
    for seed in range(1, 40):  # a deal where a seat before yours exposes
        st = sim.GameState.from_seed(seed, 0, rules)
        flags = run_exposure(st.hands, rules, st.leader,
                             exposure_policies("rule", rules, seed, 0))
        before = [(st.leader + j) % 4 for j in range(3)]
        you = (st.leader + 3) % 4
        if any(flags[p] for p in before):
            break
    else:
        pytest.skip("no deal with an exposure before the last seat")
    code, v = _play(client, "new", seat=you, table="heuristic", seed=seed,
                    exposure_order="sequential")
    assert code == 200, v
    want = {str(p): [card_str(c) for c in sim.GameState.from_seed(
        seed, 0, rules, exposure=exposure_policies("rule", rules, seed, 0)).exposed[p]]
            for p in before if flags[p]}
    assert v["announced"] == want
    if v["phase"] == "expose":
        code, v = _play(client, "expose", game=v["game"], cards=[])
    assert code == 200
    for p in before:
        assert v["exposed"][p] == want.get(str(p), [])


def test_play_two_decks_a_whole_deal_and_its_record(client):
    from sim.game.record import parse_record

    code, v = _play(client, "new", seat=0, table="heuristic", seed=5, decks=2)
    assert code == 200, v
    assert len(v["dealt"]) == 26
    if v["phase"] == "expose":
        code, v = _play(client, "expose", game=v["game"], cards=v["exposable"][:2])
        assert code == 200, v
    pairs = 0
    while v["phase"] == "play":
        pl = max(v["legal"], key=len)  # a pair or two cards when it may
        pairs += len(pl) == 4
        code, v = _play(client, "card", game=v["game"], card=pl)
        assert code == 200, v
    assert pairs >= 1
    assert v["scores"]["points"] == [round(z) for z in v["scores"]["zero_sum"]]  # ×1
    rec = parse_record(client.get(f"/api/play/record?page=play-page&game={v['game']}").text)
    assert rec.rules.decks == 2 and len(rec.plays) == sum(len(t["plays"]) for t in v["tricks"])

"""``gongzhu-sim strategies``: every play strategy, exposure policy and parameter key, from
the registry (strategies/registry.py)."""

from __future__ import annotations

import click


@click.command()
def strategies() -> None:
    """List the players, exposure policies and every `key=value` parameter with its default.

    The same names work in every command (--players, --exposure, --player,
    --opponents, --candidate, [[seats]] in a job file).  Each name says which deck
    counts (--decks 1 / 2) it supports; a key given where its kernel would ignore it
    (e.g. a heuristic key with two decks) is an error.
    """
    from strategies.registry import EXPOSURE, PLAYER
    from strategies.registry import strategies as registered

    def decks(s) -> str:
        return "[decks " + ",".join(map(str, s.decks)) + "]"

    def table(title: str, rows: dict[str, str]) -> None:
        click.echo(title)
        width = max(map(len, rows))
        for name, text in rows.items():
            click.echo(f"  {name:<{width}}  {text}")
        click.echo()

    for kind, title in ((PLAYER, "players:"), (EXPOSURE, "exposure policies:")):
        table(title, {(s.syntax if s.parse_arg else s.name): f"{decks(s)} {s.help}"
                      for s in registered(kind)})
    for kind in (PLAYER, EXPOSURE):
        for s in registered(kind):
            keys = s.keys(None)
            if not keys:
                continue
            with_decks = [d for d in s.decks if s.params.get(d)]
            note = "" if with_decks == list(s.decks) else \
                f"; decks {','.join(map(str, with_decks))} only"
            # two decks: the one-deck conditions on the cards held, one copy each
            # (strategies/pairs.py expose_rule2), so a pair counts once and one copy is shown
            extra = ("; every condition for a card must hold; two decks: a card held twice "
                     "counts once and one copy is exposed") if s.name == "rule" else ""
            rows = {k: f"[{s.defaults_text(k, None)}] {s.param_help.get(k, '')}"
                    for k in keys}
            if s.name == "search":  # a file, not a number: not among the parameters
                rows["model"] = ("[the shipped model] a learned model file (a path, or a "
                                 "shipped model's bare file name) read wherever the search "
                                 "reads a model: top, head, rollout=learned, infer")
            table(f"{s.name}:key=value (default in brackets{note}{extra}):", rows)
    hidden = registered(PLAYER, hidden=True) + registered(EXPOSURE, hidden=True)
    hidden = [s for s in hidden if s.hidden]
    if hidden:
        table("for tests only (never for results):",
              {s.name: f"{decks(s)} {s.help}" for s in hidden})

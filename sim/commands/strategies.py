"""``gongzhu-sim strategies``: every play strategy, exposure policy and parameter key."""

from __future__ import annotations

import click

_PLAYERS = {
    "random": "uniform choice among the legal plays (single cards or pairs)",
    "lowest": "lowest legal card; when void, the lowest card of the shortest suit",
    "heuristic": "card counting, ducking, pig dumping and 拱猪 spade leads, sheep hunting; "
    "exposure- and team-aware (heuristic:key=value,... below)",
    "search": "determinized Monte Carlo: samples hidden deals consistent with what the seat "
    "has seen, rolls each legal card out to the end with a fast policy in all seats and "
    "plays the best mean (search:key=value,... below; one deck; ~1,000× slower than "
    "heuristic)",
}
_EXPOSURES = {
    "never": "expose nothing",
    "always": "expose every exposable card held",
    "random": "each exposable card held with probability ½",
    "fixed:CARDS": "expose these cards when held, e.g. fixed:SQ,HA (two decks: fixed:SQ,SQ = "
    "both copies)",
    "rule": "expose a card when a simple hand feature passes a threshold (rule:key=value,... "
    "below)",
}


@click.command()
def strategies() -> None:
    """List the players, exposure policies and every `key=value` parameter with its default.

    The same names work in every command (--players, --exposure, --player,
    --opponents, --candidate, [[seats]] in a job file).
    """
    from strategies.exposure_rules import RULE_HELP, RULE_PARAMS
    from strategies.heuristic import HEURISTIC_HELP, HEURISTIC_PARAMS
    from strategies.search import MEASURES, ROLLOUTS, SEARCH_HELP, SEARCH_PARAMS

    def table(title: str, rows: dict[str, str]) -> None:
        click.echo(title)
        width = max(map(len, rows))
        for name, text in rows.items():
            click.echo(f"  {name:<{width}}  {text}")
        click.echo()

    table("players:", _PLAYERS)
    table("exposure policies:", _EXPOSURES)
    table("heuristic:key=value (default in brackets):",
          {k: f"[{v:g}] {HEURISTIC_HELP.get(k, '')}" for k, v in HEURISTIC_PARAMS.items()})
    names = {"rollout": {v: k for k, v in ROLLOUTS.items()},
             "measure": {v: k for k, v in MEASURES.items()}}
    table("search:key=value (default in brackets):",
          {k: f"[{names[k][int(v)] if k in names else f'{v:g}'}] {SEARCH_HELP[k]}"
           for k, v in SEARCH_PARAMS.items()})
    table("rule:key=value (default in brackets; every condition for a card must hold):",
          {k: f"[{v:g}] {RULE_HELP.get(k, '')}" for k, v in RULE_PARAMS.items()})

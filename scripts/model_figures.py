"""Re-measure every README and docs figure that depends on the shipped `learned` models.

After a model under strategies/models/ changes, one command runs every figure's command into
an output folder and prints, per figure, the page and place it feeds and the values to put
there, with the CPU and wall time of each step and the machine::

    python scripts/model_figures.py --out FIGS              # full size (about 10 min of CPU)
    python scripts/model_figures.py --out FIGS --quick      # small deal counts: checks it works
    python scripts/model_figures.py --out FIGS --only tune-small,review
    python scripts/model_figures.py --out FIGS --heuristic OLD/heuristic-2m   # reuse that study
    python scripts/model_figures.py --list                  # the steps and what they feed

Steps (``--only`` takes their names; ``panel`` runs only when named, it takes hours):

- ``study-learned``, ``study-heuristic``, ``report``: the two 2,000,000-deal studies of
  docs/study.md "Rules of thumb that hold against strong players" and ``report`` of the two;
  the rules of the README's table and docs/study.md's table evaluated on the held-out (odd)
  deals of both (``heuristic`` does not depend on the model: ``--heuristic DIR`` reuses one).
- ``tune-small``: the README's small grid (docs/tune.md, first paragraph).
- ``tune-learned``: docs/tune.md "Against strong players" (the equilibrium table) and README's
  tune paragraph.
- ``expose-hands``: docs/expose.md "Against strong players", the `learned` columns.
- ``expose-tables``: docs/expose.md, the `--tables heuristic,learned` sentence; the sheep
  hand of docs/expose.md's first lines and its Chinese recommendation (docs/cards.md too).
- ``expose-search``: docs/expose.md "Several tables at once", the console block of
  `--tables heuristic,search` (the default `search` reads the `learned` model for its
  rollouts): the command is read from the page and run as written, its output is the block.
- ``review``: the review example of README.md and docs/review.md.
- ``advise``: docs/advise.md's figures of four `learned` players.
- ``serve-shots``: docs/serve.md's screenshots (expose, advise, play; needs chromium,
  chromium-driver and selenium), written to OUT/shots: copy them to docs/.
- ``check-docs``: ``python scripts/check_docs.py --only README.md docs/advise.md …``: the
  documented console outputs that a model changes (README's among them) are re-run and compared.
- ``panel``: ``python scripts/bench_strength.py --panel …`` (README's strength table,
  docs/strength.md); only with ``--only panel``.

With ``--reuse`` a study already finished in OUT (at the same size, after the model files
were last written) is not played again (e.g. after an interruption); otherwise an existing
OUT is refused. Not run by the test suite: a full run took 598 s of CPU, 610 s wall, on the
shared 2-core machine (load 2–3.4; 2026-12-05, the feature-set-7 solo model), of which
``expose-search`` 166 s (its kernels compiled on the way) and ``check-docs`` 98 s;
``--quick`` about 3 min of CPU (its ``expose-search`` 96 s with the kernels' first compile).
The steps write only into OUT (the screenshots too): copying the values and screenshots into
the pages stays a person's step, so that each figure is read before it replaces the old one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import resource
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CARDS = "pig,sheep,transformer,heartA"

#: The rules the README's and docs/study.md's tables show: (card, words, query).  A query
#: is ``feature op threshold`` joined by ``and`` (sim/game/features.py), ``all`` for every
#: holder, and ``not …`` for the complement of a rule.
FIXED_RULES = [
    ("pig", "≥ 3 spades below ♠Q and ≤ 1 ace", "below >= 3 and aces <= 1"),
    ("pig", "otherwise (not ≥ 3 below ♠Q with ≤ 1 ace)", "not below >= 3 and aces <= 1"),
    ("pig", "≥ 3 spades below ♠Q and no ♣10", "below >= 3 and holds_transformer <= 0"),
    ("sheep", "always", "all"),
    ("sheep", "≥ 4 diamonds", "diamonds >= 4"),
    ("sheep", "≤ 3 diamonds", "diamonds <= 3"),
    ("sheep", "≥ 4 diamonds with ♦A, ♦K or ♦Q", "diamonds >= 4 and sheep_guards >= 1"),
    ("sheep", "otherwise (not ≥ 4 diamonds with an honour)",
     "not diamonds >= 4 and sheep_guards >= 1"),
    ("transformer", "≥ 5 clubs and no ♠Q", "clubs >= 5 and holds_pig <= 0"),
    ("transformer", "≥ 4 clubs below ♣10", "below >= 4"),
    ("transformer", "≤ 1 club", "clubs <= 1"),
    ("transformer", "≤ 2 clubs, holding the sheep", "clubs <= 2 and holds_sheep >= 1"),
    ("heartA", "≥ 5 hearts", "hearts >= 5"),
    ("heartA", "≥ 5 hearts with ♥2, ♥3 or ♥4", "hearts >= 5 and low_hearts >= 1"),
    ("heartA", "≥ 4 hearts and no king", "hearts >= 4 and kings <= 0"),
]

#: docs/expose.md "Against strong players": the hands and the options each holds.
EXPOSE_HANDS = [("S:543 H:32 D:AKQJT98 C:2", "none;DJ"),
                ("AKQ5.A93.J4.T863", "none;DJ;SQ"),
                ("S:QJ3 H:A5 D:K76 C:QJ987", "none;SQ")]

ADVISE = ["advise", "KQ2.QJ.76.95", "--seat", "3", "--exposed", "1=HA,DJ", "--plays",
          "C2 CA C8 CK C3 C6 C4 CQ D4 DQ DT DA S9 S8 S4 SJ S5 HA S3"]


@dataclass
class Ctx:
    """What every step reads: the output folder, the sizes and the options."""
    out: Path
    quick: bool
    jobs: int
    reuse: bool
    heuristic: Path | None
    log: list[str] = field(default_factory=list)

    def size(self, full, quick):
        return quick if self.quick else full


@dataclass
class Step:
    name: str
    feeds: str
    run: Callable[[Ctx], list[str]]
    default: bool = True


def gz(*args: str) -> list[str]:
    """The command line of ``gongzhu-sim ARGS`` (this interpreter's ``sim.cli``)."""
    return [sys.executable, "-m", "sim.cli", *args]


def sh(ctx: Ctx, cmd: list[str], stdout: Path | None = None, check: bool = True) -> str:
    """Run ``cmd`` in OUT, return its stdout (to ``stdout`` too when given); print the command.
    A failing command (with ``check``) raises RuntimeError with the tail of its stderr."""
    shown = " ".join(shlex.quote(c) for c in cmd).replace(f"{sys.executable} -m sim.cli",
                                                         "gongzhu-sim")
    print(f"  $ {shown}", flush=True)
    ctx.log.append(shown)
    p = subprocess.run(cmd, cwd=ctx.out, capture_output=True, text=True)
    if stdout is not None:
        stdout.write_text(p.stdout)
    if check and p.returncode != 0:
        raise RuntimeError(f"exit {p.returncode}: {shown}\n{p.stderr[-2000:]}")
    return p.stdout


def finished(folder: Path, deals: int) -> bool:
    """A study folder whose manifest says it finished ``deals`` deals after every model file
    under strategies/models/ was last written (so it played the models of today)."""
    try:
        m = json.loads((folder / "manifest.json").read_text())
    except (OSError, ValueError):
        return False
    newest = max((p.stat().st_mtime for p in (ROOT / "strategies" / "models").glob("*.npz")),
                 default=0.0)
    return (m.get("status") == "finished" and m.get("spec", {}).get("deals") == deals
            and (folder / "manifest.json").stat().st_mtime > newest)


def study(ctx: Ctx, players: str, folder: str) -> list[str]:
    deals = ctx.size(2_000_000, 20_000)
    if ctx.reuse and finished(ctx.out / folder, deals):
        return [f"reused {ctx.out / folder} (finished, {deals:,} deals)"]
    sh(ctx, gz("study", "--cards", CARDS, "--deals", str(deals), "--players", players,
               "--jobs", str(ctx.jobs), "--out", folder, "--no-report", "-q"))
    return [f"{folder}: {deals:,} deals, seed 1, four {players} players"]


def step_study_learned(ctx: Ctx) -> list[str]:
    return study(ctx, "learned", "learned-2m")


def step_study_heuristic(ctx: Ctx) -> list[str]:
    if ctx.heuristic is not None:
        return [f"the heuristic study of {ctx.heuristic} (does not depend on the model)"]
    return study(ctx, "heuristic", "heuristic-2m")


def _rule_mask(query: str, df):
    import numpy as np

    from sim.analysis.study.compare import _conditions
    from sim.analysis.study.decision import rule_mask
    if query.startswith("not "):
        return ~rule_mask(_conditions(query[4:]), df)
    return rule_mask(_conditions(query), df) if query != "all" else np.ones(len(df), bool)


def fmt(x: float) -> str:
    return f"{x:+.1f}".replace("-", "−")


def step_report(ctx: Ctx) -> list[str]:
    from sim.analysis.exposure.tables import verdict
    from sim.analysis.study.stats import mean_ci, study_frame
    heur = ctx.heuristic or ctx.out / "heuristic-2m"
    sh(ctx, gz("report", "learned-2m", str(heur)))
    lines = [f"report: learned-2m/report-vs-{heur.name}.md (the side-by-side table: the "
             "rules each study found, docs/study.md)"]
    frames = {}
    for label, folder in (("heuristic", heur), ("learned", ctx.out / "learned-2m")):
        df = study_frame(folder)
        frames[label] = (df, df.loc[df["deal"].to_numpy() % 2 == 1])
    lines.append("held-out (odd) deals, Δ zero_sum of exposing, mean ± 95% CI half-width "
                 "(all deals: every deal):")
    lines.append(f"  {'card':12s} {'rule':46s} {'n':>9s}  {'heuristic ×4':>14s}  "
                 f"{'learned ×4':>14s}  verdict")
    for card, words, query in FIXED_RULES + [(c, "all deals", "all")
                                              for c in CARDS.split(",")]:
        cells, stats = [], []
        n = None
        for label in ("heuristic", "learned"):
            df = frames[label][0 if words == "all deals" else 1]
            sub = df.loc[df["card"] == card]
            s = mean_ci(sub["d_zero_sum"].to_numpy()[_rule_mask(query, sub)])
            n = int(s["n"])
            stats.append(s)
            cells.append(f"{fmt(s['mean'])} ± {(s['ci95_high'] - s['ci95_low']) / 2:.1f}")
        v = verdict([(stats[0]["ci95_low"], stats[0]["ci95_high"]),
                     (stats[1]["ci95_low"], stats[1]["ci95_high"])])
        lines.append(f"  {card:12s} {words:46s} {n:>9,}  {cells[0]:>14s}  {cells[1]:>14s}  {v}")
    lines.append("  feeds README.md 'Rules of thumb that hold against strong players' (table and "
                 "the paragraph under it) and docs/study.md's table and text")
    return lines


def step_tune_small(ctx: Ctx) -> list[str]:
    out = ctx.out / "tune-small.txt"
    sh(ctx, gz("tune", "--param", "pig_low=2..6", "--param", "pig_guards_max=0..2",
               "--deals", str(ctx.size(400_000, 40_000)), "--out", "tune-small"), stdout=out)
    return [f"stdout: {out} (README's console block; docs/tune.md first paragraph):"] + [
        "  " + s for s in out.read_text().splitlines()
        if re.search(r"answer:|confirm|winner|gain|\bbudget\b", s)]


def step_tune_learned(ctx: Ctx) -> list[str]:
    out = ctx.out / "tune-learned.txt"
    sh(ctx, gz("tune", "--family", "rule", "--field", "learned+rule", "--players", "learned",
               "--equilibrium", "--rounds", str(ctx.size(3, 2)),
               "--deals", str(ctx.size(1_000_000, 200_000)), "--jobs", str(ctx.jobs),
               "--out", "tune-learned"), stdout=out)
    return [f"stdout: {out} (docs/tune.md 'Against strong players'; README's tune paragraph, "
            "round 1's confirmation gain):"] + ["  " + s for s in out.read_text().splitlines()
                                                if s.strip()][-25:]


def step_expose_hands(ctx: Ctx) -> list[str]:
    lines = ["docs/expose.md 'Against strong players', the `learned` columns (seed 0, "
             "precision 2; EV ± half-width, Δ [95% CI], n):"]
    for i, (hand, options) in enumerate(EXPOSE_HANDS):
        extra = ["--precision", "10"] if ctx.quick else []
        txt = sh(ctx, gz("expose", hand, "--options", options, "--seed", "0",
                         "--format", "json", *extra), stdout=ctx.out / f"expose-hand{i}.json")
        d = json.loads(txt)
        for r in d["rows"]:
            ev = f"{fmt(r['ev'])} ± {(r['ev_hi'] - r['ev_lo']) / 2:.1f}"
            dl = ("—" if r["option"] == "none" else
                  f"{fmt(r['delta'])} [{fmt(r['delta_lo'])}, {fmt(r['delta_hi'])}]")
            lines.append(f"  {hand:26s} {r['option']:5s} EV {ev:15s} Δ {dl:24s} "
                         f"n {d['runs'][0]['n']:,}")
    return lines


def step_expose_tables(ctx: Ctx) -> list[str]:
    out = ctx.out / "expose-tables.txt"
    extra = ["--precision", "10"] if ctx.quick else []
    sh(ctx, gz("expose", "AKQ5.A93.J4.T863", "--tables", "heuristic,learned", "--options",
               "none;DJ;SQ", *extra), stdout=out)
    lines = ["docs/expose.md, the `--tables heuristic,learned` sentence (seed 1):"] + [
        "  " + s for s in out.read_text().splitlines()]
    sheep = sh(ctx, gz("expose", "黑桃543 红桃32 方块AKQJT98 梅花2", *extra),
               stdout=ctx.out / "expose-sheep-zh.txt")
    return lines + ["docs/expose.md line 4 (the sheep hand's Δ, as README's `learned` row) and "
                    "the Chinese recommendation of docs/expose.md and docs/cards.md:"] + [
        "  " + s for s in sheep.splitlines() if s.startswith(("DJ ", "建议", "▶"))]


def documented_tables_search() -> tuple[str, list[str]]:
    """The ``gongzhu-sim expose … --tables heuristic,search …`` command that docs/expose.md
    gives before its console block (as written on the page) and its argument list."""
    text = (ROOT / "docs" / "expose.md").read_text(encoding="utf-8")
    m = re.search(r"`(gongzhu-sim expose [^`]*--tables\s+heuristic,search\s[^`]*)`", text)
    if m is None:
        raise RuntimeError("docs/expose.md: no `gongzhu-sim expose … --tables "
                           "heuristic,search …` command found")
    cmd = " ".join(m.group(1).split())
    return cmd, shlex.split(cmd)[1:]


def step_expose_search(ctx: Ctx) -> list[str]:
    cmd, args = documented_tables_search()
    out = ctx.out / "expose-search.txt"
    extra = ["--precision", "10", "--max-deals", "200"] if ctx.quick else []
    sh(ctx, gz(*args, *extra), stdout=out)
    return [f"docs/expose.md 'Several tables at once', the console block of `{cmd}` "
            "(replace the block with this output and its label with today's models):"] + [
        "  " + s for s in out.read_text().splitlines()]


def step_review(ctx: Ctx) -> list[str]:
    (ctx.out / "deal.txt").write_text(sh(ctx, gz("trace", "--seed", "1", "--deal", "0",
                                                 "--players", "learned")))
    out = ctx.out / "review.txt"
    sh(ctx, gz("review", "deal.txt", "--seat", "0"), stdout=out)
    return ["README.md 'Where did I lose this deal?' and docs/review.md's console block:"] + [
        "  " + s for s in out.read_text().splitlines()]


def step_advise(ctx: Ctx) -> list[str]:
    lines = ["docs/advise.md (the position of its first example; four `learned` players):"]
    for extra in ([], ["--max-worlds", "4000"]):
        out = ctx.out / f"advise{'-4000' if extra else ''}.txt"
        sh(ctx, gz(*ADVISE, *extra), stdout=out)
        lines += ["  " + s for s in out.read_text().splitlines()]
    return lines


def step_serve_shots(ctx: Ctx) -> list[str]:
    if not (shutil.which("chromium") or shutil.which("chromium-browser")) or \
            not shutil.which("chromedriver"):
        return ["skipped: chromium and chromedriver are not on this machine (the screenshots "
                "of docs/serve.md keep the model they were taken with)"]
    shots = ctx.out / "shots"
    shots.mkdir(exist_ok=True)
    sh(ctx, [sys.executable, str(ROOT / "scripts" / "serve_browser.py"), "--out", str(shots),
             "--results", str(ctx.out), "--pages", "expose,advise,play"])
    return [f"docs/serve.md's screenshots: copy {p} to docs/{p.name}"
            for p in sorted(shots.glob("*.png"))]


#: The pages whose documented console outputs depend on the `learned` models.
CHECKED_PAGES = ["README.md", "docs/advise.md", "docs/cards.md", "docs/review.md", "docs/run.md"]


def step_check_docs(ctx: Ctx) -> list[str]:
    out = ctx.out / "check_docs.txt"
    sh(ctx, [sys.executable, str(ROOT / "scripts" / "check_docs.py"), "--only", *CHECKED_PAGES,
             "--keep", str(ctx.out / "check-docs")], stdout=out, check=False)
    return [f"the console examples of {', '.join(CHECKED_PAGES)} (scripts/check_docs.py; "
            "the commands' outputs in check-docs/):"] + [
        "  " + s for s in out.read_text().splitlines() if "MISMATCH" in s or "FAIL" in s
        or "mismatch" in s]


def step_panel(ctx: Ctx) -> list[str]:
    out = ctx.out / "panel.txt"
    deals = ["--panel-deals", "20", "--panel-deals2", "2", "--panel-cpu-deals", "2"] \
        if ctx.quick else ["--panel-deals", "2000", "--panel-deals2", "100",
                           "--panel-cpu-deals", "20"]
    sh(ctx, [sys.executable, str(ROOT / "scripts" / "bench_strength.py"), "--panel", *deals,
             "--threads", "1"], stdout=out)
    return [f"README's strength table and docs/strength.md's current panel: {out}"]


STEPS = [
    Step("study-learned", "README.md + docs/study.md: rules of thumb, `learned` ×4",
         step_study_learned),
    Step("study-heuristic", "the same deals with `heuristic` ×4 (model-free; for `report`)",
         step_study_heuristic),
    Step("report", "README.md + docs/study.md: the rules' table, verdicts, paragraph",
         step_report),
    Step("tune-small", "README.md tune console block; docs/tune.md first paragraph",
         step_tune_small),
    Step("tune-learned", "docs/tune.md 'Against strong players'; README.md tune paragraph",
         step_tune_learned),
    Step("expose-hands", "docs/expose.md 'Against strong players', `learned` columns",
         step_expose_hands),
    Step("expose-tables", "docs/expose.md `--tables heuristic,learned` sentence, the sheep "
         "hand's line 4 and Chinese recommendation (also docs/cards.md)",
         step_expose_tables),
    Step("expose-search", "docs/expose.md console block of `--tables heuristic,search` "
         "(the command as documented there)", step_expose_search),
    Step("review", "README.md review block; docs/review.md console block and text", step_review),
    Step("advise", "docs/advise.md figures of four `learned` players", step_advise),
    Step("serve-shots", "docs/serve.md screenshots (expose, advise, play)", step_serve_shots),
    Step("check-docs", "README.md's console examples and those of docs/advise.md, cards.md, "
         "review.md, run.md (check_docs.py)", step_check_docs),
    Step("panel", "README.md strength table; docs/strength.md panel (hours)", step_panel,
         default=False),
]


def models() -> list[str]:
    """One line per shipped model: file, feature-set version, sha256 prefix, size."""
    from strategies.model import read_model

    out = []
    for p in sorted((ROOT / "strategies" / "models").glob("*.npz")):
        meta = read_model(p)[1]
        h = hashlib.sha256(p.read_bytes()).hexdigest()[:12]
        out.append(f"  {p.name}: feature set {meta.get('feature_version', '?')}, sha256 {h}…, "
                   f"{p.stat().st_size:,} bytes")
    return out


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="output folder (new, or with --reuse)")
    ap.add_argument("--quick", action="store_true", help="small deal counts (a check)")
    ap.add_argument("--only", default=None, help="comma-separated step names (see --list)")
    ap.add_argument("--jobs", type=int, default=1, help="workers of study and tune [1]")
    ap.add_argument("--reuse", action="store_true",
                    help="keep an existing OUT and reuse its finished studies")
    ap.add_argument("--heuristic", type=Path, default=None,
                    help="an existing `heuristic` study of the same deals to reuse")
    ap.add_argument("--list", action="store_true", help="list the steps, run nothing")
    a = ap.parse_args(argv)
    if a.list:
        for s in STEPS:
            print(f"{s.name:16s} {s.feeds}{'' if s.default else '  (only with --only)'}")
        return 0
    names = [s.strip() for s in (a.only or "").split(",") if s.strip()]
    known = {s.name: s for s in STEPS}
    bad = [n for n in names if n not in known]
    error = None
    if bad:
        error = f"unknown step {', '.join(bad)} (steps: {', '.join(known)})"
    elif a.only is not None and not names:
        error = f"--only {a.only!r} names no step (steps: {', '.join(known)})"
    elif a.out is None:
        error = "--out is required"
    elif a.out.exists() and not a.out.is_dir():
        error = f"--out {a.out} is not a folder"
    elif not a.out.parent.is_dir():
        error = f"--out {a.out}: folder {a.out.parent} does not exist"
    elif a.out.exists() and any(a.out.iterdir()) and not a.reuse:
        error = f"{a.out} is not empty (use --reuse to continue in it)"
    elif a.jobs < 1:
        error = f"--jobs {a.jobs}: at least 1"
    elif a.heuristic is not None and not (a.heuristic / "manifest.json").is_file():
        error = f"--heuristic {a.heuristic} is not a study folder (no manifest.json)"
    if error:
        print(f"Error: {error}", file=sys.stderr)
        return 2
    a.out.mkdir(parents=True, exist_ok=True)
    heur = a.heuristic.resolve() if a.heuristic else None
    ctx = Ctx(out=a.out.resolve(), quick=a.quick, jobs=a.jobs, reuse=a.reuse, heuristic=heur)
    steps = [known[n] for n in names] if names else [s for s in STEPS if s.default]
    env = os.environ.copy()
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    os.environ.update(env)
    print(f"model_figures: {platform.node()}, {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, {'quick' if a.quick else 'full size'}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load "
          f"{os.getloadavg()[0]:.1f}; git {git_head()}")
    print("models:\n" + "\n".join(models()), flush=True)
    total_cpu, total_wall, failed = 0.0, 0.0, []
    for s in steps:
        print(f"\n== {s.name}: {s.feeds}", flush=True)
        c0, w0 = cpu_children() + time.process_time(), time.perf_counter()
        try:
            lines = s.run(ctx)
        except RuntimeError as e:
            lines, failed = [f"FAILED: {e}"], failed + [s.name]
        cpu, wall = cpu_children() + time.process_time() - c0, time.perf_counter() - w0
        total_cpu += cpu
        total_wall += wall
        print("\n".join(lines))
        print(f"   [{s.name}: {cpu:.0f} s CPU, {wall:.0f} s wall, load "
              f"{os.getloadavg()[0]:.1f}]", flush=True)
    print(f"\ntotal: {total_cpu:.0f} s CPU ({total_cpu / 60:.1f} min), {total_wall:.0f} s wall; "
          f"folder {ctx.out}" + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


def git_head() -> str:
    p = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                       capture_output=True, text=True)
    return p.stdout.strip() or "?"


if __name__ == "__main__":
    sys.exit(main())

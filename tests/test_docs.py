"""The documentation stays true to the CLI: every ``gongzhu-sim`` example of README.md and
docs/*.md names a command and flags that exist (with valid choices), the README stays a front
door (≤ 200 lines) whose links all resolve, and every docs page is reachable from it.
Running the examples is scripts/check_docs.py (slow: it plays them)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import click
import pytest

from sim.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _check_docs():
    spec = importlib.util.spec_from_file_location("check_docs", ROOT / "scripts" / "check_docs.py")
    mod = importlib.util.module_from_spec(spec)
    import sys

    sys.modules["check_docs"] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


CD = _check_docs()
EXAMPLES = [ex for page in CD.pages() for ex in CD.examples(page)]


def parse_error(argv: list[str]) -> str | None:
    """Why ``gongzhu-sim argv`` would not parse (None: it parses), without running it: the
    subcommand, every option, the choices of choice options and the number of arguments."""
    if not argv:
        return "no command"
    lang = next(p for p in main.params if p.name == "lang")
    if argv[0] == "--lang" or argv[0].startswith("--lang="):  # the group's own option
        value, argv = ((argv[1], argv[2:]) if argv[0] == "--lang" and len(argv) > 1
                       else (argv[0].partition("=")[2], argv[1:]))
        if value not in lang.type.choices:
            return f"--lang: {value!r} not in {list(lang.type.choices)}"
        if not argv:
            return None
    cmd = main.commands.get(argv[0])
    if cmd is None:
        return f"no command {argv[0]!r}"
    ctx = cmd.context_class(cmd, info_name=argv[0], resilient_parsing=True,
                            **cmd.context_settings)
    parser = cmd.make_parser(ctx)
    try:
        opts, largs, _ = parser.parse_args(args=list(argv[1:]))
    except click.UsageError as exc:
        return exc.format_message()
    if largs and not ctx.allow_extra_args:
        return f"unexpected extra arguments {largs}"
    by_name = {p.name: p for p in cmd.params}
    for name, value in opts.items():
        p = by_name.get(name)
        if p is None:
            return f"unknown parameter {name}"
        if isinstance(p, click.Option) and (p.is_flag or p.count):
            continue
        if isinstance(p.type, click.Choice):
            values = value if isinstance(value, list | tuple) else [value]
            bad = [v for v in values if v not in p.type.choices]
            if bad:
                return f"{name}: {bad} not in {list(p.type.choices)}"
        if isinstance(p, click.Argument) and p.required and value in (None, ()):
            return f"missing argument {name}"
    # options spelled in the docs but unknown to the command (also after ignore_unknown)
    known = {o for p in cmd.params for o in (*p.opts, *getattr(p, "secondary_opts", ()))}
    known |= {"-h", "--help"}
    for w in argv[1:]:
        flag = w.split("=", 1)[0]
        if flag.startswith("--") and flag not in known:
            return f"no option {flag}"
    return None


@pytest.mark.parametrize("ex", EXAMPLES, ids=[f"{e.source}:{e.line}" for e in EXAMPLES])
def test_every_documented_command_parses(ex):
    assert parse_error(ex.argv) is None, (ex.text, parse_error(ex.argv))
    assert parse_error(CD.shrink(ex.argv)) is None  # the cheap version check_docs runs too


def test_the_parser_catches_stale_docs():
    assert parse_error(["run", "--deals", "3"]) is None
    assert parse_error(["level", "-100000"]) is None
    assert "no command" in parse_error(["simulate"])
    assert "--dealz" in parse_error(["run", "--dealz", "3"])
    assert "not in" in parse_error(["expose", "S:543 H:32 D:AKQJT98 C:2", "--format", "xml"])
    assert parse_error(["score", "SQ", "-", "-", "-", "--bogus", "1"]) is not None


def test_examples_cover_every_command_and_page():
    commands = {ex.argv[0] for ex in EXAMPLES}
    assert set(main.commands) - {"serve", "train"} <= commands, set(main.commands) - commands
    sources = {ex.source for ex in EXAMPLES}
    assert "README.md" in sources


def _links(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    return [m for m in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
            if not m.startswith(("http://", "https://", "mailto:"))]


#: Pages other helpers add (docs/learned.md, docs/serve.md): linked before they arrive.
ARRIVING = {"learned.md", "serve.md"}


def test_readme_is_a_front_door():
    readme = ROOT / "README.md"
    assert len(readme.read_text(encoding="utf-8").splitlines()) <= 200
    for link in _links(readme):
        target = (ROOT / link).resolve()
        assert target.exists() or target.name in ARRIVING, link
    index = ROOT / "docs" / "index.md"
    for link in _links(index):
        target = (index.parent / link).resolve()
        assert target.exists() or target.name in ARRIVING, link
    # every page under docs/ is reachable: from the README or from docs/index.md
    reachable = {(ROOT / lk).resolve() for lk in _links(readme)}
    reachable |= {(index.parent / lk).resolve() for lk in _links(index)}
    for page in (ROOT / "docs").glob("*.md"):
        assert page.resolve() in reachable, f"{page.name} is not linked from README/index"
    # the two set-up commands, exactly as .ci/run runs the second one
    blocks = [b for lang, _, b in CD.blocks(readme) if lang == "bash"]
    setup = [b[0] for b in blocks[:2]]
    assert setup[0] == "pip install -e '.[dev]' && gongzhu-sim run"
    assert setup[1].startswith("pip install -e '.[dev,cluster") and "python -m pytest" in setup[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert setup[1].split("&& ", 1)[1] in ci


def test_slow_list_names_existing_tests():
    """tests/conftest.py marks tests slow by file and name: every entry names a real test."""
    import conftest

    for path, names in conftest.SLOW.items():
        text = (ROOT / path).read_text(encoding="utf-8")
        for name in names or ():
            assert f"def {name.split('[', 1)[0]}(" in text, (path, name)
    assert conftest.is_slow("tests/test_study_two_decks.py", "test_anything")
    assert conftest.is_slow("/x/tests/test_advise.py", "test_two_decks_position")
    assert conftest.is_slow("tests/test_advise.py",
                            "test_every_position_reached_by_legal_play_is_accepted[2-15]")
    assert not conftest.is_slow("tests/test_advise.py",
                                "test_every_position_reached_by_legal_play_is_accepted[1-60]")
    assert not conftest.is_slow("tests/test_cards.py", "test_mask_roundtrip")


def _inline_commands() -> list[tuple[str, list[str]]]:
    """``gongzhu-sim …`` in inline code of the prose (outside fenced blocks)."""
    import shlex

    out = []
    for page in CD.pages():
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for m in re.finditer(r"`(gongzhu-sim [^`]+)`", text.replace("\n", " ")):
            words = shlex.split(m.group(1))[1:]
            for stop in (">", "|", "&&"):
                if stop in words:
                    words = words[:words.index(stop)]
            out.append((f"{page.name}: {m.group(1)}", words))
    return out


#: Commands other helpers add (``train``, ``serve``): named before they arrive.
ARRIVING_COMMANDS = {"train", "serve"}


def test_inline_commands_in_the_prose_parse():
    """`gongzhu-sim …` quoted in the text (not only the examples) names real commands and
    flags."""
    found = _inline_commands()
    assert len(found) > 20
    for where, words in found:
        if words and words[0] in ARRIVING_COMMANDS and words[0] not in main.commands:
            continue
        if "--help" in words or "-h" in words:
            assert words[0] in main.commands, where
            continue
        assert parse_error(words) is None, (where, parse_error(words))


def test_documented_output_comparison():
    """Friction 7 of issue 37: check_docs.py ran the examples but never compared their output
    with the text.  The comparison: text verbatim (spaces collapsed), numbers as shown or
    within the page's tolerance, durations free, ``…`` lines and ``…`` in a line elide."""
    doc = ["1,000 deals; 3 of 3 chunks played in 37.4 s",
           "▶ rule          +17.72  [+17.53, +17.91]",
           "…  (every other pair)",
           "answer: rule wins, +0.59 over tuned rule",
           "…  (the rest)"]
    got = ["1,000 deals; 3 of 3 chunks played in 41.0 s",
           "▶ rule        +17.72   [+17.53, +17.91]",
           "  rule − never  +24.17", "  never − always  +21.95",
           "answer: rule wins, +0.59 over tuned rule", "", "more", "lines"]
    assert CD.compare_output(doc, got) is None
    assert CD.compare_output(doc, [*got[:1], "▶ rule  +17.73  [+17.53, +17.91]", *got[2:]]) \
        == (1, 1)
    assert CD.compare_output(doc, [*got[:1], "▶ rule  +17.73  [+17.53, +17.91]", *got[2:]],
                             tol=0.01) is None
    assert CD.compare_output(doc, [ln.replace("rule wins", "never wins") for ln in got]) \
        is not None  # the answer line is not found after the elision
    assert CD.compare_output(doc[:2], got[:3]) == (2, 2)  # an undocumented extra line
    assert CD.compare_output(["a", "", "b"], ["", "a", "b", ""]) is None  # blank lines
    assert CD.compare_output(doc[:2], got[:1]) == (1, 1)  # a missing line
    assert CD.line_matches("one deck, solo; tables heuristic, learned (…); seed 1",
                           "one deck, solo; tables heuristic, learned (heuristic×4); seed 1")
    assert not CD.line_matches("seat S5 led", "seat S6 led", tol=5)  # cards are text
    assert not CD.line_matches("n = 30,000", "n = 30,001", tol=5)  # integers exact


def test_cheap_documented_outputs_match(tmp_path):
    """The cheap subset of check_docs.py (``--cheap``: score, level, trace), as CI runs it:
    every documented output of those commands matches what the command prints."""
    todo = CD.cheap_examples([(p, CD.examples(p)) for p in CD.pages()])
    exs = [ex for _, e in todo for ex in e]
    assert {ex.argv[0] for ex in exs} == set(CD.CHEAP)
    results = CD.check_outputs(exs, tmp_path, timeout=600)
    assert [(f"{ex.source}:{ex.line}", st) for ex, st, _ in results
            if st != "output ok"] == [], [t for *_, t in results]

"""The commands the documents show are commands that work.

An organiser types what docs/first-tournament.md, README.md and docs/host-tools.md show:
every `clockctl` and `wordpack` line in their code blocks must parse with the tools' own
argument parsers, and every `key=value` a `clockctl config` line anywhere in README.md
or docs/ sets must be a setting the firmware has, with a value its configuration check
(`firmware/store/config.py`) accepts, as clockctl would send it."""

from __future__ import annotations

import re
import shlex

import pytest

from host_tools import cli as clockctl
from tests.host.sim_helpers import REPO
from wordlist_packer import cli as wordpack

GUIDE = REPO / "docs" / "first-tournament.md"
# documents whose code blocks hold whole commands (not synopses such as docs/packer.md's)
RUNNABLE = [GUIDE, REPO / "README.md", REPO / "docs" / "host-tools.md"]
ALL_DOCS = [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md"))
TOOLS = {"clockctl": clockctl.build_parser, "wordpack": wordpack.make_parser}


def code_commands(path):
    """(line number, argv) of each clockctl/wordpack command in the fenced code blocks:
    a `$ ` prompt and a `.venv/bin/` prefix taken off, continued lines joined, comments
    dropped."""
    out, fenced, pending, start = [], False, "", 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            continue
        text = line.strip()
        if not pending:
            text = text.removeprefix("$ ").removeprefix(".venv/bin/")
            if text.split(" ", 1)[0] not in TOOLS:
                continue
            start = n
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        argv = shlex.split(pending + text, comments=True)
        pending = ""
        out.append((start, argv))
    return out


def config_lines(path):
    """(line number, the words after `clockctl config`) wherever a document shows one:
    code blocks, indented blocks and `inline code` alike."""
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for m in re.finditer(r"clockctl config ([^`\n]*)", line):
            words = m.group(1).split(" #", 1)[0]
            out.append((n, shlex.split(words)))
    return out


def parse(argv):
    """None if the tool's parser takes argv, else its complaint."""
    import contextlib
    import io

    tool, args = argv[0], argv[1:]
    if tool == "clockctl" and args[:1] == ["sim"]:
        return None                  # its arguments are the simulator's
    make = TOOLS[tool]
    if tool == "clockctl" and args[:1] == ["hall"]:
        from host_tools.hall import cli as hall_cli

        make, args = hall_cli.build_parser, args[1:]     # the hall parses its own
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            make().parse_args(args)
    except SystemExit as e:
        return None if e.code == 0 else (err.getvalue().strip() or "exit %s" % e.code)
    return None


PLACEHOLDER = re.compile(r"[A-Z_]+|\.\.\.|…")      # preset=NAME, lang=…: the key only


def config_problems(words):
    """What the device (or clockctl before it) would refuse in these key=value words."""
    from store.config import DEFAULTS
    from store.config import problem as _check

    items = [w for w in words if "=" in w and not w.startswith("-")]
    # hall_key=@FILE: clockctl sends the file's first line (checked when it reads it)
    items = [i for i in items if not (i.split("=", 1)[0] in clockctl.SECRET_FROM_FILE
                                      and i.split("=", 1)[1].startswith("@"))]
    for item in items:
        if PLACEHOLDER.fullmatch(item.split("=", 1)[1]) and item.split("=", 1)[0] in DEFAULTS:
            items = [i for i in items if i != item]
    changes = clockctl.parse_assignments(items)
    raw = dict(item.split("=", 1) for item in items)
    request = clockctl.typed_like(changes, raw, DEFAULTS)
    problems = clockctl.unknown_keys(request, DEFAULTS)
    candidate = dict(DEFAULTS)
    candidate.update(request)
    for key in request:
        if key in DEFAULTS:
            message = _check(key, request[key], candidate)
            if message:
                problems.append(message)
    return problems


def test_the_guide_exists_and_is_linked_from_readme_and_host_tools():
    assert GUIDE.is_file()
    for doc in ("README.md", "docs/host-tools.md"):
        text = (REPO / doc).read_text(encoding="utf-8")
        assert "first-tournament.md" in text, doc


def test_the_guide_walks_every_step_with_real_commands():
    used = {tuple(argv[:2]) for _, argv in code_commands(GUIDE)}
    for step in [("wordpack", "build"), ("wordpack", "verify"), ("wordpack", "legend"),
                 ("clockctl", "flash"), ("clockctl", "devices"), ("clockctl", "config"),
                 ("clockctl", "results"), ("clockctl", "reset"), ("clockctl", "logs"),
                 ("clockctl", "push-lexicon")]:
        assert step in used, step
    keys = {w.split("=", 1)[0] for _, words in config_lines(GUIDE) for w in words if "=" in w}
    assert {"table", "preset", "lang", "referee_pin"} <= keys, keys


@pytest.mark.parametrize("doc", RUNNABLE, ids=lambda p: p.name)
def test_every_command_shown_parses(doc):
    commands = code_commands(doc)
    assert commands, doc
    wrong = ["%s:%d: %s: %s" % (doc.name, n, " ".join(argv), parse(argv))
             for n, argv in commands if parse(argv)]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("doc", ALL_DOCS, ids=lambda p: p.name)
def test_every_setting_shown_is_one_the_firmware_accepts(doc):
    wrong = ["%s:%d: clockctl config %s: %s" % (doc.name, n, " ".join(words), problems)
             for n, words in config_lines(doc) if (problems := config_problems(words))]
    assert not wrong, "\n".join(wrong)


def test_the_checks_catch_a_wrong_command_and_a_wrong_setting():
    # the checks fail on the mistakes they are for
    assert parse(["clockctl", "config", "--all", "preset=tso30", "lang=de"]) is None
    assert parse(["clockctl", "reset", "--everything"])
    assert parse(["wordpack", "legend"])
    assert config_problems(["language=de"]) == ["unknown setting 'language' (did you mean lang?)"]
    assert config_problems(["preset=tso35"])
    assert config_problems(["table=12", "referee_pin=0420", "lang=nb"]) == []
    assert config_problems(["table=Tisch 12"])
    assert config_problems(["preset=NAME"]) == []                 # a placeholder
    assert config_problems(["langauge=NAME"])                     # but not of a wrong key

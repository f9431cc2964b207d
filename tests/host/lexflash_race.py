"""clockctl flash-lexicon against a clock that writes its filesystem as fast as it can
(tests/host/link_device.py --busy-log): the race test's runs, for the test suite
(tests/host/test_flash_lexicon.py, a few runs) and the benchmark (bench/bench_lexflash.py,
twenty).  After each run every line of the game log must be one the clock wrote, whole,
in its order, and the list the clock uses the one written."""

from __future__ import annotations

import json
import time
from pathlib import Path

from host_tools import cli
from host_tools.link import Link
from tests.host import test_flash_lexicon as tfl
from tests.host.linkrig import wait_for


class LogDamaged(AssertionError):
    pass


def log_lines(files: dict[str, bytes]) -> list[bytes]:
    """The game log's lines, the older generation first."""
    data = files.get("logs/games.1.jsonl", b"") + files.get("logs/games.jsonl", b"")
    return data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n")


def check_log(files: dict[str, bytes]) -> tuple[int, int, tuple]:
    """(lines, starts seen, (start, number) of the last line) of a log that is whole: every line one the busy logger wrote,
    numbered on from the line before within one start, or (a line cut by the reset)
    the beginning of one, followed by a later start's line.  LogDamaged otherwise."""
    lines = log_lines(files)
    last = None             # (boot, n) of the line before
    boots = set()
    for i, raw in enumerate(lines):
        try:
            obj = json.loads(raw)
            boot, n, pad = obj["boot"], obj["n"], obj["pad"]
        except (ValueError, KeyError, TypeError):
            later = i + 1 < len(lines) and lines[i + 1].startswith(b'{"boot": ')
            if raw.startswith(b'{"boot": ') and later and all(32 <= c < 127 for c in raw):
                last = None     # cut by the reset: the next line is a new start's
                continue
            raise LogDamaged("line %d of the game log is not one the clock wrote: %r"
                             % (i, raw[:80])) from None
        if pad != "%040d" % n:
            raise LogDamaged("line %d of the game log is changed: %r" % (i, raw[:80]))
        if last is not None and boot == last[0] and n != last[1] + 1:
            raise LogDamaged("line %d of the game log: %d after %d" % (i, n, last[1]))
        if last is not None and boot < last[0]:
            raise LogDamaged("line %d of the game log: start %d after %d" % (i, boot, last[0]))
        boots.add(boot)
        last = (boot, n)
    return len(lines), len(boots), last or (-1, -1)


def busy_clock(folder: Path):
    rig = tfl.clock(folder, "--busy-log")
    wait_for(lambda: len(log_lines(tfl.files(rig))) > 50, 20, "the clock to log")
    return rig


def run(rig, image: Path, tmp: Path) -> dict:
    """One flash-lexicon of `image` while the clock logs; the log checked after it."""
    t0 = time.monotonic()
    code = cli.main(["flash-lexicon", str(image), "--target", "wroom", "--port", rig.port])
    took = time.monotonic() - t0
    if code != 0:
        raise AssertionError("flash-lexicon failed (exit %d)" % code)
    with Link(rig.port, timeout=3.0) as link:
        info = link.info()
    data = Path(image).read_bytes()
    slot = info["lexicon"]["slot"]
    # esptool wrote inside that partition and nowhere else
    part = next(p for p in tfl.TABLE if p.label == slot)
    regions = rig.loaders[-1].regions
    assert regions and all(part.offset <= at and at + n <= part.end for at, n in regions), \
        (slot, regions)
    written = (rig.folder / ("flash-%s.bin" % slot)).read_bytes()[:len(data)]
    assert written == data and info["lexicon"]["size"] == len(data), info
    # the clock logs on after its restart: wait for 20 lines of this start (each start
    # of the busy logger leaves a file boots/N)
    boot = max(int(name[6:]) for name in tfl.files(rig) if name.startswith("boots/"))
    wait_for(lambda: check_log(tfl.files(rig))[2] >= (boot, 20), 30, "the clock to log on")
    lines, boots, _ = check_log(tfl.files(rig))
    return {"seconds": took, "lines": lines, "starts": boots, "slot": slot}

"""The memory tests' game with the full Polish word list, on the images `clockctl image`
writes (tests/host/device_image.py), and the figures it prints."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from host_tools.targets import TARGETS
from tests import shared
from tests.host import device_image

REPO = device_image.REPO
IMAGE = REPO / "build" / "pl.dawg"
# 90 s of play with challenges, the game's end and its scores (runtime_driver.SHEET), then
# 2 s of the asyncio tasks
STEPS = "memory 9000"
SHEET = (413, 380)          # the scores typed at the end (runtime_driver.SHEET)
# The lean target's heap as the chip gives it, 96 KB (host_tools/targets.py), in which the
# GC benchmark times its collections; the memory test holds the game to 80 KB of it.
WROOM_HEAP = TARGETS["wroom"]["heap_max"]


def polish_image() -> Path:
    """The full Polish list packed by the packer (built into build/pl.dawg once, and again
    when the one there is of an older format)."""
    from wordlist_packer.image import Image, ImageError

    def current():
        try:
            Image.load(IMAGE)
            return True
        except (OSError, ImageError):   # none yet, or one of an older format
            return False

    if current():
        return IMAGE
    source = shared.wordlist("pl")
    with shared.cache_lock(IMAGE.parent):
        if not current():
            part = IMAGE.with_name(IMAGE.name + ".%d" % os.getpid())
            subprocess.run([sys.executable, "-m", "wordlist_packer", "build", str(source),
                            "--language", "pl", "-o", str(part), "--date", "0", "-q"],
                           check=True, cwd=REPO)
            os.replace(part, IMAGE)
    return IMAGE


def polish_sample(step: int) -> list[str]:
    """Every `step`-th word of the full Polish list, in order: decoded from the image once
    (4 million words: tens of seconds of CPU) and kept beside it, under the image's hash."""
    import hashlib

    from wordlist_packer.image import Image

    data = polish_image().read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    cache = IMAGE.with_name("%s.every-%d.txt" % (IMAGE.name, step))
    with shared.cache_lock(IMAGE.parent):
        try:
            head, *words = cache.read_text(encoding="utf-8").split("\n")
            if head == digest:
                return words
        except OSError:
            pass
        words = Image(data).word_list()[::step]
        part = cache.with_name(cache.name + ".%d" % os.getpid())
        part.write_text("\n".join([digest, *words]), encoding="utf-8")
        os.replace(part, cache)
    return words


@dataclass
class Figures:
    peak: int           # live heap after collections, at its highest
    fakes: int          # interpreter, fakes with their panels and keypad, driver
    booted: int         # live heap after start-up
    raw: int            # highest heap use before collecting (garbage included)
    heap: int           # the heap's size at the end (all areas)
    areas: int
    challenges: int
    words: int
    acceptable: int
    origin: str         # where the firmware's code came from: "frozen", "rom", "fw/a"
    gc_longest_us: int
    gc_total_us: int
    gc_count: int
    qstr_pools: int     # the dynamic qstr pools at the end (micropython.qstr_info())
    qstrs: int          # the names in them
    qstr_bytes: int     # the heap they take
    extra_names: int    # names interned before the game (TC_EXTRA_NAMES)
    extra_bytes: int    # the heap those took then (counted in neither share)
    scores: tuple       # the scores confirmed at the game's end (left, right)
    scores_peak: int    # live heap at its highest from the game's end to the result

    @property
    def firmware_peak(self):
        return self.peak - self.fakes - self.extra_bytes

    @property
    def firmware_scores(self):
        """The firmware's share at the fullest moment of the game's end and its scores."""
        return self.scores_peak - self.fakes - self.extra_bytes

    @property
    def firmware_booted(self):
        return self.booted - self.fakes - self.extra_bytes


def figures(proc) -> Figures:
    out, err = proc.stdout, proc.stderr
    assert proc.returncode == 0, (out[-1500:], err[-3000:])
    lines = out.splitlines()
    lex = [line for line in lines if line.startswith("L ")]
    assert lex and lex[0].startswith("L pl "), (lex, err[-2000:])
    m = [line.split() for line in lines if line.startswith("M ")][0]
    h = [line.split() for line in lines if line.startswith("H ")][0]
    g = [line.split() for line in lines if line.startswith("G ")][0]
    x = [line.split() for line in lines if line.startswith("X ")][0]
    r = [line.split() for line in lines if line.startswith("R ")]
    assert r, "the game did not reach its scores"
    # "Q qstr pool: n_pool=5, n_qstr=302, n_str_data_bytes=2902, n_total_bytes=7398"
    q = [line for line in lines if line.startswith("Q qstr pool:")][0]
    pool = dict(item.strip().split("=") for item in q.split(":", 1)[1].split(","))
    peak, _total, challenges, words, acceptable, fakes, booted, raw = map(int, m[1:9])
    extra_names, extra_bytes = int(x[1]), int(x[2])
    f = Figures(peak, fakes - extra_bytes, booted, raw, int(h[1]), int(h[2]), challenges,
                words, acceptable, m[9], int(g[1]), int(g[2]), int(g[3]),
                int(pool["n_pool"]), int(pool["n_qstr"]), int(pool["n_total_bytes"]),
                extra_names, extra_bytes, (int(r[0][1]), int(r[0][2])),
                int(r[0][3]))
    assert f.scores == SHEET, f.scores
    assert f.challenges > 0 and f.words >= f.challenges and 0 < f.acceptable < f.challenges
    assert f.fakes < f.booted <= f.peak <= f.raw <= f.heap and f.scores_peak <= f.peak
    return f


def hall_config(tmp: Path, port: int) -> Path:
    """A config.json that sets the hall up: the (faked) Wi-Fi, a broker on this computer's
    `port`, the event and its key (docs/hall.md, The clock's side)."""
    import json

    path = tmp / "config-hall.json"
    path.write_text(json.dumps({"table": "12", "wifi_ssid": "venue", "wifi_password":
                                "venue-password", "hall": "mqtt://127.0.0.1:%d" % port,
                                "event": "memtest", "hall_key": "memory-test-event-key"}))
    return path


def hall_figures(proc) -> tuple[str, int, int, int, str]:
    """(status, messages acknowledged, connections, failures, the last error) of the
    hall's publisher."""
    n = [line.split() for line in proc.stdout.splitlines() if line.startswith("N ")]
    assert n, proc.stdout[-1000:]
    return n[0][1], int(n[0][2]), int(n[0][3]), int(n[0][4]), n[0][5]


def play(target: str, tmp: Path, bits: int = 32, heap: list[str] | None = None,
         lexicon: Path | None = None, extra_names: int = 0, config: Path | None = None):
    """clockctl image for `target`, then the game booted from what it wrote (after
    interning `extra_names` names of no use, when asked).  config: a config.json for the
    image (hall_config: the game with Wi-Fi and MQTT on)."""
    images = device_image.clockctl_image(target, tmp / "images", lexicon=lexicon or polish_image(),
                                         config=config)
    proc = device_image.boot(images, tmp / ("boot-%d" % bits), bits=bits, args=STEPS,
                             target=target, heap=heap,
                             extra_env={"TC_EXTRA_NAMES": str(extra_names)})
    return images, proc


def report(name: str, f: Figures) -> str:
    extra = (", %d extra names interned first %d" % (f.extra_names, f.extra_bytes)
             if f.extra_names else "")
    return ("%s: heap %d B (%d areas); peak live %d B: fakes, panels, keypad, driver %d, "
            "firmware %d (%d after start-up)%s; highest use before collecting %d; "
            "%d challenges of %d words, %d acceptable; code from %s; %d dynamic qstrs "
            "in %d pools, %d B; %d collections, longest %d us; game ended, scores %d:%d "
            "typed and confirmed, firmware %d at most meanwhile"
            % ((name, f.heap, f.areas, f.peak, f.fakes, f.firmware_peak, f.firmware_booted,
               extra, f.raw, f.challenges, f.words, f.acceptable, f.origin, f.qstrs,
               f.qstr_pools, f.qstr_bytes, f.gc_count, f.gc_longest_us) + f.scores + (f.firmware_scores,)))

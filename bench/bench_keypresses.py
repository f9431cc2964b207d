"""Key presses per letter of the multi-tap keypad, per language, and the layouts compared.

    python bench/bench_keypresses.py [--words 20000] [--emit-frequencies]

Words are drawn uniformly from each list in ../shared/wordlists (normalised by the
packer's profile), and typed with the key map the firmware generates for that
language's tile table (firmware/terminal/keymap.py, frequencies from
firmware/terminal/letterfreq.py).  Counted: every press of a digit key, plus one
press (the `B` key, or waiting out the multi-tap timeout) between two letters
that share a key.  Not counted: `#` after each word (a word boundary, not a letter).
Target: at most 2.2 presses per letter on average for each language.

The same words are typed with two other layouts, to weigh the firmware's against them:
  - "optimised" (the firmware's): the tiles cut into ten keys in alphabet order where
    the fewest presses result, the most frequent letter first on each key;
  - "alphabetical": the same keys, each key's letters in alphabet order;
  - "phone": the phone keypad (2 ABC ... 9 WXYZ), a language's own letters after their
    base letter's key (Ä on the A key, Ł on the L key, Æ and Å on the A key, Ø on O).
Besides presses: separators (two letters on one key in a row) and the share of letters
that take three or more presses, where a typist most often counts wrong.  The legend
(the terminal's key A, the simulator's keys, `wordpack legend`) shows each key's letters
in the order presses give them, whatever the layout.

--emit-frequencies rewrites firmware/terminal/letterfreq.py from the full lists.
"""

import argparse
import collections
import lzma
import os
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "firmware"))

from terminal.keymap import KeyMap, LETTER_KEYS, tile_frequencies  # noqa: E402
from wordlist_packer.normalise import Profile  # noqa: E402

LANGUAGES = ("de", "en", "nb", "pl")
TARGET = 2.2


def wordlists():
    return Path(os.environ.get("TILECLOCK_WORDLISTS", REPO.parent / "shared" / "wordlists"))


def kept_words(lang):
    profile = Profile.builtin(lang)
    out = []
    with lzma.open(wordlists() / (lang + ".txt.xz"), "rt", encoding="utf-8") as f:
        for line in f:
            codes, _ = profile.normalise(line.strip())
            if codes:       # as chr(tile index), as the rest of this bench counts them
                out.append("".join(map(chr, profile.indices(codes))))
    return profile, out


def emit_frequencies():
    lines = ["# Letter frequencies per language, parts per 100 000 letters of the tournament",
             "# word lists in ../shared/wordlists (normalised by the packer's profiles; each",
             "# word counted once), as 'TILE COUNT' pairs, most frequent first.  One string",
             "# per language keeps the module small in RAM (dicts would cost kilobytes).",
             "# Used to order the letters on the multi-tap keys when the image carries no",
             "# frequencies of its own; regenerate with",
             "# `python bench/bench_keypresses.py --emit-frequencies`.", "", "FREQUENCY = {"]
    for lang in LANGUAGES:
        profile, words = kept_words(lang)
        counts = collections.Counter()
        for w in words:
            counts.update(w)
        total = sum(counts.values())
        pairs = sorted(((t, counts[chr(i)]) for i, t in enumerate(profile.tiles)),
                       key=lambda p: -p[1])
        body = " ".join("%s %d" % (t, round(c * 100000 / total)) for t, c in pairs)
        lines.append('    "%s": "%s",' % (lang, body))
    lines.append("}")
    (REPO / "firmware" / "terminal" / "letterfreq.py").write_text("\n".join(lines) + "\n",
                                                                  encoding="utf-8")


PHONE = ("", "ABC", "DEF", "GHI", "JKL", "MNO", "PQRS", "TUV", "WXYZ")    # keys 2-9


def _base(tile):
    """The plain letter a tile sits with on a phone keypad."""
    import unicodedata

    special = {"Æ": "A", "Ø": "O", "Ł": "L", "ß": "S"}
    if tile in special:
        return special[tile]
    return unicodedata.normalize("NFD", tile)[0]


class Layout:
    """A key map: for each tile index its (key, position on the key)."""

    def __init__(self, where):
        self.where = where

    def presses(self, word):
        total, last = 0, None
        for t in word:
            key, pos = self.where[t]
            total += pos + 1 + (key == last)
            last = key
        return total


def layouts(profile, lang):
    tiles = profile.tiles
    firmware = KeyMap(tiles, tile_frequencies(tiles, lang))
    optimised = Layout([firmware.where(i) for i in range(len(tiles))])
    alpha = {}
    for k in LETTER_KEYS:
        for pos, i in enumerate(sorted(firmware.cycle(k))):
            alpha[i] = (k, pos)
    phone_keys = {}
    order = sorted(range(len(tiles)), key=lambda i: (len(tiles[i]) > 1 or _base(tiles[i]) != tiles[i], i))
    for i in order:
        base = _base(tiles[i])
        key = next((str(n + 1) for n, letters in enumerate(PHONE) if base in letters), "1")
        phone_keys.setdefault(key, []).append(i)
    phone = {}
    for key, items in phone_keys.items():
        for pos, i in enumerate(items):
            phone[i] = (key, pos)
    return firmware, {"optimised": optimised,
                      "alphabetical": Layout([alpha[i] for i in range(len(tiles))]),
                      "phone": Layout([phone[i] for i in range(len(tiles))])}


def measure(lang, sample_size, rng):
    profile, words = kept_words(lang)
    sample = [words[rng.randrange(len(words))] for _ in range(sample_size)]
    keymap, maps = layouts(profile, lang)
    out = {}
    for name, lay in maps.items():
        letters = presses = separators = long_ones = 0
        for w in sample:
            tiles = [ord(c) for c in w]
            letters += len(tiles)
            presses += lay.presses(tiles)
            last = None
            for t in tiles:
                key, pos = lay.where[t]
                separators += key == last
                long_ones += pos >= 2
                last = key
        out[name] = (presses / letters, separators / letters, long_ones / letters)
    layout = "  ".join("%s:%s" % (k, keymap.legend(k)) for k in LETTER_KEYS)
    return out, layout


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--words", type=int, default=20000)
    ap.add_argument("--emit-frequencies", action="store_true")
    args = ap.parse_args(argv)
    if args.emit_frequencies:
        emit_frequencies()
    rng = random.Random(1)
    print("%-4s %-13s %14s %11s %16s" % ("lang", "layout", "presses/letter", "separators",
                                         "3+ presses"))
    worst = 0.0
    layouts_seen = []
    for lang in LANGUAGES:
        figures, layout = measure(lang, args.words, rng)
        layouts_seen.append((lang, layout))
        worst = max(worst, figures["optimised"][0])
        for name, (per_letter, sep, long_share) in figures.items():
            print("%-4s %-13s %14.3f %10.1f%% %15.1f%%" % (lang, name, per_letter, 100 * sep,
                                                          100 * long_share))
    print("the firmware's key maps (optimised):")
    for lang, layout in layouts_seen:
        print("  %-4s %s" % (lang, layout))
    print("target: at most %.1f for each language: %s" % (TARGET, "met" if worst <= TARGET else "MISSED"))
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())

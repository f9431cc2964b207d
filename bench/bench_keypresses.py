"""Key presses per letter of the multi-tap keypad, per language.

    python bench/bench_keypresses.py [--words 20000] [--emit-frequencies]

Words are drawn uniformly from each list in ../shared/wordlists (normalised by the
packer's profile), and typed with the key map the firmware generates for that
language's tile table (firmware/terminal/keymap.py, frequencies from
firmware/terminal/letterfreq.py).  Counted: every press of a digit key, plus one
press (the `B` key, or waiting out the multi-tap timeout) between two letters
that share a key.  Not counted: `#` after each word (a word boundary, not a letter).
Target: at most 2.2 presses per letter on average for each language.

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


def measure(lang, sample_size, rng):
    profile, words = kept_words(lang)
    sample = [words[rng.randrange(len(words))] for _ in range(sample_size)]
    keymap = KeyMap(profile.tiles, tile_frequencies(profile.tiles, lang))
    letters = presses = separators = 0
    for w in sample:
        tiles = [ord(c) for c in w]
        letters += len(tiles)
        presses += keymap.presses(tiles)
        last = None
        for t in tiles:
            key = keymap.where(t)[0]
            separators += key == last
            last = key
    layout = "  ".join("%s:%s" % (k, keymap.legend(k)) for k in LETTER_KEYS)
    return presses / letters, separators / letters, layout


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--words", type=int, default=20000)
    ap.add_argument("--emit-frequencies", action="store_true")
    args = ap.parse_args(argv)
    if args.emit_frequencies:
        emit_frequencies()
    rng = random.Random(1)
    print("%-4s %14s %18s  %s" % ("lang", "presses/letter", "of which separators", "key map"))
    worst = 0.0
    for lang in LANGUAGES:
        per_letter, sep, layout = measure(lang, args.words, rng)
        worst = max(worst, per_letter)
        print("%-4s %14.3f %18.3f  %s" % (lang, per_letter, sep, layout))
    print("target: at most %.1f for each language: %s" % (TARGET, "met" if worst <= TARGET else "MISSED"))
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())

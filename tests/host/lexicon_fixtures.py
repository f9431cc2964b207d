"""Small word graph images for the firmware tests, built by the packer.

The firmware tests run under MicroPython too, where the packer cannot run, so the
images live in tests/firmware/data/ next to a list of queries with the answers of
the packer's own reader.  The word lists are synthetic (a seeded generator), so no
licence of a real list applies.  test_lexicon_agrees_with_packer.py rebuilds them
and fails if the committed files differ.  Regenerate with
`python -m tests.host.lexicon_fixtures`.
"""

import random
from pathlib import Path

from wordlist_packer.image import Image
from wordlist_packer.normalise import Profile
from wordlist_packer.pipeline import build_from_lines

DATA = Path(__file__).resolve().parents[1] / "firmware" / "data"

# name: (profile, tiles to draw from, word count, shortest, longest, seed)
# or (profile, the words themselves): the flow tests need known words.
SPECS = {
    "de": ("de", ["ab", "aber", "ärger", "haus", "hause", "maus", "qua", "zug", "züge", "öl",
                  "übel", "tee", "see"]),
    "es": ("es", ["A", "B", "C", "CH", "D", "E", "I", "K", "L", "LL", "N", "Ñ", "O", "R",
                  "RR", "S", "W"], 300, 2, 9, 5),
    "pl": ("pl", list("AĄBCĆDEĘFGHIJKLŁMNŃOÓPRSŚTUWYZŹŻ"), 3000, 2, 15, 7),
    "nb": ("nb", list("ABDEGIKLNORSTUÆØÅÄÖÜ"), 400, 2, 11, 11),
}


# The Polish fixture starts with the two-tile table that real lists get (a small list
# only gets it when asked), so that both ways of a lookup are tested; the Spanish one
# is sized in too few rounds to settle, so that it holds loose (padded) pointers.
OPTIONS = {"pl": {"prefix_table": True}, "es": {"rounds": (1, 0)}}


# Endings the Polish fixture's stems take: sets that include one another, as
# inflection makes them, so that the image has nodes that continue in others (jumps).
PARADIGMS = [["a", "e", "y", "ą", "ami", "ach", "om", "ę"], ["a", "e", "y", "ą"],
             ["a", "e", "y", "ą", "ami", "ach"], ["ać", "am", "asz", "a", "amy", "acie", "ają"],
             ["am", "asz", "a", "amy"], ["y", "ów", "om", "ami", "ach"]]


def words_for(name):
    if len(SPECS[name]) == 2:
        return SPECS[name][1]
    _, tiles, count, shortest, longest, seed = SPECS[name]
    rng = random.Random(seed)
    out = set()
    if name == "pl":
        out.update(["żółw", "źdźbło", "gęś", "kot", "koty"])     # known words for the tests
        lower = [t.lower() for t in tiles]
        while len(out) < count // 2:
            stem = "".join(rng.choice(lower) for _ in range(rng.randint(2, 9)))
            for ending in rng.choice(PARADIGMS):
                out.add(stem + ending)
    while len(out) < count:
        n = rng.randint(shortest, longest)
        out.add("".join(rng.choice(tiles) for _ in range(n)).lower())  # capitals are dropped
    return sorted(out)


def queries_for(name, img):
    """Every word, one-tile edits of words, and words beyond the longest length."""
    rng = random.Random(1000 + len(name) + ord(name[0]))
    words = img.word_list()
    tiles = img.tile_strings
    queries = list(words)
    for w in words[: len(words) // 2]:
        t = img.tiles_of(w)
        i = rng.randrange(len(t))
        choice = rng.randrange(3)
        if choice == 0:
            t = t[:i] + t[i + 1:]
        elif choice == 1:
            t = t[:i] + [rng.randrange(len(tiles))] + t[i:]
        else:
            t = t[:i] + [rng.randrange(len(tiles))] + t[i + 1:]
        queries.append("".join(tiles[x] for x in t))
    queries.append(tiles[0] * (img.max_len + 1))
    queries.append(words[-1] + tiles[0] * (img.max_len + 1))
    return queries


def answer(img, tiles):
    """0 invalid, 1 valid, 2 beyond the list's longest word (the referee decides)."""
    if len(tiles) > img.max_len:
        return 2
    return 1 if img.contains_tiles(tiles) else 0


def build(name):
    profile = Profile.builtin(SPECS[name][0])
    data = build_from_lines(words_for(name), profile, name="fixture-" + name, version="1",
                            date=0, **OPTIONS.get(name, {}))
    img = Image(data)
    lines = []
    for q in queries_for(name, img):
        lines.append("%s %d" % (q, answer(img, img.tiles_of(q))))
    return data, "\n".join(lines) + "\n"


# Images the link tests install ("list", "old", "new": list names; "new" is the largest).
LINK_IMAGES = {"list": 300, "old": 150, "new": 1200}


def link_image(name):
    rng = random.Random(len(name) * 31 + LINK_IMAGES[name])
    words = {"".join(rng.choice("abcdefghijklmnoprstuwyz") for _ in range(rng.randint(2, 9)))
             for _ in range(LINK_IMAGES[name])}
    return build_from_lines(sorted(words), Profile.builtin("en"), name=name, version="7",
                            date=0)


def empty_image():
    """An image of no words (the packer's command refuses to make one; the library can):
    the device must refuse it."""
    return build_from_lines([], Profile.builtin("pl"), name="empty", version="1", date=0)


def write_all(directory=DATA):
    directory.mkdir(parents=True, exist_ok=True)
    for name in SPECS:
        data, answers = build(name)
        (directory / ("lexicon_%s.dawg" % name)).write_bytes(data)
        (directory / ("lexicon_%s.answers" % name)).write_text(answers, encoding="utf-8")
    (directory / "lexicon_empty.dawg").write_bytes(empty_image())
    for name in LINK_IMAGES:
        (directory / ("link_%s.dawg" % name)).write_bytes(link_image(name))


if __name__ == "__main__":
    write_all()

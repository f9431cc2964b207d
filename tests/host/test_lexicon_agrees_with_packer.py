"""The firmware's reader (firmware/lexicon) answers exactly as the packer's reader
(wordlist_packer.image) on the same images: under CPython over generated lists, and
in the real MicroPython interpreter over an image built from a real word list."""

import lzma
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from hypothesis import given, settings, strategies as st

from lexicon import TOO_LONG, VALID, INVALID, Lexicon, open_file
from lexicon.sources import FileSource
from tests import shared
from tests.host import lexicon_fixtures
from wordlist_packer.image import Image
from wordlist_packer.normalise import Profile
from wordlist_packer.pipeline import build_from_lines

REPO = Path(__file__).resolve().parents[2]


def packer_answer(img, tiles):
    if tiles is None or not tiles:
        return INVALID
    if len(tiles) > img.max_len:
        return TOO_LONG
    return VALID if img.contains_tiles(tiles) else INVALID


def test_committed_fixture_images_are_what_the_packer_builds_now():
    for name in lexicon_fixtures.SPECS:
        data, answers = lexicon_fixtures.build(name)
        path = lexicon_fixtures.DATA / ("lexicon_%s.dawg" % name)
        assert path.read_bytes() == data, "rerun python -m tests.host.lexicon_fixtures"
        assert (lexicon_fixtures.DATA / ("lexicon_%s.answers" % name)).read_text(
            encoding="utf-8") == answers
    assert (lexicon_fixtures.DATA / "lexicon_empty.dawg").read_bytes() == \
        lexicon_fixtures.empty_image()
    for name in lexicon_fixtures.LINK_IMAGES:
        assert (lexicon_fixtures.DATA / ("link_%s.dawg" % name)).read_bytes() == \
            lexicon_fixtures.link_image(name)


ES = Profile.builtin("es")
ES_TILES = [t.lower() for t in ES.tiles]
word = st.lists(st.sampled_from(ES_TILES[:12]), min_size=1, max_size=8).map("".join)


@settings(max_examples=60, deadline=None)
@given(words=st.lists(word, min_size=1, max_size=60), queries=st.lists(word, max_size=40),
       page_shift=st.sampled_from([7, 8, 10]), align=st.sampled_from([0, 3, 5]),
       table=st.booleans(), cache=st.sampled_from([40, 300, 4096]))
@pytest.mark.slow
def test_generated_lists_agree(tmp_path_factory, words, queries, page_shift, align, table,
                               cache):
    data = build_from_lines(words, ES, name="gen", version="1", date=0, page_shift=page_shift,
                            align_shift=align, prefix_table=table)
    img = Image(data)
    path = tmp_path_factory.mktemp("img") / "gen.dawg"
    path.write_bytes(data)
    lex = Lexicon(FileSource(str(path)), cache_bytes=cache)
    for q in words + queries + [words[0] + "a" * 9]:
        tiles = img.tiles_of(q.upper())
        assert lex.lookup(bytes(tiles)) == packer_answer(img, tiles), q
    lex.close()


MPY_SCRIPT = """
import sys
from lexicon import open_file
lex = open_file(sys.argv[1])
with open(sys.argv[2], encoding="utf-8") as f, open(sys.argv[3], "w") as out:
    for line in f:
        out.write(str(lex.check(line.rstrip("\\n"))))
print("reads", lex.reads)
"""


def _micropython():
    candidate = Path(sys.executable).parent / "micropython"
    return str(candidate) if candidate.exists() else "micropython"


@pytest.mark.slow
def test_micropython_reader_agrees_on_a_real_german_list(tmp_path):
    rng = random.Random(5)
    with lzma.open(shared.wordlist("de"), "rt", encoding="utf-8") as f:
        lines = [line.strip() for line in f]
    sample = rng.sample(lines, 30000)
    profile = Profile.builtin("de")
    data = build_from_lines(sample, profile, name="de-sample", version="1", date=0)
    img = Image(data)
    words = img.word_list()
    tiles = img.tile_strings
    queries = rng.sample(words, 3000)
    for w in rng.sample(words, 3000):           # one-tile edits: mostly non-words
        t = img.tiles_of(w)
        i = rng.randrange(len(t))
        t[i] = rng.randrange(len(tiles))
        queries.append("".join(tiles[x] for x in t))
    queries.append("A" * (img.max_len + 1))
    image = tmp_path / "de.dawg"
    image.write_bytes(data)
    (tmp_path / "q.txt").write_text("\n".join(queries) + "\n", encoding="utf-8")
    (tmp_path / "agree.py").write_text(MPY_SCRIPT)
    env = dict(os.environ, MICROPYPATH=str(REPO / "firmware"))
    proc = subprocess.run([_micropython(), str(tmp_path / "agree.py"), str(image),
                           str(tmp_path / "q.txt"), str(tmp_path / "a.txt")],
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = (tmp_path / "a.txt").read_text()
    expected = "".join(str(packer_answer(img, img.tiles_of(q))) for q in queries)
    assert len(got) == len(queries)
    mismatches = [(q, e, g) for q, e, g in zip(queries, expected, got) if e != g]
    assert not mismatches, mismatches[:10]
    assert expected.count("1") > 3000 and expected.count("0") > 1000     # both kinds tested
    # and the same reader under CPython
    lex = open_file(str(image))
    assert "".join(str(lex.check(q)) for q in queries) == expected

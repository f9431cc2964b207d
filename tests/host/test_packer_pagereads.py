"""The page-read model (wordlist_packer/pagereads.py) counts what the device's reader
reads: every word of a slice of the Polish list, cold cache, against the firmware's
Lexicon, with the device's cache and with a cache small enough to evict within a word;
and the figures of a reader keeping some pages resident."""

import lzma

from lexicon import VALID, open_file
from tests import shared
from wordlist_packer.graph import CODE_BASE
from wordlist_packer.image import Image
from wordlist_packer.normalise import Profile
from wordlist_packer.pagereads import Model, cache_slots, cold_reads, hot_pages, summary
from wordlist_packer.pipeline import build_image, normalise_lines


def _slice_image(tmp_path, every=1000, **layout):
    with lzma.open(shared.wordlist("pl"), "rt", encoding="utf-8") as f:
        lines = f.read().split("\n")[::every]
    prof = Profile.builtin("pl")
    words = normalise_lines(prof, lines).words
    data, _ = build_image(words, prof, **layout)
    path = tmp_path / "slice.dawg"
    path.write_bytes(data)
    return path, [[ord(c) - CODE_BASE for c in w] for w in words]


def _cold(lex):
    # the state of a freshly opened reader: no page cached
    for i in range(len(lex._tags)):
        lex._tags[i] = -1
        lex._stamps[i] = 0
    lex._tick = 0


def test_model_counts_the_readers_page_reads(tmp_path):
    path, words = _slice_image(tmp_path, page_shift=7)
    img = Image.load(path)
    model = Model(img)
    for cache in (4096, 3 * (128 + 16)):        # 28 slots; 3 slots: evictions in a word
        lex = open_file(str(path), cache_bytes=cache, verify=False)
        slots = cache_slots(img, cache)
        assert slots == len(lex._bufs)
        hist = {}
        evicting = 0
        for w in words:
            _cold(lex)
            before = lex.reads
            assert lex.lookup(bytes(w)) == VALID
            reads = lex.reads - before
            assert model.reads(w, slots) == reads, w
            hist[reads] = hist.get(reads, 0) + 1
            evicting += len(set(model.fetches(w))) < reads
        lex.close()
        # the walk over every word gives the same counts as the lookups one by one
        got, worst = cold_reads(img, slots)
        assert got == hist
        assert model.reads(worst, slots) == max(hist)
        assert summary(got)["words"] == len(words) == img.words
        if slots == 3:
            assert evicting > 0          # the small cache did evict within words
        else:
            # with pages resident besides the cache (bench_lexicon --resident), a word
            # reads the other pages it spans (no word spans more than the 28 slots here)
            hot = hot_pages(img, 3)
            assert len(hot) == 3
            want: dict = {}
            for w in words:
                n = len(set(model.fetches(w)) - set(hot))
                want[n] = want.get(n, 0) + 1
            assert cold_reads(img, slots, resident=hot)[0] == want
            assert summary(want)["mean"] < summary(hist)["mean"] - 0.5

"""The page-read model (wordlist_packer/pagereads.py) counts what the device's reader
reads: every word of a slice of the Polish list, cold cache, against the firmware's
Lexicon, with the device's cache and with a cache small enough to evict within a word;
and the figures of a reader keeping some pages resident."""

import lzma

import pytest

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


@pytest.mark.slow
def test_model_counts_the_readers_page_reads(tmp_path):
    path, words = _slice_image(tmp_path, page_shift=7)
    img = Image.load(path)
    assert len(img.resident) == 32
    model = Model(img)
    slot = 128 + 16
    figures = {}
    # 28 slots; 3 slots: evictions in a word; with none, some, all the named pages resident
    for cache in (4096, 3 * slot):
        for count in (0, 5, 32):
            lex = open_file(str(path), cache_bytes=cache, verify=False,
                            resident_bytes=count * slot)
            assert len(lex._resident) == count
            pages = img.resident[:count]
            slots = cache_slots(img, cache)
            assert slots == len(lex._bufs)
            hist = {}
            evicting = 0
            for w in words:
                # the state of a freshly opened reader: no page cached, none in hand
                # (the page the last word ended in is not the next word's)
                lex.drop_cache()
                before = lex.reads
                assert lex.lookup(bytes(w)) == VALID
                reads = lex.reads - before
                assert model.reads(w, slots, resident=pages) == reads, w
                hist[reads] = hist.get(reads, 0) + 1
                evicting += len(set(model.fetches(w)) - set(pages)) < reads
            lex.close()
            # the walk over every word gives the same counts as the lookups one by one
            got, worst = cold_reads(img, slots, resident=pages)
            assert got == hist
            assert model.reads(worst, slots, resident=pages) == max(hist)
            assert summary(got)["words"] == len(words) == img.words
            if count == 32:
                assert cold_reads(img, slots) == (got, worst)    # the header's pages
            if slots == 3:
                if count == 0:
                    assert evicting > 0      # the small cache did evict within words
            else:
                # no word spans more than the 28 slots: a word reads the pages it
                # spans, resident ones aside
                want: dict = {}
                for w in words:
                    n = len(set(model.fetches(w)) - set(pages))
                    want[n] = want.get(n, 0) + 1
                assert got == want
            figures[cache, count] = summary(got)["mean"]
    for cache in (4096, 3 * slot):
        assert figures[cache, 32] < figures[cache, 5] < figures[cache, 0] - 0.5


def test_the_packer_names_the_pages_most_words_read(tmp_path):
    path, words = _slice_image(tmp_path, page_shift=7)
    img = Image.load(path)
    # the same choice as on every word of the slice, most read first
    assert img.resident == hot_pages(img, 32)

"""Lookups from the full Polish image under the real MicroPython interpreter.

    python bench/bench_lexicon.py [--list pl|all] [--image build/pl.dawg] [--queries 20000]
                                  [--cold-only]

First, under CPython, the flash page reads of every word of the list with a cold cache
(the device's cache of 4 KB emptied before each word: what a lookup costs when nothing
was looked up before), counted by wordlist_packer/pagereads.py, the model of the
device's reader that tests/host/test_packer_pagereads.py checks against it: mean, worst,
how many words need more than 16 reads, and the worst word. `--list all` prints these
for every list of ../shared/wordlists and stops (so does `--cold-only`).

Under CPython it builds the image with the packer if it is missing (into build/,
which git ignores), draws the queries (half words of the list, half one-tile
edits of words, most of them non-words) and runs itself in `micropython`, which
measures: lookups per second (the fastest of 5 passes over the queries; the answers
are checked against the packer's reader), flash page reads per lookup (mean and worst, cache of 4 KB), the reader's
RAM besides its cache and the resident pages, and that of the resident pages, a budget
of their own (gc.mem_alloc; also on the 32-bit interpreter if build/micropython-32 is
there), and opening: the full check that runs once when an image is installed, and the
open of every start (header only, the recorded digest).
"""

import sys

MICROPYTHON = sys.implementation.name == "micropython"
SPEED_PASSES = 5
BITS = 64 if sys.maxsize > 1 << 32 else 32     # the interpreter's word size


def reader_ram(image, cache_bytes):
    """The reader's RAM (gc.mem_alloc) besides its cache and the resident pages, the RAM
    of the resident pages (their slots, the objects holding them and the page -> slot
    table), the cache, the pages kept and a slot's size.  The reader alone is measured
    at the interpreter's first open, as at the device's start (it interns the one-letter
    tiles then); the resident pages as what opening with all of them adds."""
    import gc

    from lexicon import open_file

    def opened(resident):
        gc.collect()
        before = gc.mem_alloc()
        lex = open_file(image, cache_bytes=cache_bytes, verify=False, resident_bytes=resident)
        gc.collect()
        used = gc.mem_alloc() - before
        lex.close()
        return used, len(lex._bufs) * len(lex._bufs[0]), len(lex._resident), len(lex._bufs[0])

    used, cache, _, slot = opened(0)
    bare = opened(0)[0]
    full, _, kept, _ = opened(-1)
    return used - cache, full - bare, cache, kept, slot


def print_ram(ram):
    reader, resident, cache, kept, slot = ram
    bits = BITS
    print("reader RAM       %d B besides the cache and the resident pages (target <= 8192; "
          "%d-bit)" % (reader, bits))
    print("resident pages   %d B: %d slots of %d B = %d B (the board's budget, "
          "app/heap.py) and %d B of their objects and table (%d-bit)"
          % (resident, kept, slot, kept * slot, resident - kept * slot, bits))


def measure(image, queries_path, cache_bytes, expected_path):
    import gc
    import time

    from lexicon import open_file

    ram = reader_ram(image, cache_bytes)
    start = time.ticks_us()
    full = open_file(image, cache_bytes=cache_bytes)         # the full check, at install
    full_us = time.ticks_diff(time.ticks_us(), start)
    full_reads = full.reads
    full.close()
    start = time.ticks_us()
    lex = open_file(image, cache_bytes=cache_bytes, verified=full.digest)   # every start
    open_us = time.ticks_diff(time.ticks_us(), start)
    open_reads = lex.reads
    full = None
    cache = len(lex._bufs) * len(lex._bufs[0])
    with open(queries_path, "rb") as f:
        data = f.read()
    count = 0
    pos = 0
    while pos < len(data):
        count += 1
        pos += 1 + data[pos]
    queries = [b""] * count         # sized once: a growing list fragments the heap
    pos = 0
    for i in range(count):
        n = data[pos]
        queries[i] = data[pos + 1:pos + 1 + n]
        pos += 1 + n
    data = None
    with open(expected_path, "rb") as f:
        expected = f.read()
    answers = bytearray(len(queries))
    worst = 0
    reads0 = lex.reads
    for i in range(len(queries)):          # pass 1: correctness and block reads
        r = lex.reads
        answers[i] = lex.lookup(queries[i])
        if lex.reads - r > worst:
            worst = lex.reads - r
    reads = lex.reads - reads0
    wrong = sum(1 for i in range(len(queries)) if answers[i] != expected[i])
    gc.collect()
    lookup = lex.lookup
    us = 0
    for _ in range(SPEED_PASSES):          # pass 2: speed, the fastest of a few (a
        start = time.ticks_us()            # busy host slows some)
        for q in queries:
            lookup(q)
        t = time.ticks_diff(time.ticks_us(), start)
        if not us or t < us:
            us = t
    print("image            %s (%d words, %d bytes body)" % (image, lex.word_count, lex.body_len))
    print("cache            %d B (%d slots: a page of %d B, its check, 12 B of the next)" % (
        cache, len(lex._bufs), lex.page_size))
    print_ram(ram)
    print("open at start    %d reads, %.2f ms (the digest of the install-time check matches)"
          % (open_reads, open_us / 1000))
    print("full check       %d reads, %.1f ms (once, when the image is installed)"
          % (full_reads, full_us / 1000))
    print("lookups          %d (%d valid), %d wrong answers" % (
        len(queries), sum(1 for a in answers if a == 1), wrong))
    print("lookups/s        %d (target >= 5000; the fastest of %d passes)"
          % (len(queries) * 1000000 // us, SPEED_PASSES))
    print("block reads      %.2f per lookup, worst %d (warm: the queries one after another; "
          "cold figures above)" % (reads / len(queries), worst))
    if wrong:
        raise SystemExit(1)


def cold_figures(img, path, cache_bytes, resident=None):
    """Page reads of every word of the image, cold cache (wordlist_packer.pagereads),
    beside the first `resident` pages the header names resident (None: all of them, the
    reader of a board with the RAM for them; 0: none)."""
    import time

    from wordlist_packer.pagereads import cache_slots, cold_reads, summary

    slots = cache_slots(img, cache_bytes)
    start = time.process_time()
    if resident is None:
        resident = len(img.resident)
    pages = img.resident[:resident]
    hist, worst = cold_reads(img, slots, resident=pages)
    s = summary(hist)
    over = sum(n for k, n in hist.items() if k > 16)
    word = "".join(img.tile_strings[t] for t in worst)
    print("%s with %d of the %d pages its header names resident (%d B RAM besides the "
          "cache): %s" % (path.name, len(pages), len(img.resident),
                          len(pages) * ((1 << img.page_shift) + 16), pages))
    print("%s cold: %d words, page reads mean %.2f, worst %d (targets <= 6, <= 16); "
          "%d words need more than 16; cache %d slots; %d pages; worst word %s "
          "(%.0f s CPU)" % (path.name, s["words"], s["mean"], s["worst"], over, slots,
                            img.body_len // ((1 << img.page_shift) + 4), word,
                            time.process_time() - start))
    tail = sorted(hist.items())[-6:]
    print("  reads: words  " + ", ".join("%d: %d" % kv for kv in tail))
    sys.stdout.flush()


def prepare(argv):
    import argparse
    import lzma
    import os
    import random
    import subprocess
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(repo))
    from wordlist_packer.image import Image

    ap = argparse.ArgumentParser()
    ap.add_argument("--list", default="pl")
    ap.add_argument("--image")
    ap.add_argument("--queries", type=int, default=20000)
    ap.add_argument("--cache", type=int, default=4096)
    ap.add_argument("--resident", type=int, nargs="*", default=[], metavar="K",
                    help="also: the cold figures of a reader that keeps only the first K of "
                    "the pages the header names resident (a board with less RAM; 0: none)")
    ap.add_argument("--cold-only", action="store_true",
                    help="only the cold page reads of every word, no MicroPython run")
    args = ap.parse_args(argv)
    wordlists = Path(os.environ.get("TILECLOCK_WORDLISTS", repo.parent / "shared" / "wordlists"))

    def image_of(name, given=None):
        path = Path(given or repo / "build" / (name + ".dawg"))
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run([sys.executable, "-m", "wordlist_packer", "build",
                            str(wordlists / (name + ".txt.xz")), "-l", name, "-q",
                            "-o", str(path)], cwd=repo, check=True)
        return path

    lists = ["pl", "de", "nb", "en"] if args.list == "all" else [args.list]
    for name in lists:
        path = image_of(name, args.image if args.list != "all" else None)
        cold_figures(Image(path.read_bytes()), path, args.cache)
        for k in args.resident:
            cold_figures(Image(path.read_bytes()), path, args.cache, k)
    if args.list == "all" or args.cold_only:
        return 0
    image = image_of(args.list, args.image)
    img = Image(image.read_bytes())
    rng = random.Random(1)
    ntiles = len(img.tile_strings)
    # Words of the list, drawn uniformly from its lines (the image has no index).
    from wordlist_packer.normalise import Profile

    profile = Profile.builtin(img.language)
    with lzma.open(wordlists / (args.list + ".txt.xz"), "rt", encoding="utf-8") as f:
        lines = f.read().split("\n")
    words = []
    while len(words) < args.queries // 2:
        codes, _ = profile.normalise(rng.choice(lines).strip())
        if codes:
            words.append(profile.indices(codes))
    queries = list(words)
    for w in words:
        e = list(w)
        e[rng.randrange(len(e))] = rng.randrange(ntiles)
        queries.append(e)
    rng.shuffle(queries)
    out = repo / "build" / "bench_lexicon"
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "queries.bin", "wb") as f:
        for q in queries:
            f.write(bytes([len(q)] + q))
    expected = bytes(2 if len(q) > img.max_len else int(img.contains_tiles(q)) for q in queries)
    (out / "expected.bin").write_bytes(expected)
    mpy = Path(sys.executable).parent / "micropython"
    # The heap holds the bench's query list; the reader itself needs a few KB.
    cmd = [str(mpy if mpy.exists() else "micropython"), "-X", "heapsize=16M",
           str(Path(__file__).resolve()),
           str(image), str(out / "queries.bin"), str(args.cache), str(out / "expected.bin")]
    env = dict(os.environ, MICROPYPATH=str(repo / "firmware"))
    print("$ MICROPYPATH=firmware " + " ".join(cmd[:3] + ["bench/bench_lexicon.py"] + cmd[4:]))
    sys.stdout.flush()
    code = subprocess.run(cmd, env=env).returncode
    # the reader's RAM on the 32-bit interpreter too (the chip's word size), where the
    # tests have built it (tests/mpbuild.py)
    mpy32 = repo / "build" / "micropython-32"
    if mpy32.exists():
        cmd = [str(mpy32), str(Path(__file__).resolve()), "--ram", str(image), str(args.cache)]
        print("$ MICROPYPATH=firmware build/micropython-32 bench/bench_lexicon.py --ram "
              + " ".join(cmd[3:]))
        sys.stdout.flush()
        code = subprocess.run(cmd, env=env).returncode or code
    return code


if __name__ == "__main__":
    if MICROPYTHON and sys.argv[1] == "--ram":
        print_ram(reader_ram(sys.argv[2], int(sys.argv[3])))
    elif MICROPYTHON:
        measure(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        raise SystemExit(prepare(sys.argv[1:]))

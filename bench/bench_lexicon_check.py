"""The full check of a word list (firmware/lexicon/check.py) on the full Polish image,
under the 32-bit MicroPython (build/micropython-32, built by tests/mpbuild.py).

    python bench/bench_lexicon_check.py [--image build/pl.dawg] [--slots 32 128]

Under CPython it builds the image with the packer if it is missing, then runs itself in
the 32-bit interpreter once per cache size, which prints: the pages and body CRC, the
walk (every word, the SHA-256), the two-tile table, in ms, and the arcs decoded and the
pages read by the walk; the CPU time of each run comes from the host.
"""

import sys

MICROPYTHON = sys.implementation.name == "micropython"


def measure(path, slots):
    import time

    import lexicon.check as check
    from lexicon.reader import Lexicon
    from lexicon.sources import FileSource

    lex = Lexicon(FileSource(path), 4096, verify=False)
    t0 = time.ticks_ms()
    for _ in lex.verify_steps():
        pass
    t1 = time.ticks_ms()
    walk = check._Walk(lex, slots)
    reads = lex.reads
    for _ in walk.run():
        pass
    t2 = time.ticks_ms()
    if lex.two_tile:
        for _ in check._prefix_table(walk):
            pass
    t3 = time.ticks_ms()
    print("slots %d (%d bytes): pages %d ms, walk %d ms, two-tile table %d ms, arcs %d, "
          "pages read %d" % (slots, slots * (5 + 6 * len(lex.tiles)), time.ticks_diff(t1, t0),
                             time.ticks_diff(t2, t1), time.ticks_diff(t3, t2), walk.arcs,
                             lex.reads - reads))


def main():
    import argparse
    import resource
    import subprocess
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(repo))
    from tests import mpbuild
    from tests.host.memory_game import polish_image

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--image", help="image to check (default: the Polish list, built once)")
    ap.add_argument("--slots", type=int, nargs="+", default=[32, 128])
    args = ap.parse_args()
    image = Path(args.image) if args.image else polish_image()
    mp = mpbuild.interpreter(32)
    for slots in args.slots:
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        out = subprocess.run([str(mp), str(Path(__file__).resolve()), str(image.resolve()),
                              str(slots)], cwd=str(repo / "firmware"), capture_output=True,
                             text=True, check=True).stdout.strip()
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
        print("%s; CPU %.1f s" % (out, cpu))


if __name__ == "__main__":
    if MICROPYTHON:
        sys.path.insert(0, ".")
        measure(sys.argv[1], int(sys.argv[2]))
    else:
        main()

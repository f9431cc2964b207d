"""Pushing the full Polish word list to 8 simulated clocks in parallel.

    python bench/bench_push.py [--devices 8] [--list pl] [--baud 0]

Each clock is the firmware's link task in its own real MicroPython process on a
pseudo-terminal (tests/host/linkrig.py); clockctl's fleet code pushes the image to all
of them at once over pyserial.  Printed: wall time, per-device time, and the bytes on
the wire (host to device, framing and escaping included) against the image size.
A pty has no baud rate: the figures measure the protocol and the two interpreters,
and --baud N adds the time a real UART at N baud would need for the same bytes.
The image is built once with the packer and cached in build/bench/.
"""

import argparse
import lzma
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from host_tools import fleet  # noqa: E402
from host_tools.link import Link  # noqa: E402
from tests.host.linkrig import Rig  # noqa: E402


def image_for(lang):
    cache = REPO / "build" / "bench" / (lang + ".dawg")
    if cache.exists():
        return cache.read_bytes()
    from wordlist_packer.normalise import Profile
    from wordlist_packer.pipeline import build_image, normalise_lines

    lines = lzma.open(REPO.parent / "shared" / "wordlists" / (lang + ".txt.xz"), "rt").read().splitlines()
    profile = Profile.builtin(lang)
    data = build_image(normalise_lines(profile, lines).words, profile, name=lang + "-full",
                       version="bench", date=1700000000)[0]
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(data)
    return data


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--devices", type=int, default=8)
    ap.add_argument("--list", default="pl")
    ap.add_argument("--baud", type=int, default=0)
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    image = image_for(args.list)
    print(f"image {args.list}: {len(image)} bytes (built/cached in {time.monotonic() - t0:.1f} s)")
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        rigs = [Rig(Path(tmp) / f"dev{i}", args=("--id", f"bench{i:02d}")).start()
                for i in range(args.devices)]
        try:
            stats = {}

            def work(port, progress):
                t = time.monotonic()
                with Link(port, timeout=2.0) as link:
                    r = link.push_lexicon(image, progress=progress)
                    stats[port] = (time.monotonic() - t, dict(link.stats), r)
                return fleet.Result(port, True, "", {"s": "%.1f" % stats[port][0]})

            t = time.monotonic()
            results = fleet.run([r.port for r in rigs], work, out=open("/dev/null", "w"))
            wall = time.monotonic() - t
            print(fleet.table(results, [("s", "seconds")]))
            ok = all((Path(tmp) / f"dev{i}" / "lexicon.dawg").read_bytes() == image
                     for i in range(args.devices))
        finally:
            for r in rigs:
                r.stop()
    tx = [s[1]["tx_bytes"] for s in stats.values()]
    rx = [s[1]["rx_bytes"] for s in stats.values()]
    per = [s[0] for s in stats.values()]
    print(f"devices: {args.devices}, all lists in place and identical: {ok}")
    print(f"wall time for the fleet: {wall:.1f} s; per device {min(per):.1f}-{max(per):.1f} s")
    print(f"bytes on the wire per device, host to device: {tx[0]} = {tx[0] / len(image):.3f} x image "
          f"size; device to host: {rx[0]}")
    print(f"retransmits: {sum(s[1]['retransmits'] for s in stats.values())}, "
          f"NAKs: {sum(s[1]['naks'] for s in stats.values())}")
    if args.baud:
        secs = tx[0] * 10 / args.baud
        print(f"at {args.baud} baud (8N1) the bytes alone take {secs:.0f} s per device")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

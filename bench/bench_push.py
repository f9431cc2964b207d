"""Pushing the full Polish word list to simulated clocks at the real links' speed.

    python bench/bench_push.py [--devices 8] [--list pl] [--only s3|wroom|wroom-fast]

Each clock is the firmware's link task in its own real MicroPython process
(tests/host/linkrig.py), its files in LittleFS on the fake flash partition, which charges
the flash's datasheet erase and program times (host_tools/fakes/esp32_flash.py).  The
relay between the host's pty and the clock's is the chip's serial port
(host_tools/sim/wire.py): the S3 reference's native USB (full-speed bulk rate, flow
control) or the WROOM's UART (115200 baud at boot, 10 bits a byte, the chip's 259-byte
receive buffer).  clockctl's fleet code pushes the image over pyserial to one clock, then
to N in parallel; "wroom-fast" first negotiates the fastest UART rate (Link.switch_baud).
Each push ends with the device's own check of the whole file (LEX_COMMIT) and INFO.
The image is built once with the packer and cached in build/bench/.
"""

import argparse
import lzma
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from host_tools import fleet  # noqa: E402
from host_tools.link import Link  # noqa: E402
from tests.host.linkrig import Rig  # noqa: E402

CONFIGS = {
    "s3": ("usb", False, "ESP32-S3, native USB"),
    "wroom": ("uart", False, "WROOM, UART 115200"),
    "wroom-fast": ("uart", True, "WROOM, UART negotiated"),
}


def image_for(lang):
    cache = REPO / "build" / "bench" / (lang + ".dawg")
    if cache.exists():
        return cache.read_bytes()
    from wordlist_packer.normalise import Profile
    from wordlist_packer.pipeline import build_image, normalise_lines

    source = REPO.parent / "shared" / "wordlists" / (lang + ".txt.xz")
    if not source.exists():
        raise SystemExit("no word list at %s (../shared beside the repository)" % source)
    lines = lzma.open(source, "rt").read().splitlines()
    profile = Profile.builtin(lang)
    data = build_image(normalise_lines(profile, lines).words, profile, name=lang + "-full",
                       version="bench", date=1700000000)[0]
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(data)
    return data


def push(image, count, kind, fast, tmp):
    rigs = [Rig(Path(tmp) / ("dev%d" % i), args=("--id", "bench%02d" % i, "--flash"),
                link=kind, env={"TILECLOCK_FLASH_TIMING": "1"}).start() for i in range(count)]
    stats = {}
    try:
        def work(port, progress):
            t = time.monotonic()
            with Link(port, timeout=3.0) as link:
                rate = link.switch_baud() if fast else link.ser.baudrate
                r = link.push_lexicon(image, progress=progress)
                info = link.info()
                ok = (info.get("lexicon") or {}).get("size") == len(image)
                stats[port] = (time.monotonic() - t, dict(link.stats), rate, ok)
            return fleet.Result(port, ok, "", {"s": "%.1f" % stats[port][0]})

        t = time.monotonic()
        results = fleet.run([r.port for r in rigs], work, out=open("/dev/null", "w"))
        wall = time.monotonic() - t
        lost = sum(r.relay.end.lost for r in rigs)
        garbled = sum(r.relay.end.garbled for r in rigs)
    finally:
        for r in rigs:
            r.stop()
    ok = all(res.ok for res in results) and len(stats) == count and all(s[3] for s in stats.values())
    return {"wall": wall, "per": [s[0] for s in stats.values()], "ok": ok,
            "tx": [s[1]["tx_bytes"] for s in stats.values()],
            "retrans": sum(s[1]["retransmits"] + s[1]["naks"] for s in stats.values()),
            "rates": sorted({s[2] for s in stats.values()}), "lost": lost, "garbled": garbled}


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--devices", type=int, default=8)
    ap.add_argument("--list", default="pl")
    ap.add_argument("--only", choices=sorted(CONFIGS), action="append")
    args = ap.parse_args(argv)
    image = image_for(args.list)
    print("image %s: %d bytes" % (args.list, len(image)))
    print("%-26s %-8s %7s %9s %9s %7s %9s %6s" % ("link", "rate", "clocks", "wall s", "x one",
                                                   "wire/B", "resends", "ok"))
    good = True
    for name in args.only or list(CONFIGS):
        kind, fast, label = CONFIGS[name]
        one = None
        for count in (1, args.devices):
            with tempfile.TemporaryDirectory() as tmp:
                r = push(image, count, kind, fast, tmp)
            one = one or r["wall"]
            rate = "usb" if kind == "usb" else "/".join(str(x) for x in r["rates"])
            print("%-26s %-8s %7d %9.1f %9.2f %7.3f %9d %6s" % (
                label, rate, count, r["wall"], r["wall"] / one, r["tx"][0] / len(image),
                r["retrans"], "yes" if r["ok"] else "NO"))
            if r["lost"] or r["garbled"]:
                print("    bytes lost to a full receive buffer: %d, garbled while switching: %d"
                      % (r["lost"], r["garbled"]))
            good = good and r["ok"]
    print("targets: one clock <= 30 s; %d clocks <= 1.2 x one" % args.devices)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())

"""Pushing the full Polish word list to simulated clocks at the real links' speed.

    python bench/bench_push.py [--devices 8] [--list pl | --image FILE]
                               [--only s3|wroom|wroom-fast|esptool|esptool-460800]

Each clock is the firmware's link task in its own real MicroPython process
(tests/host/linkrig.py), its files in LittleFS on the fake flash partition, which charges
the flash's datasheet erase and program times (host_tools/fakes/esp32_flash.py).  The
relay between the host's pty and the clock's is the chip's serial port
(host_tools/sim/wire.py): the S3 reference's native USB (full-speed bulk rate, flow
control) or the WROOM's UART (115200 baud at boot, 10 bits a byte, the chip's 259-byte
receive buffer).  clockctl's fleet code pushes the image over pyserial to one clock, then
to N in parallel; "wroom-fast" first negotiates the fastest UART rate (Link.switch_baud).
Each push ends with the device's own check of the whole file (LEX_COMMIT) and INFO.

"esptool" rows time the user's command `clockctl flash-lexicon --target wroom` (its own
process, every port at once) from its start until it has seen each clock's INFO name the
new list: the question over the link which word list partition is free, esptool's
write-flash of the list into it (its own process per clock) through the simulated chip's
download mode (host_tools/sim/romloader.py, tests/host/bootrig.py:
bytes paced at the negotiated baud, the flash's datasheet erase and program times), the
restart, and the firmware's check and switch.  Beside the measured time each row shows
what bounds a real clock: its bytes' time on the wire (both directions, 10 bits a byte at
the rate each byte crossed at) and the flash's erase and program time during the write.
Where the measured time is well above both, this machine (eight simulated chips, their
esptools and the host on its cores) is the bound, not the wire or the flash.

The image is built once with the packer and cached in build/bench/.
"""

import argparse
import lzma
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from host_tools import fleet  # noqa: E402
from host_tools.link import Link  # noqa: E402
from host_tools.sim.romloader import T_PAGE_PROGRAM, T_SECTOR_ERASE  # noqa: E402
from host_tools.sim.wire import Pacer  # noqa: E402
from tests.host.bootrig import BootRig, wroom_table, write_layout  # noqa: E402
from tests.host.linkrig import Rig  # noqa: E402

CONFIGS = {
    "s3": ("usb", False, "ESP32-S3, native USB"),
    "wroom": ("uart", False, "WROOM, UART 115200"),
    "wroom-fast": ("uart", True, "WROOM, UART negotiated"),
}
# clockctl flash-lexicon onto WROOM clocks, at esptool's rate
ESPTOOL = {
    "esptool": (921600, "WROOM, esptool write-flash"),
    "esptool-460800": (460800, "WROOM, esptool write-flash"),
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


def push(image, count, kind, fast, tmp, slots=False):
    if slots:       # the WROOM's layout: the list goes into a word list partition
        for i in range(count):
            write_layout(Path(tmp) / ("dev%d" % i), wroom_table())
    rigs = [Rig(Path(tmp) / ("dev%d" % i), args=("--id", "bench%02d" % i, "--flash"),
                link=kind, env={"TILECLOCK_FLASH_TIMING": "1"}).start() for i in range(count)]
    for rig in rigs:                # count every byte's time on the wire, both ways
        rig.end.to_device, rig.end.to_host = WireTime(), WireTime()
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
        wire_s = [r.end.to_device.seconds + r.end.to_host.seconds for r in rigs]
        wire_b = [r.end.to_device.bytes + r.end.to_host.bytes for r in rigs]
    finally:
        for r in rigs:
            r.stop()
    ok = all(res.ok for res in results) and len(stats) == count and all(s[3] for s in stats.values())
    return {"wall": wall, "per": [s[0] for s in stats.values()], "ok": ok,
            "tx": [s[1]["tx_bytes"] for s in stats.values()],
            "retrans": sum(s[1]["retransmits"] + s[1]["naks"] for s in stats.values()),
            "rates": sorted({s[2] for s in stats.values()}), "lost": lost, "garbled": garbled,
            "wire_s": wire_s, "wire_b": wire_b}


def flash_floor(size):
    """The least erase and program time a file of `size` bytes takes on the fake flash
    (host_tools/fakes/esp32_flash.py): each 4 KB sector erased once, each 256-byte page
    programmed once; LittleFS erases sector by sector, its metadata not counted."""
    sectors = -(-size // 4096)
    pages = -(-size // 256)
    return sectors * T_SECTOR_ERASE + pages * T_PAGE_PROGRAM


class WireTime(Pacer):
    """A Pacer that also adds up its bytes and their time on the wire at its rate."""

    def __init__(self, rate=None):
        super().__init__(rate)
        self.bytes = 0
        self.seconds = 0.0

    def wait(self, nbytes):
        if self.rate and nbytes > 0:
            self.bytes += nbytes
            self.seconds += nbytes / self.rate
        super().wait(nbytes)


def clockctl():
    script = Path(sys.executable).parent / "clockctl"
    return [str(script)] if script.exists() else [sys.executable, "-m", "host_tools.cli"]


def flash(image, count, baud, tmp):
    """clockctl flash-lexicon onto `count` simulated WROOM clocks at once."""
    path = Path(tmp) / "list.dawg"
    path.write_bytes(image)
    rigs = []
    try:
        for i in range(count):
            write_layout(Path(tmp) / ("dev%d" % i), wroom_table())
            rig = BootRig(Path(tmp) / ("dev%d" % i), args=("--id", "bench%02d" % i, "--flash"),
                          link="uart", env={"TILECLOCK_FLASH_TIMING": "1"}).start()
            rigs.append(rig)
            # count every byte's time on the wire: the link (both ways) and download mode
            rig.end.to_device, rig.end.to_host = WireTime(), WireTime()
            rig._in, rig._out = WireTime(), WireTime()
        for rig in rigs:            # each clock up and answering before the timing starts
            with Link(rig.port, timeout=3.0) as link:
                link.info()
        cmd = clockctl() + ["flash-lexicon", str(path), "--target", "wroom",
                            "--flash-baud", str(baud)]
        for rig in rigs:
            cmd += ["--port", rig.port]
        t = time.monotonic()
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              cwd=str(REPO))
        wall = time.monotonic() - t
        rows = {line.split()[0]: line.split() for line in proc.stdout.splitlines() if line.strip()}
        per, oks = [], []
        for rig in rigs:
            row = rows.get(rig.port, [])
            ok = len(row) >= 7 and row[1] == "ok"
            if ok:
                per.append(float(row[-1]))
                with Link(rig.port, timeout=3.0) as link:   # what the clock says now
                    ok = (link.info().get("lexicon") or {}).get("size") == len(image)
            oks.append(ok)
        link_bytes = [r.end.to_device.bytes + r.end.to_host.bytes for r in rigs]
        esptool_bytes = [r._in.bytes + r._out.bytes for r in rigs]
        to_chip = [r.end.to_device.bytes + r._in.bytes for r in rigs]
        wire_s = [r.end.to_device.seconds + r.end.to_host.seconds + r._in.seconds
                  + r._out.seconds for r in rigs]
        flash_s = [sum(ld.flash_busy for ld in r.loaders) for r in rigs]
        resent = sum(sum(e.endswith("bad data checksum") for e in ld.errors)
                     for r in rigs for ld in r.loaders)
        lost = sum(r.relay.end.lost for r in rigs)
        garbled = sum(r.relay.end.garbled for r in rigs)
    finally:
        for r in rigs:
            r.stop()
    ok = proc.returncode == 0 and all(oks)
    if not ok:
        print(proc.stdout + proc.stderr[-2000:])
    return {"wall": wall, "per": per, "ok": ok, "to_chip": to_chip, "link": link_bytes,
            "esptool": esptool_bytes, "wire_s": wire_s, "flash_s": flash_s,
            "resent": resent, "lost": lost, "garbled": garbled}


def mean(values):
    return sum(values) / len(values) if values else 0.0


def flash_rows(image, name, devices):
    baud, label = ESPTOOL[name]
    one = None
    good = True
    for count in (1, devices) if devices > 1 else (1,):
        with tempfile.TemporaryDirectory() as tmp:
            r = flash(image, count, baud, tmp)
        one = one or r["wall"]
        print("%-26s %-8s %7d %9.1f %9.2f %7.3f %9d %6s" % (
            label, baud, count, r["wall"], r["wall"] / one, mean(r["to_chip"]) / len(image),
            r["resent"], "yes" if r["ok"] else "NO"))
        print("    per clock: clockctl %s s; bound by the wire %.1f s (esptool %d B, link %d B), "
              "by the flash %.1f s (erase, program)"
              % ("%.1f" % mean(r["per"]) if count == 1 else
                 "%.1f mean, %.1f max" % (mean(r["per"]), max(r["per"] or [0])),
                 mean(r["wire_s"]), mean(r["esptool"]), mean(r["link"]), mean(r["flash_s"])))
        if r["lost"] or r["garbled"]:
            print("    bytes lost to a full receive buffer: %d, garbled while switching: %d"
                  % (r["lost"], r["garbled"]))
        good = good and r["ok"]
    return good


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--devices", type=int, default=8)
    ap.add_argument("--list", default="pl")
    ap.add_argument("--image", help="a word list image to use instead of --list's")
    ap.add_argument("--only", choices=sorted(CONFIGS) + sorted(ESPTOOL), action="append")
    ap.add_argument("--slots", action="store_true",
                    help="push-lexicon onto clocks of the WROOM's layout, whose word list "
                         "partitions take the list (else MicroPython's default table: the file)")
    args = ap.parse_args(argv)
    image = Path(args.image).read_bytes() if args.image else image_for(args.list)
    print("image %s: %d bytes" % (args.image or args.list, len(image)))
    print("%-26s %-8s %7s %9s %9s %7s %9s %6s" % ("link", "rate", "clocks", "wall s", "x one",
                                                   "wire/B", "resends", "ok"))
    good = True
    for name in args.only or list(CONFIGS) + list(ESPTOOL):
        if name in ESPTOOL:
            good = flash_rows(image, name, args.devices) and good
            continue
        kind, fast, label = CONFIGS[name]
        one = None
        for count in (1, args.devices):
            with tempfile.TemporaryDirectory() as tmp:
                r = push(image, count, kind, fast, tmp, args.slots)
            one = one or r["wall"]
            rate = "usb" if kind == "usb" else "/".join(str(x) for x in r["rates"])
            print("%-26s %-8s %7d %9.1f %9.2f %7.3f %9d %6s" % (
                label, rate, count, r["wall"], r["wall"] / one, r["tx"][0] / len(image),
                r["retrans"], "yes" if r["ok"] else "NO"))
            print("    per clock: push %s s; bound by the wire %.1f s (%d B both ways), "
                  "by the flash at least %.1f s (erase, program)"
                  % ("%.1f" % mean(r["per"]) if count == 1 else
                     "%.1f mean, %.1f max" % (mean(r["per"]), max(r["per"] or [0])),
                     mean(r["wire_s"]), mean(r["wire_b"]), flash_floor(len(image))))
            if r["lost"] or r["garbled"]:
                print("    bytes lost to a full receive buffer: %d, garbled while switching: %d"
                      % (r["lost"], r["garbled"]))
            good = good and r["ok"]
    print("targets: one clock <= 30 s; %d clocks <= 1.2 x one" % args.devices)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())

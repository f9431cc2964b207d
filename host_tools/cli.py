"""clockctl: provision, update and read out tournament clocks over USB.

Every device command takes `--port PORT` (repeatable) or `--all` (every serial port with
the USB ids of an ESP32 bridge or of the ESP32's native USB), works on the devices in
parallel with a progress bar each, prints a table, and exits 0 only if all succeeded.
See docs/host-tools.md.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from pathlib import Path

from host_tools import fleet

# USB (vendor, product) ids of the serial bridges ESP32 boards carry, and of the
# native USB of the newer ESP32 variants.
KNOWN_USB_IDS = {
    (0x10C4, 0xEA60): "CP210x",
    (0x1A86, 0x7523): "CH340",
    (0x1A86, 0x55D4): "CH9102",
    (0x0403, 0x6001): "FTDI FT232R",
    (0x0403, 0x6015): "FTDI FT231X",
    (0x303A, 0x1001): "ESP32 native USB",
}


def bridge_name(port_info) -> str | None:
    """The bridge a pyserial ListPortInfo belongs to, or None if not an ESP32 board's."""
    vid, pid = getattr(port_info, "vid", None), getattr(port_info, "pid", None)
    if vid is None or pid is None:
        return None
    return KNOWN_USB_IDS.get((vid, pid))


def find_ports(comports=None) -> list[tuple[str, str]]:
    """(device path, bridge) for each connected port that looks like a clock."""
    if comports is None:
        from serial.tools import list_ports

        comports = list_ports.comports()
    found = [(p.device, bridge_name(p)) for p in comports]
    return sorted((dev, name) for dev, name in found if name)


def _ports(args) -> list[str]:
    ports = list(args.port or [])
    if args.all:
        ports += [dev for dev, _ in find_ports() if dev not in ports]
    if not ports:
        raise SystemExit("clockctl: no device: give --port PORT or --all "
                         "(no serial port with a known ESP32 USB id found)" if args.all else
                         "clockctl: no device: give --port PORT or --all")
    return ports


def _link(args, port):
    from host_tools.link import Link

    return Link(port, timeout=args.timeout, baudrate=args.baud)


def _finish(results, columns=None, out=None) -> int:
    out = out or sys.stdout
    out.write(fleet.table(results, columns) + "\n")
    return fleet.exit_code(results)


def _run(args, work, columns=None) -> int:
    ports = _ports(args)
    results = fleet.run(ports, work, out=sys.stderr, jobs=args.jobs)
    return _finish(results, columns)


# -- devices ----------------------------------------------------------------------------

def cmd_devices(args) -> int:
    def work(port, progress):
        progress("info", 0, 1)
        with _link(args, port) as link:
            info = link.info()
        lex = info.get("lexicon") or {}
        data = {"device": info.get("device"), "firmware": info.get("firmware"),
                "list": lex.get("name"), "version": lex.get("version"),
                "crc": "%08x" % lex["crc"] if "crc" in lex else None, "game": info.get("game")}
        return fleet.Result(port, True, "", data)

    return _run(args, work, [("device", "device id"), ("firmware", "firmware"), ("list", "word list"),
                             ("version", "version"), ("crc", "crc"), ("game", "game")])


# -- push-lexicon -----------------------------------------------------------------------

def cmd_push_lexicon(args) -> int:
    from host_tools.link import LinkError
    from wordlist_packer.image import Image, ImageError

    data = Path(args.image).read_bytes()
    try:
        img = Image(data)
    except ImageError as e:
        raise SystemExit(f"clockctl: {args.image}: not a valid word list image: {e}")
    if img.words == 0:
        raise SystemExit(f"clockctl: {args.image}: the word list holds no words; nothing was "
                         "sent, the clocks keep their lists")

    def work(port, progress):
        import time

        deadline = time.monotonic() + args.reconnect
        while True:
            try:
                with _link(args, port) as link:
                    r = link.push_lexicon(data, force=args.force, progress=progress)
                    wire = link.stats["tx_bytes"]
                break
            except LinkError as e:
                if e.code == "E_GAME":
                    return fleet.Result(port, False, "a game is in progress (--force to replace "
                                        "the list anyway)")
                if e.code != "E_TIMEOUT" or time.monotonic() > deadline:
                    return fleet.Result(port, False, str(e) + "; the old list stays in use")
            except OSError as e:   # the port vanished: wait for it to come back
                if time.monotonic() > deadline:
                    return fleet.Result(port, False, f"{e}; the old list stays in use")
            progress("waiting", 0, 0)
            time.sleep(0.5)
        detail = "resumed at %d" % r["resumed_from"] if r["resumed_from"] else ""
        return fleet.Result(port, True, detail, {"list": img.name, "version": img.list_version,
                                                 "sent": r["sent"], "wire": wire})

    return _run(args, work, [("list", "word list"), ("version", "version"), ("sent", "bytes sent"),
                             ("wire", "bytes on wire")])


# -- config -----------------------------------------------------------------------------

def parse_assignments(items: list[str]) -> dict:
    """key=value pairs; values are JSON when they parse (numbers, true, objects), else text."""
    out = {}
    for item in items:
        if "=" not in item:
            raise SystemExit(f"clockctl: expected key=value, got {item!r}")
        key, value = item.split("=", 1)
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def typed_like(changes: dict, raw: dict, current: dict) -> dict:
    """A value given as text stays text where the device holds text (a PIN "0123")."""
    return {k: raw[k] if isinstance(current.get(k), str) and not isinstance(v, str) else v
            for k, v in changes.items()}


def cmd_config(args) -> int:
    changes = parse_assignments(args.set or [])
    raw = dict(item.split("=", 1) for item in args.set or [])

    def work(port, progress):
        with _link(args, port) as link:
            if changes:
                progress("set", 0, 1)
                link.config_set(typed_like(changes, raw, link.config_get()))
            config = link.config_get()
        return fleet.Result(port, True, json.dumps(config, sort_keys=True) if args.show else "",
                            {"preset": config.get("preset"), "lang": config.get("lang")})

    return _run(args, work, [("preset", "preset"), ("lang", "lang")])


# -- logs -------------------------------------------------------------------------------

LOG_KINDS = ("games", "challenges")


def records(data: bytes) -> list[dict]:
    out = []
    for line in data.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            obj = {"unparsed": line}
        out.append(obj if isinstance(obj, dict) else {"value": obj})
    return out


def to_csv(recs: list[dict]) -> str:
    keys: list[str] = []
    for r in recs:
        keys += [k for k in r if k not in keys]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(keys)
    for r in recs:
        w.writerow([json.dumps(r[k], ensure_ascii=False) if isinstance(r.get(k), (dict, list))
                    else "" if r.get(k) is None else r[k] for k in keys])
    return buf.getvalue()


def pull_log(link, name: str) -> bytes:
    """The whole log: its rotated generation (if the device names it apart) then the current."""
    from host_tools.link import DeviceError

    data = b""
    try:
        data += link.read_log(name + ".1")
    except DeviceError as e:
        if e.code != "E_LOG":
            raise
    return data + link.read_log(name)


def cmd_logs(args) -> int:
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    kinds = LOG_KINDS if args.kind == "all" else (args.kind,)

    def work(port, progress):
        data = {}
        with _link(args, port) as link:
            device = link.info().get("device") or Path(port).name
            for i, kind in enumerate(kinds):
                progress(kind, i, len(kinds))
                raw = pull_log(link, kind)
                recs = records(raw)
                if args.format == "csv":
                    text = to_csv(recs).encode()
                else:
                    text = b"".join(json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in recs)
                path = out_dir / f"{device}-{kind}.{args.format}"
                path.write_bytes(text)
                data[kind] = len(recs)
        return fleet.Result(port, True, str(out_dir), data)

    return _run(args, work, [(k, k) for k in kinds])


# -- flash and image ----------------------------------------------------------------------

def _config_arg(path):
    return json.loads(Path(path).read_text()) if path else None


def cmd_image(args) -> int:
    from host_tools import flashing, image

    fw = Path(args.firmware).read_bytes()
    layout = flashing.read_layout(fw, args.chip)
    lexicon = Path(args.lexicon).read_bytes() if args.lexicon else None
    fs = image.build_image(layout.vfs.size, lexicon=lexicon, config=_config_arg(args.config))
    Path(args.out).write_bytes(fs)
    print(f"{args.out}: LittleFS image of {len(fs)} bytes for the vfs partition at 0x{layout.vfs.offset:x}")
    if args.merged:
        flashing.merge(args.merged, args.firmware, fs, args.chip)
        print(f"{args.merged}: whole flash image (write it at 0x0)")
    return 0


def cmd_flash(args) -> int:
    from host_tools import flashing, image

    fw = Path(args.firmware).read_bytes()
    flashing.check_version(fw)
    layout = flashing.read_layout(fw, args.chip)
    lexicon = Path(args.lexicon).read_bytes() if args.lexicon else None
    # One filesystem image for the whole fleet, built before any device is touched.
    fs = image.build_image(layout.vfs.size, lexicon=lexicon, config=_config_arg(args.config))

    def work(port, progress):
        r = flashing.provision(port, args.firmware, chip=args.chip, baud=args.flash_baud,
                               progress=progress, fs_image=fs)
        return fleet.Result(port, True, "", {"flash": f"{r['flash'] >> 20} MB",
                                             "vfs": f"0x{r['vfs_offset']:x}+0x{r['vfs_size']:x}"})

    return _run(args, work, [("flash", "flash"), ("vfs", "filesystem")])


# -- sim --------------------------------------------------------------------------------

def cmd_sim(args, rest) -> int:
    from host_tools import sim   # lazily: only this command needs the simulator

    return int(sim.main(rest) or 0)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="clockctl", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)

    def devices_opts(sp):
        sp.add_argument("--port", action="append", metavar="PORT",
                        help="serial port of a device (repeat for several)")
        sp.add_argument("--all", action="store_true",
                        help="every connected port with a known ESP32 USB id")
        sp.add_argument("--jobs", type=int, default=None, help="devices worked on at once")
        sp.add_argument("--timeout", type=float, default=1.0, help="seconds to wait for a reply")
        sp.add_argument("--baud", type=int, default=115200)

    sp = sub.add_parser("devices", help="list clocks: device id, firmware, word list, game")
    devices_opts(sp)
    sp.set_defaults(func=cmd_devices, all_default=True)

    sp = sub.add_parser("push-lexicon", help="replace the word list on running clocks")
    sp.add_argument("image", help="word list image (wordpack output)")
    sp.add_argument("--force", action="store_true", help="even while a game is in progress")
    sp.add_argument("--reconnect", type=float, default=0.0, metavar="SECONDS",
                    help="keep retrying (and resuming) this long after a lost connection")
    devices_opts(sp)
    sp.set_defaults(func=cmd_push_lexicon)

    sp = sub.add_parser("config", help="show or change settings (key=value ...)")
    sp.add_argument("set", nargs="*", metavar="KEY=VALUE")
    sp.add_argument("--show", action="store_true", help="print the whole configuration")
    devices_opts(sp)
    sp.set_defaults(func=cmd_config)

    sp = sub.add_parser("logs", help="pull game and challenge logs")
    sp.add_argument("--kind", choices=("games", "challenges", "all"), default="all")
    sp.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    sp.add_argument("--out", default="logs", help="folder for DEVICE-KIND.FORMAT files")
    devices_opts(sp)
    sp.set_defaults(func=cmd_logs)

    sp = sub.add_parser("flash", help="provision new clocks: MicroPython + filesystem image")
    sp.add_argument("--firmware", required=True, help="MicroPython ESP32_GENERIC .bin (v1.24+)")
    sp.add_argument("--lexicon", help="word list image to put on the device")
    sp.add_argument("--config", help="config.json to put on the device")
    sp.add_argument("--chip", default="esp32")
    sp.add_argument("--flash-baud", type=int, default=460800)
    devices_opts(sp)
    sp.set_defaults(func=cmd_flash)

    sp = sub.add_parser("image", help="build the filesystem image (and a merged flash image)")
    sp.add_argument("--firmware", required=True, help="MicroPython ESP32_GENERIC .bin")
    sp.add_argument("--lexicon")
    sp.add_argument("--config")
    sp.add_argument("--chip", default="esp32")
    sp.add_argument("--out", required=True, help="filesystem image file")
    sp.add_argument("--merged", help="also write the whole flash (esptool merge-bin) here")
    sp.set_defaults(func=cmd_image)

    sp = sub.add_parser("sim", help="start the simulator (arguments go to it)", add_help=False)
    sp.set_defaults(func=None)
    return p


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["sim"]:
        return cmd_sim(None, argv[1:])
    args = build_parser().parse_args(argv)
    if getattr(args, "all_default", False) and not args.port:
        args.all = True
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

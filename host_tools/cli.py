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
    if args.force and args.next_game:
        raise SystemExit("clockctl: --force and --next-game exclude each other")

    def work(port, progress):
        from host_tools.link import DeviceError

        note = ""
        with _link(args, port) as link:
            if changes:
                progress("set", 0, 1)
                request = typed_like(changes, raw, link.config_get())
                if args.force:
                    request["force"] = True
                elif args.next_game:
                    request["next_game"] = True
                try:
                    note = link.config_set(request).get("msg") or ""
                except DeviceError as e:
                    if e.code != "E_GAME":
                        raise
                    running = link.info().get("preset")
                    return fleet.Result(port, False, "a game is in progress (preset %s): "
                                        "--next-game keeps the change for the next game, "
                                        "--force ends the game now" % running)
            config = link.config_get()
            info = link.info()
        detail = json.dumps(config, sort_keys=True) if args.show else note
        return fleet.Result(port, True, detail,
                            {"preset": config.get("preset"), "game": info.get("preset")
                             if info.get("game") else "", "lang": config.get("lang")})

    return _run(args, work, [("preset", "preset"), ("game", "game in progress"),
                             ("lang", "lang")])


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


# -- flash, image, push-firmware -------------------------------------------------------

def _config_arg(path):
    return json.loads(Path(path).read_text()) if path else None


def _size_arg(text: str) -> int:
    """"8MB", "4M", "0x800000" -> bytes."""
    t = text.strip().upper().rstrip("B")
    try:
        if t.endswith("M"):
            return int(t[:-1]) << 20
        if t.endswith("K"):
            return int(t[:-1]) << 10
        return int(t, 0)
    except ValueError:
        raise argparse.ArgumentTypeError("not a size: %r (e.g. 8MB)" % text) from None


def _read_inputs(args):
    from host_tools import flashing

    try:
        firmware = Path(args.firmware).read_bytes()
        lexicon = Path(args.lexicon).read_bytes() if args.lexicon else None
        config = _config_arg(args.config)
    except (OSError, ValueError) as e:
        raise SystemExit(f"clockctl: {e}")
    if lexicon is not None:
        from host_tools.image import check_lexicon
        from wordlist_packer.image import ImageError

        try:
            check_lexicon(lexicon)
        except ImageError as e:
            raise SystemExit(f"clockctl: {args.lexicon}: not a valid word list image: {e}")
    return flashing, firmware, lexicon, config


def cmd_image(args) -> int:
    flashing, firmware, lexicon, config = _read_inputs(args)
    try:
        plan = flashing.plan(args.target, firmware, args.flash_size, lexicon, config)
    except (flashing.FlashError, ValueError) as e:
        raise SystemExit(f"clockctl: {args.firmware}: {e}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    fw = plan.firmware
    print(f"{args.firmware}: MicroPython v{fw.version_text} for {fw.chip}, "
          f"{plan.variant['variant']}, ESP-IDF {fw.idf_version}; target {plan.target}, "
          f"{plan.flash_size >> 20} MB flash")
    command = ["esptool", "--chip", fw.chip, "write-flash"]
    for w in plan.writes:
        path = Path(args.firmware) if w.label == "firmware" else out / f"{w.label}.bin"
        if w.label != "firmware":
            path.write_bytes(w.data)
        command += [hex(w.offset), str(path)]
        print(f"  0x{w.offset:06x}  {len(w.data):>9} bytes  {w.label:<9} {path}")
    print("write them with:  " + " ".join(command))
    if args.merged:
        flashing.merge(args.merged, plan)
        print(f"{args.merged}: the whole flash from 0x{fw.base:x} (esptool merge-bin)")
    return 0


def cmd_flash(args) -> int:
    flashing, firmware, lexicon, config = _read_inputs(args)
    try:   # the image is checked once, before any device is touched
        first = flashing.plan(args.target, firmware, args.flash_size, lexicon, config)
    except (flashing.FlashError, ValueError) as e:
        raise SystemExit(f"clockctl: {args.firmware}: {e}")
    plans = {first.flash_size: first}

    def plan_for(flash_size):
        # one set of images per flash size in the fleet (the filesystem fills the flash)
        if args.flash_size:
            return first
        if flash_size not in plans:
            plans[flash_size] = flashing.plan(args.target, firmware, flash_size, lexicon, config)
        return plans[flash_size]

    def work(port, progress):
        try:
            r = flashing.provision(port, plan_for, baud=args.flash_baud, progress=progress)
        except flashing.FlashError as e:
            return fleet.Result(port, False, str(e))
        return fleet.Result(port, True, r["variant"], {
            "flash": f"{r['flash'] >> 20} MB",
            "psram": f"{r['psram'] >> 20} MB" if r["psram"] else "-",
            "fs": f"0x{r['vfs_offset']:x}+0x{r['vfs_size']:x}"})

    return _run(args, work, [("flash", "flash"), ("psram", "PSRAM"), ("fs", "filesystem")])


def cmd_push_firmware(args) -> int:
    from host_tools import fwpush, image
    from host_tools.link import LinkError

    from host_tools.targets import TARGETS

    if TARGETS[args.target]["code"] != "littlefs":
        raise SystemExit(f"clockctl: the {args.target} target runs its firmware from a ROMFS "
                         "partition, which the link cannot write safely: use clockctl flash")
    source = Path(args.firmware_dir) if args.firmware_dir else image.FIRMWARE
    try:
        files = image.firmware_tree(args.target, source)
        version = fwpush.firmware_version(source)
    except (image.ImageBuildError, OSError, ValueError) as e:
        raise SystemExit(f"clockctl: {e}")

    def work(port, progress):
        try:
            with _link(args, port) as link:
                before = link.info().get("firmware")
                fwpush.push_firmware(link, files, version, force=args.force,
                                     restart=not args.no_restart, progress=progress)
            if args.no_restart:
                return fleet.Result(port, True, "the new firmware starts at the next restart",
                                    {"from": before, "to": version})
            progress("restart", 0, 0)
            fwpush.wait_for_version(lambda: _link(args, port), version, args.reconnect)
        except LinkError as e:
            if e.code == "E_GAME":
                return fleet.Result(port, False, "a game is in progress (--force to update "
                                    "anyway; the clock restarts and recovers the game)")
            return fleet.Result(port, False, str(e) + "; the old firmware stays in use"
                                if e.code != "E_VERIFY" else str(e))
        except OSError as e:
            return fleet.Result(port, False, f"{e}; the old firmware stays in use")
        return fleet.Result(port, True, "", {"from": before, "to": version})

    return _run(args, work, [("from", "was"), ("to", "now")])


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
    sp.add_argument("--next-game", action="store_true",
                    help="a new preset while a game is in progress: keep it for the next game")
    sp.add_argument("--force", action="store_true",
                    help="a new preset while a game is in progress: end that game now")
    devices_opts(sp)
    sp.set_defaults(func=cmd_config)

    sp = sub.add_parser("logs", help="pull game and challenge logs")
    sp.add_argument("--kind", choices=("games", "challenges", "all"), default="all")
    sp.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    sp.add_argument("--out", default="logs", help="folder for DEVICE-KIND.FORMAT files")
    devices_opts(sp)
    sp.set_defaults(func=cmd_logs)

    def target_opts(sp):
        from host_tools.targets import DEFAULT_TARGET, TARGETS

        sp.add_argument("--target", choices=sorted(TARGETS), default=DEFAULT_TARGET,
                        help="the board (docs/targets.md; default %(default)s)")

    sp = sub.add_parser("flash", help="provision new clocks: MicroPython + firmware + filesystem")
    sp.add_argument("--firmware", required=True,
                    help="MicroPython .bin: ESP32_GENERIC_S3 (v1.26+) for the s3 target, "
                         "a ROMFS build for wroom")
    sp.add_argument("--lexicon", help="word list image to put on the device")
    sp.add_argument("--config", help="config.json to put on the device")
    target_opts(sp)
    sp.add_argument("--flash-size", type=_size_arg,
                    help="flash of the chips (default: what each chip reports)")
    sp.add_argument("--flash-baud", type=int, default=460800)
    devices_opts(sp)
    sp.set_defaults(func=cmd_flash)

    sp = sub.add_parser("image", help="build what `flash` writes, as files (and a merged image)")
    sp.add_argument("--firmware", required=True, help="MicroPython .bin (as for flash)")
    sp.add_argument("--lexicon")
    sp.add_argument("--config")
    target_opts(sp)
    sp.add_argument("--flash-size", type=_size_arg,
                    help="flash of the chip (default: the target's smallest module)")
    sp.add_argument("--out", required=True, help="folder for one LABEL.bin per partition")
    sp.add_argument("--merged", help="also write the whole flash (esptool merge-bin) here")
    sp.set_defaults(func=cmd_image)

    sp = sub.add_parser("push-firmware", help="update the firmware of running clocks")
    target_opts(sp)
    sp.add_argument("--firmware-dir", help="firmware folder (default: the one clockctl carries)")
    sp.add_argument("--force", action="store_true",
                    help="even while a game is in progress (the clock restarts and recovers it)")
    sp.add_argument("--no-restart", action="store_true",
                    help="switch at the next restart instead of now")
    sp.add_argument("--reconnect", type=float, default=30.0, metavar="SECONDS",
                    help="how long to wait for the clock to come back after its restart")
    devices_opts(sp)
    sp.set_defaults(func=cmd_push_firmware)

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

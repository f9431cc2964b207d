"""The tileclock simulator: the real firmware under the real `micropython`
with the fakes of the chip, shown and operated in a local web page.

    python3 -m host_tools.sim [--device-dir DIR] [--port N] [--lexicon IMAGE] [--open]

See docs/simulator.md.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path


def default_device_dir() -> Path:
    """The simulated clock's folder when none is given, in the user's cache folder: one
    for an installed clockctl, one per checkout (two clones run two clocks, not one)."""
    import hashlib

    from host_tools import cache

    name = "sim-device"
    if cache.is_checkout():
        name += "-" + hashlib.sha1(str(cache.REPO).encode()).hexdigest()[:8]
    return cache.user_cache_dir() / name


def link_banner(link, encoding=None) -> str:
    """The line naming the host link's port (the pty, or its --link-pty alias)."""
    port = str(link.alias) if link.alias else link.path
    where = "%s (%s)" % (port, link.path) if link.alias else port
    dash = "\u2014"
    try:
        dash.encode(encoding or getattr(sys.stdout, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        dash = "-"
    return "host link: %s %s try: clockctl devices --port %s" % (where, dash, port)


def parse_args(argv):
    p = argparse.ArgumentParser(prog="clockctl sim", description=__doc__.split("\n\n")[0])
    p.add_argument("--device-dir", type=Path, default=None,
                   help="the simulated device's folder (default: %s)" % default_device_dir())
    p.add_argument("--host", default="127.0.0.1", help="address of the web page (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=0, help="port of the web page (default: a free one)")
    p.add_argument("--lexicon", type=Path, default=None,
                   help="a word list image built by wordlist_packer (default: the sample list)")
    p.add_argument("--main", type=Path, default=None, help="firmware entry (default firmware/main.py)")
    p.add_argument("--heapsize", default=None, help="MicroPython heap, e.g. 100K (as on the chip)")
    p.add_argument("--battery-mv", type=int, default=3900, help="battery voltage at start")
    p.add_argument("--open", action="store_true", help="open the page in the browser")
    p.add_argument("--link-pty", type=Path, default=None, metavar="PATH",
                   help="also make the host link reachable as PATH (a symbolic link to the "
                        "pseudo-terminal, e.g. /tmp/tileclock-sim)")
    p.add_argument("--fresh", action="store_true",
                   help="empty the device folder first (factory state)")
    p.add_argument("--preset", default=None, metavar="NAME",
                   help="the clock's preset, e.g. duplicate (a duplicate game: one countdown "
                        "per move on both panels); a game in progress keeps its own")
    hall = p.add_argument_group("the hall (docs/hall.md): several clocks publishing to a broker")
    hall.add_argument("--clocks", type=int, default=0, metavar="N",
                      help="run N simulated clocks (tables 1..N, folders clock-1..clock-N "
                           "in the device folder); their API at /clock/K/api/...")
    hall.add_argument("--broker", default=None, metavar="mqtt://HOST:PORT",
                      help="the clocks publish to this broker (the hall's)")
    hall.add_argument("--event", default="sim", help="the event's name (default %(default)s)")
    hall.add_argument("--key-file", default=None, metavar="FILE",
                      help="the event's key, as the hall's --key-file (else $%s)" % KEY_ENV)
    hall.add_argument("--headless", action="store_true",
                      help="no page: only the clocks' JSON API (for scripts, e.g. "
                           "POST /clock/1/api/button {\"name\": \"left\", \"down\": true})")
    return p.parse_args(argv)


KEY_ENV = "TILECLOCK_HALL_KEY"
SIM_SSID, SIM_PASSWORD = "tileclock-sim", "simulated-wifi"


def hall_settings(args) -> dict | None:
    """The clocks' hall settings from --broker, --event and the key; None without
    --broker.  SystemExit with the reason for a bad value."""
    import os

    if not args.broker:
        return None
    if args.key_file:
        try:
            key = Path(args.key_file).read_text(encoding="utf-8").splitlines()[0].strip()
        except (OSError, IndexError) as e:
            raise SystemExit("clockctl sim: --key-file %s: no key (%s)" % (args.key_file, e))
    else:
        key = os.environ.get(KEY_ENV, "")
    if not key:
        raise SystemExit("clockctl sim: --broker needs the event's key: --key-file FILE or $"
                         + KEY_ENV)
    return {"wifi_ssid": SIM_SSID, "wifi_password": SIM_PASSWORD, "hall": args.broker,
            "event": args.event, "hall_key": key}


def main(argv=None) -> int:
    from .device import FolderInUse, lock_device_dir

    args = parse_args(sys.argv[1:] if argv is None else argv)
    device_dir = (args.device_dir or default_device_dir()).resolve()
    if args.clocks or args.broker or args.headless:
        return _run_clocks(args, device_dir)
    if args.lexicon is not None and not args.lexicon.is_file():
        print("no such image: %s" % args.lexicon, file=sys.stderr)
        return 2
    try:     # one simulator per folder: a second one would run another clock on its files
        held = lock_device_dir(device_dir)
    except FolderInUse as e:
        print("clockctl sim: %s" % e, file=sys.stderr)
        return 2
    try:
        return _run(args, device_dir)
    finally:
        held.close()


def _run(args, device_dir: Path) -> int:
    from .device import SimDevice, configure_preset, empty_device_dir, prepare_device_dir
    from .web import serve

    if args.fresh:
        empty_device_dir(device_dir)
    prepare_device_dir(device_dir, args.lexicon, log=lambda m: print(m, file=sys.stderr))
    if args.preset is not None:
        try:
            configure_preset(device_dir, args.preset)
        except ValueError as e:
            print("--preset: %s" % e, file=sys.stderr)
            return 2
    try:
        device = SimDevice(device_dir, main=args.main.resolve() if args.main else None,
                           heapsize=args.heapsize, battery_mv=args.battery_mv,
                           log=lambda line: print(line, file=sys.stderr, flush=True),
                           link_alias=args.link_pty)
    except FileExistsError as e:
        print("--link-pty: %s" % e, file=sys.stderr)
        return 2
    server = serve(device, args.host, args.port)
    url = "http://%s:%d/" % (args.host, server.server_address[1])
    try:     # a Ctrl-C from here on, even during the banner, ends the simulator cleanly
        device.start()
        print("tileclock simulator: %s  (device folder %s; Ctrl-C ends)" % (url, device_dir),
              flush=True)
        print(link_banner(device.link), flush=True)
        if args.open:
            import webbrowser

            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        device.stop()
    return 0


def _run_clocks(args, base: Path) -> int:
    """--clocks N (default 1) with --broker and --headless: N clocks, tables 1..N, each
    in its folder clock-K of the device folder, publishing to the broker; one JSON API
    for all (web.py, /clocks and /clock/K/api/...)."""
    import contextlib
    import os

    from .device import FolderInUse, SimDevice, configure, lock_device_dir, prepare_device_dir
    from .web import serve

    count = args.clocks or 1
    if not 1 <= count <= 500:
        print("--clocks: 1 to 500", file=sys.stderr)
        return 2
    try:
        settings = hall_settings(args)
        if settings is not None:
            from host_tools.hall import wire

            message = wire.message()
            for reason in (message.check_name(args.event, "--event"),
                           message.check_key(settings["hall_key"])):
                if reason:
                    raise SystemExit("clockctl sim: " + reason)
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 2
    os.environ["TILECLOCK_SIM_WIFI"] = "%s:%s" % (SIM_SSID, SIM_PASSWORD)
    devices = {}
    with contextlib.ExitStack() as stack:
        try:
            for k in range(1, count + 1):
                folder = base / ("clock-%d" % k)
                stack.enter_context(contextlib.closing(lock_device_dir(folder)))
                if args.fresh:
                    from .device import empty_device_dir

                    empty_device_dir(folder)
                prepare_device_dir(folder, args.lexicon,
                                   log=lambda m: print(m, file=sys.stderr))
                values = {"table": str(k)}
                if settings is not None:
                    values.update(settings)
                if args.preset is not None:
                    values["preset"] = args.preset
                configure(folder, values)
                devices[k] = SimDevice(folder, main=args.main.resolve() if args.main else None,
                                       heapsize=args.heapsize, battery_mv=args.battery_mv,
                                       log=lambda line, k=k: print("clock %d: %s" % (k, line),
                                                                   file=sys.stderr, flush=True))
        except (FolderInUse, ValueError) as e:
            print("clockctl sim: %s" % e, file=sys.stderr)
            for d in devices.values():
                d.stop()
            return 2
        server = serve(None, args.host, args.port, devices=devices)
        url = "http://%s:%d/" % (args.host, server.server_address[1])
        try:
            for d in devices.values():
                d.start()
            print("tileclock simulator: %d clocks, API %sclocks%s (device folders %s/clock-K; "
                  "Ctrl-C ends)" % (count, url, ", publishing to " + args.broker
                                    if settings else "", base), flush=True)
            for k, d in devices.items():
                print("clock %d: table %d, %s" % (k, k, link_banner(d.link)), flush=True)
            server.serve_forever(poll_interval=0.2)
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
            for d in devices.values():
                d.stop()
    return 0

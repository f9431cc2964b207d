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
    """A connection to one clock.  Its first request (INFO) carries this computer's time,
    which the clock's logs use from then on: every command sets it."""
    from host_tools.link import Link

    link = Link(port, timeout=args.timeout, baudrate=args.baud)
    try:
        link.device_info = link.info()
    except BaseException:
        link.close()
        raise
    return link


def device_name(info: dict, port: str) -> str:
    """What a clock's files are named by: its table (if set) and its id."""
    device = str(info.get("device") or Path(port).name)
    table = info.get("table")
    return "table%s-%s" % (table, device) if table not in (None, "") else device


def _finish(results, columns=None, out=None) -> int:
    out = out or sys.stdout
    out.write(fleet.table(results, columns) + "\n")
    return fleet.exit_code(results)


def _run(args, work, columns=None) -> int:
    ports = _ports(args)
    results = fleet.run(ports, work, out=sys.stderr, jobs=args.jobs)
    return _finish(results, columns)


# -- devices ----------------------------------------------------------------------------

PHASES = ("setup", "playing", "last move", "over")
DEFAULT_PIN = "0000"


def game_state(info: dict) -> str:
    """What the clock is doing, in a word or two: "no game", "playing", "paused", ..."""
    clock = info.get("clock") or {}
    phase = clock.get("phase")
    if phase is None:
        return "yes" if info.get("game") else "no"
    if phase == 0:
        return "no game" if not clock.get("on_turn", -1) >= 0 else "starting"
    words = PHASES[phase] if 0 <= phase < len(PHASES) else str(phase)
    if phase in (1, 2):
        if clock.get("challenging"):
            words += ", challenge"
        elif clock.get("paused"):
            words += ", paused"
    if info.get("recovered"):
        words += ", recovered"
    return words


def battery_text(info: dict) -> str:
    if info.get("battery") == "usb":
        return "USB"
    mv = info.get("battery_mv", -1)
    if mv is None or mv < 0:
        return "-"
    text = "%.2f V" % (mv / 1000)
    if info.get("battery_percent", -1) >= 0:
        text += " %d%%" % info["battery_percent"]
    if info.get("battery") in ("low", "empty"):
        text += " " + info["battery"].upper()
    return text


STORAGE = {"log_full": "log full", "not_saving": "not saving"}


def storage_text(info: dict) -> str:
    """The clock's storage as INFO reports it: "ok", "log full" (the game log's file
    takes nothing), "not saving" (the game state cannot be saved: a power cut loses
    the game); "-" from a firmware that does not say."""
    if "storage" not in info:
        return "-"
    text = STORAGE.get(info["storage"], info["storage"] or "ok")
    if info.get("lines_lost"):
        text += ", %d log lines lost" % info["lines_lost"]
    return text


def cmd_devices(args) -> int:
    def work(port, progress):
        progress("info", 0, 2)
        with _link(args, port) as link:
            info = link.device_info
            progress("config", 1, 2)
            config = link.config_get()
        lex = info.get("lexicon") or {}
        data = {"table": info.get("table") or config.get("table"), "device": info.get("device"),
                "firmware": info.get("firmware"), "battery": battery_text(info),
                "list": lex.get("name"), "version": lex.get("version"),
                "words": "{:,}".format(lex["words"]) if "words" in lex else None,
                "game": game_state(info), "storage": storage_text(info),
                "pin": "DEFAULT" if str(config.get("referee_pin")) == DEFAULT_PIN else "set"}
        return fleet.Result(port, True, "", data)

    ports = _ports(args)
    results = fleet.run(ports, work, out=sys.stderr, jobs=args.jobs)
    code = _finish(results, [("table", "table"), ("device", "device id"),
                             ("firmware", "firmware"), ("battery", "battery"),
                             ("list", "word list"), ("version", "version"), ("words", "words"),
                             ("game", "game"), ("storage", "storage"), ("pin", "referee PIN")])
    _warn_storage([(r.port, r.data) for r in results
                   if r.ok and r.data.get("storage") not in ("ok", "-")])
    _warn_default_pin(args, [r.port for r in results
                             if r.ok and r.data.get("pin") == "DEFAULT"])
    return code


def _warn_storage(rows):
    # one line per clock whose game state or game log cannot be saved
    for port, data in rows:
        print("warning: %s (table %s): %s" % (port, data.get("table") or "-", data["storage"]),
              file=sys.stderr)


def addressing(args, ports) -> str:
    """The clocks on `ports` addressed as the user addressed them: `--all` if they gave
    it (or it was the default), and `--port` for each of these ports they named."""
    import shlex

    named = [p for p in ports if p in (args.port or [])]
    return " ".join((["--all"] if args.all else []) + ["--port " + shlex.quote(p) for p in named])


def _warn_default_pin(args, ports):
    if ports:
        print("warning: %d clock%s still %s the default referee PIN %s (anyone can open the "
              "referee menu): clockctl config referee_pin=NNNN %s"
              % (len(ports), "s" if len(ports) > 1 else "", "have" if len(ports) > 1 else "has",
                 DEFAULT_PIN, addressing(args, ports)), file=sys.stderr)


# -- push-lexicon -----------------------------------------------------------------------

def _word_list(path: str, verb: str):
    """(bytes, Image) of a word list image to send, or a clear refusal before anything
    is sent: the clocks keep their lists."""
    from wordlist_packer.image import Image, ImageError

    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise SystemExit(f"clockctl: {path}: cannot read the word list image "
                         f"({e.strerror or e}); nothing was {verb}, the clocks keep their lists")
    try:
        img = Image(data)
    except ImageError as e:
        raise SystemExit(f"clockctl: {path}: not a valid word list image: {e}")
    if img.words == 0:
        raise SystemExit(f"clockctl: {path}: the word list holds no words; nothing was "
                         f"{verb}, the clocks keep their lists")
    return data, img


def cmd_push_lexicon(args) -> int:
    from host_tools.link import LinkError

    data, img = _word_list(args.image, "sent")

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
                if e.code == "E_SPACE":
                    return fleet.Result(port, False, str(e) + "; the old list stays in use (a "
                                        "list too large for the filesystem goes into the "
                                        "clock's word list partition: clockctl flash-lexicon)")
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


# -- flash-lexicon ----------------------------------------------------------------------

def cmd_flash_lexicon(args) -> int:
    import time

    from host_tools import flashing, lexflash
    from host_tools.link import LinkError
    from host_tools.targets import TARGETS

    data, img = _word_list(args.image, "written")
    chip = TARGETS[args.target]["chip"]

    def work(port, progress):
        t0 = time.monotonic()
        try:
            with _link(args, port) as link:
                if link.device_info.get("game") and not args.force:
                    return fleet.Result(port, False, "a game is in progress (--force: the clock "
                                        "restarts, recovers the game and goes on with the new "
                                        "list)")
                where = lexflash.slot(link, data)
            lexflash.write(port, chip, where["offset"], data, args.flash_baud, progress)
            progress("restart", 0, 0)
            deadline = time.monotonic() + args.reconnect
            while True:
                try:
                    with _link(args, port) as link:
                        lexicon = lexflash.adopt(link, where["label"], data, args.force,
                                                 progress)
                        info = link.info()
                    break
                except (LinkError, OSError):
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.5)
        except (lexflash.LexFlashError, flashing.FlashError) as e:
            return fleet.Result(port, False, "%s; the old list stays in use" % e
                                if "stays" not in str(e) and "reflash" not in str(e)
                                else str(e))
        except LinkError as e:
            return fleet.Result(port, False, str(e) + "; the old list stays in use")
        now = (info.get("lexicon") or lexicon or {})
        ok = now.get("size") == len(data) and now.get("name") == img.name
        return fleet.Result(port, ok, "" if ok else "the clock reports another list: %s" % now,
                            {"list": now.get("name"), "version": now.get("version"),
                             "slot": now.get("slot") or where["label"],
                             "game": "goes on" if info.get("game") else "-",
                             "s": "%.1f" % (time.monotonic() - t0)})

    return _run(args, work, [("list", "word list"), ("version", "version"),
                             ("slot", "partition"), ("game", "game"), ("s", "seconds")])


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


def unknown_keys(changes: dict, known) -> list[str]:
    """Messages for keys the device does not have, with the likeliest one meant."""
    import difflib

    out = []
    aliases = {"language": "lang", "pin": "referee_pin", "table_number": "table"}
    for key in changes:
        if key not in known:
            guess = aliases.get(key) or next(iter(difflib.get_close_matches(key, known, 1)), None)
            out.append("unknown setting %r%s" % (key, " (did you mean %s?)" % guess if guess else ""))
    return out


SECRET_FROM_FILE = ("hall_key", "wifi_password")


def secrets_from_files(items: list[str]) -> list[str]:
    """hall_key=@FILE (and wifi_password=@FILE): the value is the file's first line, so
    that it stays out of the shell's history and of `ps`."""
    out = []
    for item in items:
        key, sep, value = item.partition("=")
        if sep and key in SECRET_FROM_FILE and value.startswith("@"):
            try:
                lines = Path(value[1:]).read_text(encoding="utf-8").splitlines()
            except OSError as e:
                raise SystemExit("clockctl: %s: cannot read %s (%s); nothing was changed"
                                 % (key, value[1:], e.strerror or e))
            if not lines or not lines[0].strip():
                raise SystemExit("clockctl: %s: %s is empty; nothing was changed"
                                 % (key, value[1:]))
            item = key + "=" + lines[0].strip()
        out.append(item)
    return out


def cmd_config(args) -> int:
    args.set = secrets_from_files(args.set or [])
    changes = parse_assignments(args.set or [])
    raw = dict(item.split("=", 1) for item in args.set or [])
    for key in SECRET_FROM_FILE:
        if key in changes:
            changes[key] = raw[key]       # always text (a key of digits stays text)
    if args.force and args.next_game:
        raise SystemExit("clockctl: --force and --next-game exclude each other")
    if "preset_edits" in changes and not isinstance(changes["preset_edits"], dict):
        raise SystemExit("clockctl: preset_edits must be a JSON object of the preset's fields, "
                         "e.g. preset_edits='{\"initial_ms\": 1500000}' (preset_edits='{}' "
                         "clears them); nothing was changed")
    pins = []

    def work(port, progress):
        from host_tools.link import DeviceError

        note = ""
        with _link(args, port) as link:
            if changes:
                progress("set", 0, 1)
                current = link.config_get()
                wrong = unknown_keys(changes, current)
                if wrong:
                    return fleet.Result(port, False, "; ".join(wrong) + "; nothing changed")
                request = typed_like(changes, raw, current)
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
        if str(config.get("referee_pin")) == DEFAULT_PIN:
            pins.append(port)
        detail = json.dumps(config, sort_keys=True) if args.show else note
        return fleet.Result(port, True, detail,
                            {"table": config.get("table"), "preset": config.get("preset"),
                             "game": info.get("preset") if info.get("game") else "",
                             "lang": config.get("lang")})

    code = _run(args, work, [("table", "table"), ("preset", "preset"),
                             ("game", "game in progress"), ("lang", "lang")])
    _warn_default_pin(args, pins)
    return code


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


def _flat(record: dict, prefix: str = "") -> dict:
    """One level of columns for a spreadsheet: a nested object's fields as "key.field",
    a list of words as one text, a list of numbers as "key.0", "key.1" (by side)."""
    out = {}
    for key, value in record.items():
        name = prefix + str(key)
        if isinstance(value, dict):
            out.update(_flat(value, name + "."))
        elif isinstance(value, (list, tuple)):
            if all(isinstance(v, str) for v in value):
                out[name] = " ".join(value)
            else:
                for i, v in enumerate(value):
                    out.update(_flat({str(i): v}, name + "."))
        else:
            out[name] = value
    return out


def _csv_cell(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value


def to_csv(recs: list[dict]) -> str:
    """Records as CSV that a spreadsheet opens as it is: one column per field (nested
    fields flattened), yes/no for true/false, empty for null, numbers as numbers."""
    rows = [_flat(r) for r in recs]
    keys: list[str] = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(keys)
    for r in rows:
        w.writerow([_csv_cell(r.get(k)) for k in keys])
    return buf.getvalue()


def _named(args, name: str) -> str:
    return "%s-%s" % (args.round, name) if getattr(args, "round", None) else name


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
            name = _named(args, device_name(link.device_info, port))
            for i, kind in enumerate(kinds):
                progress(kind, i, len(kinds))
                raw = pull_log(link, kind)
                recs = records(raw)
                if args.format == "csv":
                    text = to_csv(recs).encode("utf-8-sig")
                else:
                    text = b"".join(json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in recs)
                path = out_dir / f"{name}-{kind}.{args.format}"
                path.write_bytes(text)
                data[kind] = len(recs)
            data["files"] = f"{name}-*.{args.format}"
        return fleet.Result(port, True, str(out_dir), data)

    return _run(args, work, [("files", "files")] + [(k, k) for k in kinds])


# -- results, reset (between rounds) ----------------------------------------------------

RESULT_COLUMNS = ("round", "table", "device", "game", "started", "ended", "preset",
                  "left_time_s", "right_time_s", "left_overtime_penalty",
                  "right_overtime_penalty", "left_challenge_penalty", "right_challenge_penalty",
                  "forfeit", "forfeit_reason", "notes", "left_player", "right_player",
                  "left_score", "right_score", "left_final", "right_final")
SIDES = ("left", "right")


def finished_games(recs: list[dict]) -> list[dict]:
    """The games a clock's game log holds that ended (docs/clock-engine.md, Game log):
    times left (negative: overtime, in seconds), the overtime and the challenge penalties
    of each side apart, a forfeit and the notes, and the scores the players confirmed at
    the keypad after the end (a "score" record: the sheets' and the final ones; empty
    when not entered).  A game reset before its end is left out."""
    games, game, ended = [], None, None
    for r in sorted((r for r in recs if isinstance(r.get("seq"), int)), key=lambda r: r["seq"]):
        kind = r.get("kind")
        if kind == "score" and ended is not None:
            for side, name in enumerate(SIDES):
                ended[name + "_score"] = (r.get("score") or ["", ""])[side]
                ended[name + "_final"] = (r.get("final") or ["", ""])[side]
            continue
        if kind in ("start", "reset", "undo", "continue"):
            ended = None                # the scores that follow are of no ended game
        if kind == "start":
            game = {"started": r.get("time") or "", "preset": r.get("preset", ""),
                    "challenge": [0, 0], "forfeit": "", "forfeit_reason": "", "notes": [],
                    "table": r.get("table", ""), "seq": r["seq"]}
        elif game is None:
            continue
        elif kind == "challenge" and r.get("side") in (0, 1):
            game["challenge"][r["side"]] += int(r.get("penalty") or 0)
        elif kind == "forfeit" and r.get("side") in (0, 1):
            game["forfeit"] = SIDES[r["side"]]
            game["forfeit_reason"] = r.get("reason", "")
        elif kind == "ended":
            game["notes"].append("ended: %s" % r.get("reason", ""))
        elif kind == "reset":
            game = None                 # abandoned before its end
        elif kind == "end":
            left = r.get("left") or [0, 0]
            penalty = r.get("penalty") or [0, 0]
            row = {"table": game["table"] or r.get("table", ""), "game": game["seq"],
                   "started": game["started"], "ended": r.get("time") or "",
                   "preset": game["preset"], "forfeit": game["forfeit"],
                   "forfeit_reason": game["forfeit_reason"],
                   "notes": " ".join(game["notes"] + list(r.get("notes") or []))}
            for side, name in enumerate(SIDES):
                row[name + "_time_s"] = _seconds(left[side])
                row[name + "_overtime_penalty"] = penalty[side]
                row[name + "_challenge_penalty"] = game["challenge"][side]
                row[name + "_score"] = row[name + "_final"] = ""
            games.append(row)
            game = None
            ended = row
    return games


def _seconds(ms: int) -> int:
    # whole seconds as the clock shows them: up for time left, and for overtime too
    return -((-ms + 999) // 1000) if ms < 0 else (ms + 999) // 1000


def results_csv(rows: list[dict]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, RESULT_COLUMNS, lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    for row in rows:
        w.writerow({k: _csv_cell(row.get(k)) for k in RESULT_COLUMNS})
    return buf.getvalue()


def cmd_results(args) -> int:
    if args.hall:
        return hall_results(args)
    rows: list[dict] = []

    def work(port, progress):
        progress("games", 0, 1)
        with _link(args, port) as link:
            info = link.device_info
            recs = records(pull_log(link, "games"))
        games = finished_games(recs)
        if args.last:
            games = games[-args.last:]
        for g in games:
            g["device"] = info.get("device")
            g["round"] = args.round or ""
            g["table"] = g["table"] or info.get("table") or ""
        rows.extend(games)
        last = games[-1] if games else {}
        return fleet.Result(port, True, "", {
            "table": info.get("table"), "games": len(games),
            "last": ("%s %+d s / %+d s" % (last.get("ended") or "", last["left_time_s"],
                                          last["right_time_s"])) if last else "-"})

    pairings = _pairings(args)
    if pairings is not None and not args.round:
        args.round = pairings.last_round() or ""    # the file's last round: this one's
    code = _run(args, work, [("table", "table"), ("games", "finished games"),
                             ("last", "last game ended, time left L / R")])
    rows.sort(key=lambda r: (_table_key(r.get("table")), str(r.get("device")), r["game"]))
    for row in rows:
        p = pairings.get(row["round"], row["table"]) if pairings is not None else None
        row["left_player"], row["right_player"] = p.players if p is not None else ("", "")
        row["left_number"], row["right_number"] = (p.numbers if p is not None and p.numbers
                                                   else ("", ""))
        row["division"] = p.division if p is not None else "a"
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(results_csv(rows).encode("utf-8-sig"))
    tsh = _write_tsh(args, out, rows)
    print("%s: %d finished game%s; %s" % (out, len(rows), "" if len(rows) == 1 else "s", tsh))
    return code


def _pairings(args):
    """The pairings file given with --pairings (host_tools/hall/pairings.py), or None."""
    from host_tools.hall import pairings as pairings_mod

    if not args.pairings:
        return None
    try:
        return pairings_mod.load(args.pairings)
    except pairings_mod.PairingsError as e:
        raise SystemExit("clockctl results: %s" % e)


def _write_tsh(args, out: Path, rows: list[dict]) -> str:
    """tsh's score entry of the games (host_tools/hall/export.py tsh_entry) beside the
    CSV (or in --tsh FILE); a game it cannot hold is named on stderr.  Returns what to
    say of the file."""
    from host_tools.hall import export

    tsh_path = Path(args.tsh) if args.tsh else out.with_name(out.stem + "-tsh.txt")
    text, left_out = export.tsh_entry(rows)
    tsh_path.write_text(text, encoding="utf-8")
    for row in left_out:
        print("warning: round %s table %s (%s - %s) is not in the tsh entry: %s" % (
            row["round"] or "?", row["table"], row["left_player"] or "left",
            row["right_player"] or "right", export.left_out_reason(row)), file=sys.stderr)
    return "%s: tsh score entry for %d" % (tsh_path, len(rows) - len(left_out))


def hall_results(args) -> int:
    """The results the hall received (`clockctl hall`'s results.jsonl in DIR), as CSV
    and as tsh's score entry, with the players from the pairings file if given (it
    replaces the names the hall had)."""
    from host_tools.hall import export
    from host_tools.hall.board import read_results

    store = Path(args.hall) / "results.jsonl"
    if not store.is_file():
        raise SystemExit("clockctl results: %s: no results received there (the folder "
                         "clockctl hall --out wrote to)" % store)
    records = read_results(store)
    pairings = _pairings(args)
    if pairings is not None:
        for r in records:
            p = pairings.get(r.get("round") or args.round or "", r["message"]["table"])
            if p is not None:
                r["players"], r["division"] = list(p.players), p.division
                r["numbers"] = list(p.numbers) if p.numbers else None
    if args.round:
        records = [r for r in records if str(r.get("round")) == str(args.round)]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(export.to_csv(records).encode("utf-8-sig"))
    tsh = _write_tsh(args, out, export.rows(records))
    print("%s: %d game%s; %s" % (out, len(records), "" if len(records) == 1 else "s", tsh))
    return 0


def _table_key(table):
    text = str(table or "")
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


def cmd_reset(args) -> int:
    from host_tools.link import DeviceError

    def work(port, progress):
        progress("reset", 0, 1)
        with _link(args, port) as link:
            try:
                reply = link.reset_game(force=args.force)
            except DeviceError as e:
                if e.code != "E_GAME":
                    raise
                return fleet.Result(port, False, "a game is in progress (%s): let it end, or "
                                    "--force ends it now (its result stays in the log)"
                                    % game_state(link.device_info),
                                    {"table": link.device_info.get("table")})
            info = link.info()
        return fleet.Result(port, True, reply.get("msg", ""),
                            {"table": info.get("table"), "game": game_state(info)})

    return _run(args, work, [("table", "table"), ("game", "now")])


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
        # the firmware as given, or with the word list partitions in its partition table
        same = w.label == "firmware" and w.data == firmware
        path = Path(args.firmware) if same else out / f"{w.label}.bin"
        if not same:
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
        raise SystemExit(f"clockctl: the {args.target} target has its firmware frozen into "
                         "its MicroPython image, which the link cannot write: build the image "
                         "again and use clockctl flash (docs/targets.md)")
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

def cmd_hall(rest) -> int:
    from host_tools.hall import cli as hall_cli   # lazily: only this command needs MQTT

    return int(hall_cli.main(rest) or 0)


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

    def target_opts(sp):
        from host_tools.targets import DEFAULT_TARGET, TARGETS

        sp.add_argument("--target", choices=sorted(TARGETS), default=DEFAULT_TARGET,
                        help="the board (docs/targets.md; default %(default)s)")

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

    sp = sub.add_parser("flash-lexicon", help="write the word list with esptool (921600 baud), "
                        "then let the firmware check and adopt it")
    sp.add_argument("image", help="word list image (wordpack output)")
    sp.add_argument("--force", action="store_true",
                    help="even while a game is in progress: the clock restarts, recovers the "
                    "game and goes on with it, judging its next challenges by the new list")
    sp.add_argument("--flash-baud", type=int, default=921600,
                    help="esptool's rate (default %(default)s)")
    sp.add_argument("--reconnect", type=float, default=30.0, metavar="SECONDS",
                    help="how long to wait for the clock after its restart")
    target_opts(sp)
    devices_opts(sp)
    sp.set_defaults(func=cmd_flash_lexicon)

    sp = sub.add_parser("config", help="show or change settings (key=value ...; the hall's: "
                        "wifi_ssid, wifi_password, hall=mqtt://HOST:PORT, event, "
                        "hall_key=@FILE)")
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
    sp.add_argument("--out", default="logs",
                    help="folder for [ROUND-]tableN-DEVICE-KIND.FORMAT files")
    sp.add_argument("--round", help="a round's name or number, put before the file names")
    devices_opts(sp)
    sp.set_defaults(func=cmd_logs)

    sp = sub.add_parser("results", help="finished games of every clock as one CSV, and "
                                        "tsh's score entry")
    sp.add_argument("--out", default="results.csv", help="the CSV file (default %(default)s)")
    sp.add_argument("--round", help="a round's name or number, a column of every row")
    sp.add_argument("--last", type=int, default=0, metavar="N",
                    help="only the last N finished games of each clock (1: this round's)")
    sp.add_argument("--hall", metavar="DIR",
                    help="instead of the clocks over USB: the results the hall received "
                         "(clockctl hall --out DIR), as CSV and as tsh's score entry")
    sp.add_argument("--pairings", metavar="FILE",
                    help="the pairings CSV that names the players and gives their tsh "
                         "numbers (without --round: the file's last round)")
    sp.add_argument("--tsh", metavar="FILE",
                    help="the tsh score entry file (default: beside --out, NAME-tsh.txt)")
    devices_opts(sp)
    sp.set_defaults(func=cmd_results)

    sp = sub.add_parser("reset", help="a fresh game on every clock, between rounds")
    sp.add_argument("--force", action="store_true",
                    help="end a game still in progress (its result stays in the log)")
    devices_opts(sp)
    sp.set_defaults(func=cmd_reset)

    sp = sub.add_parser("flash", help="provision new clocks: MicroPython + firmware + filesystem")
    sp.add_argument("--firmware", required=True,
                    help="MicroPython .bin: ESP32_GENERIC_S3 (v1.26+) for the s3 target, "
                         "the TILECLOCK_WROOM image (firmware frozen in it) for wroom")
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

    sp = sub.add_parser("hall", help="every table live on one page, over MQTT "
                        "(arguments: clockctl hall --help)", add_help=False)
    sp.set_defaults(func=None)
    return p


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["sim"]:
        return cmd_sim(None, argv[1:])
    if argv[:1] == ["hall"]:
        return cmd_hall(argv[1:])
    args = build_parser().parse_args(argv)
    if getattr(args, "all_default", False) and not args.port:
        args.all = True
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""What the hall knows of every table, fed one received MQTT message at a time.

No network and no clock of its own: every call takes `now` (ms of a monotonic clock),
so the tests drive time.  Thread-safe: the subscriber's thread feeds it, the page's
threads read it.

A message is taken only if it is signed with the event's key (hall/sign.py) and comes
after the last one taken from that clock (its boot counter and sequence number,
hall/message.py newer()).  Anything else changes no table: an unsigned, wrongly signed,
malformed or replayed message becomes an alert of the hall (`alerts`), nothing more.
A copy the broker kept (a retained message, delivered when the hall subscribes) that
is not newer is the hall's own past and is passed over without an alert.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter, deque
from pathlib import Path

from host_tools.hall import wire

PHASES = ("setup", "playing", "last move", "over")
SIDES = ("left", "right")
RECENT_ALERTS = 200


class Tile:
    """One table's clock as last heard."""

    def __init__(self, event, table):
        self.event = event
        self.table = table
        self.msg: dict | None = None     # the last state or heartbeat taken
        self.heard = 0                   # now of the last message taken
        self.state_at = 0                # now of self.msg
        self.device = ""
        self.referee = False
        self.devices: dict[str, int] = {}             # every clock heard as this table
        self.clock_alerts: deque = deque(maxlen=10)   # (now, what) from alert messages


class Board:
    def __init__(self, key: str, event: str | None = None, pairings=None, round_name=None,
                 store: Path | None = None):
        message = wire.message()
        reason = message.check_key(key)
        if reason:
            raise ValueError(reason)
        self.m = message
        self.signer = wire.sign().Signer(key)
        self.event = event
        self.pairings = pairings
        self.round = round_name if round_name is not None else (
            pairings.last_round() if pairings else None)
        self.tiles: dict[tuple[str, str], Tile] = {}
        self.seen: dict[str, tuple[int, int]] = {}      # device -> (boot, seq) taken last
        self.alerts: deque = deque(maxlen=RECENT_ALERTS)
        self.counts = Counter()
        self.results: dict[tuple[str, str, int], dict] = {}
        self.version = 0                 # bumped at every change (the live feed waits on it)
        self.changed = threading.Condition()
        self._lock = threading.RLock()
        self.store = Path(store) if store else None
        if self.store:
            self._load()

    # -- receiving ------------------------------------------------------------------

    def receive(self, topic: str, payload: bytes, retained: bool, now: int) -> str:
        """Take one message; what became of it: "taken", "stale" (a retained copy not
        newer), or an alert's kind ("unsigned", "bad signature", "malformed",
        "replayed", "other event")."""
        m = self.m
        answer, msg = m.decode(topic, payload, self.signer)
        where = m.parse_topic(topic)
        table = where[1] if where else None
        with self._lock:
            if answer != m.OK:
                return self._alert(now, answer, table, msg)
            if self.event and msg["event"] != self.event:
                return self._alert(now, "other event", table,
                                   "a clock of event %s (this hall: %s)"
                                   % (msg["event"], self.event))
            last = self.seen.get(msg["device"])
            if not m.newer(msg["boot"], msg["seq"], last):
                if retained:
                    self.counts["stale"] += 1
                    return "stale"
                return self._alert(now, "replayed", table,
                                   "boot %d seq %d from clock %s, after boot %d seq %d"
                                   % (msg["boot"], msg["seq"], msg["device"], *last))
            self.seen[msg["device"]] = (msg["boot"], msg["seq"])
            tile = self.tiles.get((msg["event"], msg["table"]))
            if tile is None:
                tile = self.tiles[(msg["event"], msg["table"])] = Tile(msg["event"],
                                                                       msg["table"])
            tile.heard = now
            tile.device = msg["device"]
            tile.devices[msg["device"]] = now
            kind = msg["kind"]
            if kind in (m.STATE, m.HEARTBEAT):
                tile.msg = msg
                tile.state_at = now
                tile.referee = bool(msg["referee"])
            elif kind == m.ALERT:
                tile.clock_alerts.append((now, msg["what"]))
                if msg["what"] == m.REFEREE:
                    tile.referee = True
            elif kind == m.RESULT:
                self._result(msg)
            self.counts["taken"] += 1
            self._bump()
            return "taken"

    def _alert(self, now, kind, table, detail) -> str:
        self.counts[kind] += 1
        self.alerts.append({"at": now, "wall": time.time(), "kind": kind,
                            "table": table, "detail": str(detail)})
        self._bump()
        return kind

    def _bump(self):
        with self.changed:
            self.version += 1
            self.changed.notify_all()

    # -- results --------------------------------------------------------------------

    def _result(self, msg):
        key = (msg["event"], msg["device"], msg["game"])
        pairing = self.pairings.get(self.round, msg["table"]) if self.pairings else None
        record = {"received": time.strftime("%Y-%m-%d %H:%M:%S"),
                  "round": self.round or "", "message": msg,
                  "players": list(pairing.players) if pairing else ["", ""],
                  "numbers": list(pairing.numbers) if pairing and pairing.numbers else None,
                  "division": pairing.division if pairing else "a"}
        old = self.results.get(key)
        if old is not None:
            # the clock sends a result again after a reconnect: the same game, kept
            # with the round and names it came with
            same = {k: v for k, v in old["message"].items() if k not in ("boot", "seq")}
            now = {k: v for k, v in msg.items() if k not in ("boot", "seq")}
            if same == now:
                return
            record["round"], record["players"] = old["round"], old["players"]
            record["numbers"], record["division"] = old["numbers"], old["division"]
        self.results[key] = record
        if self.store:
            self.store.mkdir(parents=True, exist_ok=True)
            with open(self.store / "results.jsonl", "a", encoding="utf-8") as f:
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
                f.flush()
        self.save_seen()

    def result_records(self) -> list[dict]:
        with self._lock:
            return list(self.results.values())

    def save_seen(self):
        if not self.store:
            return
        self.store.mkdir(parents=True, exist_ok=True)
        tmp = self.store / "seen.json.tmp"
        tmp.write_text(json.dumps({d: list(v) for d, v in self.seen.items()}))
        tmp.replace(self.store / "seen.json")

    def _load(self):
        path = self.store / "results.jsonl"
        if path.exists():
            for record in read_results(path):
                msg = record["message"]
                self.results[(msg["event"], msg["device"], msg["game"])] = record
        seen = self.store / "seen.json"
        if seen.exists():
            try:
                data = json.loads(seen.read_text())
                self.seen = {str(d): (int(v[0]), int(v[1])) for d, v in data.items()}
            except (ValueError, TypeError, IndexError, AttributeError):
                self.seen = {}

    # -- reading --------------------------------------------------------------------

    def wait(self, version: int, timeout: float) -> int:
        """The version after a change past `version`, or the same after timeout s."""
        with self.changed:
            if self.version == version:
                self.changed.wait(timeout)
            return self.version

    def tables(self, now: int) -> list[dict]:
        """One object per clock (GET /tables.json): the times as of now (a running
        clock's time goes on from its last message), what the page shows, and its
        alerts."""
        with self._lock:
            tiles = sorted(self.tiles.values(), key=lambda t: (t.event, _table_key(t.table)))
            lists = Counter(tuple(t.msg["list"]) for t in tiles if t.msg)
            usual = lists.most_common(1)[0][0] if lists else None
            return [self._tile(t, now, usual if len(lists) > 1 else None) for t in tiles]

    def _tile(self, tile: Tile, now: int, usual) -> dict:
        m = self.m
        msg = tile.msg or {}
        ms = list(msg.get("ms") or [0, 0])
        run = msg.get("run", -1)
        if msg and run in (0, 1) and msg["phase"] in (0, 1) and not msg["paused"]:
            ms[run] -= now - tile.state_at
        pairing = self.pairings.get(self.round, tile.table) if self.pairings else None
        players = list(pairing.players) if pairing else ["", ""]
        silent = now - tile.heard
        alerts = []
        for side in (0, 1):
            if msg and ms[side] < 0:
                alerts.append({"kind": "flag", "text": "flag fallen: %s%s" % (
                    SIDES[side], " (%s)" % players[side] if players[side] else "")})
        if tile.referee:
            alerts.append({"kind": "referee", "text": "referee called"})
        battery = msg.get("battery_pct", -1)
        if 0 <= battery < m.BATTERY_LOW:
            alerts.append({"kind": "battery", "text": "battery low: %d%%" % battery})
        if silent >= m.SILENT_MS:
            alerts.append({"kind": "silent", "text": "silent for %d s" % (silent // 1000)})
        if usual is not None and msg and tuple(msg["list"]) != usual:
            alerts.append({"kind": "list", "text": "word list %s %s (most tables: %s %s)"
                           % (msg["list"][0], msg["list"][1], usual[0], usual[1])})
        others = sorted(d for d, at in tile.devices.items() if now - at < m.SILENT_MS)
        if len(others) > 1:
            alerts.append({"kind": "clash", "text": "%d clocks publish as this table: %s"
                           % (len(others), ", ".join(others))})
        for at, what in tile.clock_alerts:
            if what != m.REFEREE and now - at < m.SILENT_MS:
                alerts.append({"kind": "clock", "text": "clock: %s" % what})
        phase = msg.get("phase", 0)
        return {
            "event": tile.event, "table": tile.table, "device": tile.device,
            "players": players, "round": self.round,
            "left_ms": ms[0], "right_ms": ms[1],
            "left_text": wire.time_text(ms[0]), "right_text": wire.time_text(ms[1]),
            "running": run, "phase": phase,
            "phase_text": PHASES[phase] if 0 <= phase < len(PHASES) else str(phase),
            "on_turn": msg.get("turn", -1), "paused": bool(msg.get("paused")),
            "penalty": msg.get("penalty", [0, 0]),
            "chal_penalty": msg.get("chal_penalty", [0, 0]),
            "challenge": msg.get("challenge", -1),
            "last_challenge": msg.get("last_challenge"),
            "forfeit": msg.get("forfeit", -1),
            "referee": tile.referee,
            "battery_pct": battery,
            "list_name": (msg.get("list") or ["", ""])[0],
            "list_version": (msg.get("list") or ["", ""])[1],
            "firmware": msg.get("fw", ""),
            "boot": msg.get("boot"), "seq": msg.get("seq"),
            "last_seen_ms": silent,
            "alerts": alerts,
        }

    def recent_alerts(self, now: int) -> list[dict]:
        with self._lock:
            return [dict(a, age_ms=now - a["at"]) for a in reversed(self.alerts)]

    def snapshot(self, now: int) -> dict:
        """Everything the page shows."""
        with self._lock:
            return {"tables": self.tables(now), "alerts": self.recent_alerts(now),
                    "counts": dict(self.counts), "round": self.round,
                    "event": self.event, "results": len(self.results)}


def read_results(path: Path) -> list[dict]:
    """The hall's received results (results.jsonl), the last of each game."""
    out: dict = {}
    with open(path, encoding="utf-8") as f:
        for line_no, line in enumerate(f, start=1):
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
                msg = record["message"]
                out[(msg["event"], msg["device"], msg["game"])] = record
            except (ValueError, KeyError, TypeError):
                # a line cut by a crash: the results before and after it still count
                continue
    return list(out.values())


def _table_key(table: str):
    return (0, int(table), "") if table.isdigit() else (1, 0, table)

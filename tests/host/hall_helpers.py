"""Start `clockctl hall` as the organiser does, and fake clocks that publish to its
broker as the firmware will: real MQTT clients (paho-mqtt) sending messages built and
signed by the firmware's own hall/message.py.  Shared by the hall's tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from host_tools.hall import wire
from tests.host.drain import Drain

REPO = Path(__file__).resolve().parents[2]
KEY = "dm2026-hall-test-key"
EVENT = "dm2026"
HANG_S = 60.0   # a guard against a hang, not a wait: every wait ends at its condition


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, what: str, timeout: float = HANG_S, every: float = 0.05):
    """condition()'s first true value, polled; AssertionError naming `what` past timeout.
    A connection the hall's page server dropped (a busy machine) is asked again."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = condition()
        except OSError:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("no %s within %d s" % (what, timeout))
        time.sleep(every)


class Hall:
    """`python -m host_tools hall` on free ports of 127.0.0.1 (its embedded broker, or
    `broker` given as mqtt://HOST:PORT); ready once it has subscribed."""

    def __init__(self, out: Path, broker: str | None = None, pairings: Path | None = None,
                 extra=()):
        self.http_port = free_port()
        self.mqtt_port = free_port() if broker is None else int(broker.rsplit(":", 1)[1])
        key_file = out.parent / (out.name + "-key.txt")
        key_file.write_text(KEY + "\n")
        cmd = [sys.executable, "-m", "host_tools", "hall", "--listen", "127.0.0.1",
               "--port", str(self.http_port), "--key-file", str(key_file),
               "--event", EVENT, "--out", str(out)]
        cmd += ["--broker", broker] if broker else ["--mqtt-port", str(self.mqtt_port)]
        if pairings:
            cmd += ["--pairings", str(pairings)]
        cmd += list(extra)
        self.url = "http://127.0.0.1:%d" % self.http_port
        self.lines: list[str] = []
        self.proc = subprocess.Popen(cmd, cwd=str(REPO), stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True,
                                     start_new_session=True)
        self._err = Drain(self.proc.stderr)
        self._subscribed = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        if not self._subscribed.wait(HANG_S):
            err = self.stop()
            raise RuntimeError("the hall did not subscribe: %r %s" % (self.lines, err))

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if line.startswith("hall: subscribed"):
                self._subscribed.set()

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        return self._err.text()

    def get(self, path: str):
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            body = r.read()
            if r.headers.get_content_type() == "application/json":
                return json.loads(body)
            return body.decode("utf-8-sig")

    def tables(self) -> dict:
        return {t["table"]: t for t in self.get("/tables.json")}

    def alerts(self) -> list[dict]:
        return self.get("/alerts.json")


class FakeClock:
    """One table's clock: a paho-mqtt client that publishes what the firmware's
    Publisher builds (hall/message.py), QoS 1, states retained as the firmware does."""

    def __init__(self, port: int, table: str, device: str, boot: int = 1, key: str = KEY,
                 host: str = "127.0.0.1"):
        import paho.mqtt.client as mqtt

        self.m = wire.message()
        self.publisher = self.m.Publisher(key, EVENT, table, device, boot, "0.1.0")
        self.table = table
        self.sent: list[tuple[str, bytes]] = []
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id="clock-%s-%s" % (device, time.time_ns()))
        self.client.connect(host, port, keepalive=30)
        self.client.loop_start()

    def publish_raw(self, topic: str, payload: bytes, retain: bool = False):
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(HANG_S)
        assert info.is_published(), "the broker did not acknowledge %s" % topic

    def state(self, ms=(1500000, 1500000), run=-1, phase=1, turn=0, battery=80,
              lst=("de-2026", "2026.1"), referee=False, **more):
        fields = {"ms": list(ms), "run": run, "phase": phase, "turn": turn,
                  "penalty": [0, 0], "chal_penalty": [0, 0], "challenge": -1, "paused": 0,
                  "forfeit": -1}
        fields.update(self.m.device_fields(battery, lst[0], lst[1], referee))
        fields.update(more)
        topic, payload = self.publisher.state(fields)
        self.publish_raw(topic, payload, retain=True)
        self.sent.append((topic, payload))
        return topic, payload

    def result(self, game, score, final, penalty=(0, 0), ms=(10000, -5000)):
        fields = {"game": game, "score": list(score), "penalty": list(penalty),
                  "chal_penalty": [0, 0], "final": list(final), "ms": list(ms),
                  "forfeit": -1}
        topic, payload = self.publisher.result(fields)
        self.publish_raw(topic, payload, retain=True)
        self.sent.append((topic, payload))
        return topic, payload

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


PAIRINGS = ("round,table,player1,player2,number1,number2\n"
            "1,1,Anna Nowak,Bjørn Berg,1,2\n"
            "1,2,Carl Cox,Dora Diaz,3,4\n"
            "1,3,Emil Ek,Frida Fjell,5,6\n")
STABLE = ("left_ms", "right_ms", "phase", "on_turn", "battery_pct", "list_version",
          "players", "penalty", "boot", "seq", "referee", "alerts")


def three_tables(hall: Hall, port: int, host: str = "127.0.0.1"):
    """The issue's scenario: three clocks publish; all three tables are in /tables.json
    within 10 s; a forged and a replayed message are alerts and change nothing; a
    result arrives once, named from the pairings.  Returns the clocks (closed)."""
    clocks = [FakeClock(port, str(n), "dev%d" % n, host=host) for n in (1, 2, 3)]
    try:
        t0 = time.monotonic()
        for n, clock in enumerate(clocks):
            clock.state(ms=(1500000 - n * 1000, 1500000), battery=90 - n)
        tables = wait_for(lambda: (lambda t: t if len(t) == 3 else None)(hall.tables()),
                          "three tables in /tables.json")
        took = time.monotonic() - t0
        assert took < 10, "three tables took %.1f s" % took
        assert tables["2"]["left_ms"] == 1499000 and tables["2"]["battery_pct"] == 89
        assert tables["2"]["players"] == ["Carl Cox", "Dora Diaz"]
        for t in tables.values():
            for key in ("table", "left_ms", "right_ms", "phase", "on_turn", "battery_pct",
                        "list_version", "last_seen_ms"):
                assert key in t

        # table 1 plays on: its first message is the one to replay
        first = clocks[0].sent[0]
        clocks[0].state(ms=(1490000, 1500000), turn=1)
        wait_for(lambda: hall.tables()["1"]["on_turn"] == 1, "table 1's second state")
        before = {n: {k: t[k] for k in STABLE} for n, t in hall.tables().items()}

        # forged: table 2's topic, signed with another key, its battery "empty"
        m = clocks[0].m
        forger = m.Publisher("not-the-event-key!", EVENT, "2", "dev2", 1, "0.1.0")
        topic, payload = forger.state(_fields(clocks[1]))
        clocks[2].publish_raw(topic, payload)
        # replayed: table 1's first message, sent again as it was recorded
        clocks[2].publish_raw(*first)
        alerts = wait_for(lambda: (lambda a: a if len(a) >= 2 else None)(hall.alerts()),
                          "two alerts")
        kinds = sorted((a["kind"], a["table"]) for a in alerts)
        assert kinds == [("bad signature", "2"), ("replayed", "1")], alerts
        after = {n: {k: t[k] for k in STABLE} for n, t in hall.tables().items()}
        assert after == before

        # a result, sent twice (a reconnect), is one game, with the players' names
        clocks[2].result(4, (401, 388), (391, 388), penalty=(10, 0))
        clocks[2].result(4, (401, 388), (391, 388), penalty=(10, 0))
        csv_text = wait_for(lambda: (lambda c: c if c.count("\n") >= 2 else None)(
            hall.get("/results.csv")), "the result in /results.csv")
        lines = csv_text.splitlines()
        assert len(lines) == 2, lines
        assert lines[1].startswith("1,a,3,Emil Ek,Frida Fjell,401,388,10,0,0,0,391,388,3,")
        assert hall.get("/results-tsh.txt") == "a 1 a\n5 391 6 388\n\n"
        return clocks
    finally:
        for clock in clocks:
            clock.close()


def _fields(clock):
    """A state's fields (the clock's last state, its battery 1 %): what a forger sends."""
    msg = json.loads(clock.sent[0][1].split(b"\n")[0])
    for key in ("v", "kind", "event", "table", "device", "boot", "seq", "fw"):
        msg.pop(key)
    msg["battery_pct"] = 1
    return msg

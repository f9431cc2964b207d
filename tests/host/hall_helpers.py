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

REPO = Path(__file__).resolve().parents[2]
KEY = "dm2026-hall-test-key"
EVENT = "dm2026"
HANG_S = 60.0   # a guard against a hang, not a wait: every wait ends at its condition


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, what: str, timeout: float = HANG_S, every: float = 0.05):
    """condition()'s first true value, polled; AssertionError naming `what` past timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
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
        return self.proc.stderr.read() if self.proc.stderr else ""

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

"""The hall at scale: real-firmware clocks and replayed publishers through a real broker.

    python bench/bench_hall.py [--clocks 30] [--replayed 200] [--presses 6]
                               [--outage 60] [--broker mosquitto|embedded]

What runs (each in its own processes, on this machine):
  - the broker: Mosquitto (default; its own process, so its CPU is its own) or the hall's
    embedded amqtt (--broker embedded: the hall's CPU then includes the broker's);
  - `clockctl hall` (paho-mqtt subscriber, board, page);
  - `clockctl sim --clocks N --broker ... --headless`: N clocks, each the real firmware
    under the MicroPython unix port with network.WLAN faked and real sockets, played
    through the simulator's JSON API;
  - R replayed publishers (one process, one MQTT connection each, paho-mqtt): tables
    r1..rR sending what a clock sends (signed by the firmware's hall/message.py): a state
    every 3-8 s (a turn), a heartbeat every 10 s.

Measured:
  1. press -> page: a button pressed through the simulator's API until the hall's page
     stream (/events, Server-Sent Events, what the browser gets) shows that table's other
     clock running; p50, p95, max over clocks x presses (rounds over every clock, at
     least --presses rounds and --window seconds);
  2. CPU of the broker and of the hall (user + system seconds from /proc over that
     window, as % of one core), and of the simulated clocks together;
  3. broker restart (Mosquitto only): stopped for 5 s while half the clocks finish their
     games, started again: the time until every table is heard again, the results;
  4. Wi-Fi gone for --outage s at every clock while the other half finish their games:
     nothing reaches the hall meanwhile; the time until every table is heard again once
     it is back; every result arrives, once.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.host.hall_helpers import EVENT, KEY, Hall, wait_for  # noqa: E402
from tests.host.hall_sim import MOSQUITTO, Mosquitto, SimClocks  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")


# -- the replayed publishers (a child process) ---------------------------------------

def replay(count: int, port: int, seed: int = 1) -> None:
    """count publishers until stdin closes: each its own MQTT connection."""
    import paho.mqtt.client as mqtt

    from host_tools.hall import wire

    m = wire.message()
    rnd = random.Random(seed)
    pubs = []
    for k in range(1, count + 1):
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="replay-%d-%d" % (k, os.getpid()))
        c.connect_async("127.0.0.1", port, keepalive=60)
        c.loop_start()
        p = m.Publisher(KEY, EVENT, "r%d" % k, "replay%04d" % k, int(time.time()), "0.1.0")
        pubs.append({"client": c, "pub": p, "ms": [1500000, 1500000], "turn": 0,
                     "next": time.monotonic() + rnd.uniform(0, 3), "beat": time.monotonic()})
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    while not stop.is_set():
        now = time.monotonic()
        for s in pubs:
            if now >= s["next"]:
                s["ms"][s["turn"]] -= int(rnd.uniform(3000, 8000))
                s["turn"] = 1 - s["turn"]
                kind = "state"
                s["next"] = now + rnd.uniform(3, 8)
            elif now - s["beat"] >= 10:
                kind = "heartbeat"
            else:
                continue
            s["beat"] = now
            fields = {"ms": list(s["ms"]), "run": s["turn"], "phase": 1, "turn": s["turn"],
                      "penalty": [0, 0], "chal_penalty": [0, 0], "challenge": -1,
                      "paused": 0, "forfeit": -1}
            fields.update(m.device_fields(80, "de-2026", "2026.1"))
            topic, payload = (s["pub"].state if kind == "state" else s["pub"].heartbeat)(fields)
            s["client"].publish(topic, payload, qos=1, retain=kind == "state")
        stop.wait(0.05)
    for s in pubs:
        s["client"].disconnect()
        s["client"].loop_stop()


# -- measuring -------------------------------------------------------------------------

def cpu_s(pids) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / CLK_TCK


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                out.append(int(entry.name))
                out += children(int(entry.name))
    return out


class PageStream:
    """The hall's /events: the time each table's (running, phase) was first seen."""

    def __init__(self, url: str):
        self.lock = threading.Condition()
        self.seen: dict[str, tuple] = {}
        self.changes: list[tuple[float, str, tuple]] = []
        self.r = urllib.request.urlopen(url + "/events", timeout=600)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for line in self.r:
                if not line.startswith(b"data: "):
                    continue
                t = time.monotonic()
                snap = json.loads(line[6:])
                with self.lock:
                    for tab in snap["tables"]:
                        v = (tab["running"], tab["phase"])
                        if self.seen.get(tab["table"]) != v:
                            self.seen[tab["table"]] = v
                            self.changes.append((t, tab["table"], v))
                    self.lock.notify_all()
        except Exception:
            pass

    def wait(self, table: str, since: float, pred, timeout: float = 120) -> float | None:
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                for t, tab, v in self.changes:
                    if tab == table and t >= since and pred(v):
                        return t
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.lock.wait(left)


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


def heard_all(hall, tables, since=None):
    """Every table in `tables` heard from: since the monotonic time `since`, or within
    the last heartbeat's period and a second."""
    t = hall.tables()
    within = 11000 if since is None else (time.monotonic() - since) * 1000
    return all(name in t and t[name]["last_seen_ms"] < within for name in tables)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clocks", type=int, default=30)
    ap.add_argument("--replayed", type=int, default=200)
    ap.add_argument("--presses", type=int, default=6, help="presses per clock (latency)")
    ap.add_argument("--outage", type=float, default=60.0, help="seconds without Wi-Fi")
    ap.add_argument("--window", type=float, default=60.0,
                    help="seconds of presses over which the CPU is measured, at least")
    ap.add_argument("--broker", choices=("mosquitto", "embedded"), default="mosquitto")
    ap.add_argument("--replay-child", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.replay_child:
        replay(args.replay_child, args.port)
        return 0

    import tempfile

    # Stopped by a signal, the bench still stops what it started: the simulator, the hall
    # and the broker run in sessions of their own, so nothing else would reach them.
    def stop_on(signum, _frame):
        raise SystemExit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop_on)
    work = Path(tempfile.mkdtemp(prefix="bench-hall-"))
    say = lambda *a: print(*a, flush=True)  # noqa: E731
    say("bench_hall: %d real-firmware clocks, %d replayed publishers, broker %s; load %s"
        % (args.clocks, args.replayed, args.broker, os.getloadavg()))
    broker = None
    if args.broker == "mosquitto":
        if not Path(MOSQUITTO).exists():
            raise SystemExit("Mosquitto is not installed")
        broker = Mosquitto(work).start()
        url = "mqtt://127.0.0.1:%d" % broker.port
        hall = Hall(work / "hall", broker=url)
    else:
        hall = Hall(work / "hall")
        url = "mqtt://127.0.0.1:%d" % hall.mqtt_port
    sim = replayer = None
    report = {}
    try:
        t0 = time.monotonic()
        sim = SimClocks(work / "sim", args.clocks, url)
        real = [str(k) for k in range(1, args.clocks + 1)]
        wait_for(lambda: heard_all(hall, real), "every real clock live", timeout=600)
        report["real_live_s"] = time.monotonic() - sim.ready_at
        say("%d real clocks live %.1f s after the simulator started them"
            % (args.clocks, report["real_live_s"]))
        if args.replayed:
            replayer = subprocess.Popen([sys.executable, __file__, "--replay-child",
                                         str(args.replayed), "--port", url.rsplit(":", 1)[1]],
                                        stdin=subprocess.PIPE, cwd=str(REPO))
            names = real + ["r%d" % k for k in range(1, args.replayed + 1)]
            wait_for(lambda: len(hall.tables()) >= len(names), "every table live", timeout=600)
            say("%d tables live %.1f s after the start" % (len(names), time.monotonic() - t0))
        page = PageStream(hall.url)
        time.sleep(2)

        # 1 + 2: latency and CPU over the same window
        hall_pids = [hall.proc.pid] + children(hall.proc.pid)
        broker_pids = [broker.proc.pid] if broker else []
        sim_pids = [sim.proc.pid] + children(sim.proc.pid)
        c0 = (cpu_s(hall_pids), cpu_s(broker_pids), cpu_s(sim_pids), time.monotonic())
        lat = []
        missed = 0
        n = 0
        while n < args.presses or time.monotonic() - c0[3] < args.window:
            # right first (left's clock runs), then they alternate
            side = "right" if n % 2 == 0 else "left"
            runs = 0 if side == "right" else 1
            for k in range(1, args.clocks + 1):
                t = time.monotonic()
                sim.press(k, side, 0.05)
                seen = page.wait(str(k), t, lambda v, r=runs: v[0] == r, timeout=60)
                if seen is None:
                    missed += 1
                else:
                    lat.append(seen - t)
            n += 1
        c1 = (cpu_s(hall_pids), cpu_s(broker_pids), cpu_s(sim_pids), time.monotonic())
        span = c1[3] - c0[3]
        report.update({
            "presses": len(lat) + missed, "missed": missed,
            "p50_ms": 1000 * pct(lat, 50), "p95_ms": 1000 * pct(lat, 95),
            "max_ms": 1000 * max(lat), "window_s": span,
            "hall_cpu_pct": 100 * (c1[0] - c0[0]) / span,
            "broker_cpu_pct": 100 * (c1[1] - c0[1]) / span if broker else None,
            "clocks_cpu_pct": 100 * (c1[2] - c0[2]) / span})
        say("press -> page: %d presses, %d not seen; p50 %.0f ms, p95 %.0f ms, max %.0f ms"
            % (report["presses"], missed, report["p50_ms"], report["p95_ms"], report["max_ms"]))
        say("CPU over %.0f s: hall %.1f %%, broker %s, %d simulated clocks %.1f %% (of one core)"
            % (span, report["hall_cpu_pct"], "%.1f %%" % report["broker_cpu_pct"]
               if broker else "(in the hall)", args.clocks, report["clocks_cpu_pct"]))

        half = args.clocks // 2
        first, second = list(range(1, half + 1)), list(range(half + 1, args.clocks + 1))
        results = work / "hall" / "results.jsonl"

        def finish(ks):
            """Finish the games of clocks ks, each in a thread; the clocks whose game the
            script could not finish (a screen not seen in time on this busy machine) are
            returned with the reason, and expect no result."""
            errors = []

            def one(k):
                try:
                    sim.finish_game(k)
                except Exception as e:      # noqa: BLE001 (reported)
                    errors.append((k, repr(e)[:120]))
            threads = [threading.Thread(target=one, args=(k,), daemon=True) for k in ks]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            return errors

        def result_tables():
            if not results.exists():
                return []
            return [json.loads(line)["message"]["table"]
                    for line in results.read_text().splitlines() if line.strip()]

        # 3: the broker restarts while the first half finish their games
        if broker:
            broker.stop()
            t_down = time.monotonic()
            errors = finish(first)
            first = [k for k in first if k not in {e[0] for e in errors}]
            time.sleep(max(0.0, 5 - (time.monotonic() - t_down)))
            broker.start()
            t_up = time.monotonic()
            wait_for(lambda: heard_all(hall, real, t_up), "every real clock heard again",
                     timeout=600)
            report["broker_back_all_heard_s"] = time.monotonic() - t_up
            got = wait_for(lambda: (lambda r: r if len(set(r) & {str(k) for k in first})
                                    == len(first) else None)(result_tables()),
                           "the first half's results", timeout=600)
            report["broker_restart_results"] = "%d of %d" % (
                len(set(got) & {str(k) for k in first}), len(first))
            say("broker restart (down %.1f s): every clock heard again %.1f s after; "
                "results %s; finishing errors %s" % (t_up - t_down,
                                                     report["broker_back_all_heard_s"],
                                                     report["broker_restart_results"], errors))
        else:
            second = first + second

        # 4: Wi-Fi gone at every clock while the (other) half finish their games
        before = len(result_tables())
        for k in range(1, args.clocks + 1):
            sim.wifi(k, False)
        t_off = time.monotonic()
        errors = finish(second)
        unfinished = {e[0] for e in errors}
        time.sleep(max(0.0, args.outage - (time.monotonic() - t_off)))
        during = len(result_tables()) - before
        for k in range(1, args.clocks + 1):
            sim.wifi(k, True)
        t_on = time.monotonic()
        wait_for(lambda: heard_all(hall, real, t_on), "every real clock heard again",
                 timeout=600)
        report["wifi_back_all_heard_s"] = time.monotonic() - t_on
        want = {str(k) for k in first + second if k not in unfinished}
        wait_for(lambda: want <= set(result_tables()), "every result", timeout=600)
        time.sleep(3)
        tables = result_tables()
        report["results"] = "%d of %d finished games, %d records" % (
            len(set(tables) & want), len(want), len(tables))
        say("Wi-Fi gone %.0f s at every clock: %d results reached the hall meanwhile; every "
            "clock heard again %.1f s after it was back; results %s; finishing errors %s"
            % (time.monotonic() - t_off - report["wifi_back_all_heard_s"], during,
               report["wifi_back_all_heard_s"], report["results"], errors))
        say("alerts of the hall: %s" % sorted({a["kind"] for a in hall.alerts()}))
        say(json.dumps(report))
        tb = sim.tracebacks()
        if tb:
            say("simulator errors: %s" % tb[:5])
    finally:
        if replayer is not None:
            replayer.stdin.close()
            try:
                replayer.wait(timeout=60)
            except subprocess.TimeoutExpired:
                replayer.kill()
        if sim is not None:
            sim.stop()
        hall.stop()
        if broker is not None:
            broker.stop()
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

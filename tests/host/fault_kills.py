"""Power cuts at random moments of games: the real firmware (tests/host/fault_driver.py,
players and a referee pressing buttons and keys) is SIGKILLed, started again on the
same device folder, and what comes back is compared with what the firmware last
showed and saved.  Games include typed challenges, the opponent's confirmation, the
check, verdicts, the referee's decisions, holds, pauses, the end phase, overtime,
forfeits and resets.  Used by tests/host/test_recovery_kill.py (a quick count) and
bench/fault_kills.py (the full count; figures in docs/faults.md).

A kill is drawn before it is made and lands when drawn: the child writes its trace
to a file (unbuffered), which never blocks it, and the parent does not read while
it waits for the drawn moment (kinds of draw: a random time after the boot, a
random time into the start-up itself, the first moment of a drawn phase plus a
random delay, or the moment a save begins).

After each kill, what the next boot shows ("B" line) must be one of the states the
firmware had shown or begun to save since its last completed step (the last "S"
line and the "C" lines after it), as a power cut brings them back: the same turn,
phase, challenge and its step, typed words, hold, forfeit, challenge penalties;
overtime penalties within one unit; both times within 1 s; whatever was moving (a
clock, a challenge window) comes back stopped.  The game must go on after every boot
(the driver fails when no clock has run for 10 minutes of play), and the game log must
hold every record once, in order (seq), across all kills (looked at after each).
"""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import signal
import threading
import time
from collections import Counter
from pathlib import Path

from tests.host import runtime_proc
from tests.host.drain import Drain

DRIVER = str(runtime_proc.HERE / "fault_driver.py")
LEXICON = runtime_proc.REPO / "tests" / "firmware" / "data" / "lexicon_de.dawg"
CONFIG = {"lang": "en", "preset_edits": {"initial_ms": 60000, "overtime_cap_ms": 90000}}
TOLERANCE_MS = 1000
STEP_MS = 10
# each 10 ms step of the game takes at least this long in real time (about 2500 steps a
# second), so that a kill drawn a few ms into a short phase (a confirmation) lands in it
PACE_US = 300

# terminal.flow states
NEUTRAL, COUNT, ENTRY, CONFIRM, READY, VERDICT, REFEREE_WAIT, CANCEL_ASK, REFEREE, \
    FINISH_ASK, ACCEPT_ASK, SCORE, SCORE_CONFIRM = range(13)
SCORE_STATES = (SCORE, SCORE_CONFIRM)     # the scores after the game (terminal.scores)
PHASE_ENDING, PHASE_OVER = 2, 3           # clock.engine's phases
CHALLENGE_STATES = (COUNT, ENTRY, CONFIRM, READY, REFEREE_WAIT)
FLOW_NAMES = {COUNT: "count", ENTRY: "entry", CONFIRM: "confirm", READY: "ready",
              VERDICT: "verdict", REFEREE_WAIT: "referee-decides", CANCEL_ASK: "cancel-ask",
              REFEREE: "referee-menu", FINISH_ASK: "finish-ask", ACCEPT_ASK: "accept-ask",
              SCORE: "score", SCORE_CONFIRM: "score-confirm"}
FIELDS = ("phase", "on_turn", "paused", "challenging", "challenger", "hold", "forfeit",
          "chal0", "chal1", "ot0", "ot1", "left0", "left1", "running", "flow", "back",
          "count", "lengths", "verdict")
# phases a targeted kill waits for
TARGETS = ("count", "entry", "confirm", "ready", "verdict", "referee-decides", "cancel-ask",
           "referee-menu", "finish-ask", "end-phase", "overtime", "hold", "paused", "over",
           "running", "save", "withdrawn", "lent")


def parse(line: str) -> dict:
    parts = line.split()
    state = {}
    for name, value in zip(FIELDS, parts[1:]):
        state[name] = value if name == "lengths" else int(value)
    return state


def phase_of(s: dict) -> str:
    if s["flow"] in FLOW_NAMES:
        return FLOW_NAMES[s["flow"]]
    if s["phase"] == 3:
        return "over"
    if s["phase"] == 2:
        return "end-phase"
    if s["phase"] == 0:
        return "setup"
    if s["paused"]:
        return "paused"
    side = s["on_turn"]
    if s["running"] == 0:
        return "withdrawn"      # the player restarts the challenger's clock (TSO 3.1.4)
    if side >= 0 and s["running"] == 1 << (1 - side):
        return "lent"           # the other player's clock runs, the turn stays (3.1.1, 4.2c)
    if side >= 0 and s["left%d" % side] < 0:
        return "overtime"
    if s["hold"] >= 0:
        return "hold"
    return "running"


def after_cut(s: dict) -> dict:
    """What a power cut in state s must bring back (the fields compared)."""
    flow = s["flow"]
    if flow in (CANCEL_ASK, REFEREE):
        flow = s["back"]
    if flow in CHALLENGE_STATES and s["challenging"]:
        pass
    elif flow == VERDICT and s["verdict"] >= 0:
        pass
    elif flow in SCORE_STATES and s["phase"] == 3:
        pass
    else:
        flow = NEUTRAL
    if s["challenging"] and flow == NEUTRAL:
        flow = COUNT
    expect = {k: s[k] for k in ("phase", "on_turn", "challenging", "challenger", "hold",
                                "forfeit", "chal0", "chal1")}
    expect["flow"] = flow
    if flow in (ENTRY, CONFIRM, READY, REFEREE_WAIT):
        expect["count"] = s["count"]
        expect["lengths"] = s["lengths"]
    if flow == VERDICT:
        expect["verdict"] = s["verdict"]
    # Whatever was moving (a clock, a challenge window's countdown) comes back stopped:
    # paused wherever the engine can pause (clock.snapshot_load).
    movable = s["phase"] in (1, 2) or (s["phase"] == 0 and s["running"])
    expect["paused"] = 1 if s["paused"] or (movable and not s["challenging"]) else 0
    expect["running"] = 0
    return expect


def differences(back: dict, candidate: dict) -> list[str]:
    expect = after_cut(candidate)
    if expect["phase"] == 3 and expect["flow"] == NEUTRAL and back["flow"] == SCORE:
        # a game over whose scores were not asked for yet when the cut came: start-up
        # asks for them
        expect["flow"] = SCORE
    out = ["%s %r != %r" % (k, back[k], v) for k, v in expect.items() if back[k] != v]
    for side in (0, 1):
        lost = candidate["left%d" % side] - back["left%d" % side]
        if abs(lost) > TOLERANCE_MS + STEP_MS:
            out.append("left%d moved by %d ms" % (side, -lost))
        if abs(back["ot%d" % side] - candidate["ot%d" % side]) > 10:
            out.append("ot%d %d != %d" % (side, back["ot%d" % side], candidate["ot%d" % side]))
    return out


def challenge_records(folder: Path) -> list[dict]:
    """The complete records of the challenge log (a line a kill tore is skipped)."""
    out = []
    for name in ("challenges.1.jsonl", "challenges.jsonl"):
        path = folder / "logs" / name
        if path.exists():
            for line in path.read_text().splitlines():
                try:
                    out.append(json.loads(line))
                except ValueError:
                    continue
    return out


def decided_from_log(back: dict, candidate: dict, records: list[dict]) -> list[str]:
    """What is wrong with `back` as the challenge of `candidate` decided by its record: a
    cut after the record reached logs/challenges.jsonl and before the state's save brings
    the challenge back decided as the record says (terminal.resume), the verdict on
    screen (or, withdrawn, the neutral screen) and the game paused."""
    if not candidate["challenging"]:
        return ["no challenge in progress"]
    mine = [r for r in records if r.get("challenger") == candidate["challenger"]]
    if not mine:
        return ["no challenge record written before the cut"]
    record = mine[-1]
    penalty = record.get("penalty") or 0
    # the final play found acceptable ends the game (TSO 5.1b): over, nothing paused
    ends = candidate["phase"] == PHASE_ENDING and record.get("verdict") == "acceptable"
    expect = {"phase": PHASE_OVER if ends else candidate["phase"], "challenging": 0,
              "hold": candidate["hold"], "forfeit": candidate["forfeit"], "running": 0,
              "paused": 0 if ends else 1,
              "flow": NEUTRAL if record.get("verdict") == "cancelled" else VERDICT}
    out = ["%s %r != %r" % (k, back[k], v) for k, v in expect.items() if back[k] != v]
    if back["chal0"] + back["chal1"] != candidate["chal0"] + candidate["chal1"] + penalty:
        out.append("challenge penalties %d+%d != %d+%d+%d" % (
            back["chal0"], back["chal1"], candidate["chal0"], candidate["chal1"], penalty))
    for side in (0, 1):
        if abs(candidate["left%d" % side] - back["left%d" % side]) > TOLERANCE_MS + STEP_MS:
            out.append("left%d moved" % side)
    return out


def prepare(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(LEXICON, folder / "lexicon.dawg")
    (folder / "config.json").write_text(json.dumps(CONFIG))


class Child:
    """One run of the driver, tracing to a file."""

    def __init__(self, folder: Path, trace: Path, args: list[str]):
        self.trace = trace
        trace.write_bytes(b"")
        self.proc = runtime_proc.start([DRIVER, *args], folder, TC_TRACE=trace,
                                       TC_PACE_US=PACE_US)
        self._out, self._err = Drain(self.proc.stdout), Drain(self.proc.stderr)
        self.started = time.monotonic()
        self._f = open(trace, "rb")
        self._buf = b""

    def new_lines(self) -> list[str]:
        """Complete lines written since the last call."""
        self._buf += self._f.read()
        if b"\n" not in self._buf:
            return []
        done, self._buf = self._buf.rsplit(b"\n", 1)
        return done.decode("utf-8", "replace").split("\n")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def lines(self) -> list[str]:
        """The whole trace, without a line the kill cut off."""
        self._f.close()
        text = self.trace.read_bytes().decode("utf-8", "replace")
        return text[:text.rfind("\n") + 1].splitlines() if "\n" in text else []

    def stderr(self) -> str:
        return self._err.text()


def _pause(seconds: float) -> None:
    # Waiting for a drawn moment without touching the child.
    threading.Event().wait(seconds)


def _wait_for(child: Child, predicate, deadline_s: float) -> bool:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if child.proc.poll() is not None:
            raise AssertionError("the firmware ended by itself:\n" + child.stderr()[-3000:])
        for line in child.new_lines():
            if predicate(line):
                return True
        select.select([], [], [], 0.001)
    return False


def run(kills: int, seed: int, folder: Path, log=print, cycle_s: float = 2.0) -> dict:
    """kills SIGKILLs; returns the figures (kills per phase, checks, seconds)."""
    rng = random.Random(seed)
    folder = Path(folder)
    prepare(folder)
    trace = folder.parent / (folder.name + ".trace")
    phases: Counter = Counter()
    draws: Counter = Counter()
    candidates: list[dict] = []
    checked = 0
    boots = 0
    log_check = LogCheck(folder)
    live_checked = 0
    t0 = time.monotonic()
    logged: list[dict] = []         # challenge records the last killed child wrote
    for cycle in range(kills + 1):
        known = {r.get("seq") for r in challenge_records(folder)}
        child = Child(folder, trace, ["play", str(rng.randrange(1 << 30))])
        draw = "boot" if cycle < kills and rng.random() < 0.08 else ("time" if rng.random() < 0.4
                                                                      else "phase")
        if cycle == kills:
            draw = "last"
        target = rng.choice(TARGETS) if draw == "phase" else ""
        booted = False
        if draw == "boot":
            _pause(rng.uniform(0.0, 0.25))       # into the start-up itself
        else:
            booted = _wait_for(child, lambda line: line.startswith("B "), 60)
            assert booted, "no boot line:\n" + child.stderr()[-3000:]
            if draw == "time":
                _pause(rng.uniform(0.0, cycle_s))
            elif draw == "phase":
                if target == "save":
                    hit = _wait_for(child, lambda line: line.startswith("C "), cycle_s * 2)
                else:
                    hit = _wait_for(child, lambda line: line.startswith("S ")
                                    and phase_of(parse(line)) == target, cycle_s * 2)
                draws["hit" if hit else "missed"] += 1
                # mostly within a few steps of the phase's first moment
                _pause((0.0005 if target == "save" else 0.02) * rng.random() ** 2)
            else:
                # the last start: let it play a while to show the game goes on
                _pause(cycle_s)
        child.kill()
        err = child.stderr()
        lines = child.lines()
        assert not [l for l in lines if l.startswith("X ")], [l for l in lines if l.startswith("X")]
        assert "Traceback" not in err, err[-3000:]
        boot = next((l for l in lines if l.startswith("B ")), None)
        if boot is not None and cycle:
            boots += 1
        if boot is not None and candidates:
            back = parse(boot)
            problems = [differences(back, c) for c in candidates]
            if all(problems) and logged:        # decided by the record written before the cut
                problems += [decided_from_log(back, c, logged) for c in candidates]
            if all(problems):
                raise AssertionError("cycle %d: what came back matches nothing shown or saved "
                                     "before the cut\nback: %s\nshown/saved: %s\nwhy: %s"
                                     % (cycle, boot, candidates, problems))
            checked += 1
        # the game goes on: a cycle that played long enough saw a clock run
        steps = sum(1 for l in lines if l.startswith("S "))
        if boot is not None and steps > 3000:
            assert any(l.startswith("R ") for l in lines), "no clock ran after boot %d" % cycle
            live_checked += 1
        # what the next boot may show: the last completed step, or a save begun after it
        last_s = max((i for i, l in enumerate(lines) if l.startswith("S ")), default=-1)
        if last_s >= 0:
            candidates = [parse(lines[last_s])]
            phases[phase_of(candidates[0])] += 1
        elif cycle < kills:
            phases["boot"] += 1
        candidates += [parse(l) for l in lines[last_s + 1:] if l.startswith("C ")]
        logged = [r for r in challenge_records(folder) if r.get("seq") not in known]
        draws[draw] += 1
        log_check()
        if log and cycle % 20 == 0:
            log("kill %d/%d: %s" % (cycle, kills, dict(phases)))
    os.remove(trace)
    assert log_check.count(), "no game log"
    # every boot after a kill was checked (a boot cut in its start-up is checked by the next)
    assert checked == boots, (checked, boots)
    return {"kills": kills, "recoveries_checked": checked, "boots_cut": kills - boots,
            "long_runs_checked": live_checked,
            "phases": dict(phases), "draws": dict(draws), "log_records": log_check.count(),
            "log_kinds": dict(log_check.kinds),
            "seconds": round(time.monotonic() - t0, 1)}


class LogCheck:
    """The game log files after each kill: the complete records' seq goes up by one
    (the rotated file first; a line a kill tore is skipped: it stays on its own line),
    and nothing is missing since the last look (rotation keeps two files)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.first = None
        self.last = -1
        self.kinds: Counter = Counter()

    def __call__(self) -> None:
        records = []
        for name in ("games.1.jsonl", "games.jsonl"):
            path = self.folder / "logs" / name
            if path.exists():
                for line in path.read_text().splitlines():
                    try:
                        records.append(json.loads(line))
                    except ValueError:
                        continue            # a line a kill tore
        seqs = [r["seq"] for r in records]
        gaps = [s for i, s in enumerate(seqs[1:]) if s != seqs[i] + 1]
        assert not gaps, "game log seq not consecutive at %s" % gaps[:10]
        if not seqs:
            return
        if self.last is None:               # a single look: what rotation kept
            self.last = seqs[0] - 1
        assert seqs[0] <= self.last + 1, "game log records %d-%d lost" % (self.last + 1, seqs[0])
        assert seqs[-1] >= self.last, "game log records vanished after %d" % seqs[-1]
        if self.first is None:
            self.first = seqs[0]
        for r in records:
            if r["seq"] > self.last:
                self.kinds[r["kind"]] += 1
        self.last = seqs[-1]

    def count(self) -> int:
        return self.last - self.first + 1 if self.first is not None else 0


def check_log(folder: Path):
    """One look at the game log files (see LogCheck): (records, records per kind) of the
    records still there (the rotated file and the current one: a long run's first
    records went with an earlier rotation)."""
    check = LogCheck(folder)
    check.last = None
    check()
    assert check.count(), "no game log"
    return check.count(), dict(check.kinds)

"""Random presses at full count: bursts of presses on every button and key of the real
firmware (tests/host/fault_driver.py, mode mash) across every phase of games, the
"referee decides" screen (a word beyond the list) every fifth burst; after each burst
the players and the referee bring a clock back to running with buttons and keys only
(the driver fails when they cannot).  Used by tests/host/test_fault_presses.py (a
quick count) and bench/fault_presses.py (the full count; figures in docs/faults.md).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

from tests.host import fault_kills, runtime_proc


def run(presses: int, seed: int, folder: Path, timeout: float = 3600,
        storage: str = "") -> dict:
    """storage: "" (working), "flash_full" or "nvs_failing" (tests/host/fault_driver.py,
    TC_STORAGE): the presses with the filesystem full or the NVS failing throughout."""
    folder = Path(folder)
    fault_kills.prepare(folder)
    if storage:
        # the longest state record: the longest table name, and the wall clock set
        # (every game log line waiting in the record carries both)
        config = json.loads((folder / "config.json").read_text())
        config["table"] = "Saal-B-12345"
        (folder / "config.json").write_text(json.dumps(config))
    t0 = time.monotonic()
    code, out, err = runtime_proc.run([fault_kills.DRIVER, "mash", str(seed), str(presses)],
                                      folder, timeout=timeout, TC_STORAGE=storage)
    assert code == 0 and "Traceback" not in err, (code, out[-2000:], err[-3000:])
    phases: Counter = Counter()
    bursts = 0
    done = 0
    worst = 0
    for line in out.splitlines():
        if line.startswith("M "):
            _, _, phase, n, steps = line.split()
            phases[phase] += 1
            bursts += 1
            done += int(n)
            worst = max(worst, int(steps))
        elif line.startswith("X "):
            raise AssertionError(line)
    assert done >= presses and "E presses" in out, out[-2000:]
    final = [line.split() for line in out.splitlines() if line.startswith("F ")][-1]
    figures = {"presses": done, "bursts": bursts, "bursts_by_phase": dict(phases),
               "worst_steps_to_a_running_clock": worst, "storage": final[1],
               "lines_lost": int(final[2]), "failed_saves": int(final[3]),
               "seconds": round(time.monotonic() - t0, 1)}
    if storage != "flash_full":         # a full flash: no game log to look at
        figures["log_records"], figures["log_kinds"] = fault_kills.check_log(folder)
    return figures

"""Random presses at full count: bursts of presses on every button and key of the real
firmware (tests/host/fault_driver.py, mode mash) across every phase of games, the
"referee decides" screen (a word beyond the list) every fifth burst; after each burst
the players and the referee bring a clock back to running with buttons and keys only
(the driver fails when they cannot).  Used by tests/host/test_fault_presses.py (a
quick count) and bench/fault_presses.py (the full count; figures in docs/faults.md).
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

from tests.host import fault_kills, runtime_proc


def run(presses: int, seed: int, folder: Path, timeout: float = 3600) -> dict:
    folder = Path(folder)
    fault_kills.prepare(folder)
    t0 = time.monotonic()
    code, out, err = runtime_proc.run([fault_kills.DRIVER, "mash", str(seed), str(presses)],
                                      folder, timeout=timeout)
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
    records, kinds = fault_kills.check_log(folder)
    return {"presses": done, "bursts": bursts, "bursts_by_phase": dict(phases),
            "worst_steps_to_a_running_clock": worst, "log_records": records, "log_kinds": kinds,
            "seconds": round(time.monotonic() - t0, 1)}

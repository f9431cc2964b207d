"""Parallel work on many devices: one thread per device, a progress bar per device,
a final table and an exit code that says whether every device succeeded."""

from __future__ import annotations

import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, TextIO


@dataclass
class Result:
    port: str
    ok: bool
    detail: str = ""
    data: dict = field(default_factory=dict)


class Progress:
    """Per-device progress: bars redrawn in place on a terminal, plain lines otherwise."""

    WIDTH = 24

    def __init__(self, ports: list[str], out: TextIO = sys.stderr, live: bool | None = None):
        self.ports = list(ports)
        self.out = out
        self.live = out.isatty() if live is None else live
        self.state = {p: ("waiting", 0, 0) for p in self.ports}
        self.lock = threading.Lock()
        self._drawn = 0
        self._last_line: dict[str, tuple] = {}
        self._last_draw = 0.0

    def reporter(self, port: str) -> Callable[[str, int, int], None]:
        return lambda phase, done, total: self.update(port, phase, done, total)

    def update(self, port: str, phase: str, done: int = 0, total: int = 0):
        with self.lock:
            self.state[port] = (phase, done, total)
            if self.live:
                now = time.monotonic()
                if now - self._last_draw >= 0.1 or phase in ("done", "failed"):
                    self._draw()
                    self._last_draw = now
            else:
                quarter = (phase, (4 * done // total) if total else 0)
                if self._last_line.get(port) != quarter:
                    self._last_line[port] = quarter
                    self.out.write(self.line(port) + "\n")
                    self.out.flush()

    def line(self, port: str) -> str:
        phase, done, total = self.state[port]
        frac = done / total if total else (1.0 if phase == "done" else 0.0)
        fill = int(frac * self.WIDTH)
        bar = "#" * fill + "-" * (self.WIDTH - fill)
        size = f" {done}/{total}" if total else ""
        return f"{port:<24} [{bar}] {int(frac * 100):3d}% {phase}{size}"

    def _draw(self):
        if self._drawn:
            self.out.write(f"\x1b[{self._drawn}F")
        for p in self.ports:
            self.out.write("\x1b[2K" + self.line(p) + "\n")
        self._drawn = len(self.ports)
        self.out.flush()

    def finish(self):
        with self.lock:
            if self.live:
                self._draw()


def run(ports: list[str], work: Callable[[str, Callable[[str, int, int], None]], Result],
        out: TextIO = sys.stderr, jobs: int | None = None, live: bool | None = None) -> list[Result]:
    """work(port, progress) for every port in parallel; an exception fails that port only."""
    progress = Progress(ports, out, live)

    def one(port: str) -> Result:
        report = progress.reporter(port)
        try:
            result = work(port, report)
        except Exception as e:   # one failing device does not stop the others
            result = Result(port, False, _describe(e))
        if result.ok:
            total = progress.state[port][2] or 1
            report("done", total, total)        # a finished bar is full
        else:
            report("failed", *progress.state[port][1:])
        return result

    if not ports:
        return []
    with ThreadPoolExecutor(max_workers=jobs or min(32, len(ports))) as pool:
        results = list(pool.map(one, ports))
    progress.finish()
    return results


def _describe(e: Exception) -> str:
    text = str(e) or type(e).__name__
    return text if not text.startswith("[") else type(e).__name__ + ": " + text


def table(results: list[Result], columns: list[tuple[str, str]] | None = None) -> str:
    """A plain text table: port, status, then the given data columns, then detail."""
    columns = columns or []
    head = ["port", "status"] + [title for _, title in columns] + ["detail"]
    rows = []
    for r in results:
        row = [r.port, "ok" if r.ok else "FAILED"]
        row += [_cell(r.data.get(key)) for key, _ in columns]
        row.append(r.detail)
        rows.append(row)
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip()
             for row in [head] + rows]
    ok = sum(r.ok for r in results)
    lines.append(f"{ok} of {len(results)} device{'s' if len(results) != 1 else ''} succeeded")
    return "\n".join(lines)


def _cell(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def exit_code(results: list[Result]) -> int:
    return 0 if results and all(r.ok for r in results) else 1

"""Read a child process's output pipe to its end in a thread of its own.

A pipe holds 64 KiB on Linux.  A child whose stdout or stderr is a pipe nobody reads
blocks in its next write once that fills: a simulator logging every firmware line, a
broker logging every connection, a device printing its trace.  In a long test that
stalls the child mid-run, and at the end it cannot shut down until it is killed.  Every
helper that starts a long-lived child with a pipe hands the pipe to a `Drain`, which keeps
what was written for the test's messages.
"""

from __future__ import annotations

import threading


class Drain:
    """Reads `stream` (text or bytes) line by line until the child closes it."""

    def __init__(self, stream):
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:
        try:
            for line in stream:
                if isinstance(line, bytes):
                    line = line.decode("utf-8", "replace")
                self.lines.append(line)
        except (OSError, ValueError):       # the pipe closed under us: what came is kept
            pass

    def text(self, timeout: float = 5.0) -> str:
        """Everything read; waits up to `timeout` for the end of the stream (call it
        after the child has ended)."""
        self._thread.join(timeout)
        return "".join(self.lines)


"""The hall's web side: the live page, /tables.json and the feed the page listens to.

    GET /               the page (page.html): one tile per table
    GET /tables.json    one object per clock (board.Board.tables)
    GET /alerts.json    the hall's recent alerts (forged, replayed, unsigned messages)
    GET /state.json     all the page shows, at once
    GET /events         the same as Server-Sent Events: a new snapshot at every change,
                        and while a clock runs, whenever a time shown changes (checked
                        every 200 ms), so a change is on the page well within a second
    GET /results.csv    the results received (export.py)
    GET /results-tsh.txt  the same as tsh's score entry
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from host_tools.hall import export

PAGE = Path(__file__).with_name("page.html")
TICK_S = 0.2
AGES_S = 1.0


def now_ms() -> int:
    return int(time.monotonic() * 1000)


class HallServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128     # every screen in the hall and its scripts at once

    def __init__(self, address, board):
        self.board = board
        self.stopping = threading.Event()
        super().__init__(address, Handler)

    def start(self):
        threading.Thread(target=self.serve_forever, name="hall-http", daemon=True).start()
        return self

    def stop(self):
        self.stopping.set()
        self.shutdown()
        self.server_close()


class Handler(BaseHTTPRequestHandler):
    server: HallServer

    def log_message(self, format, *args):   # the organiser's terminal stays quiet
        pass

    def _send(self, body: bytes, ctype: str, status: int = 200):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, obj):
        self._send(json.dumps(obj, ensure_ascii=False).encode(), "application/json")

    def do_GET(self):
        board = self.server.board
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            self._send(PAGE.read_bytes(), "text/html; charset=utf-8")
        elif path == "/tables.json":
            self._json(board.tables(now_ms()))
        elif path == "/alerts.json":
            self._json(board.recent_alerts(now_ms()))
        elif path == "/state.json":
            self._json(board.snapshot(now_ms()))
        elif path == "/events":
            self._events()
        elif path == "/results.csv":
            self._send(export.to_csv(board.result_records()).encode("utf-8-sig"),
                       "text/csv; charset=utf-8")
        elif path == "/results-tsh.txt":
            self._send(export.to_tsh(board.result_records())[0].encode(),
                       "text/plain; charset=utf-8")
        else:
            self._send(b"not found\n", "text/plain", 404)

    def _events(self):
        board = self.server.board
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        sent, version, quiet = None, -1, time.monotonic()
        try:
            while not self.server.stopping.is_set():
                version = board.wait(version, TICK_S)
                text = json.dumps(board.snapshot(now_ms()), ensure_ascii=False)
                # last_seen_ms and age_ms change all the time: a snapshot is sent
                # when anything else differs, and for them once a second
                key = _without_ages(text)
                if key != sent or time.monotonic() - quiet >= AGES_S:
                    self.wfile.write(b"data: " + text.encode() + b"\n\n")
                    self.wfile.flush()
                    sent, quiet = key, time.monotonic()
        except (BrokenPipeError, ConnectionResetError):
            pass


def _without_ages(text: str) -> str:
    snap = json.loads(text)
    for t in snap["tables"]:
        t.pop("last_seen_ms", None)
    for a in snap["alerts"]:
        a.pop("age_ms", None)
    return json.dumps(snap)

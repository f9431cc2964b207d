"""The simulator's local web page and its small JSON API (standard library only)."""

from __future__ import annotations

import json
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from host_tools import resources

PAGE = resources.sim_file("page.html")


def font() -> dict:
    """The panels' pixel font (firmware/render/font12.py) for the page's key labels."""
    from wordlist_packer import legend

    chars, widths, offsets, cols = legend.font_tables()
    return {"chars": chars, "widths": list(widths),
            "offsets": [offsets[2 * i] | offsets[2 * i + 1] << 8 for i in range(len(widths))],
            "cols": [cols[2 * i] | cols[2 * i + 1] << 8 for i in range(len(cols) // 2)]}


def make_handler(device, devices=None):
    """The page and API of `device`; with `devices` (several simulated clocks, numbered
    from 1) the API of each under /clock/N/ (e.g. POST /clock/2/api/button) and the
    list of them at GET /clocks."""
    class Handler(BaseHTTPRequestHandler):
        server_version = "tileclock-sim"

        def log_message(self, fmt, *args):  # quiet: the page polls
            pass

        def _send(self, status, body: bytes, ctype: str):
            try:
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                # The page went away mid-poll (tab closed, reload): nothing to answer.
                self.close_connection = True

        def _json(self, obj, status=HTTPStatus.OK):
            self._send(status, json.dumps(obj).encode(), "application/json")

        def _route(self):
            """(device, url) of the request, or None when answered here already."""
            url = urlparse(self.path)
            if devices is None:
                return device, url
            parts = url.path.split("/", 3)
            if url.path == "/clocks":
                self._json([{"clock": i, "device_dir": str(d.device_dir), "status": d.status,
                             "link": str(d.link.alias or d.link.path)}
                            for i, d in sorted(devices.items())])
                return None
            if len(parts) == 4 and parts[1] == "clock" and parts[2].isdigit() \
                    and int(parts[2]) in devices:
                return devices[int(parts[2])], url._replace(path="/" + parts[3])
            self._json({"error": "not found: /clocks, /clock/N/api/..."}, HTTPStatus.NOT_FOUND)
            return None

        def do_GET(self):
            routed = self._route()
            if routed is None:
                return
            device, url = routed
            query = parse_qs(url.query)
            if url.path in ("/", "/index.html"):
                self._send(HTTPStatus.OK, PAGE.read_bytes(), "text/html; charset=utf-8")
            elif url.path == "/api/state":
                since = query.get("since", [None])[0]
                if since is not None:
                    device.wait_change(int(since), float(query.get("wait", ["1"])[0]))
                self._json(device.snapshot())
            elif url.path == "/api/font":
                self._json(font())
            elif url.path.startswith("/api/panel/") and url.path.endswith(".txt"):
                name = url.path[len("/api/panel/"):-4]
                panel = device.panels.get(name)
                if panel is None:
                    self._json({"error": "no panel " + name}, HTTPStatus.NOT_FOUND)
                    return
                with device.lock:
                    text = panel.model.text()
                self._send(HTTPStatus.OK, (text + "\n").encode(), "text/plain; charset=utf-8")
            else:
                self._json({"error": "not found"}, HTTPStatus.NOT_FOUND)

        def do_POST(self):
            routed = self._route()
            if routed is None:
                return
            device, url = routed
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self._json({"error": "bad JSON"}, HTTPStatus.BAD_REQUEST)
                return
            try:
                if url.path == "/api/button":
                    ok = device.button(body["name"], bool(body["down"]))
                elif url.path == "/api/key":
                    ok = device.key(body["key"], bool(body["down"]))
                elif url.path == "/api/battery":
                    ok = device.set_battery(int(body["mv"]))
                elif url.path == "/api/power-cut":
                    device.power_cut()
                    ok = True
                elif url.path == "/api/wifi":
                    ok = device.set_wifi(bool(body["up"]))
                else:
                    self._json({"error": "not found"}, HTTPStatus.NOT_FOUND)
                    return
            except (KeyError, ValueError, TypeError) as exc:
                self._json({"error": str(exc)}, HTTPStatus.BAD_REQUEST)
                return
            self._json({"ok": ok, "delivered": ok})

    return Handler


class WebServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # One page or script may play many clocks at once (clockctl sim --clocks N): the
    # standard backlog of 5 reset connections when 15 clocks were played together.
    request_queue_size = 128


def serve(device, host: str = "127.0.0.1", port: int = 0, devices=None) -> WebServer:
    return WebServer((host, port), make_handler(device, devices))

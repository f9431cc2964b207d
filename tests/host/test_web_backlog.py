"""The simulator's and the hall's web servers take many connections at once: a script
plays 15 clocks together through the simulator (bench/bench_hall.py), and with the
standard library's backlog of 5 some of them were reset."""

from __future__ import annotations

import socket
from http.server import BaseHTTPRequestHandler

import pytest

from host_tools.hall.server import HallServer
from host_tools.sim.web import WebServer

AT_ONCE = 40


@pytest.mark.parametrize("make", [lambda: WebServer(("127.0.0.1", 0), BaseHTTPRequestHandler),
                                  lambda: HallServer(("127.0.0.1", 0), None)],
                         ids=["simulator", "hall"])
def test_forty_connections_wait_in_the_backlog_while_the_server_is_busy(make):
    server = make()       # listening, not accepting yet: as when every thread is busy
    sockets = []
    try:
        for n in range(AT_ONCE):
            s = socket.socket()
            sockets.append(s)
            s.settimeout(2)
            try:
                s.connect(server.server_address)
            except OSError as e:     # the kernel dropped it: the backlog was full
                pytest.fail("connection %d of %d not taken: %r" % (n + 1, AT_ONCE, e))
    finally:
        for s in sockets:
            s.close()
        server.server_close()

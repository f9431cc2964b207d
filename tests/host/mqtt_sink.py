"""A minimal MQTT 3.1.1 server for the memory tests: it accepts every connection, answers
CONNECT with CONNACK, a QoS 1 PUBLISH with its PUBACK and PINGREQ with PINGRESP, and counts
the messages by topic.  What the clock's publisher needs of a broker, nothing more (the
hall's own tests run the real ones: amqtt and Mosquitto)."""

from __future__ import annotations

import socket
import threading
from collections import Counter


class MqttSink:
    def __init__(self):
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.port = self.server.getsockname()[1]
        self.topics: Counter = Counter()
        self.connects = 0
        self._stop = False
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self):
        self._stop = True
        self.server.close()

    def _accept(self):
        while not self._stop:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    @staticmethod
    def _read(conn, n):
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise OSError("closed")
            data += chunk
        return data

    def _serve(self, conn):
        with conn:
            try:
                while True:
                    head = self._read(conn, 1)[0]
                    size, shift = 0, 0
                    while True:
                        b = self._read(conn, 1)[0]
                        size |= (b & 0x7F) << shift
                        shift += 7
                        if not b & 0x80:
                            break
                    body = self._read(conn, size) if size else b""
                    kind = head >> 4
                    if kind == 1:                                   # CONNECT
                        self.connects += 1
                        conn.sendall(b"\x20\x02\x00\x00")
                    elif kind == 3:                                 # PUBLISH
                        n = body[0] << 8 | body[1]
                        self.topics[body[2:2 + n].decode()] += 1
                        if (head >> 1) & 3:
                            pid = body[2 + n:4 + n]
                            conn.sendall(b"\x40\x02" + pid)
                    elif kind == 12:                                # PINGREQ
                        conn.sendall(b"\xd0\x00")
                    elif kind == 14:                                # DISCONNECT
                        return
            except OSError:
                return

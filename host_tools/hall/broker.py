"""The hall's MQTT side: an embedded broker (amqtt, pure Python) when no broker is
given, and the subscriber (paho-mqtt) that feeds every message to the board.

The embedded broker runs its asyncio loop in a thread of its own; anyone on the venue's
network may connect and publish (a clock needs no account): what the hall takes is
decided by the signatures (board.py), not by the broker.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from urllib.parse import urlparse

DEFAULT_PORT = 1883


class BrokerError(RuntimeError):
    pass


def parse_url(url: str) -> tuple[str, int]:
    """(host, port) of mqtt://HOST[:PORT]; BrokerError for anything else."""
    parsed = urlparse(url if "://" in url else "mqtt://" + url)
    if parsed.scheme != "mqtt" or not parsed.hostname:
        raise BrokerError("%s: expected mqtt://HOST:PORT (e.g. mqtt://192.168.1.10:1883)"
                          % url)
    try:
        port = parsed.port or DEFAULT_PORT
    except ValueError:
        raise BrokerError("%s: the port is not a number" % url) from None
    return parsed.hostname, port


class EmbeddedBroker:
    """amqtt's broker on host:port, in a thread; start() returns once it listens."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="hall-broker", daemon=True)
        self._ready = threading.Event()
        self._broker = None
        self._error: BaseException | None = None

    def _run(self):
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._start())
        except BaseException as e:   # reported by start()
            self._error = e
            self._ready.set()
            return
        self._ready.set()
        self._loop.run_forever()

    async def _start(self):
        from amqtt.broker import Broker

        for name in ("amqtt", "transitions"):
            logging.getLogger(name).setLevel(logging.WARNING)
        config = {"listeners": {"default": {"type": "tcp",
                                            "bind": "%s:%d" % (self.host, self.port)}},
                  "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin":
                              {"allow_anonymous": True}}}
        self._broker = Broker(config)
        await self._broker.start()

    def start(self, timeout: float = 30.0):
        self._thread.start()
        if not self._ready.wait(timeout):
            raise BrokerError("the embedded broker did not start within %d s" % timeout)
        if self._error is not None:
            raise BrokerError("the embedded broker cannot listen on %s:%d: %s"
                              % (self.host, self.port, self._error))
        return self

    def stop(self, timeout: float = 10.0):
        if self._broker is not None and self._loop.is_running():
            future = asyncio.run_coroutine_threadsafe(self._broker.shutdown(), self._loop)
            try:
                future.result(timeout)
            except Exception:
                pass
            self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout)


class Subscriber:
    """The hall's MQTT client: subscribes to every clock's messages (QoS 1, retained
    copies too) and hands each to on_message(topic, payload, retained).  Connects in
    the background and reconnects by itself; `connected` is set once it is subscribed."""

    def __init__(self, host: str, port: int, topic: str, on_message, client_id=None):
        import paho.mqtt.client as mqtt

        self.topic = topic
        self.connected = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=client_id or "tileclock-hall-%d" % time.time_ns(),
                                  clean_session=True)
        self.client.reconnect_delay_set(min_delay=1, max_delay=5)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *a: self.connected.set()
        self.client.on_disconnect = lambda *a: self.connected.clear()
        self.client.on_message = lambda c, u, msg: on_message(msg.topic, msg.payload,
                                                              bool(msg.retain))
        self.host, self.port = host, port

    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            return
        client.subscribe(self.topic, qos=1)

    def start(self):
        self.client.connect_async(self.host, self.port, keepalive=30)
        self.client.loop_start()
        return self

    def stop(self):
        self.client.disconnect()
        self.client.loop_stop()

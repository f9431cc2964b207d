# The hall's network side: Wi-Fi and the MQTT connection, in a thread of their own.
#
# The MQTT client is micropython-lib's umqtt.simple (PyPI micropython-umqtt.simple,
# pinned and fetched by host_tools/drivers.py, frozen by the manifests).  Its calls
# block: connect() waits for the TCP handshake and the CONNACK, publish() at QoS 1
# for the PUBACK.  They run in this thread, never in the clock's asyncio tasks: on the
# ESP32 port every blocking network call releases the interpreter's lock while it
# waits (ports/esp32/modsocket.c wraps lwip's getaddrinfo, connect, recv and send in
# MP_THREAD_GIL_EXIT/ENTER; network_wlan.c wraps esp_wifi_connect), and the port
# switches threads every 32 bytecode jumps besides (MICROPY_PY_THREAD_GIL_VM_DIVISOR),
# so a broker that is slow or gone holds up this thread only.  A button press is
# timestamped by its interrupt (hal_buttons.py) whoever runs.  The thread's stack
# comes from FreeRTOS's heap (ports/esp32/mpthreadport.c), not from the Python heap.
#
# The clock's side (app/hall.py) hands over one message at a time: give() when
# ready(), then answer() says whether the broker acknowledged it.  The two sides share
# a few fields under a lock; no message is built here.

import _thread
import time

from timebase import ticks_diff

OFF = "off"
WIFI = "wifi"            # waiting for the network
BROKER = "broker"        # the network is up, the broker not (yet) connected
UP = "up"                # connected: messages go out

_POLL_MS = 20            # the thread's round when idle
_WIFI_RETRY_MS = 10000   # a new association attempt while not connected
_BROKER_RETRY_MS = 2000  # a new broker connection after a failed one
_IO_TIMEOUT_S = 5        # a PUBACK (or a write) that takes longer: the connection is dropped
_KEEPALIVE_S = 60        # told to the broker; heartbeats (10 s) keep the connection busy
_STACK = 8192


class Net:
    def __init__(self, ssid, password, host, port, client_id, wlan=None):
        self.ssid = ssid
        self.password = password
        self.host = host
        self.port = port
        self.client_id = client_id
        self._wlan = wlan          # network.WLAN(STA_IF); made by the thread if None
        self._lock = _thread.allocate_lock()
        self._job = None           # (topic, payload, retain, qos)
        self._answer = None        # None: pending; True/False: acknowledged or not
        self.status = OFF
        self.connects = 0          # broker connections made
        self.failures = 0          # connections or messages that failed
        self.error = ""            # the last failure
        self.running = False
        self.alive = False         # the thread runs (False again once it ended)
        self._network = None       # the modules the thread uses (start())
        self._client_class = None

    # -- the clock's side -------------------------------------------------------------

    def start(self):
        # Imported here, by the caller: the thread itself touches no file (on a port
        # without the interpreter lock, the unix port of the simulator, an import from
        # the filesystem beside the main thread's would race on it)
        import network
        from umqtt.simple import MQTTClient

        self._network = network
        self._client_class = MQTTClient
        if self._wlan is None:
            self._wlan = network.WLAN(network.STA_IF)
        self.running = True
        self.alive = True
        try:
            old = _thread.stack_size(_STACK)
        except Exception:
            old = None
        try:
            _thread.start_new_thread(self._run, ())
        finally:
            if old is not None:
                _thread.stack_size(old)

    def stop(self):
        self.running = False

    def ready(self):
        """Connected, nothing in hand: give() may be called."""
        with self._lock:
            return self.status == UP and self._job is None and self._answer is None

    def give(self, topic, payload, retain, qos):
        with self._lock:
            self._job = (topic, payload, retain, qos)
            self._answer = None

    def answer(self):
        """None while the message given is on its way (or none was given), else True
        (acknowledged) or False (failed: it is still owed)."""
        with self._lock:
            a = self._answer
            if a is not None:
                self._answer = None
            return a

    def busy(self):
        with self._lock:
            return self._job is not None

    # -- the thread -------------------------------------------------------------------

    def _run(self):
        try:
            self._loop()
        except Exception as e:          # never the clock's problem: say so in INFO
            self.error = "stopped: %r" % e
        finally:
            self._close(None)
            self.status = OFF
            self.alive = False

    def _loop(self):
        network = self._network
        wlan = self._wlan
        wlan.active(True)
        client = None
        wifi_at = None
        broker_at = None
        while self.running:
            now = time.ticks_ms()
            if not wlan.isconnected():
                client = self._close(client)
                self.status = WIFI
                self._fail_job()
                if wifi_at is None or ticks_diff(now, wifi_at) >= _WIFI_RETRY_MS:
                    wifi_at = now
                    try:
                        if wlan.status() != network.STAT_CONNECTING:
                            wlan.connect(self.ssid, self.password)
                    except Exception as e:
                        self.error = "wifi: %r" % e
                time.sleep_ms(100)
                continue
            wifi_at = None
            if client is None:
                self.status = BROKER
                self._fail_job()
                if broker_at is not None and ticks_diff(now, broker_at) < _BROKER_RETRY_MS:
                    time.sleep_ms(100)
                    continue
                broker_at = now
                client = self._connect()
                if client is None:
                    continue
                broker_at = None
                self.status = UP
            with self._lock:
                job = self._job
            if job is None:
                time.sleep_ms(_POLL_MS)
                continue
            ok = False
            try:
                client.sock.settimeout(_IO_TIMEOUT_S)   # (umqtt's wait_msg clears it)
                client.publish(job[0], job[1], job[2], job[3])
                ok = True
            except Exception as e:
                self.failures += 1
                self.error = "publish: %r" % e
                client = self._close(client)
            with self._lock:
                self._job = None
                self._answer = ok

    def _fail_job(self):
        with self._lock:
            if self._job is not None:
                self._job = None
                self._answer = False

    def _connect(self):
        make = self._client_class
        if make is None:
            raise OSError("hall: start() first")
        client = make(self.client_id, self.host, self.port, keepalive=_KEEPALIVE_S)
        # The clock subscribes to nothing: whatever a broker sends it anyway (amqtt was
        # seen to, to clocks that connected at the same moment) is read and dropped,
        # never taken for the acknowledgement being waited for.
        client.set_callback(_ignore)
        try:
            client.connect()
            client.sock.settimeout(_IO_TIMEOUT_S)
            self.connects += 1
            return client
        except Exception as e:
            self.failures += 1
            self.error = "broker: %r" % e
            self._close(client)
            return None

    @staticmethod
    def _close(client):
        if client is not None and client.sock is not None:
            try:
                client.sock.close()
            except Exception:
                pass
        return None


def _ignore(topic, msg):
    pass

# Fake of the ESP32 port's `network` module for the unix port and CPython: the station
# interface (WLAN(STA_IF)) as ports/esp32/network_wlan.c behaves, on the host's own
# network.  Sockets are the host's real ones (a simulated clock reaches a real broker);
# what is simulated is the association with the venue's access point:
#
#   connect(ssid, key) returns at once, as on the chip; the station is connected
#   _ASSOC_MS later if the air is up and the SSID and password are the access point's,
#   else its status says why (STAT_NO_AP_FOUND, STAT_WRONG_PASSWORD).
#   sim_set_air(False) takes the access point away (Wi-Fi lost: isconnected() False,
#   STAT_BEACON_TIMEOUT, as the chip's disconnect event leaves it); sim_set_air(True)
#   brings it back (the chip then associates again after its next connect()).
#
# The access point: TILECLOCK_SIM_WIFI="SSID:PASSWORD" (any SSID and password if unset).
# The simulator's channel drives the air ("wifi 0|1", host_tools/fakes/sim_link.py).

import os

try:
    from time import ticks_diff, ticks_ms
except ImportError:  # CPython
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000) & 0x3FFFFFFF

    def ticks_diff(a, b):
        return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000

STA_IF = 0
AP_IF = 1
STAT_IDLE = 1000
STAT_CONNECTING = 1001
STAT_GOT_IP = 1010
STAT_BEACON_TIMEOUT = 200
STAT_NO_AP_FOUND = 201
STAT_WRONG_PASSWORD = 202
STAT_ASSOC_FAIL = 203
STAT_HANDSHAKE_TIMEOUT = 204

_ASSOC_MS = 300
_ADDRESS = ("127.0.0.1", "255.0.0.0", "127.0.0.1", "127.0.0.1")

_air = {"up": True, "changes": 0}


def sim_set_air(up):
    """The access point on (True) or gone (False)."""
    up = bool(up)
    if up != _air["up"]:
        _air["up"] = up
        _air["changes"] += 1


def sim_air():
    return _air["up"]


def _access_point():
    spec = os.getenv("TILECLOCK_SIM_WIFI")
    if not spec:
        return None
    ssid, _, password = spec.partition(":")
    return ssid, password


class _Station:
    """The one station interface's state (every WLAN(STA_IF) is it, as on the chip)."""

    def __init__(self):
        self.active = False
        self.status = STAT_IDLE
        self.ssid = None
        self.key = ""
        self.at = 0
        self.air_seen = 0


_sta = _Station()


class WLAN:
    def __init__(self, interface=STA_IF):
        if interface != STA_IF:
            raise ValueError("the fake has the station interface only")
        self._s = _sta

    def active(self, *args):
        if not args:
            return self._s.active
        self._s.active = bool(args[0])
        if not self._s.active:
            self._s.status = STAT_IDLE
        return None

    def connect(self, ssid=None, key=None, *, bssid=None):
        if not self._s.active:
            raise OSError("Wifi Not Started")
        self._s.ssid = ssid
        self._s.key = key or ""
        self._s.at = ticks_ms()
        self._s.air_seen = _air["changes"]
        self._s.status = STAT_CONNECTING

    def disconnect(self):
        self._s.status = STAT_IDLE

    def _update(self):
        if self._s.air_seen != _air["changes"]:
            self._s.air_seen = _air["changes"]
            if self._s.status in (STAT_GOT_IP, STAT_CONNECTING) and not _air["up"]:
                self._s.status = STAT_BEACON_TIMEOUT
        if self._s.status == STAT_GOT_IP and not _air["up"]:
            self._s.status = STAT_BEACON_TIMEOUT
        if self._s.status == STAT_CONNECTING and ticks_diff(ticks_ms(), self._s.at) >= _ASSOC_MS:
            ap = _access_point()
            if not _air["up"] or ap is not None and ap[0] != self._s.ssid:
                self._s.status = STAT_NO_AP_FOUND
            elif ap is not None and ap[1] != self._s.key:
                self._s.status = STAT_WRONG_PASSWORD
            else:
                self._s.status = STAT_GOT_IP

    def status(self, *args):
        if args:
            if args[0] == "rssi":
                return -55
            raise ValueError("unknown status param")
        self._update()
        return self._s.status

    def isconnected(self):
        self._update()
        return self._s.active and self._s.status == STAT_GOT_IP

    def ifconfig(self, *args):
        if args:
            return None
        return _ADDRESS if self.isconnected() else ("0.0.0.0",) * 4

    def ipconfig(self, key, *args):
        if key == "addr4":
            return (self.ifconfig()[0], self.ifconfig()[1])
        if key == "dhcp4":
            return True
        raise ValueError("unknown config param")

    def config(self, *args, **kwargs):
        if args == ("mac",):
            return b"\x24\x0a\xc4\x00\x00\x01"
        if args == ("ssid",):
            return self._s.ssid or ""
        if args:
            raise ValueError("unknown config param")
        return None

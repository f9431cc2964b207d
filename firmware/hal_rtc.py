# The chip's real-time clock: the wall-clock time a host sets on every connection
# (clockctl), for the game and challenge logs.  machine.RTC().datetime() takes and gives
# (year, month, day, weekday, hours, minutes, seconds, subseconds); the ESP32 port keeps
# it as seconds since the epoch (ports/esp32/machine_rtc.c at v1.26.0), so the weekday
# it is given is ignored.  It runs on through deep sleep; after a power cut it starts
# again from the epoch: until a host sets it, the time is unknown (None).

from micropython import const

_KNOWN_FROM = const(2024)     # a year before this: the RTC was not set since power-on


def set_time(t):
    """t: (year, month, day, hours, minutes, seconds), the host's local time."""
    from machine import RTC

    RTC().datetime((t[0], t[1], t[2], 0, t[3], t[4], t[5], 0))


def now_text():
    """"2025-06-14 10:32:05", or None while the time is unknown."""
    from machine import RTC

    t = RTC().datetime()
    if t[0] < _KNOWN_FROM:
        return None
    return "%04d-%02d-%02d %02d:%02d:%02d" % (t[0], t[1], t[2], t[4], t[5], t[6])

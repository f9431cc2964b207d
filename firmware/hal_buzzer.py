# Passive piezo on a PWM pin: short cues, played without blocking.
#
# play(cue, now) starts a cue if that cue is enabled; update(now) (called from
# the main loop) steps through its tones.  Which cues sound is configuration:
# each cue can be switched on or off and `mute` silences all of them.

from micropython import const
from timebase import ticks_add, ticks_diff

# cue -> ((frequency Hz, on ms, off ms), ...)
CUES = {
    "challenge_end": ((2700, 120, 0),),
    "overtime": ((2700, 150, 100), (2700, 150, 0)),
    "overtime_minute": ((2200, 100, 0),),
    "forfeit": ((2700, 400, 150), (2200, 400, 150), (1800, 700, 0)),
    "test": ((2700, 200, 100), (2000, 200, 0)),
}
_CUE_NAMES = const(("challenge_end", "overtime", "overtime_minute", "forfeit"))
_DUTY_ON = const(32768)


class Buzzer:
    def __init__(self, pwm):
        self._pwm = pwm
        self.enabled = {}
        for name in _CUE_NAMES:
            self.enabled[name] = False
        self.enabled["test"] = True
        self.mute = False
        self._cue = None
        self._step = 0
        self._sounding = False
        self._until = 0
        self.last_cue = None      # the most recent cue actually played
        self._pwm.duty_u16(0)

    def configure(self, enabled, mute):
        for name in _CUE_NAMES:
            self.enabled[name] = bool(enabled.get(name, False))
        self.mute = bool(mute)

    def play(self, cue, now):
        """Start a cue; returns True if it sounds (enabled and not muted)."""
        if self.mute or not self.enabled.get(cue, False):
            return False
        self._cue = CUES[cue]
        self.last_cue = cue
        self._step = 0
        self._start_tone(now)
        return True

    def _start_tone(self, now):
        freq, on_ms, _ = self._cue[self._step]
        self._pwm.freq(freq)
        self._pwm.duty_u16(_DUTY_ON)
        self._sounding = True
        self._until = ticks_add(now, on_ms)

    def busy(self):
        return self._cue is not None

    def update(self, now):
        cue = self._cue
        if cue is None or ticks_diff(now, self._until) < 0:
            return
        if self._sounding:
            self._pwm.duty_u16(0)
            self._sounding = False
            off_ms = cue[self._step][2]
            self._until = ticks_add(now, off_ms)
            if off_ms > 0:
                return
        self._step += 1
        if self._step >= len(cue):
            self._cue = None
            return
        self._start_tone(now)

    def stop(self):
        self._pwm.duty_u16(0)
        self._cue = None
        self._sounding = False


def create():
    import hwconfig
    from machine import PWM, Pin

    return Buzzer(PWM(Pin(hwconfig.PIN_BUZZER), freq=2700, duty_u16=0))

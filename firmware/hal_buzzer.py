# Passive piezo on a PWM pin: short cues, played without blocking.
#
# play(cue, now) starts a cue if that cue is enabled; update(now) (called from
# the main loop) steps through its tones.  Which cues sound is configuration:
# each cue can be switched on or off and `mute` silences all of them.

from micropython import const
from timebase import ticks_add, ticks_diff

# The cues, in the order of _NAMES: their tones, three bytes each (pitch in 1/200 of
# the base frequency, on / 10 ms, off / 10 ms), a zero byte after a cue's last tone.
# The base is the transducer's resonance (hwconfig.BUZZER_FREQ), where a piezo is
# loudest per mA; the lower tones of a cue stay within a fifth of it.  Bytes rather
# than a table of tuples: they stay in flash on the chip (docs/runtime.md, Memory).
_NAMES = const(("challenge_end", "overtime", "overtime_minute", "forfeit", "test",
                "move_warning", "move_end", "storage"))
_TONES = const(
    b"\xc8\x0c\x00\x00"                            # challenge_end: base, 120 ms
    b"\xc8\x0f\x0a\xc8\x0f\x00\x00"                # overtime: 2 x base, 150 ms
    b"\xa3\x0a\x00\x00"                            # overtime_minute: 0.815 x base, 100 ms
    b"\xc8\x28\x0f\xa3\x28\x0f\x86\x46\x00\x00"    # forfeit: 1, 0.815, 0.67 x base
    b"\xc8\x14\x0a\x94\x14\x00\x00"                # test: 1, 0.741 x base, 200 ms
    b"\xa3\x0f\x0a\xa3\x0f\x0a\xa3\x0f\x00\x00"    # move_warning: 3 x 0.815 x base
    b"\xc8\x3c\x00\x00"                            # move_end: base, 600 ms
    # storage (the state or the game log cannot be saved): 3 x high-low, 80 ms each
    b"\xc8\x08\x04\x86\x08\x0c\xc8\x08\x04\x86\x08\x0c\xc8\x08\x04\x86\x08\x00\x00"
)
_BASE_STEPS = const(200)
_CUE_NAMES = const(("challenge_end", "overtime", "overtime_minute", "forfeit", "move_warning",
                    "move_end"))
_DUTY_ON = const(32768)


class Buzzer:
    def __init__(self, pwm, base_hz=2700):
        self._pwm = pwm
        self._base = base_hz
        self.enabled = {}
        for name in _CUE_NAMES:
            self.enabled[name] = False
        self.enabled["test"] = True
        self.enabled["storage"] = True      # a storage fault: whatever cues are chosen
        self.mute = False
        self._cue = None          # the playing cue's first tone in _TONES, or None
        self._step = 0            # the tone playing: its offset in _TONES
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
        at = 0
        for _ in range(_NAMES.index(cue)):       # skip to the cue's first tone
            while _TONES[at]:
                at += 3
            at += 1
        self._cue = at
        self.last_cue = cue
        self._step = at
        self._start_tone(now)
        return True

    def _start_tone(self, now):
        at = self._step
        self._pwm.freq(self._base * _TONES[at] // _BASE_STEPS)
        self._pwm.duty_u16(_DUTY_ON)
        self._sounding = True
        self._until = ticks_add(now, _TONES[at + 1] * 10)

    def busy(self):
        return self._cue is not None

    def update(self, now):
        cue = self._cue
        if cue is None or ticks_diff(now, self._until) < 0:
            return
        if self._sounding:
            self._pwm.duty_u16(0)
            self._sounding = False
            off_ms = _TONES[self._step + 2] * 10
            self._until = ticks_add(now, off_ms)
            if off_ms > 0:
                return
        self._step += 3
        if not _TONES[self._step]:          # the cue's last tone is over
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

    base = getattr(hwconfig, "BUZZER_FREQ", 2700)
    return Buzzer(PWM(Pin(hwconfig.PIN_BUZZER), freq=base, duty_u16=0), base)

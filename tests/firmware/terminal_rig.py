# A challenge terminal wired to the real clock engine, a fixture word list, a
# challenge log in a fresh folder and a manual clock: what the flow tests drive.

from clock.engine import new_engine
from clock.presets import get_preset
from lexicon import open_file
from lexicon_data import image_path
from mpytest import tmpdir
from terminal.flow import ChallengeFlow
from terminal.log import ChallengeLog
from terminal.settings import DictSettings
from timebase import ManualClock


class Rig:
    def __init__(self, preset="tso30", image="de", lang="en", lexicon="open", problem=None):
        self.clock = ManualClock()
        self.engine = new_engine(get_preset(preset), self.clock)
        self.logdir = tmpdir() + "/logs"
        self.log = ChallengeLog(self.logdir)
        self.settings = DictSettings({"lang": lang})
        # no resident pages: every lookup reads the flash, which the tests count
        lex = open_file(image_path(image), resident_bytes=0) if lexicon == "open" else lexicon
        self.flow = ChallengeFlow(self.engine, lex, self.log, self.settings, problem=problem,
                                  wall=lambda: 1700000000)

    def now(self):
        return self.clock.ticks_ms()

    def wait(self, ms):
        self.clock.advance(ms)
        return self.flow.update(self.now())

    def keys(self, text, gap=100):
        """Press each key of text, gap ms apart, updating the flow between presses."""
        for ch in text:
            self.clock.advance(gap)
            self.flow.update(self.now())
            self.flow.key(ch, self.now())

    def play_a_move(self):
        """Left presses to start right's clock, right plays and presses: left may challenge."""
        self.clock.advance(1000)
        self.engine.press(self.now(), 0)
        self.clock.advance(5000)
        self.engine.press(self.now(), 1)
        self.clock.advance(2000)

    def key_presses(self, word):
        """The keys that type a written word: digits, with B between two tiles of one key."""
        keymap = self.flow.keymap
        out = ""
        last = None
        for tile in self.flow.lexicon.parse(word):
            key, pos = keymap.where(tile)
            if key == last:
                out += "B"
            out += key * (pos + 1)
            last = key
        return out

    def type_word(self, word):
        self.keys(self.key_presses(word))

    def screen(self):
        return self.flow.screen().text()

    def everything_shown(self):
        return "\n".join(self.flow.screen().lines)

"""Cable pulls at random offsets of a word-list push to the real firmware
(tests/host/link_firmware_main.py: firmware/main.py on the reference board wired up
with the fakes, its link on a pseudo-terminal behind tests/host/linkrig.py's relay).

Each pull (the kinds in turn, the byte offset drawn) is decided before the push starts
and lands at exactly
that byte, in the relay's thread:
  - line:   the cable is pulled (nothing gets through either way), then put back;
  - host:   `clockctl push-lexicon` (a separate process) is SIGKILLed;
  - device: the firmware is SIGKILLed, then started again on the same folder.
After each pull the list in use must be the old one, byte for byte, and answer
lookups through the firmware's reader (lexicon.open_file in MicroPython: words of the
list valid, others not) and over the link (INFO names it); then the push is made
again, must resume where the device had got to (device and line pulls past the first
chunk), complete, verify, and the new list must answer the same way.  The two lists
take turns being old and new.  Used by tests/host/test_fault_pulls.py (a quick count)
and bench/fault_pulls.py (the full count; figures in docs/faults.md).
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from host_tools.drivers import driver_dir
from host_tools.link import Link, LinkError
from tests.host import runtime_proc
from tests.host.linkrig import Rig, wait_for

ENTRY = runtime_proc.HERE / "link_firmware_main.py"
KINDS = ("line", "host", "device")
LETTERS = "abcdefghijklmnoprstuwyz"
SAMPLE = 40

LOOKUP = """
import sys
from lexicon import open_file
lex = open_file("lexicon.dawg")
print("LIST", lex.name)
for line in open(sys.argv[1]):
    word = line.strip()
    tiles = lex.parse(word)
    print(word, lex.lookup(tiles) if tiles else 0)
"""


def make_list(name: str, seed: int, n_words: int = 3000) -> tuple[bytes, list[str]]:
    from wordlist_packer.normalise import Profile
    from wordlist_packer.pipeline import build_from_lines

    rnd = random.Random(seed)
    words = sorted({"".join(rnd.choice(LETTERS) for _ in range(rnd.randint(2, 9)))
                    for _ in range(n_words)})
    image = build_from_lines(words, Profile.builtin("en"), name=name, version=str(seed),
                             date=1700000000)
    return image, words


class Device:
    """The real firmware behind the relay; restartable on the same folder."""

    def __init__(self, folder: Path, first_list: bytes):
        self.folder = folder
        self.rig = Rig(folder, script=ENTRY, path_extra=[driver_dir()],
                       files={"lexicon.dawg": first_list})
        self.rig.start()

    def restart(self) -> None:
        err = self.rig.stop()
        assert "Traceback" not in err, err[-3000:]
        self.rig = Rig(self.folder, script=ENTRY, path_extra=[driver_dir()])
        self.rig.start()

    def link(self, **kw) -> Link:
        return Link(self.rig.port, **kw)

    def info(self) -> dict:
        def ask():
            try:
                with self.link(timeout=1.0, retries=1) as link:
                    return link.info()
            except LinkError:
                return None
        return wait_for(ask, timeout=60, what="the firmware to answer")

    def stop(self) -> str:
        return self.rig.stop()


def lookups(folder: Path, words: list[str], others: list[str]) -> str:
    """Check the list on the device's flash through the firmware's reader; returns
    the list's name."""
    probe = folder.parent / (folder.name + "-words.txt")
    probe.write_text("\n".join(words + others) + "\n")
    code, out, err = runtime_proc.run(["-c", LOOKUP, str(probe)], folder, timeout=60)
    assert code == 0, err[-2000:]
    answers = dict(line.rsplit(" ", 1) for line in out.splitlines()[1:])
    wrong = ([w for w in words if answers.get(w) != "1"]
             + [w for w in others if answers.get(w) != "0"])
    assert not wrong, "the reader answers wrongly for %s" % wrong[:10]
    probe.unlink()
    return out.splitlines()[0].split(" ", 1)[1]


def run(pulls: int, seed: int, folder: Path, log=print) -> dict:
    rng = random.Random(seed)
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    lists = [make_list("list-a", 11), make_list("list-b", 12)]
    names = ["list-a", "list-b"]
    device = Device(folder, lists[0][0])
    in_use = 0
    kinds: Counter = Counter()
    resumed = 0
    done_before = 0
    t0 = time.monotonic()
    try:
        device.info()
        for n in range(pulls):
            target = 1 - in_use
            image, words = lists[target]
            old_image, old_words = lists[in_use]
            kind = KINDS[n % len(KINDS)]
            kinds[kind] += 1
            relay = device.rig.relay
            offset = relay.to_device + rng.randint(1, len(image) + 200)
            if kind == "line":
                relay.cut_after = offset
                try:
                    with device.link(timeout=0.3, retries=1) as link:
                        link.push_lexicon(image)
                    completed = True
                except LinkError:
                    completed = False
                relay.cut_after = None
                relay.cut = False                       # the cable back in
            elif kind == "host":
                img = folder.parent / (folder.name + "-push.dawg")
                img.write_bytes(image)
                host = subprocess.Popen([sys.executable, "-m", "host_tools.cli", "push-lexicon",
                                         str(img), "--port", device.rig.port, "--timeout", "2"],
                                        cwd=str(runtime_proc.REPO), stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
                relay.at_offset = (offset, host.kill)
                host.communicate(timeout=300)
                relay.at_offset = None
                completed = host.returncode == 0
            else:
                relay.at_offset = (offset, device.rig.proc.kill)
                try:
                    with device.link(timeout=0.5, retries=1) as link:
                        link.push_lexicon(image)
                    completed = True
                except LinkError:
                    completed = False
                relay.at_offset = None
                if not completed:
                    device.restart()
            info = device.info()
            on_flash = (folder / "lexicon.dawg").read_bytes()
            if on_flash == image:
                # the pull came after the swap: the push was complete
                assert info["lexicon"]["name"] == names[target], info
                done_before += 1
            else:
                assert not completed, "a push said done but the old list is in place"
                assert on_flash == old_image, "the list in use is neither the old nor the new one"
                assert info["lexicon"]["name"] == names[in_use], info
                sample = rng.sample(old_words, SAMPLE)
                # no q in the lists: the words with their last letter made a q are not in
                others = [w[:-1] + "q" for w in rng.sample(old_words, SAMPLE)]
                assert lookups(folder, sample, others) == names[in_use]
                with device.link(timeout=2.0) as link:
                    result = link.push_lexicon(image)
                if result["resumed_from"]:
                    resumed += 1
                assert (folder / "lexicon.dawg").read_bytes() == image
            sample = rng.sample(words, SAMPLE)
            others = [w[:-1] + "q" for w in rng.sample(words, SAMPLE)]
            assert lookups(folder, sample, others) == names[target]
            assert device.info()["lexicon"]["name"] == names[target]
            in_use = target
            if log and n % 10 == 0:
                log("pull %d/%d %s" % (n, pulls, dict(kinds)))
    finally:
        err = device.stop()
    assert "Traceback" not in err, err[-3000:]
    return {"pulls": pulls, "kinds": dict(kinds), "resumed": resumed,
            "complete_before_the_pull": done_before, "seconds": round(time.monotonic() - t0, 1),
            "list_bytes": [len(lists[0][0]), len(lists[1][0])]}


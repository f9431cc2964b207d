# A device for the link tests: the firmware's link task served on stdin/stdout
# by the real MicroPython interpreter, with real services (store.config.Config,
# a clock engine that keeps running in its own task).  Runs in the device's
# folder (the current directory); MICROPYPATH holds firmware/.
#
#   micropython link_device.py [--game] [--id HEX] [--chunk N] [--flash] [--busy-log]
#
# --busy-log: a task appends numbered lines to logs/games.jsonl as fast as it can (the
# firmware's own log file, with its rotation), each line naming this start ("boot").
# --flash: the files live in LittleFS on the fake flash partition (flash-vfs.bin in
# the folder), as on the chip; with TILECLOCK_FLASH_TIMING set the fake charges the
# flash's erase and program times.

import sys
import asyncio

from clock.engine import Engine, PHASE_PLAY
from clock.presets import get_preset
from link.files import DeviceServices
from link.handler import LinkHandler
from link.server import serve
from store.config import Config
from timebase import SystemClock


class TestServices(DeviceServices):
    """The device's services plus what the tests watch: the game loop."""

    def __init__(self, config, engine, loop_counter, device_id):
        DeviceServices.__init__(self, config, lambda: engine.phase == PHASE_PLAY,
                                device_id=device_id)
        self.engine = engine
        self.loop_counter = loop_counter

    def device_info(self):
        d = DeviceServices.device_info(self)
        e = self.engine
        d["test"] = {"phase": e.phase, "on_turn": e.on_turn, "loops": self.loop_counter[0],
                     "swaps": self.lexicon_swaps}
        return d


async def busy_log():
    """Lines {"boot": B, "n": N, ...}, N from 0 up, one after the other, yielding to the
    other tasks between them: a clock that writes its filesystem all the time."""
    import json
    import os

    from store.gamelog import LogFile

    try:
        boot = len(os.listdir("boots"))
    except OSError:
        os.mkdir("boots")
        boot = 0
    with open("boots/%d" % boot, "w"):
        pass
    log = LogFile()
    n = 0
    while True:
        log.append([json.dumps({"boot": boot, "n": n, "pad": "%040d" % n})])
        n += 1
        await asyncio.sleep(0)


async def game_loop(engine, counter):
    while True:
        engine.update(None)
        counter[0] += 1
        await asyncio.sleep(0.02)


def mount_flash():
    import os
    import vfs

    import esp32

    part = esp32.Partition("vfs")
    try:
        fs = vfs.VfsLfs2(part)
    except OSError:
        vfs.VfsLfs2.mkfs(part)
        fs = vfs.VfsLfs2(part)
    vfs.mount(fs, "/flash")
    os.chdir("/flash")


def main():
    args = sys.argv[1:]
    device_id = "a0b1c2d3e4f5"
    chunk = 1024
    game = False
    busy = False
    i = 0
    while i < len(args):
        if args[i] == "--game":
            game = True
        elif args[i] == "--id":
            i += 1
            device_id = args[i]
        elif args[i] == "--chunk":
            i += 1
            chunk = int(args[i])
        elif args[i] == "--flash":
            mount_flash()
        elif args[i] == "--busy-log":
            busy = True
        i += 1
    config = Config()
    config.load()
    engine = Engine(get_preset("tso30"), SystemClock())
    if game:
        engine.press(None, 0)  # the opponent starts the first player's clock
    counter = [0]
    services = TestServices(config, engine, counter, device_id)
    handler = LinkHandler(services, chunk=chunk)
    # Noise the way a real device makes it: the banner and a print on boot.
    print("tileclock test device " + device_id + " starting")
    asyncio.create_task(game_loop(engine, counter))
    if busy:
        asyncio.create_task(busy_log())
    import hal_link

    asyncio.run(serve(sys.stdin.buffer, sys.stdout.buffer, handler, hal_link.set_baud))


main()

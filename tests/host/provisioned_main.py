# A clock as `clockctl image --target s3` provisions it, for the link tests: the
# device folder holds the files of the filesystem image clockctl wrote; as at a chip's
# start-up, boot.py puts the firmware slot fw/slot names on the path and main.py runs
# the firmware from it (app.run: asyncio tasks, the link on stdin/stdout).  The chip's
# C modules are the fakes (MICROPYPATH), wired as the board (after boot.py, so that
# they read the slot's hwconfig).  With TILECLOCK_SIM set, machine.reset() ends this
# process as a reset ends the chip's program; the test starts it again.
with open("boot.py") as f:
    exec(f.read(), {"__name__": "__main__"})
del f

import sim_board  # noqa: E402

sim_board.wire()
with open("main.py") as f:
    exec(f.read(), {"__name__": "__main__"})

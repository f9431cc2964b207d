# The real firmware (app.run, as firmware/main.py starts it) on the reference board
# wired up with the fakes, its link on stdin/stdout, and a game running: the right
# player presses at once, so the left clock runs.  For the frame fuzzing script.
import asyncio

import sim_board

board = sim_board.wire()


async def start_game():
    await asyncio.sleep_ms(300)
    board.press("right")
    await asyncio.sleep_ms(80)
    board.release("right")


import app  # noqa: E402

app.run(extra=(start_game(),))

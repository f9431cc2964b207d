# The real firmware (firmware/main.py) on the reference board wired up with the
# fakes, its link on stdin/stdout: what the link tests run against once the
# runtime serves the link.
import sim_board

sim_board.wire()
import main  # noqa: E402,F401  (runs app.run(): never returns)

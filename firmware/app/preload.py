# What app.run() imports before it makes the board and the game (app/__init__.py); this
# module is dropped again once it has done so.

# The modules a running clock keeps, imported first, before the board's buffers and the
# game's objects are made: their code objects and the qstr pools they grow then lie
# together at the start of the heap, instead of needing room between those later (a
# pool of 1280 qstrs takes 9 KB in one piece; docs/runtime.md, Memory).
RESIDENT = ("terminal.flow", "app.device", "clock.engine", "lexicon", "store.config",
            "ssd1306", "render.player", "render.terminal", "clock.snapshot", "store.state",
            "store.gamelog", "hal_buttons", "hal_keypad", "hal_display", "hal_buzzer",
            "hal_battery", "app.board", "terminal.log", "terminal.pinlock", "i18n")


def load_modules():
    """Import RESIDENT, then drop this module itself: its tables are needed once."""
    from lazy import unload

    for name in RESIDENT:
        __import__(name)
    unload(("app.preload",))

# The firmware's load-and-drop, declared in one place (docs/runtime.md, Memory).  Every
# module, once imported, stays resident, except the groups below: each is loaded for a
# moment of the game and dropped again, and its line says the figure that keeps it so
# (the heap a group holds while loaded, on the lean target's frozen 32-bit image:
# bench/bench_memory.py --target wroom; tests/firmware/test_lazy.py checks that
# unload() is called with these groups only and that each group is gone after its
# moment).  unload() forgets the modules, so that the next gc.collect() frees their
# functions, classes and tables; the next import loads them again (from flash).

DROPPED = {
    # The word steps of a challenge (terminal.flow): dropped, with the word entry and
    # its key map, once the terminal is back on its neutral screen.  Kept, they take
    # 4.5 KB, 1.3 KB more at the lean target's fullest moment (the firmware's peak 48.0
    # instead of 46.7 KB in the game with 300 extra names), which the game in 80 KB
    # with the fakes does not have.
    "challenge": ("terminal.wordsteps", "terminal.entry", "terminal.keymap",
                  "terminal.letterfreq", "terminal.persist"),
    # Setting up a game (app.device): the presets' table and checks, the settings'
    # checks, 1.2 KB, needed when the settings or a new preset are applied and at no
    # other moment of a game.
    "setup": ("clock.presets", "store.config_check"),
}


def unload(group, collect=True):
    """Drop the modules of DROPPED[group] that are loaded, and collect them at once
    unless `collect` is False (the caller's next collection frees them)."""
    import gc
    import sys

    modules = sys.modules
    for name in DROPPED[group]:
        if name in modules:
            del modules[name]
            package, _, attr = name.rpartition(".")
            parent = modules.get(package) if package else None
            if parent is not None:
                try:
                    delattr(parent, attr)
                except (AttributeError, TypeError):
                    pass
    if collect:
        gc.collect()

# The game clock engine; see docs/clock-engine.md.  Submodules are imported
# by name (clock.engine, clock.presets, ...) so that a user pays only for
# what it loads.

# Modules loaded for one mode and dropped afterwards (docs/runtime.md, Memory).
# unload() forgets modules so that the next gc.collect() frees their functions,
# classes and tables; the next import loads them again (from flash on the chip).


def unload(names, collect=True):
    """Drop the modules `names` ("package.module" or "module") that are loaded, and
    collect them at once unless `collect` is False (the caller's next collection
    frees them)."""
    import gc
    import sys

    modules = sys.modules
    for name in names:
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

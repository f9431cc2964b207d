# How much RAM the word list's pages get, by the board's heap (app/__init__.py opens
# the list with it; app/tasks.py collects garbage by it).

from micropython import const

# The word list's block cache: 4 KB where the heap can grow large (PSRAM), 4 slots
# (1088 B) on a board with internal RAM only (the lean target), where a lookup then
# reads 7.9 flash blocks instead of 5.9 (bench/bench_lexicon.py --cache 1088): a few
# 272-byte flash reads more, nothing a player notices; 2 KB cost 0.9 KB more heap
# for 0.7 fewer reads.
_CACHE_LARGE = const(4096)
_CACHE_SMALL = const(1088)
# RAM for the pages the list's header names resident (the ones most lookups read, kept
# from opening on; a slot of 272 B each): all 32 on either board, which bounds a cold
# Polish lookup to 16 flash reads (mean 4.9; without them 26 and 10.4 with the lean
# target's 4 slots: bench/bench_lexicon.py --cache 1088 --resident 0).  The lean target's
# game holds them within its budget: firmware peak 57.8 KB of 60 KB, the game with 300
# extra names in 80 KB beside the fakes (bench/bench_memory.py --target wroom
# --extra-names 300; tests/host/test_memory_wroom.py).
_RESIDENT = const(32 * 272)
_LARGE_HEAP = const(512 * 1024)


def large_heap():
    """True where the heap can grow large (PSRAM: the reference board), False on a board
    with internal RAM only (the lean target)."""
    import gc

    # gc.mem_free() counts what the heap may still grow by (MICROPY_GC_SPLIT_HEAP_AUTO);
    # CPython (the host's tests) has no such limit
    if not hasattr(gc, "mem_free"):
        return True
    return gc.mem_free() + gc.mem_alloc() >= _LARGE_HEAP


def cache_bytes():
    return _CACHE_LARGE if large_heap() else _CACHE_SMALL


def resident_bytes():
    return _RESIDENT

// The ESP32 port's heap policy for the unix test interpreters (tests/mpbuild.py builds
// them with MICROPY_GC_SPLIT_HEAP and MICROPY_GC_SPLIT_HEAP_AUTO, as ports/esp32 sets).
//
// On the chip the heap starts with one area of MICROPY_GC_INITIAL_HEAP_SIZE and, when an
// allocation fails after a collection, py/gc.c adds an area that doubles the total, as
// large as gc_get_max_new_split() allows: the largest free block of ESP-IDF's heap, which
// on a board with PSRAM is the PSRAM (ports/esp32/gccollect.c).  Here the memory the
// board would give is $TILECLOCK_HEAP_MAX bytes in all (areas included); without it the
// heap stays at its -X heapsize, as before.

#include <stdlib.h>

#include "py/gc.h"
#include "py/mpstate.h"

#if MICROPY_GC_SPLIT_HEAP_AUTO

size_t gc_get_max_new_split(void) {
    const char *limit = getenv("TILECLOCK_HEAP_MAX");
    if (limit == NULL) {
        return 0;
    }
    size_t max = strtoul(limit, NULL, 0);
    size_t used = 0;
    for (mp_state_mem_area_t *area = &MP_STATE_MEM(area); area != NULL; area = area->next) {
        used += area->gc_pool_end - area->gc_alloc_table_start;
    }
    return max > used ? max - used : 0;
}

#endif

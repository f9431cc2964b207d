// romimage.map(path) -> memoryview over the file, mapped read-only with mmap.
// romimage.heap() -> (bytes, areas) of the GC heap (below).
//
// The host's stand-in for a ROMFS partition in memory-mapped flash: the bytes are
// outside MicroPython's GC heap, so vfs.VfsRom over this memoryview imports .mpy files
// in place exactly as a chip with ROMFS does, and the heap holds only what the code
// creates.  Built into the test interpreters only (tests/mpbuild.py).

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "py/runtime.h"
#include "py/mperrno.h"
#include "py/objarray.h"
#include "py/mpstate.h"

#if MICROPY_GC_SPLIT_HEAP
#define NEXT_AREA(area) ((area)->next)
#else
#define NEXT_AREA(area) (NULL)
#endif

static mp_obj_t romimage_map(mp_obj_t path_in) {
    const char *path = mp_obj_str_get_str(path_in);
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        mp_raise_OSError(MP_ENOENT);
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size <= 0) {
        close(fd);
        mp_raise_OSError(MP_EIO);
    }
    void *data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (data == MAP_FAILED) {
        mp_raise_OSError(MP_ENOMEM);
    }
    return mp_obj_new_memoryview('B', (size_t)st.st_size, data);
}
static MP_DEFINE_CONST_FUN_OBJ_1(romimage_map_obj, romimage_map);

// romimage.heap() -> (bytes, areas): the heap's size now, all its areas together (the
// chip's heap grows area by area; gc.mem_free() counts what it may still grow by).
static mp_obj_t romimage_heap(void) {
    size_t total = 0;
    size_t areas = 0;
    for (mp_state_mem_area_t *area = &MP_STATE_MEM(area); area != NULL; area = NEXT_AREA(area)) {
        total += area->gc_pool_end - area->gc_alloc_table_start;
        areas++;
    }
    mp_obj_t items[2] = { mp_obj_new_int_from_uint(total), MP_OBJ_NEW_SMALL_INT(areas) };
    return mp_obj_new_tuple(2, items);
}
static MP_DEFINE_CONST_FUN_OBJ_0(romimage_heap_obj, romimage_heap);

static const mp_rom_map_elem_t romimage_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_romimage) },
    { MP_ROM_QSTR(MP_QSTR_map), MP_ROM_PTR(&romimage_map_obj) },
    { MP_ROM_QSTR(MP_QSTR_heap), MP_ROM_PTR(&romimage_heap_obj) },
};
static MP_DEFINE_CONST_DICT(romimage_globals, romimage_globals_table);

const mp_obj_module_t romimage_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&romimage_globals,
};

MP_REGISTER_MODULE(MP_QSTR_romimage, romimage_module);

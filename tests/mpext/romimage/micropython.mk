# romimage: map a ROMFS image file read-only into the interpreter's address space,
# outside the GC heap, as memory-mapped flash is on the chip.  heapgrow: the ESP32
# port's growing heap (see heapgrow.c).
ROMIMAGE_MOD_DIR := $(USERMOD_DIR)
SRC_USERMOD_C += $(ROMIMAGE_MOD_DIR)/romimage.c $(ROMIMAGE_MOD_DIR)/heapgrow.c

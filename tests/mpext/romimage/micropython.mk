# romimage: map a ROMFS image file read-only into the interpreter's address space,
# outside the GC heap, as memory-mapped flash is on the chip.
ROMIMAGE_MOD_DIR := $(USERMOD_DIR)
SRC_USERMOD_C += $(ROMIMAGE_MOD_DIR)/romimage.c

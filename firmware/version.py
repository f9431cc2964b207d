# Reported to the host tools; bump with every release of the firmware.
VERSION = "0.1.0"

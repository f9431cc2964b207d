# The message types of the host link (docs/link-protocol.md, section 3), defined once for
# both ends: the firmware imports them, and the host tools load this very file
# (host_tools/link.py, through host_tools/resources.py).  Plain numbers, no imports:
# it runs under CPython as it is.

INFO = 0x01
CONFIG_GET = 0x02
CONFIG_SET = 0x03
LOG_READ = 0x04
BAUD = 0x05          # the link's rate (link/server.py)
RESET = 0x06         # a fresh game between rounds

# the word list sent over the link (link/lexupload.py)
LEX_BEGIN = 0x10
LEX_CHUNK = 0x11
LEX_COMMIT = 0x12
LEX_ABORT = 0x13
# a word list written by esptool into a partition (link/lexslot.py)
LEX_SLOT = 0x14
LEX_ADOPT = 0x15

# the firmware update (link/fwupdate.py)
FW_BEGIN = 0x20
FW_CHUNK = 0x21
FW_COMMIT = 0x22
FW_ABORT = 0x23

REPLY = 0x80         # the reply to type t has type t | REPLY
ERROR = 0x7F         # an error reply: {"code": ..., "msg": ...} (frame.error_payload)

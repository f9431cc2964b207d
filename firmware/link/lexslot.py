# LEX_SLOT and LEX_ADOPT: the word list written by esptool into a raw partition,
# for `clockctl flash-lexicon` (docs/link-protocol.md, section 4b; lexicon/slots.py).
# Loaded only when asked.
#
# LEX_SLOT {}: where esptool may write: the partition not in use
#   -> {"write": {"label", "offset", "size"}, "active": label or null}
# LEX_ADOPT {"slot", "size", "crc", "force"}: after esptool's write and the chip's
#   restart, the image at the start of `slot` is checked in full (its header, every
#   page, the CRC-32 of the whole image against the announced one) and made the list
#   in use by one rename of lexicon/slots.py's selector.  The running game is never
#   ended: without force the switch is refused while a game is on; with force the
#   list is switched and the game goes on, its next challenges judged by the new list.

from lexicon import slots
from lexicon.reader import forget_record, write_record
from link import imagecheck
from link.common import VERIFIED, LinkError, dump_json, int_field, load_json, reply
from link.messages import LEX_ADOPT, LEX_SLOT

# VERIFIED: one record of the full check for whichever list is in use, its digest naming
# the image.
_NO_SLOTS = ("this clock's partition table has no word list partitions (%s): "
             "reflash it with clockctl flash" % ", ".join(slots.LABELS))


def handle(handler, kind, payload):
    """The reply to LEX_SLOT (a tuple) or LEX_ADOPT (a generator) for `handler`
    (link/handler.py's LinkHandler)."""
    obj = load_json(payload)
    if kind == LEX_SLOT:
        label = slots.free_slot()
        part = slots.partition(label)
        if part is None:
            raise LinkError("E_SLOT", _NO_SLOTS)
        _, _, offset, size, _, _ = part.info()
        return reply(kind, dump_json({"write": {"label": label, "offset": offset,
                                                "size": size},
                                      "active": slots.selected()}))
    return handler.guard(_adopt(handler, obj))


def _adopt(handler, obj):
    label = obj.get("slot")
    size = int_field(obj, "size", 1)
    crc = int_field(obj, "crc")
    force = obj.get("force") is True
    if label not in slots.LABELS:
        raise LinkError("E_ARG", "bad or missing 'slot'")
    if label == slots.selected():
        info = handler.lexicon_info()
        if info and info["size"] == size and handler.last_adopt == (label, size, crc):
            # the reply to an earlier adopt was lost: it is done already
            yield reply(LEX_ADOPT, dump_json({"ok": True, "lexicon": info}))
            return
        raise LinkError("E_SLOT", "%s holds the list in use: write the other partition"
                        % label)
    part = slots.partition(label)
    if part is None:
        raise LinkError("E_SLOT", _NO_SLOTS)
    handler.refuse_during_game(force)
    try:
        hdr = yield from handler.checking(imagecheck.verify_partition_steps(part, crc, size))
    except imagecheck.ImageError as e:
        handler.progress = ("failed", 0, 0)
        raise LinkError("E_VERIFY", "the image in %s is refused: %s; the list in use "
                        "stays" % (label, e))
    # The game may have started while the image was being checked.
    handler.refuse_during_game(force)
    if handler.upload.slot() == label:
        handler.upload.abort()         # an unfinished push-lexicon into this partition ends here
    release = getattr(handler.services, "release_lexicon", None)
    if release:
        release()
    forget_record(VERIFIED)
    try:
        write_record(VERIFIED, hdr["digest"])    # checked in full just now
        slots.select(label)
    except OSError as e:
        handler.lexicon_changed_now()
        raise LinkError("E_WRITE", "switching to %s failed: %s" % (label, e))
    handler.last_adopt = (label, size, crc)
    handler.progress = ("done", size, size)
    handler.lexicon_changed_now()
    yield reply(LEX_ADOPT, dump_json({"ok": True, "lexicon": handler.lexicon_info()}))

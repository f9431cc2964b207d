# The word list's raw flash partitions (docs/host-tools.md, "flash-lexicon").
#
# Two data partitions, lexa and lexb, each hold at most one word graph image at their
# start.  The file SELECT names the one in use; without it the list is the file
# lexicon.dawg (what push-lexicon installs on a clock without the partitions).  Only
# the partition not in use is ever written: by esptool while the chip is held in its
# loader (flash-lexicon), or by link/lexpart.py as push-lexicon's chunks arrive; the
# firmware's logs, settings and game are elsewhere.  The firmware checks the new image
# in full and switches by writing SELECT aside and renaming it over the old one (one
# LittleFS rename: atomic).

import os

SELECT = "lexicon.slot"
LABELS = ("lexa", "lexb")


def selected():
    """The label of the partition whose list is in use, or None (the file)."""
    try:
        with open(SELECT) as f:
            label = f.read().strip()
    except OSError:
        return None
    return label if label in LABELS else None


def select(label):
    """Make the list in partition `label` the one in use (None: the file lexicon.dawg)."""
    if label is None:
        try:
            os.remove(SELECT)
        except OSError:
            pass
        return
    with open(SELECT + ".tmp", "w") as f:
        f.write(label)
    os.rename(SELECT + ".tmp", SELECT)


def partition(label):
    """The esp32.Partition of `label`, or None on a chip whose partition table has no
    word list partitions (a clock provisioned before they existed)."""
    if label not in LABELS:
        return None
    try:
        import esp32
    except ImportError:
        return None
    found = esp32.Partition.find(esp32.Partition.TYPE_DATA, label=label)
    return found[0] if found else None


def free_slot():
    """The label of the partition esptool or push-lexicon may write: the one not in use."""
    return LABELS[1] if selected() == LABELS[0] else LABELS[0]

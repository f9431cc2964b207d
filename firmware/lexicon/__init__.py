# The word graph reader: see docs/wordlist-format.md and docs/challenge-terminal.md.
from lexicon.reader import (  # noqa: F401 (the package's API)
    Lexicon, LexiconError, VALID, INVALID, TOO_LONG, open_file, open_partition)

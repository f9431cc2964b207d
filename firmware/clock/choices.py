# The values of a preset's choice fields, in the order their indices are stored (the
# built-in presets' rows, the snapshot).  Apart from clock.presets: a running clock
# needs only these, not the presets' table and checks, which are loaded to set up a
# game and dropped again (app.device, SETUP_MODULES).

PER_CHOICES = ("started", "full")
CAP_CHOICES = ("forfeit", "none")
CHALLENGE_KINDS = ("per_word", "per_play", "lose_turn", "none")

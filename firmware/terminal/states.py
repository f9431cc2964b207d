# The challenge terminal's steps and keys: the numbers that the flow
# (terminal/flow.py), its steps (terminal/wordsteps.py, terminal/lastplay.py), its
# screens (terminal/view.py) and the saved step (terminal/persist.py,
# terminal/resume.py) share.  A step's number is saved in the game state record: a
# number never changes its meaning.  The referee menu's modes: terminal/modes.py.

# the flow's steps (ChallengeFlow.state)
NEUTRAL = 0
COUNT = 1           # how many words (1-8)
ENTRY = 2           # typing the words
CONFIRM = 3         # the opponent checks the typed words
READY = 4           # confirmed: the typist triggers the check
VERDICT = 5
REFEREE_WAIT = 6    # beyond the list, or no usable list: the referee decides
CANCEL_ASK = 7
REFEREE = 8         # PIN entry and the referee menu (terminal.referee)
FINISH_ASK = 9      # the last mover held pause: "game over?" (TSO 5.1b i)
ACCEPT_ASK = 10     # C in the end phase: accepting the final play ends the game
SCORE = 11          # after the game: a player types the score from their sheet
SCORE_CONFIRM = 12  # the opponent confirms that score (terminal/scores.py)

# the steps of a challenge in progress (the engine is challenging)
CHALLENGE_STATES = (COUNT, ENTRY, CONFIRM, READY, REFEREE_WAIT)

# the keys of the flow's steps
KEY_CHALLENGE = "A"
KEY_SEPARATE = "B"
KEY_CONFIRM = "C"
KEY_HOLD = "B"      # on the neutral screen, while the last play can be challenged
KEY_ACCEPT = "C"
KEY_CANCEL = "D"
KEY_BACK = "*"
KEY_ENTER = "#"
KEY_HELP = "A"      # while the words are counted or typed: the whole key layout
KEY_SCORES = "A"    # on the result screen: the score entry again (after it was left)

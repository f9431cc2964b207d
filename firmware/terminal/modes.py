# The referee menu's modes (Referee.mode): the numbers that the menu
# (terminal/referee.py) and its game menu (terminal/referee_game.py) share.  Loaded
# with the referee's menu.

PIN = 0
MENU = 1
CHECK = 2
SETTINGS = 3
NEW_PIN = 4
ADJ_SIDE = 5
ADJ_SECS = 6
RESET_ASK = 7
PICK = 8            # the referee's verdict on a challenge
CHALLENGE = 9       # the challenge in progress: take it up again or cancel it
GAME = 10           # the game menu and its questions (terminal.referee_game): modes >= GAME
END = 11            # end the game with or without the 5.2d excuse
CONTINUE = 12       # whose clock runs when the game goes on
LATE = 13           # whose late clock starts or stops

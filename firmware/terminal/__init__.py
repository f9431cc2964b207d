# The challenge terminal (TSO 3.1.4 d i): see docs/challenge-terminal.md.

# The challenge flow (TSO 3.1.4 d i) step by step, with the real clock engine and
# a fixture word list.  Time moves only through the rig's manual clock.
from mpytest import tmpdir
from terminal import flow as F
from terminal import referee as R
from terminal.log import ChallengeLog
from terminal_rig import Rig


def _challenge(rig, count):
    rig.play_a_move()
    rig.keys("A" + str(count))


def _enter(rig, *words):
    _challenge(rig, len(words))
    for word in words:
        rig.type_word(word)
        rig.keys("#")


def _nothing_of_the_challenge_left(rig, words):
    flow = rig.flow
    shown = rig.everything_shown()
    for word in words:
        assert word not in shown, (word, shown)
    for key in ("ACCEPTABLE", "penalty", "withdrawn", "Word ", "Opponent"):
        assert key not in shown, (key, shown)
    assert "Referee" not in shown.split("\n"), shown     # the referee's verdict line
    assert flow.verdict is None
    # the word entry (the typed words with it) and the referee's menu are gone
    assert flow.entry is None and flow.keymap is None and flow.referee is None


def test_whole_challenge_acceptable_tso():
    rig = Rig("tso30")
    _challenge(rig, 2)
    assert rig.engine.challenging and rig.flow.state == F.ENTRY
    rig.type_word("HAUS")
    assert "1 HAUS" in rig.screen()
    rig.keys("#")
    assert "Word 2/2" in rig.screen()
    rig.type_word("ZÜGE")
    rig.keys("#")
    assert rig.flow.state == F.CONFIRM
    assert "1 HAUS" in rig.screen() and "2 ZÜGE" in rig.screen()
    rig.keys("#")                       # the typist cannot check before the opponent confirms
    assert rig.flow.state == F.CONFIRM
    rig.keys("C")
    assert rig.flow.state == F.READY and rig.engine.challenging
    rig.keys("#")
    assert rig.flow.state == F.VERDICT and not rig.engine.challenging
    shown = rig.screen()
    assert shown.startswith("ACCEPTABLE") and rig.flow.screen().sizes[0] == 2
    assert "20 penalty pts" in shown            # 10 per wrongly challenged word
    assert "Clock: left" in shown               # the challenger's clock runs
    assert "fixture-de" in shown
    assert "HAUS" not in shown and "ZÜGE" not in shown
    assert rig.engine.display(0).running and rig.engine.display(0).challenge_penalty == 20
    rig.wait(9000)
    assert rig.flow.state == F.VERDICT
    rig.wait(1000)                              # 10 s default
    assert rig.flow.state == F.NEUTRAL
    _nothing_of_the_challenge_left(rig, ("HAUS", "ZÜGE"))
    records = list(rig.log.records())
    assert len(records) == 1
    r = records[0]
    assert r["words"] == ["HAUS", "ZÜGE"] and r["verdict"] == "acceptable"
    assert r["penalty"] == 20 and r["challenger"] == 0 and r["by"] == "list"
    assert r["list"] == "de fixture-de 1" and r["at"] == 1700000000


def test_one_invalid_word_makes_the_play_not_acceptable():
    rig = Rig("tso30")
    _enter(rig, "HAUS", "MAUSE")
    rig.keys("C#")
    shown = rig.screen()
    assert shown.startswith("NOT ACCEPTABLE")
    # TSO 3.1.4: no clock runs until the player has taken the tiles back and presses
    assert "Play withdrawn\nTiles back; then\nright presses" in shown
    assert "MAUSE" not in shown and "HAUS" not in shown     # never which word failed
    assert not rig.engine.display(0).running and not rig.engine.display(1).running
    assert not rig.engine.press(rig.now(), 0) and rig.engine.press(rig.now(), 1)
    assert rig.engine.display(0).running and not rig.engine.display(1).running
    r = list(rig.log.records())[0]
    assert r["verdict"] == "not_acceptable" and r["withdrawn"] and r["penalty"] == 0


def _verdict_for(preset, words):
    rig = Rig(preset)
    _enter(rig, *words)
    rig.keys("C#")
    return rig


def test_penalties_per_preset():
    rig = _verdict_for("naspa_csw", ("HAUS", "ZUG", "TEE"))
    assert "15 penalty pts" in rig.screen()                 # 5 per word
    rig = _verdict_for("nsf", ("HAUS", "ZUG", "TEE"))
    assert "10 penalty pts" in rig.screen()                 # 10 per play
    rig = _verdict_for("naspa_nwl", ("HAUS",))
    shown = rig.screen()
    assert "Turn lost" in shown and "Clock: right" in shown  # double challenge
    assert rig.engine.display(1).running
    rig = _verdict_for("tso25", ("ÖL",))
    assert "10 penalty pts" in rig.screen()


def test_the_verdict_time_is_configurable_and_a_key_ends_it_early():
    rig = Rig()
    rig.settings.set("verdict_ms", 5000)
    _enter(rig, "SEE")
    rig.keys("C#")
    rig.wait(4999)
    assert rig.flow.state == F.VERDICT
    rig.wait(1)
    assert rig.flow.state == F.NEUTRAL
    rig = Rig()
    _enter(rig, "SEE")
    rig.keys("C#")
    rig.wait(2000)
    rig.keys("5")
    assert rig.flow.state == F.NEUTRAL


def test_keys_mashed_during_the_verdict_skip_nothing_and_leak_nothing():
    rig = Rig()
    _enter(rig, "HAUS")
    rig.keys("C")
    rig.keys("#" + "#A*D1C" * 3, gap=10)     # the check, then a burst of keys
    assert rig.flow.state == F.VERDICT        # the verdict is not skipped by the burst
    assert rig.screen().startswith("ACCEPTABLE")
    rig.wait(2000)
    rig.keys("AAAADDDD####", gap=20)          # mashing on: the first key ends the verdict,
    assert rig.flow.state == F.NEUTRAL        # the rest fall into the guard time
    assert not rig.engine.challenging         # no new challenge was started
    _nothing_of_the_challenge_left(rig, ("HAUS",))
    assert len(list(rig.log.records())) == 1
    assert rig.engine.display(0).challenge_penalty == 10    # charged once


def test_many_keys_at_the_same_instant_are_taken_in_order():
    rig = Rig()
    _challenge(rig, 1)
    t = rig.now()
    for ch in rig.key_presses("TEE"):
        rig.flow.key(ch, t)
    rig.flow.key("#", t)
    assert rig.flow.state == F.CONFIRM and "1 TEE" in rig.screen()


def test_backspace_within_and_across_words_and_back_to_the_count():
    rig = Rig()
    _challenge(rig, 2)
    rig.type_word("HAX")
    assert "1 HAX" in rig.screen()
    rig.keys("*")
    rig.type_word("US")
    rig.keys("#")
    rig.keys("*")                  # empty second word: back into the first
    assert "Word 1/2" in rig.screen()
    rig.keys("**")
    assert "1 HA_" in rig.screen()
    rig.keys("***")                # word empty, first word: back to the count
    assert rig.flow.state == F.COUNT
    rig.keys("1")
    rig.type_word("ZUG")
    rig.keys("#")
    assert rig.flow.state == F.CONFIRM
    rig.keys("*")                  # the opponent sees a mistake: back to typing
    assert rig.flow.state == F.ENTRY
    rig.keys("*")
    rig.type_word("G")
    rig.keys("#C")
    rig.keys("*")                  # even after the confirmation, before the check
    assert rig.flow.state == F.ENTRY


def test_an_empty_word_is_not_accepted_as_done():
    rig = Rig()
    _challenge(rig, 1)
    rig.keys("#")
    assert rig.flow.state == F.ENTRY


def test_multi_tap_timeout_separates_letters_on_one_key():
    rig = Rig()
    _challenge(rig, 1)
    flow = rig.flow
    key, pos = flow.keymap.where(flow.lexicon.parse("E")[0])
    rig.keys(key * (pos + 1))
    assert "E_" in rig.screen() and key + ":" in rig.screen()    # legend of the pending key
    rig.wait(999)
    assert flow.entry.pending_key == key
    rig.wait(1)                                   # the timeout commits the letter
    assert flow.entry.pending_key == "" and flow.entry.lengths[0] == 1
    rig.clock.advance(50)
    for ch in key * (pos + 1):
        flow.key(ch, rig.now())
        rig.clock.advance(50)
    rig.keys("B")
    assert flow.entry.text(0) == "EE"


def test_a_word_beyond_the_list_goes_to_the_referee():
    rig = Rig()
    _enter(rig, "HAUS", "HAUSES")       # 6 tiles: the fixture list covers 5
    rig.keys("C#")
    assert rig.flow.state == F.REFEREE_WAIT and rig.engine.challenging
    shown = rig.screen()
    assert "Referee" in shown and "decides" in shown
    assert "ACCEPTABLE" not in shown
    rig.keys("D0000#")
    assert rig.flow.referee.mode == R.PICK and "1 acceptable" in rig.screen()
    rig.keys("1")
    assert rig.flow.state == F.VERDICT and rig.screen().startswith("ACCEPTABLE")
    assert "20 penalty pts" in rig.screen()
    r = list(rig.log.records())[0]
    assert r["by"] == "referee" and r["verdict"] == "acceptable"
    rig.wait(10000)
    _nothing_of_the_challenge_left(rig, ("HAUS", "HAUSES"))


def test_an_invalid_word_decides_even_beside_a_word_beyond_the_list():
    rig = Rig()
    _enter(rig, "HAUSES", "ZUGE")
    rig.keys("C#")
    assert rig.screen().startswith("NOT ACCEPTABLE")


def test_cancel_asks_first_and_then_restores_the_clock():
    rig = Rig()
    _challenge(rig, 1)
    rig.type_word("ZU")
    rig.keys("D")
    assert rig.flow.state == F.CANCEL_ASK and "Cancel" in rig.screen()
    assert "#=yes  *=no" in rig.screen() and "D Referee" in rig.screen()
    rig.keys("*")
    assert rig.flow.state == F.ENTRY and "1 ZU" in rig.screen()
    rig.keys("DD")                      # D once more: the referee's PIN entry...
    assert rig.flow.state == F.REFEREE and "PIN" in rig.screen()
    rig.keys("D")                       # ...and leaving it: back to the typing
    assert rig.flow.state == F.ENTRY and "1 ZU" in rig.screen()
    rig.keys("D#")
    assert rig.flow.state == F.NEUTRAL and not rig.engine.challenging
    assert rig.engine.display(0).running
    assert list(rig.log.records())[0]["verdict"] == "cancelled"
    _nothing_of_the_challenge_left(rig, ("ZU",))


def test_no_challenge_when_the_engine_refuses():
    rig = Rig()
    rig.keys("A")                  # no play yet: nothing to challenge
    assert rig.flow.state == F.NEUTRAL and "Not now" in rig.screen()
    rig.wait(3000)
    assert "Not now" not in rig.screen()


def test_lockdown_outside_a_challenge_no_key_looks_anything_up():
    rig = Rig()
    reads = rig.flow.lexicon.reads
    rig.keys("1234567890BC*#")
    assert rig.flow.state == F.NEUTRAL
    assert rig.flow.lexicon.reads == reads
    assert "D Referee" in rig.screen()
    rig.wait(3000)                              # the notice ("Not now") goes
    assert rig.screen().startswith("Ready")


def test_missing_word_list_says_so_and_the_clock_keeps_working():
    rig = Rig(lexicon=None, problem="missing")
    shown = rig.screen()
    assert "No word list" in shown and "D Referee" in shown
    rig.play_a_move()
    assert rig.engine.display(0).running        # the clock works without a list
    rig.keys("A2")
    assert rig.flow.state == F.REFEREE_WAIT and "No word list" in rig.screen()
    rig.keys("D0000#2")
    assert rig.screen().startswith("NOT ACCEPTABLE")
    assert list(rig.log.records())[0]["word_count"] == 2


def test_damaged_word_list_in_german():
    rig = Rig(lexicon=None, problem="damaged", lang="de")
    shown = rig.screen()
    assert "Wortliste defekt" in shown and "D Schiedsrichter" in shown


def test_a_list_that_fails_under_a_lookup_goes_to_the_referee():
    rig = Rig()
    _enter(rig, "HAUS")
    rig.keys("C")
    lex = rig.flow.lexicon
    lex.body_len = 1                 # every arc now lies outside the body: damage
    lex._tags = [-1] * len(lex._tags)
    lex._resident = {}               # and no page held in RAM either
    rig.keys("#")
    assert rig.flow.state == F.REFEREE_WAIT and rig.flow.problem == "damaged"
    assert "Bad word list" in rig.screen() and rig.engine.challenging


def test_the_log_survives_a_power_cycle_and_the_flow_goes_on_numbering():
    rig = Rig()
    _enter(rig, "SEE")
    rig.keys("C#")
    again = ChallengeLog(rig.logdir)            # a reboot: a new object on the same files
    records = list(again.records())
    assert [r["words"] for r in records] == [["SEE"]]
    assert again.append({"words": ["X"]}) == records[0]["seq"] + 1


def test_other_languages_show_their_texts():
    for lang, word in (("de", "ANFECHTUNG"), ("pl", "SPRAWDZENIE"), ("nb", "UTFORDRING")):
        rig = Rig(lang=lang)
        rig.play_a_move()
        rig.keys("A")
        assert word in rig.screen(), lang


def test_the_final_play_can_be_challenged_after_finish():
    # TSO 5.1: the last mover stops the clock (no clock runs, on_turn is -1);
    # the opponent may still challenge that final play from the terminal
    rig = Rig("tso30")
    rig.clock.advance(1000)
    rig.engine.press(rig.now(), 0)      # right's clock runs
    rig.clock.advance(5000)
    assert rig.engine.finish(rig.now(), 1)
    assert rig.engine.on_turn == -1 and rig.engine.challenger_side() == 0
    rig.clock.advance(1000)
    rig.keys("A1")
    assert rig.engine.challenging and rig.flow.state == F.ENTRY
    assert rig.flow.challenger == 0
    rig.type_word("HAUS")
    rig.keys("#C#")
    assert rig.flow.state == F.VERDICT and not rig.engine.challenging
    assert rig.screen().startswith("ACCEPTABLE")
    records = list(rig.log.records())
    assert records[-1]["challenger"] == 0 and records[-1]["verdict"] == "acceptable"


def test_the_challenger_is_the_opponent_of_the_last_play_not_the_side_on_turn():
    rig = Rig("tso30")
    rig.play_a_move()                   # right played; left's clock runs
    assert rig.engine.on_turn == 0 and rig.engine.challenger_side() == 0
    rig.keys("A1")
    assert rig.flow.challenger == 0 and rig.engine.challenging

# Snapshot and restore for power-loss recovery: small, exact, paused, and
# refused when damaged.

from mpytest import raises
from clock_helpers import MIN, SEC, Table, game
from clock.engine import Engine, PHASE_ENDING, PHASE_OVER
from clock.presets import edit_preset, get_preset
from clock.snapshot import MAX_SIZE, SIZE


def restored(table):
    return Engine.restore(table.engine.snapshot(table.now()), table.preset, table.clock)


def figures(engine, t):
    out = []
    for side in (0, 1):
        engine.update(t)
        d = engine.display(side)
        out.append((bytes(d.text), d.remaining_ms, d.overtime_ms, d.penalty_points, d.on_turn,
                    d.window_s, d.window_open, d.hold, d.challenging, d.forfeit, d.game_over,
                    engine.used_ms(side, t)))
    return out


def test_snapshot_fits_in_256_bytes_and_twice_that_with_an_undo():
    table = game()
    assert len(table.engine.snapshot()) == SIZE <= 256
    table.engine.end_game(table.now())
    assert len(table.engine.snapshot()) == MAX_SIZE == 2 * SIZE + 1 <= 512


def test_the_referees_undo_survives_a_power_cut():
    from clock.corrections import undo, undoable

    table = game()
    table.wait(10 * SEC)
    table.press(0)
    table.wait(3 * SEC)
    table.engine.accept(table.now(), 1)
    table.wait(2 * SEC)
    copy = restored(table)
    assert undoable(copy) == "accept" and copy.accepted
    assert undo(copy, table.now())
    assert not copy.accepted and copy.display(1).window_s == 17
    assert copy.used_ms(1, table.now()) == 5 * SEC


def test_a_running_game_is_restored_exactly_and_paused():
    table = game()
    table.wait(3 * MIN + 7)
    table.press(0)
    table.wait(6 * SEC + 3)
    copy = restored(table)
    assert copy.paused and copy.display(1).paused and not copy.display(1).running
    assert copy.used_ms(0, table.now()) == 3 * MIN + 7 and copy.used_ms(1, table.now()) == 6 * SEC + 3
    assert copy.display(1).window_s == 14
    table.clock.advance(5 * MIN)  # power off: charged to nobody
    assert copy.resume(table.now())
    assert copy.on_turn == 1 and copy.display(1).running
    table.clock.advance(1 * SEC)
    assert copy.used_ms(1, table.now()) == 7 * SEC + 3
    copy.update(table.now())
    assert copy.display(1).window_s == 13


def test_a_restored_game_shows_the_same_as_the_paused_original():
    table = game()
    table.wait(31 * MIN + 5)
    table.press(0)
    table.wait(2 * SEC)
    table.engine.hold(table.now(), 1)
    table.engine.adjust(table.now(), 1, 30 * SEC)
    copy = restored(table)
    table.engine.pause(table.now())
    assert figures(copy, table.now()) == figures(table.engine, table.now())
    assert _game_part(copy.snapshot(table.now())) == _game_part(table.engine.snapshot(table.now()))


def _game_part(blob):
    # The blob without the game log's position (the original's pause added a record)
    # and without the CRC.
    import struct
    from clock.snapshot import BODY as _BODY

    at = struct.calcsize(_BODY[:_BODY.index("I", 12)])
    return blob[:at] + blob[at + 4:-4]


def test_challenge_and_end_phase_are_restored():
    table = game()
    table.press(0)
    table.engine.start_challenge(table.now(), 1)
    copy = restored(table)
    assert copy.challenging and not copy.paused
    outcome = copy.challenge_verdict(table.now(), True, 2)
    assert outcome.penalty_points == 20 and copy.display(1).running

    table = game()
    table.press(0)
    table.engine.finish(table.now(), 1)
    copy = restored(table)
    assert copy.phase == PHASE_ENDING and copy.paused
    copy.resume(table.now())
    copy.update(table.clock.advance(20 * SEC))
    assert copy.phase == PHASE_OVER


def test_a_finished_or_unstarted_game_is_not_paused_by_restore():
    table = Table()
    assert not restored(table).paused
    table = game()
    table.wait(36 * MIN)
    copy = restored(table)
    assert copy.phase == PHASE_OVER and copy.forfeit_side == 0 and not copy.paused
    assert copy.display(0).forfeit


def test_every_damaged_byte_is_refused():
    table = game()
    table.wait(5 * SEC)
    table.press(0)
    table.engine.accept(table.now(), 1)     # with an undo slot
    blob = table.engine.snapshot()
    assert len(blob) == MAX_SIZE
    for index in range(len(blob)):
        for flip in (1, 0x80):
            bad = bytearray(blob)
            bad[index] ^= flip
            raises(ValueError, Engine.restore, bytes(bad), table.preset, table.clock)
    raises(ValueError, Engine.restore, blob[:-1], table.preset, table.clock)
    raises(ValueError, Engine.restore, blob + b"\x00", table.preset, table.clock)
    raises(ValueError, Engine.restore, b"", table.preset, table.clock)


def test_a_snapshot_of_another_preset_is_refused():
    table = game()
    blob = table.engine.snapshot()
    other = edit_preset(get_preset("tso30"), {"challenge_penalty_points": 5})
    error = raises(ValueError, Engine.restore, blob, other, table.clock)
    assert "preset" in str(error)
    raises(ValueError, Engine.restore, blob, get_preset("tso25"), table.clock)


def test_an_unknown_version_is_refused():
    import struct
    from binascii import crc32

    table = game()
    body = bytearray(table.engine.snapshot()[:-4])
    body[0] = 99
    blob = bytes(body) + struct.pack("<I", crc32(bytes(body)) & 0xFFFFFFFF)
    error = raises(ValueError, Engine.restore, blob, table.preset, table.clock)
    assert "version" in str(error)


def test_the_snapshot_carries_its_games_preset_and_log_position():
    table = game()
    table.engine.confirm_reset(table.engine.request_reset(),
                               edit_preset(get_preset("custom"), {"initial_ms": 95000,
                                                                  "name": "Złoty puchar"}))
    table.press(1)
    table.wait(3 * SEC)
    table.press(0)
    blob = table.engine.snapshot()
    copy = Engine.restore(blob, None, table.clock)       # no preset given: the game's own
    assert copy.preset == table.engine.preset and copy.preset["name"] == "Złoty puchar"
    assert copy.used_ms(0, table.now()) == 3 * SEC
    # the game log goes on numbering where the original stopped
    assert copy.log.next_seq() == table.engine.log.next_seq() > 0
    copy.resume(table.now())
    assert copy.log.last()[0] == table.engine.log.next_seq()


def test_the_snapshot_written_in_place_is_the_snapshot():
    # The device saves by writing the snapshot straight into the state record's buffer
    # (Engine.snapshot with a buffer): the same bytes as snapshot(), with and without an undo slot.
    table = game()
    table.wait(10 * SEC)
    table.press(0)
    for _ in range(2):
        t = table.now()
        size = table.engine.snapshot_size()
        buf = bytearray(b"\xaa" * (size + 20))
        assert table.engine.snapshot(t, buf, 7) == size
        assert bytes(buf[7:7 + size]) == table.engine.snapshot(t)
        assert buf[:7] == b"\xaa" * 7 and buf[7 + size:] == b"\xaa" * 13
        table.engine.end_game(table.now())         # now with the referee's undo slot
    assert size == MAX_SIZE


def test_the_turns_finished_survive_a_power_cut():
    # the challenge log names the turn of a challenge: after a cut the count goes on
    table = game()
    for side in (0, 1, 0, 1, 0):
        table.wait(2 * SEC)
        table.press(side)
    assert table.engine.log.turns == 5
    copy = restored(table)
    assert copy.log.turns == 5
    copy.resume(table.now())
    copy.press(table.clock.advance(SEC), 1)
    assert copy.log.turns == 6


def _as_version_3(blob):
    # What the firmware before version 4 wrote: the same body without the turns.
    import struct
    from binascii import crc32
    from clock.snapshot import BODY_SIZE

    data = blob[:-4]
    undo = data[BODY_SIZE:]
    if undo:
        undo = undo[:1] + _as_version_3(undo[1:])
    out = b"\x03" + data[1:BODY_SIZE - 2] + undo
    return out + struct.pack("<I", crc32(out) & 0xFFFFFFFF)


def test_a_version_3_snapshot_still_loads_with_its_undo_slot():
    from clock.corrections import undo, undoable

    table = game()
    table.wait(10 * SEC)
    table.press(0)
    table.wait(3 * SEC)
    table.engine.accept(table.now(), 1)
    table.wait(2 * SEC)
    blob = table.engine.snapshot(table.now())
    old = _as_version_3(blob)
    assert len(old) == len(blob) - 4
    copy = Engine.restore(old, table.preset, table.clock)
    assert figures(copy, table.now()) == figures(restored(table), table.now())
    assert copy.log.turns == 0                      # not known to version 3
    # saved again (version 4, the old slot inside), it loads, and the undo works
    again = Engine.restore(copy.snapshot(table.now()), table.preset, table.clock)
    assert undoable(again) == "accept" and undo(again, table.now())
    assert not again.accepted and again.display(1).window_s == 17

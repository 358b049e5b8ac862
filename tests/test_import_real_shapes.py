"""Shapes seen in real public exports that our own fixtures did not have.

Each test writes a small invented export in the shape of a real one (docs/importers.md,
"Real exports each shape was checked against", names the public file) and checks what
``kifu import`` makes of it: every roll read right, none invented, nothing unread left
unreported, no player made up.
"""

from __future__ import annotations

from pathlib import Path

from kifu.events import importers, logfile
from kifu.events.base import RandomRolled


def _import(tmp: Path, name: str, text: str, **kw):
    src = tmp / name
    src.write_bytes(text.encode("utf-8"))
    out = tmp / (name + ".jsonl")
    report = importers.import_file(src, out, **kw)
    return report, logfile.load(out).events


# A Cockatrice game log copied with timestamps, four players: game lines with a colon after
# several words (creates token, peeks at a face-down card) are the game's, not chat.
COCKATRICE_TOKENS = """\
[20:01:02] Aoi has loaded a deck with 1 sideboard cards (abcd1234).
[20:01:05] Ren has joined the game.
[20:01:09] Ren is ready to start the game.
[20:01:10] The game has started.

[20:01:10] Aoi's turn.

[20:01:11] Aoi rolls a 7 with a 20-sided die.
[20:01:12] Ren rolls a 19 with a 20-sided die.
[20:02:30] Aoi creates token: Goblin Token (1/1).
[20:02:31] Ren creates token: Treasure Token.
[20:02:40] Ren peeks at face down card #2: Island.
[20:02:45] Aoi sets annotation of Goblin Token to "Owner: Ren".
[20:03:00] \ufffc Ren: nice roll
[20:03:02] Ren rolls a 6-sided dice 3 times: 2, 6, 1.
"""


def test_cockatrice_game_lines_with_a_colon_are_not_chat(tmp_path: Path) -> None:
    report, events = _import(tmp_path, "cockatrice.log", COCKATRICE_TOKENS)
    assert report.format == "cockatrice"
    assert [(p.id, p.name) for p in events[0].players] == [("p1", "Aoi"), ("p2", "Ren")]
    rolls = [(e.by, e.sides, e.values) for e in events if isinstance(e, RandomRolled)]
    assert rolls == [("p1", 20, [7]), ("p2", 20, [19]), ("p2", 6, [2, 6, 1])]
    said = [(e.by, e.text) for e in events if type(e).__name__ == "Note" and e.by not in (None, "system")]
    assert said == [("p2", "nice roll")]
    assert report.unreadable == []


def _classic(*messages: tuple[str, str]) -> str:
    """A classic CCFOLIA page, laid out as the client writes it (one <p> of three spans per message)."""
    body = "".join(
        f'\n<p style="color:#888888;">\n  <span> [main]</span>\n  <span>{who}</span> :\n'
        f"  <span>\n    {text}\n  </span>\n</p>\n"
        for who, text in messages
    )
    return (
        '<!DOCTYPE html>\n<html lang="ja">\n  <head>\n    <meta charset="UTF-8" />\n'
        f"    <title>ccfolia - logs</title>\n  </head>\n  <body>\n{body}\n  </body>\n</html>\n"
    )


def test_ccfolia_classic_hidden_roll_is_the_placeholder_not_the_typed_command(tmp_path: Path) -> None:
    page = _classic(
        (
            "ミオ",
            "CC&lt;=(12*5) 【STR × 5】 (1D100&lt;=60) ボーナス・ペナルティダイス[0] ＞ 5 ＞ 5 ＞ イクストリーム成功",
        ),
        ("狂信者", "sCC&lt;=(13)*5 【CON × 5】"),  # BCDice did not take it ...
        ("狂信者", "シークレットダイス ???"),  # ... so it was typed again: the one hidden roll
        ("ミオ", "シークレットダイスって何ですか？"),  # chat about it: no roll
        ("ミオ", "1D100  (1D100) ＞ 40"),
    )
    report, events = _import(tmp_path, "room.html", page)
    rolls = [(e.by, e.sides, e.values, e.secret) for e in events if isinstance(e, RandomRolled)]
    assert rolls == [("p1", 10, [10, 5], False), ("p2", 0, [], True), ("p1", 100, [40], False)]
    assert report.hidden == 1
    untaken = next(e for e in events if e.src and e.src.text.startswith("sCC"))
    assert (type(untaken).__name__, untaken.secret) == ("Note", False)
    assert [u.loc for u in report.unreadable] == [untaken.src.loc]


def _fly_room(*pairs: tuple[str, str, str]) -> str:
    """A Udonarium_fly room log in the shape of synchro4351/UdonariumLogExtractor _tmp_fly/fly_chat.xml:
    each roll is the player's typed line (tagged with the room's system) and fly's ``🎲…`` answer."""
    rows, t = [], 1_766_800_000_000
    for peer, name, typed in pairs:
        command, answer = typed.split(" | ")
        rows.append(
            f'<chat toName="" lastUpdate="0" from="{peer}" name="{name}" timestamp="{t}" '
            f'tag="ChaosFlare noface" color="#326c59">{command}</chat>'
        )
        rows.append(
            f'<chat toName="" lastUpdate="0" originFrom="{peer}" from="System-BCDice" timestamp="{t + 1}" '
            f'tag="system" name="ChaosFlare : {name}" color="#326c59">{answer}</chat>'
        )
        t += 5000
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<chat-tab-list><chat-tab name="メイン">\n'
        + "\n".join(rows)
        + "\n</chat-tab></chat-tab-list>\n"
    )


def test_udonarium_fly_chaosflare_checks_are_read_and_the_rest_reported(tmp_path: Path) -> None:
    """ChaosFlare's CF with a modifier is printed like the CF BCDice's tests show; a CF whose answer goes
    on in a way no test shows (a target and a difference, or a critical) is reported, never guessed."""
    room = _fly_room(
        ("peerA", "ドミニカ", "CF+3 | 🎲CF+3 → 4[1,3] → 7"),
        ("peerA", "ドミニカ", "CF+2+2　登場判定 | 🎲CF+4 → 6[5,1] → 10"),  # BCDice added the modifiers up
        ("peerB", "バトー", "CF+12>=21 命中 | 🎲CF+12>=21 → 5[2,3] → 17 → 差分値 -4"),
        ("peerB", "バトー", "5D6*10 | 🎲5D6*10 → 23[2,5,5,5,6]*10 → 230"),
    )
    report, events = _import(tmp_path, "fly_chat.xml", room)
    rolls = [(e.by, e.sides, e.values) for e in events if isinstance(e, RandomRolled)]
    assert rolls == [("p1", 6, [1, 3]), ("p1", 6, [5, 1]), ("p2", 6, [2, 5, 5, 5, 6])]
    unread = [e for e in events if getattr(e, "unread", None)]
    assert [e.src.text for e in unread] == ["🎲CF+12>=21 → 5[2,3] → 17 → 差分値 -4"]
    assert report.unread_results == 1

"""What kifu says of an Arena Player.log that holds no match, or a winner it cannot place (issue 28, item 5).

The logs are invented in the shapes Arena writes (``[UnityCrossThreadLogger]==> EventJoin {…}``,
``LogBusinessEvents`` with a ``DraftId``, ``Draft.Notify``, ``EventPlayerDraftMakePick``, the GRE
payloads): the lines 17lands' draft tool reads, written here with our own values.
"""

from __future__ import annotations

import json
from pathlib import Path

from kifu.events import logfile

LOGGER = "[UnityCrossThreadLogger]"


def _request(name: str, payload: dict) -> str:
    return f"{LOGGER}==> {name} " + json.dumps({"id": "r-1", "request": json.dumps(payload)})


def _draft(picks: int) -> list[str]:
    lines = [_request("EventJoin", {"EventName": "PremierDraft_ZZZ_20260101", "EntryCurrencyType": "Gold"})]
    for pick in range(1, picks + 1):
        cards = list(range(90000, 90014 - pick))
        lines.append(
            _request(
                "LogBusinessEvents",
                {"DraftId": "d-1", "EventId": "PremierDraft_ZZZ_20260101", "PackNumber": 1, "PickNumber": pick},
            )
        )
        lines.append(
            _request("EventPlayerDraftMakePick", {"DraftId": "d-1", "GrpIds": [cards[0]], "Pack": 1, "Pick": pick})
        )
        notify = {"draftId": "d-1", "SelfPick": pick + 1, "SelfPack": 1, "PackCards": ",".join(map(str, cards[1:]))}
        lines.append(f"{LOGGER}Draft.Notify " + json.dumps(notify))
    return lines


def _gre(*messages: dict) -> list[str]:
    return [
        f"{LOGGER}3/1/2026 8:00:00 PM: Match to U1: GreToClientEvent",
        json.dumps({"greToClientEvent": {"greToClientMessages": list(messages)}}),
    ]


def _room(config: dict, final: dict | None = None) -> list[str]:
    info: dict = {"gameRoomConfig": config}
    if final is not None:
        info["finalMatchResult"] = final
    return [
        f"{LOGGER}3/1/2026 8:30:00 PM: Match to U1: MatchGameRoomStateChangedEvent",
        json.dumps({"matchGameRoomStateChangedEvent": {"gameRoomInfo": info}}),
    ]


WON_BY_TEAM_2 = {
    "resultList": [
        {
            "scope": "MatchScope_Match",
            "result": "ResultType_WinLoss",
            "winningTeamId": 2,
            "reason": "ResultReason_Concede",
        }
    ]
}
DIE = {
    "type": "GREMessageType_DieRollResultsResp",
    "msgId": 3,
    "dieRollResultsResp": {
        "playerDieRolls": [{"systemSeatId": 1, "rollValue": 9}, {"systemSeatId": 2, "rollValue": 15}]
    },
}
STATE = {
    "type": "GREMessageType_GameStateMessage",
    "gameStateMessage": {
        "type": "GameStateType_Full",
        "gameStateId": 2,
        "players": [
            {"systemSeatNumber": 1, "teamId": 1, "lifeTotal": 20},
            {"systemSeatNumber": 2, "teamId": 2, "lifeTotal": 20},
        ],
    },
}


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "Player.log"
    path.write_text("Initialize engine version: 2026.1 (invented)\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_log_with_a_draft_and_no_match_says_so(tmp_path: Path, kifu) -> None:
    log = _write(tmp_path, _draft(3))
    for lang, words in (
        ("en", ("a draft (3 picks; PremierDraft_ZZZ_20260101) and no match", "Player-prev.log")),
        ("ja", ("ドラフト (3 ピック", "対戦がありません")),
    ):
        run = kifu("import", log, "-o", tmp_path / "m.jsonl", "--lang", lang)
        assert run.code == 2
        assert all(w in run.err for w in words), run.err
        assert "Detailed Logs" not in run.err or lang == "ja"
        assert len(run.err.strip().splitlines()) == 1
    assert not (tmp_path / "m.jsonl").exists()


def test_a_log_of_requests_and_no_match_says_detailed_logs_are_on(tmp_path: Path, kifu) -> None:
    log = _write(tmp_path, [_request("StartHook", {"x": 1}), _request("Deck_GetDeckSummariesV2", {})])
    run = kifu("import", log, "-o", tmp_path / "m.jsonl", "--from", "arena")
    assert run.code == 2
    assert "holds no match: Detailed Logs are on (2 client requests logged)" in run.err, run.err


def test_a_log_with_no_detailed_lines_still_asks_for_detailed_logs(tmp_path: Path, kifu) -> None:
    log = _write(tmp_path, ["[UnityCrossThreadLogger]Client.SceneChange"])
    run = kifu("import", log, "-o", tmp_path / "m.jsonl", "--from", "arena")
    assert run.code == 2 and "is Detailed Logs enabled?" in run.err


def test_a_draft_before_the_match_is_named_in_the_report(tmp_path: Path, kifu) -> None:
    seats = [
        {"userId": "U1", "playerName": "Aiko", "systemSeatId": 1, "teamId": 1},
        {"userId": "U2", "playerName": "Ren", "systemSeatId": 2, "teamId": 2},
    ]
    lines = (
        _draft(2)
        + _room({"matchId": "m-1", "reservedPlayers": seats})
        + _gre(DIE)
        + _room({"matchId": "m-1", "reservedPlayers": seats}, WON_BY_TEAM_2)
    )
    run = kifu("import", _write(tmp_path, lines), "-o", tmp_path / "m.jsonl")
    assert run.code == 0, run.err
    assert "the log also holds a draft (2 picks, PremierDraft_ZZZ_20260101): not imported" in run.err
    end = logfile.load(tmp_path / "m.jsonl").events[-1]
    assert end.winner == "p2"


def test_a_winner_named_without_a_seat_list_is_placed_by_the_game_state_and_said(tmp_path: Path, kifu) -> None:
    lines = _gre(DIE) + _gre(STATE) + _room({"matchId": "m-2"}, WON_BY_TEAM_2)
    run = kifu("import", _write(tmp_path, lines), "-o", tmp_path / "m.jsonl")
    assert run.code == 0, run.err
    log = logfile.load(tmp_path / "m.jsonl")
    assert [(p.id, p.name) for p in log.start.players] == [("p1", "seat1"), ("p2", "seat2")]
    assert (
        "the log names no players (no seat list, reservedPlayers): they are named by their seats, seat1, seat2"
        in run.err
    )
    assert log.events[-1].winner == "p2"
    assert "players: -" not in run.err


def test_a_winner_no_seat_can_be_tied_to_is_said_not_dropped(tmp_path: Path, kifu) -> None:
    lines = _gre(DIE) + _room({"matchId": "m-3"}, WON_BY_TEAM_2)  # no game state: team 2 is nobody's for sure
    run = kifu("import", _write(tmp_path, lines), "-o", tmp_path / "m.jsonl")
    assert run.code == 0, run.err
    assert (
        "the match result names team 2 the winner, but no seat list says whose team it is: match.end has no winner"
        in run.err
    )
    end = logfile.load(tmp_path / "m.jsonl").events[-1]
    assert type(end).__name__ == "MatchEnded" and end.winner is None

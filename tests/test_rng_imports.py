"""Verifiable tosses through the chats that carry them: tokens become rng events, the audit judges them (issue 18).

The exports of ``fixtures/imports/rng/`` (written by ``fixtures/imports/make_rng.py``)
are one honest chat and one chat per mistake in each carrier; each must import
to its committed log and audit to exactly the one finding ``expected.json`` names.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import FIXTURES
from kifu.auditor import registry
from kifu.events import importers, logfile, rng
from kifu.events.importers.common import Message, Source
from kifu.events import table

RNG = FIXTURES / "imports" / "rng"
EXPECTED = json.loads((RNG / "expected.json").read_text(encoding="utf-8"))
SECRET = bytes(range(32))
COMMIT = rng.commit(SECRET)
NONCE = rng.Nonce(id=COMMIT.id, text="neko1234")
REVEAL = rng.reveal(SECRET, NONCE)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_chat_imports_to_its_log_and_audits_to_its_one_finding(name: str, tmp_path: Path) -> None:
    """Imported as the page says (v2 chats: --match and the players named, so the spectator stays one)."""
    want = EXPECTED[name]
    out = tmp_path / "m.jsonl"
    importers.import_file(RNG / name, out, match=want.get("match"), players=[tuple(p) for p in want.get("players", [])])
    assert out.read_bytes() == (RNG / f"{name}.kifu.jsonl").read_bytes()
    findings = registry.audit(logfile.load(out).events, strict=True)
    got = sorted((f.code, f.seq) for f in findings if f.severity != "info")
    assert got == sorted((w["code"], w["seq"]) for w in want["findings"]), [
        (f.code, f.seq, f.message.en) for f in findings
    ]
    info = sorted((f.code, f.seq) for f in findings if f.severity == "info")
    assert info == sorted((w["code"], w["seq"]) for w in want.get("info", []))


def test_every_carrier_has_every_variant() -> None:
    carriers = {name.split("-", 1)[0] for name in EXPECTED}
    variants = {name.split("-", 1)[1].rsplit(".", 1)[0] for name in EXPECTED}
    assert carriers == {"ccfolia", "udonarium", "discord"}
    assert {
        "honest",
        "changed-outcome",
        "reveal-mismatch",
        "nonce-before-commit",
        "nonce-by-roller",
        "reused-commitment",
        "abandoned",
        "kept-back",
        "v2-honest",
        "v2-spectator-nonce",
        "v2-replayed",
        "v2-retossed",
        "v2-kept-back",
        "v2-weak-nonce",
        "v2-roller-nonce",
        "v2-text-before-arrow",
    } <= variants
    assert len(EXPECTED) == len(carriers) * len(variants)


def test_a_v2_reveal_with_no_arrow_records_the_outcomes_its_roll_fixes() -> None:
    log = logfile.load(RNG / "ccfolia-v2-honest.html.kifu.jsonl")
    die = [e for e in log.events if type(e).__struct_config__.tag == "random"][-1]
    assert (die.sides, die.purpose, die.rng.index) == (6, "init-distance", 0)
    reveal = [e for e in log.events if type(e).__struct_config__.tag == "rng.reveal"][-1]
    token = rng.Reveal(id=reveal.id, secret=reveal.secret, nonce=reveal.nonce, version=2)
    assert die.values == [token.outcome(0, 6)]


def test_a_spectators_nonce_is_recorded_by_its_speaker() -> None:
    log = logfile.load(RNG / "udonarium-v2-spectator-nonce.xml.kifu.jsonl")
    (spoiler,) = [e for e in log.events if type(e).__struct_config__.tag == "rng.nonce" and e.by is None]
    assert spoiler.speaker == "ハル"


def _build(rows: list[tuple[str, str]], game: str = "generic", map_text: str | None = None):
    src = Source(
        format="test",
        file="chat.txt",
        messages=[Message(loc=f"line {i}", text=text, speaker=who) for i, (who, text) in enumerate(rows, 1)],
    )
    codec = table.codec(game)
    maps = importers.load_mapping(map_text, "map.toml", codec) if map_text else importers.mapping.EMPTY
    return importers.build(src, b"chat", codec, game, maps, players=[("a", "Aoi"), ("b", "Ren")])


def test_tokens_become_events_with_the_message_as_their_source() -> None:
    imported = _build(
        [
            ("Aoi", f"コイン行きます {COMMIT.format()}"),
            ("Ren", f"@Aoi {NONCE.format()}"),
            ("Aoi", f"{REVEAL.format()} → {'表' if REVEAL.outcome(0, 2) == 1 else '裏'}"),
        ]
    )
    types = [e["type"] for e in imported.events]
    assert types == ["rng.commit", "rng.nonce", "rng.reveal", "random"]
    commit, nonce, reveal, coin = imported.events
    assert (commit["by"], commit["id"], commit["digest"]) == ("a", COMMIT.id, COMMIT.digest)
    assert commit["src"]["text"] == f"コイン行きます {COMMIT.format()}"
    assert (nonce["by"], nonce["nonce"]) == ("b", "neko1234")
    assert (reveal["secret"], reveal["nonce"]) == (SECRET.hex(), "neko1234")
    assert coin["values"] == [REVEAL.outcome(0, 2)] and coin["rng"] == {"commit": COMMIT.id}
    assert coin["src"] == reveal["src"]
    assert imported.report.rng == 3 and imported.report.random == 1


def test_a_quote_of_another_speakers_token_makes_no_event() -> None:
    imported = _build(
        [
            ("Aoi", COMMIT.format()),
            ("Ren", f"> {COMMIT.format()}\n{NONCE.format()}"),
            ("Aoi", f"{NONCE.format()} をありがとう {REVEAL.format()}"),
        ]
    )
    assert [(e["type"], e["by"]) for e in imported.events] == [
        ("rng.commit", "a"),
        ("rng.nonce", "b"),
        ("rng.reveal", "a"),
    ]
    assert imported.report.rng_quotes == 2


def test_the_same_speaker_posting_a_token_again_is_recorded_for_the_audit() -> None:
    imported = _build(
        [("Aoi", COMMIT.format()), ("Ren", NONCE.format()), ("Aoi", REVEAL.format()), ("Aoi", COMMIT.format())]
    )
    assert [e["type"] for e in imported.events] == ["rng.commit", "rng.nonce", "rng.reveal", "rng.commit"]


def test_a_token_changed_on_the_way_is_recorded_as_it_reads_and_reported() -> None:
    changed = REVEAL.format().replace(SECRET.hex()[:6], "ffffff")
    imported = _build([("Aoi", COMMIT.format()), ("Ren", NONCE.format()), ("Aoi", changed)])
    reveal = imported.events[-1]
    assert reveal["type"] == "rng.reveal" and reveal["secret"].startswith("ffffff")
    assert [r.what.split(": ", 1)[1] for r in imported.report.refused] == [
        "check digits do not match: the token was changed on the way"
    ]


def test_a_token_too_broken_to_read_stays_a_note_and_is_reported() -> None:
    imported = _build([("Aoi", COMMIT.format()[:40])])
    assert [e["type"] for e in imported.events] == ["note"]
    assert "digest" in imported.report.unreadable[0].what


GG_MAP = """
game = "gunandgun"
[[command]]
name = "act"
args = ["act", "card"]
event = { type = "gg.play", act = "{act}", player = "{by}", card = "{card}", kind = "action" }

# A verified toss (docs/randomness.md): one gg.toss per posted coin, tied to the stream.
[[roll]]
kind = "coin"
each = "values"
translate = { item = { "1" = "self", "2" = "opponent" } }
event = { type = "gg.toss", act = "{act.act}", player = "{by}", facing = "{item}", rng = "{rng|}" }
"""


def test_a_mapping_ties_each_posted_coin_to_a_game_toss_with_its_index() -> None:
    faces = REVEAL.outcomes([2] * 6)
    n = faces.index(2) + 1 if 2 in faces else len(faces)
    words = " ".join("表" if f == 1 else "裏" for f in faces[:n])
    imported = _build(
        [
            ("Aoi", "!act a1 計略"),
            ("Aoi", COMMIT.format()),
            ("Ren", NONCE.format()),
            ("Aoi", f"{REVEAL.format()} → {words}"),
        ],
        game="gunandgun",
        map_text=GG_MAP,
    )
    tosses = [e for e in imported.events if e["type"] == "gg.toss"]
    assert [t["rng"].get("index", 0) for t in tosses] == list(range(n))
    assert [t["facing"] for t in tosses] == ["self" if f == 1 else "opponent" for f in faces[:n]]
    assert all(t["rng"]["commit"] == COMMIT.id for t in tosses)


def test_text_that_is_no_token_imports_as_before() -> None:
    imported = _build([("Aoi", "kifu: a great tool → 表"), ("Ren", "見て: https://example.com/kifu:c1")])
    assert [e["type"] for e in imported.events] == ["note", "note"]
    assert imported.report.rng == 0


def _doc_chat(heading: str) -> list[tuple[str, str]]:
    """The chat lines of one example of docs/randomness.md as (speaker, text)."""
    text = (FIXTURES.parent / "docs" / "randomness.md").read_text(encoding="utf-8")
    block = text.split(heading, 1)[1].split("```", 2)[1]
    rows = []
    for line in block.strip().splitlines():
        line = line.removeprefix("[main] ")
        who, _, said = line.partition(" : ") if " : " in line else line.partition(": ")
        rows.append((who.strip(), said))
    return rows


@pytest.mark.parametrize(
    "heading,players",
    [("### In a CCFOLIA room", [("a", "ミナト"), ("b", "ユキ")]), ("### On Discord", [("a", "Aoi"), ("b", "Ren")])],
)
def test_the_documented_chats_import_to_a_clean_verifiable_toss(heading: str, players, tmp_path: Path) -> None:
    rows = _doc_chat(heading)
    src = Source(
        format="test",
        file="doc.txt",
        messages=[Message(loc=f"line {i}", text=t, speaker=w) for i, (w, t) in enumerate(rows, 1)],
    )
    imported = importers.build(src, b"doc", table.codec("generic"), match="R1-T3", players=players)
    out = tmp_path / "doc.jsonl"
    importers.write(out, imported)
    events = logfile.load(out).events
    assert registry.audit(events) == []
    if "CCFOLIA" in heading:  # as the page says: ハル is a speaker, no player
        tags = [type(e).__struct_config__.tag for e in events[1:]]
        assert tags == ["note", "rng.commit", "note", "rng.nonce", "rng.reveal", "random", "note"]
        assert (events[3].by, events[3].speaker) == (None, "ハル") and events[6].values == [1]
    from kifu.auditor.tally import tally

    t = tally(events)
    assert t.outcomes == t.verifiable > 0


GAMES = Path(__file__).resolve().parent.parent / "kifu" / "games"


@pytest.mark.parametrize(
    "game,before,roll,tag",
    [
        ("gunandgun", ["!act a1 計略"], "--roll coin --until 2", "gg.toss"),
        ("mtg", ['!flip "Krark\'s Thumb" 2'], "--roll 2coins", "mtg.coin"),
        ("worldtrigger", [], "--roll d6", "wt.init.roll"),
    ],
)
def test_the_shipped_mappings_tie_posted_outcomes_to_the_games_tosses(game, before, roll, tag) -> None:
    """kifu/games/<game>/mapping.toml: the outcomes a reveal posts become the game's own events, each naming
    its outcome of the commitment; the KIFU-RNG rules find nothing to say."""
    sides = {"--roll coin --until 2": None, "--roll 2coins": [2, 2], "--roll d6": [6]}[roll]
    drawn = rng.draw(REVEAL, [2], until=2) if sides is None else rng.draw(REVEAL, sides)
    rows = [("Aoi", text) for text in before] + [
        ("Aoi", COMMIT.format()),
        ("Ren", NONCE.format()),
        ("Aoi", f"{REVEAL.format()} {rng.format_claims(drawn)}"),
    ]
    imported = _build(rows, game=game, map_text=(GAMES / game / "mapping.toml").read_text(encoding="utf-8"))
    tied = [e for e in imported.events if e["type"] == tag]
    assert [e["rng"].get("index", 0) for e in tied] == list(range(len(drawn)))
    assert all(e["rng"]["commit"] == COMMIT.id for e in tied)
    decoded = [
        table.codec(game).convert({**e, "seq": i, "prev": None})
        for i, e in enumerate([{**imported.start, "type": "match.start", "format": "kifu/1"}, *imported.events], 1)
    ]
    findings = registry.audit(decoded)
    assert not [f for f in findings if f.code.startswith("KIFU-RNG")], [(f.code, f.message.en) for f in findings]


def test_a_verified_roll_entry_leaves_a_dice_bots_roll_alone() -> None:
    imported = _build(
        [("Aoi", "1D6 (1D6) ＞ 4"), ("Aoi", "2D6 (2D6) ＞ 7[3,4] ＞ 7")],
        game="worldtrigger",
        map_text=(GAMES / "worldtrigger" / "mapping.toml").read_text(encoding="utf-8"),
    )
    assert [e["type"] for e in imported.events] == ["wt.init.roll", "random"]
    assert "rng" not in imported.events[0]


@pytest.mark.parametrize(
    "game,before,roll,tag",
    [
        ("gunandgun", ["!act a1 計略"], "coin-until-2", "gg.toss"),
        ("mtg", ['!flip "Krark\'s Thumb" 2'], "2coins", "mtg.coin"),
        ("worldtrigger", [], "d6", "wt.init.roll"),
    ],
)
@pytest.mark.parametrize("arrow", [True, False])
def test_the_shipped_mappings_tie_a_v2_tosss_outcomes_to_the_games_tosses(game, before, roll, tag, arrow) -> None:
    """A v2 toss in a game's chat: posted or not, the outcomes its roll draws become the game's own events, and the
    audit (the match bound as the toss says) finds nothing to say of the toss."""
    c = rng.commit(SECRET, rng.Binding(match="r1-t3", purpose="the-toss", roll=roll))
    n = rng.Nonce(id=c.id, text="7d2mq9xk4fa8wz3np6rt", version=2)
    r = rng.reveal(SECRET, [n], 2)
    drawn = c.binding.dice.draw(r.stream())
    said = f"{r.format()} {rng.format_claims(drawn)}" if arrow else r.format()
    rows = [("Aoi", text) for text in before] + [("Aoi", c.format()), ("Ren", n.format()), ("Aoi", said)]
    src = Source(
        format="test",
        file="chat.txt",
        messages=[Message(loc=f"line {i}", text=text, speaker=who) for i, (who, text) in enumerate(rows, 1)],
    )
    codec = table.codec(game)
    maps = importers.load_mapping((GAMES / game / "mapping.toml").read_text(encoding="utf-8"), "map.toml", codec)
    imported = importers.build(src, b"chat", codec, game, maps, match="R1-T3", players=[("a", "Aoi"), ("b", "Ren")])
    tied = [e for e in imported.events if e["type"] == tag]
    assert [e["rng"].get("index", 0) for e in tied] == list(range(len(drawn)))
    decoded = [
        codec.convert({**e, "seq": i, "prev": None})
        for i, e in enumerate([{**imported.start, "type": "match.start", "format": "kifu/1"}, *imported.events], 1)
    ]
    findings = registry.audit(decoded)
    assert not [f for f in findings if f.code.startswith("KIFU-RNG")], [(f.code, f.message.en) for f in findings]

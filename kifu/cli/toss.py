"""Verifiable coin tosses and die rolls over a chat: ``kifu toss commit|nonce|reveal|check`` (docs/randomness.md).

Each command prints the line to post first, on its own line, so that it can be
copied or piped as it is; what it means follows. A toss takes three chat posts
(commit, nonce, reveal) and two commands a party: the roller ``commit`` and
``reveal``, the opponent ``nonce`` and ``check``. ``check`` judges a pasted chat
or an export with the audit's own analysis (``kifu.auditor.rng.analyse``): who
may post what, which nonce binds, and every outcome each reveal fixes.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from kifu.events import rng
from kifu.events.base import KifuError
from kifu.events.i18n import Msg

from .common import echo, DataFormat, FormatOpt, Lang, LangOpt, fail, lang_of, msg, print_json, print_jsonl, print_rows

app = typer.Typer()
toss_app = typer.Typer(
    no_args_is_help=True,
    help="Verifiable coin tosses and die rolls over a chat: commit, nonce, reveal, check (docs/randomness.md).",
)
app.add_typer(toss_app, name="toss", rich_help_panel="Verifiable tosses")


class LineFormat(str, Enum):
    text = "text"
    json = "json"
    jsonl = "jsonl"


LineFormatOpt = Annotated[
    LineFormat,
    typer.Option(
        "--format", "-f", help="text (the line to post, then what it means), json (one object) or jsonl (one line)."
    ),
]
StoreOpt = Annotated[
    Path | None,
    typer.Option(
        "--store",
        show_default=False,
        help="The secret store (default: $KIFU_HOME/secrets.jsonl, else ~/.local/share/kifu/secrets.jsonl).",
    ),
]
RollOpt = Annotated[
    list[str] | None,
    typer.Option("--roll", help="What the toss draws, in order: coin, 3coins, d6, 2d6 …; repeat."),
]
UntilOpt = Annotated[
    int | None,
    typer.Option(
        "--until",
        help="Roll the one --roll die again until this face "
        "(included): ガンナガン's coins until one faces the opponent "
        "(--roll coin --until 2).",
    ),
]

_SPEC = re.compile(r"^(\d*)(?:d(\d+)|coins?)$")


def roll_sides(specs: list[str] | None, lang: Lang | None) -> list[int]:
    """The sides of each outcome a ``--roll`` list draws: ``coin`` is 2, ``3d6`` three 6s."""
    out: list[int] = []
    for spec in specs or []:
        m = _SPEC.match(unicodedata.normalize("NFKC", spec).strip().lower())
        count, sides = (int(m.group(1) or 1), int(m.group(2) or 2)) if m else (0, 0)
        if not m or not 1 <= count <= 1000 or not 2 <= sides <= rng.MAX_SIDES:
            fail(msg("toss_bad_roll", lang, spec=spec))
        out += [sides] * count
    return out


def _roll(specs: list[str] | None, until: int | None, lang: Lang | None, default: list[int] | None) -> rng.Roll | None:
    """The roll ``--roll``/``--until`` ask for (``default`` sides when none is given; None: no roll)."""
    sides = roll_sides(specs, lang) or default or []
    if until is not None and not roll_sides(specs, lang):
        fail(msg("toss_until_needs_roll", lang))
    if not sides:
        return None
    try:
        return rng.Roll.of(sides, until)
    except rng.RngError:
        fail(msg("toss_until_needs_roll", lang))
    raise AssertionError("fail exits")  # pragma: no cover


def _print(fmt: LineFormat, value: Any) -> None:
    """A command's object as one JSON document (json) or one JSON line (jsonl)."""
    (print_jsonl if fmt is LineFormat.jsonl else print_json)(value)


def commitment_id(text: str) -> str:
    """An id as typed, or the id a pasted commit, nonce or reveal message names."""
    found = rng.find_tokens(text)
    if found:
        ids = {t.id for t in found}
        if len(ids) > 1:
            raise rng.RngError(Msg("rng.nonces_ids", ids=", ".join(sorted(ids))), field="id")
        return ids.pop()
    return rng.normalise_id(text)


def _warn(lang: Lang | None):
    """Reports a damaged line of the secret store (file, line, why): it is skipped, the rest stays usable."""

    def warn(err: KifuError) -> None:
        echo(f"kifu: warning: {err.render(lang_of(lang).value)}", err=True)

    return warn


def weak_warning(nonce: str, lang: Lang | None) -> None:
    """A hand-typed v2 nonce below the minimum strength is accepted, with a warning that names the risk."""
    if not rng.is_strong(nonce):
        echo(
            f"kifu: warning: {msg('toss_weak_nonce', lang, nonce=nonce, least=rng.STRONG_LENGTH)}",
            err=True,
        )


def _words(outcomes: list[tuple[int, int]], lang: Lang | None) -> str:
    """Outcomes as a reveal posts them, without the arrow: ``裏 表``, ``d6=4 d20=13``."""
    return rng.format_claims(outcomes, lang_of(lang).value)[2:] if outcomes else ""


def _outcome_lines(outcomes: list[tuple[int, int]], lang: Lang | None) -> list[str]:
    return [
        msg("toss_outcome_coin", lang, index=i, face=f, word=_words([(s, f)], lang))
        if s == 2
        else msg("toss_outcome", lang, index=i, sides=s, face=f)
        for i, (s, f) in enumerate(outcomes)
    ]


# --- commit --------------------------------------------------------------------------------------------


@toss_app.command("commit")
def commit(
    match: Annotated[
        str | None,
        typer.Option(
            "--match",
            "-m",
            help="The match the toss is for: the id its log has (kifu import --match).",
            show_default=False,
        ),
    ] = None,
    purpose: Annotated[
        str | None,
        typer.Option("--for", help="What the toss decides: first-player, act-a3, flip-2 …", show_default=False),
    ] = None,
    roll: RollOpt = None,
    until: UntilOpt = None,
    v1: Annotated[
        bool,
        typer.Option(
            "--v1", help="An old kifu-rng-v1 commitment, bound to no match (for an opponent on an older kifu)."
        ),
    ] = False,
    store: StoreOpt = None,
    fmt: LineFormatOpt = LineFormat.text,
    lang: LangOpt = None,
) -> None:
    """Make a secret, keep it in your secret store, and print the commitment to post.

    The commitment is bound to the match, to what the toss decides and to the
    dice it rolls (default: one coin): your opponent sees all three before
    answering, and the audit holds the toss to them. Post the line before
    anything of the toss is decided; reveal only after your opponent has
    answered it with a nonce.

    \b
    Examples:
      kifu toss commit --match R1-T3 --for first-player
      kifu toss commit -m R1-T3 --for act-a3 --roll coin --until 2
      KIFU_HOME=~/kifu kifu toss commit -m R1-T3 --for init-distance --roll d6 -f json
    """
    from kifu.events import rng_store

    where = str(store or rng_store.default_path())
    if v1:
        c = rng_store.new_commitment(store, warn=_warn(lang))
    else:
        if not match or not purpose:
            fail(msg("toss_commit_needs", lang))
        dice = _roll(roll, until, lang, [2])
        assert dice is not None
        binding = rng.Binding(match=rng.match_field(match), purpose=rng.normalise_purpose(purpose), roll=dice.text())
        c = rng_store.new_commitment(store, binding, warn=_warn(lang))
    if fmt is not LineFormat.text:
        bound = (
            {}
            if c.binding is None
            else {"match": c.binding.match, "purpose": c.binding.purpose, "roll": c.binding.roll}
        )
        _print(
            fmt, {"id": c.id, "version": c.version, "digest": c.digest, "token": c.format(), "store": where, **bound}
        )
        return
    echo(c.format())
    if c.binding is None:
        echo(msg("toss_committed_v1", lang, id=c.id, store=where))
    else:
        b = c.binding
        echo(msg("toss_committed", lang, id=c.id, roll=b.roll, purpose=b.purpose, match=b.match, store=where))


# --- nonce ---------------------------------------------------------------------------------------------


@toss_app.command("nonce")
def nonce(
    commitment: Annotated[
        str, typer.Argument(help="The roller's whole commit message (or just its public id).", show_default=False)
    ],
    fmt: LineFormatOpt = LineFormat.text,
    lang: LangOpt = None,
) -> None:
    """Print a fresh nonce (100 random bits) answering a commitment: the opponent's line to post.

    Given the roller's commit message it shows what the toss is for (match,
    purpose, dice): answer only if that is the toss at hand, and only once the
    game has reached it (costs paid, calls made). A nonce typed by hand works too
    (kifu:n2:ID: and 16 or more letters and digits), but a short or common one can
    be guessed.

    \b
    Examples:
      kifu toss nonce "kifu:c2:1n7nwc9a:r1-t3:first-player:coin:0d4f…7607:fb476b"
      kifu toss nonce 1n7nwc9a
    """
    found = [t for t in rng.find_tokens(commitment) if isinstance(t, rng.Commitment)]
    c = found[0] if len(found) == 1 else None
    id = c.id if c is not None else commitment_id(commitment)
    n = rng.new_nonce(id, 1 if c is not None and c.version == 1 else 2)
    if fmt is not LineFormat.text:
        bound = (
            {}
            if c is None or c.binding is None
            else {"match": c.binding.match, "purpose": c.binding.purpose, "roll": c.binding.roll}
        )
        _print(fmt, {"id": n.id, "nonce": n.text, "token": n.format(), **bound})
        return
    echo(n.format())
    if c is not None and c.binding is not None:
        b = c.binding
        echo(msg("toss_nonce_for", lang, id=n.id, roll=b.roll, purpose=b.purpose, match=b.match))
    else:
        echo(msg("toss_nonce_made", lang, id=n.id))


# --- reveal --------------------------------------------------------------------------------------------


def _answers(texts: list[str], extra: list[str]) -> tuple[str, list[rng.Nonce]]:
    """The commitment id and the opponents' nonces given: nonce messages (their tokens name the id), an id or a
    commit message, and ``--nonce`` values (messages, or bare nonces of that id)."""
    ids: set[str] = set()
    nonces: list[rng.Nonce] = []
    bare: list[str] = []
    for text in [*texts, *extra]:
        tokens = rng.find_tokens(text)
        if tokens:
            ids |= {t.id for t in tokens}
            nonces += [t for t in tokens if isinstance(t, rng.Nonce)]
        elif text in extra:
            bare.append(text)
        else:
            ids.add(rng.normalise_id(text))
    if len(ids) != 1:
        raise rng.RngError(Msg("rng.nonces_ids", ids=", ".join(sorted(ids)) or "-"), field="nonce")
    id = ids.pop()
    nonces += [rng.Nonce(id=id, text=rng.normalise_nonce(b)) for b in bare]
    unique = list({n.text: n for n in nonces}.values())
    if not unique:
        raise rng.RngError(Msg("rng.no_token", kind="n"), field="nonce")
    return id, unique


@toss_app.command("reveal")
def reveal(
    texts: Annotated[
        list[str],
        typer.Argument(
            help="Your opponent's answer: their message (several opponents: each one's), or the public id.",
            show_default=False,
        ),
    ],
    nonce_text: Annotated[
        list[str] | None,
        typer.Option("--nonce", "-n", help="An answer given apart: a message, or just the nonce.", show_default=False),
    ] = None,
    roll: RollOpt = None,
    until: UntilOpt = None,
    store: StoreOpt = None,
    fmt: LineFormatOpt = LineFormat.text,
    lang: LangOpt = None,
) -> None:
    """Print the reveal to post, with the outcomes after its arrow, and what they are.

    Give it your opponent's message as it is: the public id is in it, the secret
    in your store, and a v2 commitment says its dice. The outcomes follow from
    the secret and the nonce(s): anyone can compute them (kifu toss check). A v1
    commitment draws what --roll asks for.

    \b
    Examples:
      kifu toss reveal "kifu:n2:1n7nwc9a:7d2mq9xk4fa8wz3np6rt"
      kifu toss reveal "Ren: kifu:n2:…" "Kai: kifu:n2:…"     (several opponents)
      kifu toss reveal rq2ja63j --nonce neko1234 --roll coin --until 2 --lang ja   (v1)
    """
    from kifu.events import rng_store

    id, nonces = _answers(texts, nonce_text or [])
    entry = rng_store.entry_for(id, store, warn=_warn(lang))
    if entry.version == 2:
        binding = entry.binding
        assert binding is not None
        asked = _roll(roll, until, lang, None)
        if asked is not None and asked.text() != binding.roll:
            fail(msg("toss_roll_bound", lang, id=id, roll=binding.roll))
        for n in nonces:
            weak_warning(n.text, lang)
        r = rng_store.reveal_for(nonces, store)
        drawn = binding.dice.draw(r.stream())
    else:
        if len(nonces) != 1:
            raise rng.RngError(Msg("rng.v1_one_nonce"), field="nonce")
        r = rng_store.reveal_for(nonces[0], store)
        dice = _roll(roll, until, lang, None)
        drawn = dice.draw(r.stream()) if dice is not None else []
    line = f"{r.format()} {rng.format_claims(drawn, lang_of(lang).value)}" if drawn else r.format()
    if fmt is not LineFormat.text:
        _print(
            fmt,
            {
                "id": r.id,
                "version": r.version,
                "token": r.format(),
                "line": line,
                "nonce": r.nonce,
                "outcomes": [{"index": i, "sides": s, "face": f} for i, (s, f) in enumerate(drawn)],
            },
        )
        return
    echo(line)
    if drawn:
        for text in _outcome_lines(drawn, lang):
            echo(text)
    else:
        echo(
            msg(
                "toss_first_outcomes",
                lang,
                coins=" ".join(map(str, r.outcomes([2] * 10))),
                dice=" ".join(map(str, r.outcomes([6] * 10))),
            )
        )


# --- check ---------------------------------------------------------------------------------------------


@dataclass
class Said:
    """One message of a pasted chat or an export: who said it, and what."""

    loc: str
    text: str
    speaker: str | None = None


_SPEAKER = re.compile(r"^\s*(?:\[[^\]\n]{1,40}\]\s*)?(?P<name>[^\s:：>\[`*@][^:：\n]{0,40}?)\s*[:：]\s?(?P<text>.*)$")
"""A pasted chat line ``name: text`` (also ``[main] name : text`` as CCFOLIA shows it, and a full-width colon)."""


def _speaker_line(line: str) -> tuple[str, str] | None:
    m = _SPEAKER.match(line)
    if m is None:
        return None
    name = m.group("name").strip()
    folded = unicodedata.normalize("NFKC", name).lower()
    if folded == "kifu" or m.group("text").startswith("//"):  # a token or an address, not a speaker
        return None
    return name, m.group("text")


def pasted(text: str, where: str = "-") -> list[Said]:
    """Messages of pasted chat text: a ``name: text`` line starts one, any other line continues the last (a
    message a chat wrapped). A line that only completes a token cut over two lines is a continuation too."""
    out: list[Said] = []
    for n, line in enumerate(text.splitlines(), 1):
        spoken = _speaker_line(line)
        if spoken is not None and out and _completes(out[-1].text, line):
            spoken = None
        loc = f"line {n}" if where == "-" else f"{where}:{n}"
        if spoken is not None:
            out.append(Said(loc, spoken[1], spoken[0]))
        elif out:
            out[-1].text += "\n" + line
        elif line.strip():
            out.append(Said(loc, line))
    return out


def _completes(before: str, line: str) -> bool:
    """True when ``line`` joined to ``before`` reads more tokens than ``before`` alone: the rest of a token."""
    if "kifu" not in unicodedata.normalize("NFKC", before).lower() or rng.find_tokens(line):
        return False
    return len(rng.find_tokens(before + "\n" + line)) > len(rng.find_tokens(before))


def _messages(texts: list[str]) -> list[Said]:
    """Every message of the arguments: ``-`` reads stdin, a chat export (CCFOLIA, Udonarium, Discord) is read by
    its importer with its speakers, any other file or text as pasted chat lines."""
    from kifu.events import importers
    from kifu.events.importers.common import ImportFailed

    out: list[Said] = []
    for i, text in enumerate(texts, 1):
        if text == "-":
            out += pasted(sys.stdin.read(), "-")
            continue
        path = Path(text)
        if len(text) < 4096 and "\n" not in text and path.is_file():
            try:
                src, _ = importers.read_source(path)
            except ImportFailed:
                out += pasted(path.read_text(encoding="utf-8", errors="replace"), path.name)
                continue
            out += [Said(m.loc, m.text, m.speaker or m.speaker_key) for m in src.messages if not m.system]
            continue
        out += (
            [Said(f"#{i}", text)] if not any(_speaker_line(ln) for ln in text.splitlines()) else pasted(text, f"#{i}")
        )
    return out


def _ledger(said: list[Said], players: list[str]) -> tuple[list[Any], list[str], bool, dict[int, str]]:
    """The chat's tokens as the events an import makes of them (the importer's own reading, quotes and all),
    decoded; the players; whether who posted each message was known; and where each event's message is."""
    from kifu.events import table
    from kifu.events.importers.common import ImportReport, Message
    from kifu.events.importers.tokens import Tokens

    known = any(s.speaker for s in said)
    if not known:  # bare token lines: the poster of a commit or a reveal rolls, of a nonce answers
        said = [Said(s.loc, s.text, _role(s.text)) for s in said]
        players = ["roller", "opponent"]
    elif not players:
        players = list(dict.fromkeys(s.speaker for s in said if s.speaker))
    reader = Tokens(ImportReport(file="-", format="chat"))
    made: list[dict[str, Any]] = []
    where: dict[int, str] = {}
    for s in said:
        base = {"by": s.speaker} if s.speaker in players else {}
        read = reader.read(Message(loc=s.loc, text=s.text, speaker=s.speaker), base)
        for e in read.events + [{**base, **r} for r in read.randoms]:
            made.append(e)
            where[len(made) + 1] = s.loc
    codec = table.codec("generic")
    events = [codec.convert({**e, "seq": i, "prev": "0" * 64}) for i, e in enumerate(made, 2)]
    return events, players, known, where


def _role(text: str) -> str | None:
    kinds = {t.letter for t in rng.find_tokens(text)}
    return "roller" if kinds & {"c", "r"} else "opponent" if "n" in kinds else None


@toss_app.command("check")
def check(
    texts: Annotated[
        list[str],
        typer.Argument(
            help="A chat export, pasted chat lines (name: text), or single messages; - reads stdin.",
            show_default=False,
        ),
    ],
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            "-p",
            help="A player's name as the chat shows it (repeat; id=Name works too). Default: every speaker. "
            "Anyone else (a spectator) may talk, but their nonces are ignored.",
            show_default=False,
        ),
    ] = None,
    match: Annotated[
        str | None,
        typer.Option("--match", "-m", help="Check that each v2 toss is bound to this match id.", show_default=False),
    ] = None,
    roll: Annotated[
        list[str] | None, typer.Option("--roll", help="v1 tosses: the dice to show outcomes of (coin, d6 …).")
    ] = None,
    fmt: FormatOpt = DataFormat.table,
    lang: LangOpt = None,
) -> None:
    """Check every toss posted in a chat as the audit does, and print each outcome it fixes.

    Who posted each token matters: only the roller's opponents answer a
    commitment, so give the chat with its speakers (an export, or pasted
    "name: text" lines) and name the players with --player when others talk.
    Each toss gets a verdict (verified, warning, DOES NOT VERIFY, open), the match
    and purpose it is bound to (check the match with --match), and the outcomes
    its reveal fixes, whether or not they were posted.
    Exit 0 when every toss is verified, 1 when one is not, 2 when the text holds
    no toss.

    \b
    Examples:
      kifu toss check room.html --player ミナト --player ユキ --match r1-t3
      pbpaste | kifu toss check -
      kifu toss check "Aoi: kifu:c2:…" "Ren: kifu:n2:…" "Aoi: kifu:r2:… → 裏"
    """
    from kifu.auditor import rng as audit

    said = _messages(texts)
    players = [p.split("=", 1)[1] if "=" in p else p for p in player or []]
    events, players, known, where = _ledger(said, players)
    ledger = [e for e in events if type(e).__struct_config__.tag.startswith("rng.") or getattr(e, "rng", None)]
    analysis = audit.analyse(ledger, players, {}, match, shown=True)
    if not analysis.rounds:
        fail(msg("toss_nothing", lang))
    if not known:
        echo(msg("toss_no_speakers", lang), err=True)
    elif not player and len(players) > 2:
        echo(msg("toss_all_speakers", lang, count=len(players), names=", ".join(players)), err=True)
    sides = roll_sides(roll, lang)
    rows = [_row(r, analysis, ledger, players, sides, where, lang) for r in analysis.rounds]
    print_rows(["id", "verdict", "match", "purpose", "outcomes", "detail"], [r[:6] for r in rows], fmt)
    raise typer.Exit(0 if all(r[6] for r in rows) else 1)


_SEQ = re.compile(r"\bseq (\d+)")


def _row(
    r: Any,
    analysis: Any,
    ledger: list[Any],
    players: list[str],
    sides: list[int],
    where: dict[int, str],
    lang: Lang | None,
) -> tuple[Any, ...]:
    """One round's row: id, verdict, purpose, outcomes, what the audit says of it (the events it names by the
    place of their message in the chat); and whether it verifies."""
    from kifu.auditor import registry

    code = lang_of(lang).value
    names = {p: p for p in players}
    mine = [p for p in analysis.problems if _about(p, r.id) and p.code != "KIFU-RNG-008"]  # open: the verdict
    said = []
    severities = set()
    for p in mine:
        rule = registry.find_rule(p.code)
        text = rule.finding(p.hit, names).message.get(code)
        said.append(f"{p.code}: {_SEQ.sub(lambda m: where.get(int(m.group(1)), m.group(0)), text)}")
        severities.add(rule.severity.value)
    worst = "error" if "error" in severities else "warning" if "warning" in severities else "info"
    outcomes = list(r.outcomes)
    if r.settled and r.binding is None and not outcomes and sides:
        reveal = next(e for e in ledger if type(e).__struct_config__.tag == "rng.reveal" and e.id == r.id)
        token = rng.Reveal(id=r.id, secret=reveal.secret, nonce=reveal.nonce)
        outcomes = list(zip(sides, token.outcomes(sides)))
    if not any(type(e).__struct_config__.tag == "rng.reveal" and e.seq in r.seqs for e in ledger):
        verdict = msg("toss_open", lang)
        nonce = any(type(e).__struct_config__.tag == "rng.nonce" and e.seq in r.seqs for e in ledger)
        said.insert(0, msg("toss_no_reveal" if nonce else "toss_no_nonce", lang))
        ok = False
    elif r.settled and r.clean and worst == "info":
        verdict, ok = msg("toss_ok", lang), True
    elif r.settled and worst == "warning":
        verdict, ok = msg("toss_warning", lang), False
    else:
        verdict, ok = msg("toss_bad", lang), False
    if r.settled and r.binding is None and not outcomes:
        said.append(msg("toss_v1_no_roll", lang))
    match, purpose = (r.binding.match, r.binding.purpose) if r.binding is not None else ("", "")
    shown = _words(outcomes, lang) if r.settled else ""
    return (r.id, verdict, match, purpose, shown, " / ".join(said), ok)


def _about(p: Any, id: str) -> bool:
    ev = p.hit.evidence
    return ev.get("id") == id or id in str(ev.get("ids", "")).split(", ")


# --- kifu append --toss ----------------------------------------------------------------------------------


def append_toss(
    log: Path,
    roller: str,
    opponents: list[str] | None,
    nonces: list[str] | None,
    roll: list[str] | None,
    until: int | None,
    purpose: str | None,
    store: Path | None,
    lang: Lang | None,
) -> None:
    """``kifu append LOG --toss ROLLER``: a v2 commitment shown, each opponent's nonce asked, then the whole toss
    (commit, nonces, reveal, outcomes) appended in one write; given up at a prompt, nothing is appended."""
    from kifu.events import rng_log
    from kifu.events.codec import encode, line_hash

    dice = _roll(roll, until, lang, [2])
    assert dice is not None
    sides = [dice.groups[0][1]] if dice.until is not None else dice.sides()
    given = list(nonces or [])

    def ask(t: rng_log.Toss, who: str) -> str | None:
        if len(given) > t.opponents.index(who):
            typed: str | None = given[t.opponents.index(who)]
        else:
            try:
                name = t.names.get(who, who)
                typed = typer.prompt(
                    msg("toss_ask_nonce", lang, opponent=f"{name} ({who})" if name != who else who, id=t.commitment.id),
                    default="",
                    show_default=False,
                    err=True,
                ).strip()
            except typer.Abort:
                echo(msg("toss_given_up", lang, id=t.commitment.id), err=True)
                raise typer.Exit(1) from None
        if typed:
            weak_warning(rng.normalise_nonce(typed), lang)
        return typed or None

    t = rng_log.begin(log, roller, opponents, sides, until=dice.until, purpose=purpose, store=store, warn=_warn(lang))
    echo(t.commitment.format())
    typed = [ask(t, who) for who in t.opponents]
    done = rng_log.finish(log, t, typed, store=store, warn=_warn(lang))
    for e in done.events:
        echo(msg("toss_appended", lang, seq=e.seq, type=type(e).__struct_config__.tag, head=line_hash(encode(e))[:12]))
    assert done.reveal is not None
    claims = f" {rng.format_claims(done.outcomes, lang_of(lang).value)}" if done.outcomes else ""
    echo(done.reveal.format() + claims)
    for text in _outcome_lines(done.outcomes, lang):
        echo(text)

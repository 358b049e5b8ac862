"""Verifiable coin tosses and die rolls over a chat: ``kifu toss commit|nonce|reveal|check`` (docs/randomness.md).

Each command prints the line to post first, on its own line, so that it can be
copied or piped as it is; what it means follows. A toss takes three chat posts
(commit, nonce, reveal) and two commands a party: the roller ``commit`` and
``reveal``, the opponent ``nonce`` and ``check``. The use cases are
``kifu.app.tosses`` (``kifu.toss_check`` …): this module parses the arguments,
calls them and prints.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from kifu.events import rng
from kifu.events.base import KifuError

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
    from kifu.app import tosses
    from kifu.events import rng_store

    where = str(store or rng_store.default_path())
    if not v1 and (not match or not purpose):
        fail(msg("toss_commit_needs", lang))
    c = tosses.toss_commit(
        match, purpose, None if v1 else _roll(roll, until, lang, [2]), v1=v1, store=store, warn=_warn(lang)
    )
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
    from kifu.app import tosses

    answer = tosses.toss_nonce(commitment)
    n, c = answer.nonce, answer.commitment
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
    from kifu.app import tosses

    try:
        done = tosses.toss_reveal(
            texts, nonce_text or [], _roll(roll, until, lang, None), store=store, warn=_warn(lang)
        )
    except tosses.RollBound as exc:
        fail(msg("toss_roll_bound", lang, id=exc.id, roll=exc.roll))
    for weak in done.weak:
        weak_warning(weak, lang)
    r, drawn, line = done.reveal, done.outcomes, done.line(lang_of(lang).value)
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
    from kifu.app import tosses

    chat: list[str | Path] = []
    for text in texts:
        if text == "-":
            chat.append(sys.stdin.read())
        elif len(text) < 4096 and "\n" not in text and Path(text).is_file():
            chat.append(Path(text))
        else:
            chat.append(text)
    try:  # stdin alone keeps its line numbers as the places
        done = tosses.toss_check(chat[0] if texts == ["-"] else chat, player or [], match, roll_sides(roll, lang))
    except tosses.NoToss:
        fail(msg("toss_nothing", lang))
    if not done.speakers_known:
        echo(msg("toss_no_speakers", lang), err=True)
    elif not done.named and len(done.players) > 2:
        echo(msg("toss_all_speakers", lang, count=len(done.players), names=", ".join(done.players)), err=True)
    rows = [_row(t, lang) for t in done.tosses]
    print_rows(["id", "verdict", "match", "purpose", "outcomes", "detail"], rows, fmt)
    raise typer.Exit(0 if done.ok else 1)


_VERDICT = {"verified": "toss_ok", "warning": "toss_warning", "bad": "toss_bad", "open": "toss_open"}
"""Each verdict's word in the catalogue."""


def _row(t: Any, lang: Lang | None) -> tuple[Any, ...]:
    """One toss's row: id, verdict, match, purpose, outcomes, and what the audit says of it."""
    code = lang_of(lang).value
    said = [f"{p.code}: {p.messages[code]}" for p in t.problems]
    if not t.revealed:
        said.insert(0, msg("toss_no_reveal" if t.answered else "toss_no_nonce", lang))
    if t.v1_without_dice:
        said.append(msg("toss_v1_no_roll", lang))
    verdict = msg(_VERDICT[t.verdict.value], lang)
    return (t.id, verdict, t.match or "", t.purpose or "", _words(t.outcomes, lang), " / ".join(said))


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

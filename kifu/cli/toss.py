"""Verifiable coin tosses and die rolls over a chat: ``kifu toss commit|nonce|reveal|check`` (docs/randomness.md).

Each command prints the line to post first, on its own line, so that it can be
copied or piped as it is; what it means follows.
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

from .common import echo, DataFormat, FormatOpt, Lang, LangOpt, fail, lang_of, msg, print_json, print_rows

app = typer.Typer()
toss_app = typer.Typer(
    no_args_is_help=True,
    help="Verifiable coin tosses and die rolls over a chat: commit, nonce, reveal, check (docs/randomness.md).",
)
app.add_typer(toss_app, name="toss", rich_help_panel="Verifiable tosses")


class LineFormat(str, Enum):
    text = "text"
    json = "json"


LineFormatOpt = Annotated[
    LineFormat, typer.Option("--format", "-f", help="text (the line to post, then what it means) or json.")
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
    typer.Option("--roll", "-r", help="What the toss draws, in order: coin, 3coins, d6, 2d6 …; repeat."),
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


def commitment_id(text: str) -> str:
    """An id as typed, or the id a pasted commit, nonce or reveal message names."""
    found = [t for t in rng.find_tokens(text)]
    if found:
        ids = {t.id for t in found}
        if len(ids) > 1:
            raise rng.RngError(f"the text names {len(ids)} commitments; give one", field="id")
        return ids.pop()
    return rng.normalise_id(text)


def nonce_of(text: str, id: str) -> rng.Nonce:
    """The opponent's nonce: their message (with its kifu:n1 token) or just the nonce they typed."""
    if "kifu" in unicodedata.normalize("NFKC", text).lower():
        n = rng.Nonce.parse(text)
        if n.id != id:
            raise rng.RngError(f"the nonce answers commitment {n.id}, not {id}", field="nonce")
        return n
    return rng.Nonce(id=id, text=rng.normalise_nonce(text))


def _outcome_lines(outcomes: list[tuple[int, int]], lang: Lang | None) -> list[str]:
    code = lang_of(lang).value
    return [
        msg("toss_outcome_coin", lang, index=i, face=f, word=rng.format_claims([(s, f)], code)[2:])
        if s == 2
        else msg("toss_outcome", lang, index=i, sides=s, face=f)
        for i, (s, f) in enumerate(outcomes)
    ]


@toss_app.command("commit")
def commit(store: StoreOpt = None, fmt: LineFormatOpt = LineFormat.text, lang: LangOpt = None) -> None:
    """Make a secret, keep it in your secret store, and print the commitment to post.

    Post the line before anything of the toss is decided; reveal only after your
    opponent has answered it with a nonce.

    \b
    Examples:
      kifu toss commit
      KIFU_HOME=~/kifu kifu toss commit -f json
    """
    from kifu.events import rng_store

    c = rng_store.new_commitment(store)
    where = str(store or rng_store.default_path())
    if fmt is LineFormat.json:
        print_json({"id": c.id, "digest": c.digest, "token": c.format(), "store": where})
        return
    echo(c.format())
    echo(msg("toss_committed", lang, id=c.id, store=where))


@toss_app.command("nonce")
def nonce(
    commitment: Annotated[
        str, typer.Argument(help="The commitment's id, or the roller's whole commit message.", show_default=False)
    ],
    fmt: LineFormatOpt = LineFormat.text,
    lang: LangOpt = None,
) -> None:
    """Print a fresh nonce (100 random bits) answering a commitment: the opponent's line to post.

    Answer only once the game has reached the toss (costs paid, calls made). Any 4
    to 64 letters and digits typed by hand after the id work too: kifu:n1:ID:neko1234.

    \b
    Examples:
      kifu toss nonce rq2ja63j
      kifu toss nonce "kifu:c1:rq2ja63j:c5c5…bbd2:ea4db6"
    """
    n = rng.new_nonce(commitment_id(commitment))
    if fmt is LineFormat.json:
        print_json({"id": n.id, "nonce": n.text, "token": n.format()})
        return
    echo(n.format())
    echo(msg("toss_nonce_made", lang, id=n.id))


@toss_app.command("reveal")
def reveal(
    commitment: Annotated[
        str, typer.Argument(help="The commitment's id (or your commit message).", show_default=False)
    ],
    nonce_text: Annotated[
        str,
        typer.Option(
            "--nonce", "-n", help="The opponent's answer: their message, or just the nonce.", show_default=False
        ),
    ],
    roll: RollOpt = None,
    until: UntilOpt = None,
    store: StoreOpt = None,
    fmt: LineFormatOpt = LineFormat.text,
    lang: LangOpt = None,
) -> None:
    """Print the reveal to post, with the outcomes --roll asks for after its arrow, and what they are.

    The outcomes follow from the secret and the nonce: anyone can compute them,
    and an importer records the ones posted after the arrow (→ 裏, → d6=4).
    Without --roll the line is the reveal alone, and the first outcomes of a coin
    and of a d6 are shown.

    \b
    Examples:
      kifu toss reveal rq2ja63j --nonce "kifu:n1:rq2ja63j:neko1234" --roll coin
      kifu toss reveal rq2ja63j -n neko1234 --roll d6 --roll d20
      kifu toss reveal rq2ja63j -n neko1234 --roll coin --until 2 --lang ja
    """
    from kifu.events import rng_store

    sides = roll_sides(roll, lang)
    if until is not None and not sides:
        fail(msg("toss_until_needs_roll", lang))
    r = rng_store.reveal_for(nonce_of(nonce_text, commitment_id(commitment)), store)
    drawn = rng.draw(r, sides, until) if sides else []
    code = lang_of(lang).value
    line = f"{r.format()} {rng.format_claims(drawn, code)}" if drawn else r.format()
    if fmt is LineFormat.json:
        print_json(
            {
                "id": r.id,
                "token": r.format(),
                "line": line,
                "nonce": r.nonce,
                "outcomes": [{"index": i, "sides": s, "face": f} for i, (s, f) in enumerate(drawn)],
            }
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


@toss_app.command("check")
def check(
    texts: Annotated[
        list[str],
        typer.Argument(
            help="Chat messages (or a whole pasted chat) holding commit, nonce and reveal tokens; - reads stdin.",
            show_default=False,
        ),
    ],
    fmt: FormatOpt = DataFormat.table,
    lang: LangOpt = None,
) -> None:
    """Check tosses posted in a chat: each commitment's nonce and reveal, and the outcomes posted with it.

    Exit 0 when every toss checks, 1 when one does not, 2 when the text holds no
    complete toss.

    \b
    Examples:
      kifu toss check "kifu:c1:…" "kifu:n1:…" "kifu:r1:… → 裏"
      pbpaste | kifu toss check -
    """
    text = "\n".join(sys.stdin.read() if t == "-" else t for t in texts)
    rows, bad = _checked(text, lang)
    if not rows:
        fail(msg("toss_nothing", lang))
    print_rows(["id", "verdict", "outcomes", "detail"], rows, fmt)
    raise typer.Exit(1 if bad else 0)


def _checked(text: str, lang: Lang | None) -> tuple[list[tuple[Any, ...]], bool]:
    """One row per commitment with a commit, a nonce and a reveal in the text; and whether any fails."""
    commits: dict[str, rng.Commitment] = {}
    nonces: dict[str, rng.Nonce] = {}
    reveals: dict[str, tuple[rng.Reveal, tuple[tuple[int, int], ...]]] = {}
    for found in rng.read_chat(text):
        t = found.token
        if isinstance(t, rng.Commitment):
            commits.setdefault(t.id, t)
        elif isinstance(t, rng.Nonce):
            nonces.setdefault(t.id, t)
        elif isinstance(t, rng.Reveal):
            reveals.setdefault(t.id, (t, found.claims))
    rows, bad = [], False
    for id, c in commits.items():
        if id not in nonces or id not in reveals:
            missing = "nonce" if id not in nonces else "reveal"
            rows.append((id, msg("toss_open", lang), "", msg(f"toss_no_{missing}", lang)))
            bad = True
            continue
        r, claims = reveals[id]
        problem = rng.problem(c, nonces[id], r)
        if problem is None:
            wrong = [(i, s, f) for i, (s, f) in enumerate(claims) if f != r.outcome(i, s)]
            if wrong:
                i, s, f = wrong[0]
                problem_text = msg("toss_claim_wrong", lang, index=i, sides=s, face=f, derived=r.outcome(i, s))
            else:
                shown = rng.format_claims(list(claims), lang_of(lang).value)[2:] if claims else ""
                rows.append((id, msg("toss_ok", lang), shown, ""))
                continue
        else:
            problem_text = problem.message.render(lang_of(lang).value)
        rows.append((id, msg("toss_bad", lang), "", problem_text))
        bad = True
    return rows, bad


def append_toss(
    log: Path,
    roller: str,
    opponent: str | None,
    nonce: str | None,
    roll: list[str] | None,
    until: int | None,
    purpose: str | None,
    store: Path | None,
    lang: Lang | None,
) -> None:
    """``kifu append LOG --toss ROLLER``: commit, the opponent's nonce, reveal and outcomes, appended in turn."""
    from kifu.events import logfile, rng_log
    from kifu.events.codec import encode, line_hash

    sides = roll_sides(roll, lang)
    if until is not None and not sides:
        fail(msg("toss_until_needs_roll", lang))
    players = [p.id for p in logfile.load(log).start.players]
    if roller not in players:
        fail(msg("toss_not_a_player", lang, who=roller, players=", ".join(players)))
    if opponent is None:
        others = [p for p in players if p != roller]
        if len(others) != 1:
            fail(msg("toss_which_opponent", lang))
        opponent = others[0]
    elif opponent not in players or opponent == roller:
        fail(msg("toss_not_a_player", lang, who=opponent, players=", ".join(p for p in players if p != roller)))

    def ask(t: rng_log.Toss) -> str | None:
        echo(t.commitment.format())
        if nonce is not None:
            return nonce
        typed = typer.prompt(
            msg("toss_ask_nonce", lang, opponent=opponent, id=t.commitment.id), default="", show_default=False, err=True
        )
        return typed.strip() or None

    done = rng_log.toss(log, roller, opponent, ask, sides, until=until, purpose=purpose, store=store)
    for e in done.events:
        echo(msg("toss_appended", lang, seq=e.seq, type=type(e).__struct_config__.tag, head=line_hash(encode(e))[:12]))
    assert done.reveal is not None
    echo(done.reveal.format() + (f" {rng.format_claims(done.outcomes, lang_of(lang).value)}" if done.outcomes else ""))
    for text in _outcome_lines(done.outcomes, lang):
        echo(text)

"""BCDice result strings, as CCFOLIA, Udonarium and the Discord bots copy them into chat.

Source: ../shared/reference/online-logs.md §3 (bcdice/BCDice test data, bcdice-api
docs/api_v2.md). A result reads ``(<echo>) ＞ <step> ＞ … ＞ <last>``: the echo is the
normalised command (half-width, upper-case dice, lower-case ``choice``), ``[a,b]`` lists
the faces of several dice (a single die has no brackets), the last step is the total
or an outcome word. Repeats (``x3``/``rep3``) come as ``#1`` blocks, either on a line of
their own (BCDice, Discord) or inline (Udonarium rewrites ``\\n#1\\n`` to ``#1 ``).
A secret roll looks exactly like a public one; only a client marker or the typed
``S`` prefix tells, so ``secret`` is decided by the caller and by :func:`typed_secret`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

SEP = "＞"
"""BCDice's step separator: U+FF1E FULLWIDTH GREATER-THAN SIGN."""

_REPEAT_ALONE = re.compile(r"^\s*#(\d+)\s*$")
_REPEAT_INLINE = re.compile(r"^\s*#(\d+)\s+")
# A Discord bot prefixes each result line with the system id (``DiceBot: (1D2) ＞ 1``).
_SYSTEM_PREFIX = re.compile(r"^\s*([A-Za-z][\w.:]*)\s*:\s*(?=[^\s(]*\()")
_DICE = re.compile(r"(\d*)[DU](\d+)", re.I)
_FACES = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")
_INT = re.compile(r"^-?\d+$")
_CHOICE = re.compile(r"^choice(?:\[(?P<b>.*)\]|\((?P<p>.*)\)|\s+(?P<s>.*))$", re.I | re.S)
_DICE_COMMAND = re.compile(r"^(?:s)?(?:x\d+\s+|rep\d+\s+)?(?:\d*[du]\d+|choice[\[(\s]|c?cb?<?=?|[a-z]*\d*d\d+)", re.I)
# The first word of a typed roll: dice, a choice, or a system check such as CCB<=50 or RES(10-5).
_COMMAND_HEAD = re.compile(r"^s?(?:x\d+|rep\d+)?(?:\d*[du]\d+|choice[\[(]|[a-z]{1,6}(?:(?:<=|>=|<|>)\d|\(\d))", re.I)
_HIDDEN = ("シークレットダイス", "[Secret Dice]", "秘密ダイス")


@dataclass(frozen=True)
class Roll:
    """One BCDice result: a dice roll, a choice, or a result whose faces are unknown."""

    echo: str
    """The normalised command BCDice echoed in parentheses (``1D2``, ``choice[表,裏]``)."""
    text: str
    """The result text exactly as the source printed it, from the echo on."""
    steps: tuple[str, ...]
    """The steps after each ``＞``, stripped."""
    kind: str
    """``die``, ``choice``, or ``other`` (calculation, table, unknown system)."""
    sides: int = 0
    """Faces of each die, or the number of options of a choice; 0 when unknown."""
    values: tuple[int, ...] = ()
    """Each die's face, or the 1-based index of the picked option."""
    options: tuple[str, ...] = ()
    """The options of a choice, in order."""
    pick: str | None = None
    """The picked option of a choice."""
    total: int | None = None
    """The last numeric step, if any."""
    outcome: str | None = None
    """The last step when it is a word (``成功``, ``ファンブル``)."""
    repeat: int | None = None
    """The ``#n`` of a repeat block."""
    prefix: str = ""
    """Text before the echo on the same line (a table name, a system id)."""
    groups: tuple[tuple[int, tuple[int, ...]], ...] = field(default=())
    """(sides, faces) per dice group when the command mixes dice sizes."""


def normalise(text: str) -> str:
    """Half-width, no spaces, upper-case: how two spellings of a command are compared."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).upper()


def _split_steps(rest: str) -> list[str]:
    """Split on ``＞`` outside brackets, so table text like ``(1D10＞8ラウンド)`` stays whole."""
    steps, depth, cur = [], 0, []
    for ch in rest:
        if ch in "([（【「":
            depth += 1
        elif ch in ")]）】」" and depth:
            depth -= 1
        if ch == SEP and depth == 0:
            steps.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    steps.append("".join(cur).strip())
    return steps


def _open_paren(text: str, close: int) -> int:
    """Index of the ``(`` matching the ``)`` at ``close``, or -1."""
    depth = 0
    for i in range(close, -1, -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _anchor(line: str) -> int:
    """Index of the ``)`` that closes the echo: the first ``)`` followed by ``＞``."""
    m = re.search(r"\)\s*" + SEP, line)
    return m.start() if m else -1


def find(line: str) -> tuple[str, Roll] | None:
    """Find a BCDice result in one line: (text before it, roll), or None."""
    close = _anchor(line)
    if close < 0:
        return None
    open_ = _open_paren(line, close)
    if open_ < 0:
        return None
    head = line[:open_]
    # A table roll or ``c(...)`` keeps its name glued to the echo: ``飲み物表(6)``.
    glued = re.search(r"(\S*)$", head).group(1)  # type: ignore[union-attr]
    before = head[: len(head) - len(glued)].rstrip()
    echo = line[open_ + 1 : close]
    rest = line[close + 1 :]
    rest = rest[rest.index(SEP) + 1 :]
    text = line[open_ - len(glued) :].strip()
    return before, interpret(echo, _split_steps(rest), text, glued)


def interpret(echo: str, steps: list[str], text: str, prefix: str = "") -> Roll:
    """Read the faces, total and outcome of one echo and its steps."""
    last = steps[-1] if steps else ""
    total = next((int(s) for s in reversed(steps) if _INT.match(s)), None)
    outcome = last if last and not _INT.match(last) else None
    base = dict(echo=echo, text=text, steps=tuple(steps), total=total, outcome=outcome, prefix=prefix)
    choice = _CHOICE.match(echo.strip()) if not prefix else None
    if choice:
        return _choice(choice, last, base)
    dice = _DICE.findall(echo) if not prefix or prefix.upper() in ("S",) else []
    if dice:
        return _dice(dice, steps, base)
    return Roll(kind="other", **base)


def _choice(m: re.Match[str], last: str, base: dict) -> Roll:
    body = m.group("b") if m.group("b") is not None else m.group("p") if m.group("p") is not None else m.group("s")
    sep = "," if m.group("s") is None else None
    options = tuple(o.strip() for o in (body.split(sep) if sep else body.split()))
    values = (options.index(last) + 1,) if last in options else ()
    return Roll(kind="choice", sides=len(options), values=values, options=options, pick=last or None, **base)


def _dice(dice: list[tuple[str, str]], steps: list[str], base: dict) -> Roll:
    groups_faces = [tuple(int(v) for v in re.split(r"\s*,\s*", g)) for s in steps[:1] for g in _FACES.findall(s)]
    sizes = [(int(n or 1), int(s)) for n, s in dice]
    if not groups_faces and len(sizes) == 1 and sizes[0][0] == 1 and steps:
        first = re.match(r"^-?\d+", steps[0])
        groups_faces = [(int(first.group()),)] if first else []
    if len(groups_faces) == len(sizes):
        groups = tuple((s, faces) for (_, s), faces in zip(sizes, groups_faces))
    elif groups_faces and len({s for _, s in sizes}) == 1:
        groups = ((sizes[0][1], tuple(v for g in groups_faces for v in g)),)
    else:
        groups = ()
    values = tuple(v for _, faces in groups for v in faces)
    sides = sizes[0][1] if len({s for _, s in sizes}) == 1 else 0
    return Roll(kind="die", sides=sides, values=values, groups=groups, **base)


def parse(text: str) -> tuple[str, list[Roll]]:
    """Every BCDice result in a message: (the text before the first one, the rolls).

    Handles results alone (``(1D2) ＞ 1``), after the typed command on one line
    (CCFOLIA: ``1d2 (1D2) ＞ 1``), after a system prefix (``DiceBot: (1D2) ＞ 1``) and
    ``#n`` repeat blocks in both the line-of-its-own and the inline form.
    """
    rolls: list[Roll] = []
    lead: list[str] = []
    pending: int | None = None
    for line in text.splitlines():
        alone = _REPEAT_ALONE.match(line)
        if alone:
            pending = int(alone.group(1))
            continue
        inline = _REPEAT_INLINE.match(line)
        if inline:
            pending, line = int(inline.group(1)), line[inline.end():]
        line = _SYSTEM_PREFIX.sub("", line, count=1)
        found = _find_all(line)
        if not found:
            if not rolls and line.strip():
                lead.append(line.strip())
            continue
        for i, (before, roll) in enumerate(found):
            if not rolls and before:
                lead.append(before)
            rolls.append(_with_repeat(roll, pending if i == 0 else None))
        pending = None
    return " ".join(lead), rolls


def _find_all(line: str) -> list[tuple[str, Roll]]:
    """Udonarium joins repeats on one line (``#1 (1D6) ＞ 3 #2 (1D6) ＞ 5``): split them."""
    parts = re.split(r"\s+(?=#\d+\s+\S*\()", line)
    out = []
    for part in parts:
        m = _REPEAT_INLINE.match(part)
        rep = int(m.group(1)) if m else None
        hit = find(part[m.end():] if m else part)
        if hit:
            out.append((hit[0], _with_repeat(hit[1], rep)))
    return out


def _with_repeat(roll: Roll, n: int | None) -> Roll:
    if n is None or roll.repeat is not None:
        return roll
    return Roll(**{**roll.__dict__, "repeat": n})


def typed_secret(command: str) -> bool:
    """True when the typed command has BCDice's secret prefix (``S1D6``, ``Schoice[…]``)."""
    c = unicodedata.normalize("NFKC", command).strip()
    return len(c) > 1 and c[0] in "sS" and bool(_DICE_COMMAND.match(c[1:])) and not c[1:2].isspace()


def looks_like_command(text: str) -> bool:
    """True when a message starts with a dice command (so a missing result means "hidden")."""
    first = unicodedata.normalize("NFKC", text).strip().split(maxsplit=1)
    return bool(first) and bool(_COMMAND_HEAD.match(first[0]))


def is_hidden_marker(text: str) -> bool:
    """True for the placeholder a client shows for an unopened secret roll."""
    return any(m in text for m in _HIDDEN)


def dice_of_command(command: str) -> tuple[str, int]:
    """(kind, sides) of a typed command whose result is hidden: ``('die', 6)`` for ``S2D6``."""
    c = unicodedata.normalize("NFKC", command).strip().split(maxsplit=1)[0] if command.strip() else ""
    m = re.search(r"choice\[(.*)\]", c, re.I)
    if m:
        return "choice", len(m.group(1).split(","))
    d = _DICE.search(c)
    return ("die", int(d.group(2))) if d else ("die", 0)

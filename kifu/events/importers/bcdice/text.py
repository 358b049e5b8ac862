"""Cutting a chat message into BCDice result blocks: lines, repeats, the echo and its steps.

Source: bcdice/BCDice ``lib/bcdice/base.rb`` and the common commands (every result is
``<head> ＞ <step> ＞ …``, the head being ``(<echo>)``, ``<table>(<value>)`` or ``c(<calc>)``),
``common_command/repeat.rb`` (``#1\\n<result>\\n\\n#2\\n…``), TK11235/udonarium
``dice-bot.ts`` (rewrites ``\\n#1\\n`` as ``#1 ``), UdonariumWithFly ``dice-bot.ts``
(``🎲<echo> → <step> → …``, ``###n###``/``~~~n~~~`` marks on faces) and the Discord
bots (``DiceBot: (1D2) ＞ 1``).

Every scan here is linear in the length of the message: no regular expression is
searched at every position of a long run (issue 20), parentheses are matched with
one stack pass, and steps are split in one pass.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

import msgspec

SEP = "＞"
"""BCDice's step separator: U+FF1E FULLWIDTH GREATER-THAN SIGN."""
FLY_SEP = "→"
"""What Udonarium forks print instead of ``＞`` (UdonariumWithFly, Udonarium before 1.10)."""
FLY_DIE = "🎲"
"""UdonariumWithFly's mark in front of a result whose echo lost its parentheses."""

# Anchored at the start of a line, so each is tried once per line.
_REPEAT = re.compile(r"#(\d{1,3})(?:\s|$)")
_SYSTEM_PREFIX = re.compile(r"([A-Za-z][A-Za-z0-9_.]{0,40}) ?: (?=\S)")
_OPEN, _CLOSE = "([（【「", ")]）】」"
_BRACKET = re.compile("[" + re.escape(_OPEN + _CLOSE) + "]")
_PAREN = re.compile(r"[()]")


class Block(msgspec.Struct, frozen=True, kw_only=True):
    """One BCDice result as it stands in a message, cut into its parts."""

    lead: str
    """Text before the result on its line (CCFOLIA: the command as typed)."""
    text: str
    """The result from its first character to the end of its line."""
    name: str
    """A word glued to the echo's ``(`` (``飲み物表``, ``c``); empty for ``(<echo>)``."""
    echo: str | None
    """What stands inside the head's parentheses; None when the head has none."""
    suffix: str
    """Text between the echo's ``)`` and the first ``＞`` (``ボーナス・ペナルティダイス[0]``)."""
    head: str
    """The whole head: everything of ``text`` before the first ``＞``."""
    steps: tuple[str, ...]
    """The steps after each ``＞`` (outside brackets), stripped."""
    repeat: int | None = None
    """The ``#n`` of a repeat block."""
    system: str | None = None
    """A game system id a bot put in front of the result (``Cthulhu7th: (1D100) ＞ 5``)."""
    line: int = 0
    """Index of the block's line in the message (0-based)."""


_REPEAT_HEAD = re.compile(r"(?:x|rep|repeat)\d+$", re.I)


def typed_command(text: str) -> str:
    """The command word BCDice was given, as it compares it: ``x3 pct1$5 体力`` → ``PCT1$5``.

    Half-width and upper-case, the first word of the first line, after a repeat word;
    empty when nothing was typed. Only the first 200 characters are looked at.
    """
    words = unicodedata.normalize("NFKC", text[:200]).split("\n", 1)[0].split()
    if len(words) > 1 and _REPEAT_HEAD.match(words[0]):
        words = words[1:]
    return words[0].upper() if words else ""


_ASCII_STEPS = (" => ", " > ")
"""What a few systems print between steps instead of ``＞`` (``(1AD) > [1] > 0成功``, ``3D6 => [1,3,5] => 4``)."""


def ascii_steps(text: str) -> str:
    """A dice bot's answer that prints ASCII arrows between its steps, with BCDice's own separator in
    their place; the text itself where it has a ``＞`` or ``→`` (its own arrows then are table text)
    or no such arrow. Only for text known to be a bot's answer: in a player's chat line, ``a > b``
    is no result."""
    if SEP in text or FLY_SEP in text or not any(a in text for a in _ASCII_STEPS):
        return text
    for arrow in _ASCII_STEPS:
        text = text.replace(arrow, f" {SEP} ")
    return text


def lines_of(text: str) -> list[str]:
    """The message's lines, UdonariumWithFly's marks turned back into BCDice's own text."""
    if FLY_DIE in text or "###" in text or "~~~" in text:
        text = text.replace("###", "").replace("~~~", "")
    return text.splitlines()


def from_fly(line: str) -> str:
    """``🎲2D6 → 6[3,3] → 6`` (UdonariumWithFly) → ``(2D6) ＞ 6[3,3] ＞ 6``.

    Fly drops the echo's parentheses and prints ``→ `` for every `` ＞ ``; the Cthulhu
    forms keep their suffix after the echo (``🎲1D100<=50 ボーナス・ペナルティダイス[0]``).
    """
    body = line[line.index(FLY_DIE) + len(FLY_DIE) :]
    parts = body.split(" " + FLY_SEP + " ")
    head = parts[0]
    echo, space, suffix = head.partition(" ")
    return f"({echo}){space}{suffix} {SEP} " + f" {SEP} ".join(parts[1:]) if len(parts) > 1 else line


def split_steps(rest: str) -> tuple[str, ...]:
    """Split on ``＞`` outside brackets, so table text like ``(1D10＞8ラウンド)`` stays whole."""
    if not _BRACKET.search(rest):
        return tuple(part.strip() for part in rest.split(SEP))  # no brackets: a plain split (the common case)
    steps, depth, start = [], 0, 0
    for i, ch in enumerate(rest):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        elif ch == SEP and depth == 0:
            steps.append(rest[start:i].strip())
            start = i + 1
    steps.append(rest[start:].strip())
    return tuple(steps)


def _matches(head: str) -> dict[int, int]:
    """Position of each ``(`` → position of its ``)``, in one stack pass (ASCII parentheses only)."""
    stack: list[int] = []
    out: dict[int, int] = {}
    for m in _PAREN.finditer(head):  # only the parentheses are visited, not every character
        if m.group() == "(":
            stack.append(m.start())
        elif stack:
            out[stack.pop()] = m.start()
    return out


def _start_of_word(head: str, i: int) -> int:
    """Index where the word ending just before ``i`` starts (scanning back over non-space)."""
    j = i
    while j > 0 and not head[j - 1].isspace():
        j -= 1
    return j


def cut_head(head: str) -> tuple[int, str, str | None, str]:
    """Where the result starts in ``head``: (start, glued name, echo, suffix).

    The echo is the parenthesised group that ends the head, or failing that the last
    one followed by a space (the Cthulhu suffixes). A group glued to a word is a table
    or a calculation (``狂気表(6)``, ``c(1+2)``): the result starts at that word.
    Without such a group the whole head is the result's (``KeyNo.10c[10] ＞ …``) and
    the caller decides.
    """
    end = len(head.rstrip())
    pairs = _matches(head)
    # At most one group closes at the end (nested groups close at different places).
    closing = [(o, c) for o, c in pairs.items() if c == end - 1]
    spaced = [(o, c) for o, c in pairs.items() if c + 1 < end and head[c + 1].isspace()]
    best = closing[0] if closing else max(spaced, key=lambda p: p[1]) if spaced else None
    if best is None:
        return 0, "", None, ""
    open_, close = best
    start = _start_of_word(head, open_)
    return start, head[start:open_], head[open_ + 1 : close], head[close + 1 :].strip()


def _repeat_marks(line: str) -> list[tuple[int | None, str]]:
    """Udonarium's inline repeats (``#1 (1D6) ＞ 3 #2 (1D6) ＞ 5``) as (n, piece) pairs.

    A mark is ``#n`` at the start of the line or after a space, followed by a space;
    a piece without ``＞`` after it is not a result, so its mark stays text.
    """
    out: list[tuple[int | None, str]] = []
    cur_n: int | None = None
    start = 0
    last_sep = line.rfind(SEP)  # a mark with no ＞ after it starts no result (checked in O(1), not by a scan)
    i = line.find("#")
    while i >= 0:
        if i == 0 or line[i - 1] == " ":
            m = _REPEAT.match(line, i)
            if m and last_sep >= m.end():
                piece = line[start:i]
                if piece.strip() or cur_n is not None:
                    out.append((cur_n, piece))
                cur_n, start = int(m.group(1)), m.end()
        i = line.find("#", i + 1)
    out.append((cur_n, line[start:]))
    return out


def blocks(text: str) -> tuple[list[str], list[Block]]:
    """Every result block in a message, and the text before the first one (by line)."""
    lead: list[str] = []
    found: list[Block] = []
    pending: int | None = None
    for n, line in enumerate(lines_of(text)):
        stripped = line.strip()
        alone = _REPEAT.fullmatch(stripped) if stripped.startswith("#") else None
        if alone:
            pending = int(alone.group(1))
            continue
        if FLY_DIE in line:
            line = from_fly(line)
        elif SEP not in line and f" {FLY_SEP} " in line:
            line = line.replace(f" {FLY_SEP} ", f" {SEP} ")  # Udonarium before 1.10 printed → for ＞
        hits = []
        for rep, piece in _repeat_marks(line) if SEP in line else [(None, line)]:
            block = _block(piece, rep if rep is not None else pending, n)
            if block is not None:
                hits.append(block)
                pending = None
        if not hits:
            if not found and stripped:
                lead.append(stripped)
            continue
        if not found and hits[0].lead:
            lead.append(hits[0].lead)
        found.extend(hits)
    return lead, found


_LABEL_OPEN = "＜"
"""A label a player types in full-width angle brackets (``sCC<=80 ＜射出＞``): its ``＞`` is BCDice's separator sign."""


def first_sep(piece: str) -> int:
    """Where the result's first ``＞`` is: not the one closing a label typed before the echo.

    ``sCC<=80 ＜射出＞ (1D100<=80) … ＞ 3``: a ``＞`` after a ``＜`` (with no ``＞`` between them)
    is a label's when an echo's ``(`` still comes before the next ``＞``. Only the first 300
    characters hold a typed command and its labels, so the scan stays short."""
    sep = piece.find(SEP)
    while 0 <= sep < 300:
        opened = piece.rfind(_LABEL_OPEN, 0, sep)
        if opened < 0 or piece.rfind(SEP, opened, sep) >= 0:
            return sep
        after = piece.find(SEP, sep + 1)
        if after < 0 or "(" not in piece[sep + 1 : after]:
            return sep
        sep = after
    return sep


def _block(piece: str, repeat: int | None, line: int) -> Block | None:
    sep = first_sep(piece)
    if sep < 0:
        return None
    system = None
    m = _SYSTEM_PREFIX.match(piece)
    if m and m.end() <= sep:
        system, piece, sep = m.group(1), piece[m.end() :], sep - m.end()
    head = piece[:sep]
    start, name, echo, suffix = cut_head(head)
    if echo is None and not head.strip():
        return None  # "＞ユキ" (a Discord roller line) or a bare arrow: no result
    lead = head[:start].strip()
    return Block(
        lead=lead,
        text=piece[start:].strip(),
        name=name,
        echo=echo,
        suffix=suffix,
        head=head[start:].strip(),
        steps=split_steps(piece[sep + 1 :]),
        repeat=repeat,
        system=system,
        line=line,
    )


def widen(block: Block, known: Callable[[str], bool], words: int = 6) -> Block:
    """The block with its table name grown over the words before it to the longest name ``known``
    knows: ``체력 소모표(1[1])`` is cut at the space as ``소모표``; the whole name is ``체력 소모표``
    (and ``형사 기벽 결정 표`` is another table than ``기벽 결정 표``). The block itself when no
    longer name is known."""
    if not block.name or not block.lead:
        return block
    lead, end, best = block.lead, len(block.lead), None
    for _ in range(words):
        space = lead.rfind(" ", 0, end)
        if known(f"{lead[space + 1 :]} {block.name}"):
            best = space
        if space < 0:
            break
        end = space
    if best is None:
        return block
    grown = lead[best + 1 :]
    return msgspec.structs.replace(
        block,
        lead=lead[: max(best, 0)].strip(),
        name=f"{grown} {block.name}",
        text=f"{grown} {block.text}",
        head=f"{grown} {block.head}",
    )

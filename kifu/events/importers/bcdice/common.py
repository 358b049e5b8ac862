"""BCDice's common commands, read back from their result text: add dice, B/R/U/TY dice, D66, choice, calc.

Source: bcdice/BCDice ``lib/bcdice/common_command/`` at commit 98145305:
``add_dice/node.rb`` (``(2D6+1) ＞ 8[2,6]+1 ＞ 9``; one die alone shows no brackets;
keep/drop dice show every face sorted), ``add_dice/randomizer.rb`` (``D66`` terms,
d9, ``@sort_add_dice``), ``barabara_dice/node.rb`` (``(2B6) ＞ 3,4``),
``reroll_dice/node.rb`` (``(2R6[3]>=3) ＞ 3,1 + 2``: groups in the order the
queue rolled them), ``upper_dice/node.rb`` (``5,2,11[6,5]``: one item per die,
its rolls in brackets), ``tally_dice/node.rb``, ``d66_dice.rb``, ``choice.rb``
(each pick removes its option) and ``randomizer.rb`` (at most 200 dice of at most
10,000 sides; beyond that nothing is rolled).

Each reader checks what the text says against the command it echoes (number of
dice, their range, sums, the reroll queue) and gives up with a reason instead of
recording a face the text does not prove.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...i18n import Msg
from .roll import Roll, make
from .settings import Settings
from .text import Block

_CMP = r"(?:<=|>=|<>|==|!=|=|<|>)"
_TARGET = rf"(?P<cmp>{_CMP})(?P<target>-?\d+|\?)"
_INT = re.compile(r"-?\d+")
_FACES = re.compile(r"\d+(?:,\d+)*")
_D66 = re.compile(r"D66([ANSD]?)", re.I)
_TALLY = re.compile(r"(\d+)T([YZ])(\d+)", re.I)
_BARABARA = re.compile(rf"(?P<dice>\d+B\d+(?:\+\d+B\d+)*)(?:{_TARGET})?", re.I)
_REROLL = re.compile(rf"(?P<dice>\d+R\d+(?:\+\d+R\d+)*)\[(?P<rop>{_CMP})?(?P<th>\d+)\](?:{_TARGET})?", re.I)
_UPPER = re.compile(rf"(?P<dice>\d+U\d+(?:\+\d+U\d+)*)\[(?P<th>\d+)\](?P<mod>[+-]\d+)?(?:{_TARGET})?", re.I)
_TERM = re.compile(r"(\d+)[BRU](\d+)", re.I)
_REROLL_HEAD = re.compile(rf"\d+R\d+(?:\+\d+R\d+)*(?:\[(?:{_CMP})?\d+\])?(?:{_CMP}-?\d+)?", re.I)
_ADD_TOKEN = re.compile(r"(?P<dice>(?P<n>\d+)[Dd](?P<s>\d+)(?:(?P<f>[KDkd][HLhl])(?P<k>\d+))?)|\d+|[-+*/()]|[URFC]")
_OUT_TOKEN = re.compile(r"(?P<group>(?P<t>\d+)\[(?P<faces>[\d,]*)\])|\d+|[-+*/()]|[URFC]")
_CHOICE = re.compile(r"choice(\d*)([\[( ])", re.I)
_DICE_IN_TEXT = re.compile(r"\d\[\d|\d, ?\d")

MAX_TIMES, MAX_SIDES = 200, 10000
"""BCDice rolls nothing for more dice or more sides than this (``Randomizer``)."""


def is_int(text: str) -> bool:
    return bool(_INT.fullmatch(text))


def compare(op: str, a: int, b: int) -> bool:
    return {"<=": a <= b, ">=": a >= b, "<": a < b, ">": a > b, "=": a == b, "==": a == b, "<>": a != b, "!=": a != b}[
        op
    ]


def faces_of(text: str) -> list[int] | None:
    """``3,1,4`` → [3, 1, 4]; None unless the text is exactly such a list."""
    return [int(v) for v in text.split(",")] if _FACES.fullmatch(text) else None


def looks_sorted(values: list[int]) -> bool:
    """True when a sorted display could have produced these values (so their order is unknown)."""
    return len(set(values)) > 1 and all(a <= b for a, b in zip(values, values[1:]))


def unordered(values: list[int], sorting: bool | None) -> bool:
    """The order of these shown values is not the rolling order, or may not be."""
    if sorting is None:
        return looks_sorted(values)
    return sorting and len(set(values)) > 1


def d66_pair(value: int) -> tuple[int, int] | None:
    """``35`` → (3, 5): the two d6 of a D66 value, as shown (tens first)."""
    tens, ones = divmod(value, 10)
    return (tens, ones) if 1 <= tens <= 6 and 1 <= ones <= 6 else None


def d66_order_known(pair: tuple[int, int], sorted_: bool | None, suffix: str = "") -> bool:
    """Whether the digits of a D66 value are in the order rolled (``D66N``, or a system that does not sort)."""
    if pair[0] == pair[1] or suffix.upper() == "N":
        return True
    if suffix.upper() in ("A", "S", "D"):
        return False
    if sorted_ is None:
        return pair[0] > pair[1]  # an ascending sort never puts the larger digit first
    return not sorted_


# --- the readers --------------------------------------------------------------------


def read(block: Block, st: Settings) -> Roll | None:
    """The common command this block's echo names, read; None if it names none of them."""
    if block.echo is None:
        # "2R6 ＞ 条件が間違っています。…": reroll_dice/node.rb refuses the condition before rolling
        if (
            block.steps
            and block.steps[0].startswith("条件が間違っています")
            and _REROLL_HEAD.fullmatch(block.head.rsplit(" ", 1)[-1])
        ):  # CCFOLIA's classic page: the command first
            return make(block, "other", certain=True)
        return None
    if block.name:
        return calc(block) if block.name in ("c", "C") else table(block)
    if block.suffix:
        return None
    echo = block.echo
    for reader in _READERS:
        roll = reader(block, echo, st)
        if roll is not None:
            return roll
    return None


def calc(block: Block) -> Roll:
    """``c(1+2) ＞ 3``: arithmetic, no dice."""
    return make(block, "other", certain=True)


def table(block: Block) -> Roll | None:
    """``飲み物表(6) ＞ …``: a table names the total it rolled, not the dice (1D6? 2D6? D66?)."""
    if not _INT.fullmatch(block.echo or "") and not re.fullmatch(r"-?\d+\[[\d,]+\]", block.echo or ""):
        return None
    return make(
        block, "other", problem=Msg("bcdice.table_dice_hidden", table=repr(block.name), value=block.echo), certain=True
    )


def choice(block: Block, echo: str, st: Settings) -> Roll | None:
    """``(choice[A,B,C]) ＞ B``, ``(choice2(a,b,c)) ＞ a, b``, ``(choice A B C) ＞ C``."""
    m = _CHOICE.match(echo)
    if not m:
        return None
    takes = int(m.group(1) or 1)
    opener = m.group(2)
    body = echo[m.end() :]
    if opener in "[(":
        if not body.endswith("])"[opener == "("]):
            return None
        options, joiner = body[:-1].split(","), ", "
    else:
        options, joiner = body.split(" "), " "
    shown = block.steps[0] if block.steps else ""
    picked = shown.split(joiner) if takes > 1 else [shown]
    if len(picked) != takes or any(not o for o in options):
        return make(block, "other", problem=Msg("bcdice.picks_expected", takes=takes, shown=repr(shown)), certain=True)
    left, picks = list(options), []
    for p in picked:
        if left.count(p) != 1:
            why = "not one of the options" if p not in left else "an option listed twice, so which one is unknown"
            return make(block, "other", problem=Msg("bcdice.pick_is", pick=repr(p), why=why), certain=True)
        picks.append((len(left), left.index(p) + 1))
        left.remove(p)
    return make(block, "choice", picks=tuple(picks), options=tuple(options), pick=picked[0], certain=True)


def d66(block: Block, echo: str, st: Settings) -> Roll | None:
    """``(D66) ＞ 35``: two d6, tens digit first unless the system or the suffix sorts them."""
    m = _D66.fullmatch(echo)
    if not m:
        return None
    shown = block.steps[0] if block.steps else ""
    pair = d66_pair(int(shown)) if is_int(shown) and len(block.steps) == 1 else None
    if pair is None:
        return make(block, "other", problem=Msg("bcdice.d66_digits"), certain=True)
    return make(
        block,
        "die",
        dice=((6, pair[0]), (6, pair[1])),
        ordered=d66_order_known(pair, st.d66_sorted, m.group(1)),
        certain=True,
    )


def tally(block: Block, echo: str, st: Settings) -> Roll | None:
    """``(5TY6) ＞ 6,1,2,5,2 ＞ [1]×1, …``."""
    m = _TALLY.fullmatch(echo)
    if not m:
        return None
    times, sides = int(m.group(1)), int(m.group(3))
    faces = faces_of(block.steps[0]) if block.steps else None
    if faces is None:
        return (
            make(block, "other", certain=True)
            if sides > 20
            else make(block, "other", problem=Msg("bcdice.tally_faces_hidden"), certain=True)
        )
    if len(faces) != _times(times, sides) or not all(1 <= f <= sides for f in faces):
        return make(block, "other", problem=Msg("bcdice.faces_count_for", count=len(faces), echo=echo), certain=True)
    counts = [f"[{v}]×{faces.count(v)}" for v in range(1, sides + 1) if faces.count(v) or m.group(2).upper() == "Z"]
    if block.steps[1:] != (", ".join(counts),):
        return make(block, "other", problem=Msg("bcdice.tally_off_faces"), certain=True)
    return make(
        block,
        "die",
        dice=tuple((sides, f) for f in faces),
        ordered=not unordered(faces, st.sort_barabara),
        certain=True,
    )


def barabara(block: Block, echo: str, st: Settings) -> Roll | None:
    """``(2B6+4B10>3) ＞ 3,4,9,7,1,5 ＞ 成功数4``: every face, term by term."""
    m = _BARABARA.fullmatch(echo)
    if not m:
        return None
    terms = [(int(n), int(s)) for n, s in _TERM.findall(m.group("dice"))]
    faces = faces_of(block.steps[0]) if block.steps else None
    if faces is None:
        return make(block, "other", problem=Msg("bcdice.faces_not_shown"), certain=True)
    dice, pos, order = [], 0, True
    for times, sides in terms:
        part = faces[pos : pos + _times(times, sides)]
        pos += len(part)
        if not all(1 <= f <= sides for f in part):
            return make(block, "other", problem=Msg("bcdice.face_out_of_range", sides=sides), certain=True)
        order = order and not unordered(part, st.sort_barabara)
        dice.extend((sides, f) for f in part)
    if pos != len(faces):
        return make(block, "other", problem=Msg("bcdice.faces_count_for", count=len(faces), echo=echo), certain=True)
    if not _successes_follow(block.steps[1:], faces, m.group("cmp"), m.group("target")):
        return make(block, "other", problem=Msg("bcdice.steps_not_count"), certain=True)
    return make(block, "die", dice=tuple(dice), ordered=order, certain=True)


def _successes_follow(rest: tuple[str, ...], counted: list[int], op: str | None, target: str | None) -> bool:
    """What B and R dice print after the faces: ``成功数N`` (checked) when there is a target, else nothing.

    A system's own command that looks like these but prints something else (``(3B6) ＞ 2,5,6 ＞ 失敗``)
    may have rolled dice it does not show, so it is not read as the common command.
    Only ShadowRun's glitch text may follow (``grich_text``), and only after the count.
    """
    if op is None or target == "?":
        return not rest
    wins = sum(compare(op, v, int(target)) for v in counted) if target is not None else 0
    return bool(rest) and rest[0] == f"成功数{wins}" and len(rest) <= 2


def reroll(block: Block, echo: str, st: Settings) -> Roll | None:
    """``(2R4+2R6[4]>=4) ＞ 4,3 + 3,5 + 1 + 2``: groups in the order BCDice's queue rolled them.

    Each group rerolls as many dice of its size as met the reroll condition; the
    queue is replayed to know every group's sides and to check every group's size.
    """
    m = _REROLL.fullmatch(echo)
    if not m:
        return None
    op = m.group("rop") or m.group("cmp") or ">="
    threshold = int(m.group("th"))
    queue = [(int(n), int(s)) for n, s in _TERM.findall(m.group("dice"))]
    groups = [faces_of(g.strip()) for g in block.steps[0].split(" + ")] if block.steps else [None]
    dice, order = [], True
    for group in groups:
        if group is None or not queue:
            return make(block, "other", problem=Msg("bcdice.reroll_groups"), certain=True)
        times, sides = queue.pop(0)
        if len(group) != _times(times, sides) or not all(1 <= f <= sides for f in group):
            return make(
                block,
                "other",
                problem=Msg("bcdice.group_off_reroll", group=group, times=times, sides=sides),
                certain=True,
            )
        again = sum(compare(op, f, threshold) for f in group)
        if again:
            queue.append((again, sides))
        order = order and not unordered(group, st.sort_barabara)
        dice.extend((sides, f) for f in group)
    if queue:
        return make(block, "other", problem=Msg("bcdice.rerolls_missing"), certain=True)
    # R dice always print their count, 成功数0 without a target (reroll_dice/node.rb).
    target = m.group("target")
    wins = sum(compare(m.group("cmp"), v, int(target)) for _, v in dice) if m.group("cmp") and target != "?" else 0
    if len(block.steps) < 2 or block.steps[1] != f"成功数{wins}" or len(block.steps) > 3:
        return make(block, "other", problem=Msg("bcdice.steps_not_count"), certain=True)
    return make(block, "die", dice=tuple(dice), ordered=order, certain=True)


def upper(block: Block, echo: str, st: Settings) -> Roll | None:
    """``(4U6[6]+11) ＞ 5,2,11[6,5],23[6,6,6,5]+11 ＞ …``: each die with every roll it took."""
    m = _UPPER.fullmatch(echo)
    if not m:
        return None
    threshold = int(m.group("th"))
    if len(block.steps) == 1 or threshold <= 1:
        return make(block, "other", certain=True)  # 無限ロールの条件がまちがっています: nothing rolled
    shown = block.steps[0]
    mod = m.group("mod") or ""
    if mod and not shown.endswith(mod):
        return make(block, "other", problem=Msg("bcdice.modifier_misplaced"), certain=True)
    items = shown[: len(shown) - len(mod)].split(",") if shown else []
    # "11[6,5]" was cut at its inner commas: glue the pieces of each bracket back together.
    joined: list[str] = []
    for it in items:
        if joined and "[" in joined[-1] and not joined[-1].endswith("]"):
            joined[-1] += "," + it
        else:
            joined.append(it)
    terms = [(int(n), int(s)) for n, s in _TERM.findall(m.group("dice"))]
    dice, pos, order, all_sums = [], 0, True, []
    for times, sides in terms:
        part = joined[pos : pos + times]
        pos += times
        sums = []
        for item in part:
            rolls = _upper_item(item, threshold, sides)
            if rolls is None:
                return make(
                    block,
                    "other",
                    problem=Msg("bcdice.die_off_threshold", die=repr(item), threshold=threshold),
                    certain=True,
                )
            sums.append(sum(rolls))
            dice.extend((sides, r) for r in rolls)
        all_sums.extend(sums)
        order = order and not unordered(sums, st.sort_barabara)
    if pos != len(joined):
        return make(block, "other", problem=Msg("bcdice.dice_count_for", count=len(joined), echo=echo), certain=True)
    if block.steps[1:] != (_upper_result(all_sums, int(mod or 0), m),):
        return make(block, "other", problem=Msg("bcdice.result_off_dice"), certain=True)
    return make(block, "die", dice=tuple(dice), ordered=order, certain=True)


def _upper_result(sums: list[int], mod: int, m: re.Match[str]) -> str:
    """What U dice print last: ``成功数N``, or ``max/total(最大/合計)`` without a target."""
    if m.group("cmp"):
        return f"成功数{sum(compare(m.group('cmp'), v + mod, int(m.group('target'))) for v in sums)}"
    return f"{max(sums) + mod}/{sum(sums) + mod}(最大/合計)" if sums else ""


def _upper_item(item: str, threshold: int, sides: int) -> list[int] | None:
    if is_int(item):
        rolls = [int(item)]
    else:
        m = re.fullmatch(r"(\d+)\[(\d+(?:,\d+)+)\]", item)
        if not m:
            return None
        rolls = [int(v) for v in m.group(2).split(",")]
        if sum(rolls) != int(m.group(1)):
            return None
    ok = all(1 <= r <= sides for r in rolls) and all(r >= threshold for r in rolls[:-1]) and rolls[-1] < threshold
    return rolls if ok else None


def add(block: Block, echo: str, st: Settings) -> Roll | None:
    """``(2D6+1D4) ＞ 7[5,2]+3[3] ＞ 10``, ``(1D100<=50) ＞ 37 ＞ 成功``, ``(5D10KH3) ＞ 21[2,3,5,8,8] ＞ 21``."""
    lhs, cmp = _split_comparison(echo)
    if cmp is None:
        return None
    tokens = _tokens(_ADD_TOKEN, lhs)
    if tokens is None or not any(t.group("dice") for t in tokens):
        return None
    steps = block.steps
    bare = len(tokens) == 1 and tokens[0].group("f") is None
    if bare and steps and is_int(steps[0]):
        return _bare(block, tokens[0], int(steps[0]), st)
    if len(steps) < 2:
        return make(block, "other", problem=Msg("bcdice.no_faces"), certain=True)
    out = _tokens(_OUT_TOKEN, steps[0])
    if out is None or len(out) != len(tokens) or not is_int(steps[1]):
        return make(block, "other", problem=Msg("bcdice.faces_off_command"), certain=True)
    if any(_DICE_IN_TEXT.search(s) for s in steps[2:]):
        return make(block, "other", problem=Msg("bcdice.dice_after_total"), certain=True)
    dice: list[tuple[int, int]] = []
    order = True
    for want, got in zip(tokens, out):
        if not want.group("dice"):
            if want.group() != got.group():
                return make(block, "other", problem=Msg("bcdice.faces_off_command"), certain=True)
            continue
        term = _term(want, got, st)
        if isinstance(term, str):
            return make(block, "other", problem=term, certain=True)
        dice.extend(term[0])
        order = order and term[1]
    return make(block, "die", dice=tuple(dice), ordered=order, certain=True)


def _bare(block: Block, tok: re.Match[str], total: int, st: Settings) -> Roll:
    """One die alone prints no brackets: ``(1D6) ＞ 4``; too many dice or sides print ``0``."""
    times, sides = int(tok.group("n")), int(tok.group("s"))
    if _times(times, sides) == 0:
        return (
            make(block, "other", certain=True)
            if total == 0
            else make(block, "other", problem=Msg("bcdice.total_unrolled"), certain=True)
        )
    if times != 1 or sides == 66:
        return make(block, "other", problem=Msg("bcdice.only_total"), certain=True)
    if sides == 9 and st.d9 is not False:
        return make(block, "other", problem=Msg("bcdice.d9_gundog"), certain=True)
    if not 1 <= total <= sides:
        return make(block, "other", problem=Msg("bcdice.no_face_of", total=total, sides=sides), certain=True)
    return make(block, "die", dice=((sides, total),), certain=True)


def _term(want: re.Match[str], got: re.Match[str], st: Settings) -> tuple[list[tuple[int, int]], bool] | str:
    """The dice of one ``NdS`` term from its ``total[faces]`` (or a bare face for one die)."""
    times, sides = int(want.group("n")), int(want.group("s"))
    expected = _times(times, sides)
    if got.group("group") is None:
        if times != 1 or expected != 1 or sides == 66 or not 1 <= int(got.group()) <= sides:
            return f"{got.group()!r} shown for {want.group()}"
        return [(sides, int(got.group()))], True
    faces = [int(v) for v in got.group("faces").split(",")] if got.group("faces") else []
    total = int(got.group("t"))
    if expected == 0:
        return ([], True) if total == 0 else f"{want.group()} rolls nothing in BCDice"
    if len(faces) != expected:
        return f"{len(faces)} faces shown for {want.group()}"
    kept = _kept(faces, want.group("f"), int(want.group("k") or 0))
    if kept is None or sum(kept) != total:
        return f"faces of {want.group()} do not add up to {total}"
    if sides == 66:
        pairs = [d66_pair(f) for f in faces]
        if None in pairs:
            return "a D66 face is not two digits 1–6"
        order = not (st.sort_add is not False and len(faces) > 1) and all(
            d66_order_known(p, st.d66_sorted) for p in pairs if p
        )
        return [(6, d) for p in pairs if p for d in p], order
    if sides == 9 and (st.d9 or (st.d9 is None and 0 in faces)):
        if not all(0 <= f <= 9 for f in faces):
            return "a D9 face is not 0–9"
        return [(10, f + 1) for f in faces], not (want.group("f") or unordered(faces, st.sort_add))
    if sides == 9 and st.d9 is None:
        return "a D9 may be a d10 read 0–9 (Gundog)"
    if not all(1 <= f <= sides for f in faces):
        return f"a face out of 1–{sides}"
    return [(sides, f) for f in faces], not (want.group("f") or unordered(faces, st.sort_add))


def _kept(faces: list[int], keep: str | None, n: int) -> list[int] | None:
    """The faces a keep/drop filter adds up; the display of a filtered roll is sorted ascending."""
    if keep is None:
        return faces
    if faces != sorted(faces):
        return None
    k = keep.upper()
    return {
        "KH": faces[max(0, len(faces) - n) :] if n else [],
        "KL": faces[:n],
        "DH": faces[: max(0, len(faces) - n)],
        "DL": faces[n:],
    }[k]


def _times(times: int, sides: int) -> int:
    """How many dice BCDice really rolls for ``times``D``sides``."""
    if sides == 66:
        return times
    return times if 0 < times <= MAX_TIMES and 0 < sides <= MAX_SIDES else 0


def _split_comparison(echo: str) -> tuple[str, str | None]:
    """(left side, comparison and target) of an add-dice echo; (echo, None) when it is no add-dice echo."""
    depth = 0
    for i, ch in enumerate(echo):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch in "<>=" and depth == 0:
            m = re.fullmatch(_TARGET, echo[i:])
            return (echo[:i], m.group()) if m else (echo, None)
        elif ch not in "0123456789DdKkHhLl+-*/URFC":
            return echo, None
    return echo, ""


def _tokens(pattern: re.Pattern[str], text: str) -> list[re.Match[str]] | None:
    """The tokens of ``text`` if the pattern covers all of it, else None."""
    out, pos = [], 0
    for m in pattern.finditer(text):
        if m.start() != pos:
            return None
        out.append(m)
        pos = m.end()
    return out if pos == len(text) and out else None


_READERS: list[Callable[[Block, str, Settings], Roll | None]] = [choice, d66, tally, barabara, reroll, upper, add]

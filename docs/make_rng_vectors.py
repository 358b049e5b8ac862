"""The published test vectors of kifu's verifiable tosses, as docs/randomness.md shows them.

    python docs/make_rng_vectors.py            print the sections (v1, then v2)
    python docs/make_rng_vectors.py --write    replace them in docs/randomness.md

tests/test_rng_vectors.py checks that the page holds exactly this output, and
that an independent implementation written from the page reproduces it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
import unicodedata
from pathlib import Path

from kifu.events import rng

DOC = Path(__file__).with_name("randomness.md")
BEGIN = "<!-- test vectors: made by docs/make_rng_vectors.py --write; do not edit by hand -->"
END = "<!-- end of test vectors -->"
BEGIN2 = "<!-- v2 test vectors: made by docs/make_rng_vectors.py --write; do not edit by hand -->"
END2 = "<!-- end of v2 test vectors -->"

CASES: list[tuple[bytes, str]] = [
    (bytes(range(32)), "neko1234"),
    (hashlib.sha256(b"kifu test vector 2").digest(), "7d2mq9xk4fa8wz3np6rt"),
    (bytes([0xA5]) * 32, "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz01"),
]
"""(secret, nonce): counting bytes with a typed nonce, a hashed secret with a generated-style nonce,
a repeated byte with the longest nonce (64 characters, i l o u included: nonces may use them)."""
SIDES = (2, 6, 10, 20, 100)
"""Dice whose first outcomes every vector lists."""
COUNT = 20
"""Outcomes per die."""
MIXED = [2, 2, 2, 6, 20, 100, 10, 2, 2147483649, 3000000000, 6, 2]
"""A mixed stream. 2**31 + 1 and 3e9 sides reject about half and 30 % of the words, so an
implementation that skips rejection, or reads the words in another order, gets these wrong."""


def _chat_forms(token: str) -> list[str]:
    """What chats do to a token on its way: each must still read as the token."""
    full = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in token.upper())
    return [
        f"<@123456789012345678> {token}",
        f"> `{token}`",
        f"**{token[:30]}\n{token[30:70]} {token[70:]}**。よろしく",
        full,
        token[:12] + "\u200b" + token[12:],
    ]


def _chat_cases() -> list[dict[str, object]]:
    secret, nonce_text = CASES[0]
    commitment = rng.commit(secret)
    nonce = rng.Nonce(id=commitment.id, text=nonce_text)
    shown = [commitment.format(), nonce.format(), rng.reveal(secret, nonce).format()]
    cases: list[dict[str, object]] = [{"text": form, "tokens": [shown[0]]} for form in _chat_forms(shown[0])]
    cases.append({"text": f"{shown[1]} ok?", "tokens": [shown[1]]})
    cases.append({"text": f"{shown[1]}, ok?", "tokens": [shown[1]]})
    cases.append({"text": f"{shown[1][:-2]} {shown[1][-2:]}", "tokens": [shown[1][:-2]]})
    for token in (shown[0], shown[2]):
        digit = 20
        changed = token[:digit] + ("0" if token[digit] != "0" else "1") + token[digit + 1 :]
        cases.append({"text": changed, "tokens": []})
        cases.append({"text": token[:-1], "tokens": []})
    cases.append({"text": f"{shown[2][:-4]}\n{shown[2][-4:]}", "tokens": []})
    return cases


def vectors() -> dict[str, object]:
    """Every vector: inputs, commitment, id, tokens, the first HMAC block and outcomes."""
    out = []
    for secret, nonce_text in CASES:
        commitment = rng.commit(secret)
        nonce = rng.Nonce(id=commitment.id, text=nonce_text)
        reveal = rng.reveal(secret, nonce)
        message = f"{rng.VERSION}:outcome:{commitment.id}:{nonce_text}:0:0"
        out.append(
            {
                "secret": secret.hex(),
                "nonce": nonce_text,
                "commitment": commitment.digest,
                "id": commitment.id,
                "commit_token": commitment.format(),
                "nonce_token": nonce.format(),
                "reveal_token": reveal.format(),
                "block_message": message,
                "block": hmac.digest(secret, message.encode("ascii"), "sha256").hex(),
                "outcomes": {str(s): reveal.outcomes([s] * COUNT) for s in SIDES},
                "mixed_sides": MIXED,
                "mixed": reveal.outcomes(MIXED),
            }
        )
    return {"version": rng.VERSION, "vectors": out, "chat": _chat_cases()}


def _json(data: dict[str, object]) -> str:
    """JSON with one key per line and every list of numbers on one line: easy to read and to diff."""
    lines = ["{", f'  "version": {json.dumps(data["version"])},', '  "vectors": [']
    vectors_ = data["vectors"]
    assert isinstance(vectors_, list)
    for i, v in enumerate(vectors_):
        lines.append("    {")
        items = list(v.items())
        for j, (key, value) in enumerate(items):
            comma = "," if j < len(items) - 1 else ""
            if isinstance(value, dict):
                lines.append(f"      {json.dumps(key)}: {{")
                inner = list(value.items())
                for k, (sides, faces) in enumerate(inner):
                    lines.append(
                        f"        {json.dumps(sides)}: {json.dumps(faces)}" + ("," if k < len(inner) - 1 else "")
                    )
                lines.append("      }" + comma)
            else:
                lines.append(f"      {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
        lines.append("    }" + ("," if i < len(vectors_) - 1 else ""))
    lines.append("  ],")
    lines.append('  "chat": [')
    chat = data["chat"]
    assert isinstance(chat, list)
    for i, case in enumerate(chat):
        lines.append(f"    {_visible(json.dumps(case, ensure_ascii=False))}" + ("," if i < len(chat) - 1 else ""))
    lines += ["  ]", "}"]
    return "\n".join(lines)


def _visible(text: str) -> str:
    """JSON text with invisible format characters (zero-width space …) written as \\u escapes."""
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) == "Cf" else c for c in text)


def _words(block: bytes) -> list[int]:
    return [int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4)]


def worked_example() -> str:
    """Vector 1 step by step, with commands that check each step with standard tools."""
    secret, nonce_text = CASES[0]
    c = rng.commit(secret)
    nonce = rng.Nonce(id=c.id, text=nonce_text)
    first5 = bytes.fromhex(c.digest[:10])
    bits = "".join(f"{b:08b}" for b in first5)
    groups = " ".join(bits[i : i + 5] for i in range(0, 40, 5))
    values = " ".join(str(int(bits[i : i + 5], 2)) for i in range(0, 40, 5))
    body = f"kifu:c1:{c.id}:{c.digest}"
    message = f"{rng.VERSION}:outcome:{c.id}:{nonce_text}:0:0"
    block = hmac.digest(secret, message.encode("ascii"), "sha256")
    w = _words(block)
    limit6 = rng.accept_limit(6)
    reveal_body = f"kifu:r1:{c.id}:{secret.hex()}:{nonce_text}"
    rejected = _first_rejection(secret, nonce_text, c.id)
    lines = [
        "Vector 1, step by step (each step can be checked with coreutils, `xxd` and `openssl`):",
        "",
        "```",
        f"secret        {secret.hex()}",
        f'commitment    SHA-256("{rng.VERSION}:commit:" || secret bytes)',
        f"              = {c.digest}",
        f"id            first 5 bytes {first5.hex()} = bits {groups}",
        f"              = values {values} in 0123456789abcdefghjkmnpqrstvwxyz = {c.id}",
        f'commit check  SHA-256("{body}")',
        f"              first 6 hex digits = {rng.check_digits(body)}",
        f"commit token  {c.format()}",
        f"nonce token   {nonce.format()}",
        f'reveal check  SHA-256("{reveal_body}")',
        f"              first 6 hex digits = {rng.check_digits(reveal_body)}",
        f"reveal token  {rng.reveal(secret, nonce).format()}",
        "",
        f'outcome 0, block 0: HMAC-SHA256(key = secret bytes, message = "{message}")',
        f"              = {block.hex()}",
        "words         " + " ".join(f"{x:08x}" for x in w),
        f"              w0 = {w[0]}",
        f"coin          w0 < 2^32 (2 divides 2^32: nothing is rejected), {w[0]} mod 2 + 1 = {w[0] % 2 + 1}",
        f"d6            limit = 2^32 - (2^32 mod 6) = {limit6}; w0 < limit, {w[0]} mod 6 + 1 = {w[0] % 6 + 1}",
        rejected,
        "```",
        "",
        "The same with standard tools:",
        "",
        "```sh",
        f"S={secret.hex()}",
        f"{{ printf '{rng.VERSION}:commit:'; printf '%s' $S | xxd -r -p; }} | sha256sum      # commitment",
        f"printf '%s' '{body}' | sha256sum | cut -c1-6   # commit check",
        f"printf '%s' '{message}' | openssl dgst -sha256 -mac HMAC -macopt hexkey:$S   # block",
        "```",
    ]
    return "\n".join(lines)


def _first_rejection(secret: bytes, nonce: str, id: str) -> str:
    """The first outcome of the mixed stream that rejects a word, shown word by word."""
    for index, sides in enumerate(MIXED):
        message = f"{rng.VERSION}:outcome:{id}:{nonce}:{index}:0"
        words = _words(hmac.digest(secret, message.encode("ascii"), "sha256"))
        limit = rng.accept_limit(sides)
        if words[0] >= limit:
            kept = next(i for i, x in enumerate(words) if x < limit)
            return (
                f"rejection     mixed outcome {index} has {sides} sides: limit = {limit};\n"
                f'              block 0 of "{message}" gives w0 = {words[0]}'
                + "".join(f", w{i} = {words[i]}" for i in range(1, kept + 1))
                + f";\n              {'w0 >= limit is' if kept == 1 else f'w0 … w{kept - 1} >= limit are'} rejected, "
                f"w{kept} is kept: {words[kept]} mod {sides} + 1 = {words[kept] % sides + 1}"
            )
    raise AssertionError("vector 1's mixed stream rejects no word: pick other sides")


def section() -> str:
    """The Markdown between the markers of docs/randomness.md."""
    return "\n".join(
        [
            BEGIN,
            "",
            worked_example(),
            "",
            "All vectors (`outcomes` maps sides to outcomes 0 … 19 of a stream of that die alone; "
            "`mixed` is outcomes 0 … 11 with `mixed_sides`; `chat` lists messages and the tokens they must read as, "
            "none for one that must be refused):",
            "",
            "```json",
            _json(vectors()),
            "```",
            "",
            END,
        ]
    )


# --- version 2 ------------------------------------------------------------------------------------------

V2_CASES: list[tuple[bytes, str, str, str, list[str]]] = [
    (bytes(range(32)), "R1-T3", "first-player", "coin", ["7d2mq9xk4fa8wz3np6rt"]),
    (
        hashlib.sha256(b"kifu test vector 2").digest(),
        "卓2 第3試合",
        "init-distance",
        "coin.2d6",
        ["q4v8c1m9z2x7b5n3k6pw", "h3j9t5r1y7u2e8w4q6zx", "neko1234neko5678"],
    ),
    (
        bytes([0xA5]) * 32,
        "2025-03-01-t2",
        "act-a3",
        "coin-until-2",
        ["abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz01"],
    ),
    (
        hashlib.sha256(b"kifu test vector 4").digest(),
        "m1",
        "big-dice",
        "d2147483649.2d3000000000.d6",
        ["1234567890abcdef"],
    ),
]
"""(secret, match id, purpose, roll, the opponents' nonces as they were posted): one coin; three opponents whose
nonces combine, a match id that is not plain (hashed); an until roll with the longest nonce; dice that reject
about half of their words."""
V2_SIDES = (2, 6, 20)
"""Dice whose outcomes 0 … 19 every v2 vector lists (the sides enter each outcome's input in v2)."""
MATCHES = ["R1-T3", "r1-t3", "ｍａｔｃｈ－７", "卓2 第3試合", "match_01", "a" * 41, "-starts-with-a-dash"]
"""Match ids and the field a v2 commitment names them by: plain ones folded, the others hashed."""
ROLLS = ["coin", "3coins", "d6", "2d6", "coin.d20", "coin.2d6.d20", "d2.d2", "coin-until-2", "d6-until-6"]
BAD_ROLLS = ["d1", "0coins", "coin-until-3", "2coins-until-1", "coin.", "d06", "coins-until-2.d6", "1001coins"]


def _v2_row(secret: bytes, match_id: str, purpose: str, roll: str, posted: list[str]) -> dict[str, object]:
    binding = rng.Binding(match=rng.match_field(match_id), purpose=purpose, roll=roll)
    c = rng.commit(secret, binding)
    nonces = [rng.Nonce(id=c.id, text=t, version=2) for t in posted]
    r = rng.reveal(secret, nonces, 2)
    message = f"{rng.VERSION2}:outcome:{c.id}:{r.nonce}:0:{binding.dice.sides_at(0)}:0"
    at = r.stream()
    return {
        "secret": secret.hex(),
        "match_id": match_id,
        "match": binding.match,
        "purpose": purpose,
        "roll": roll,
        "commit_prefix": f"{rng.VERSION2}:commit:{binding.match}:{purpose}:{roll}:",
        "commitment": c.digest,
        "id": c.id,
        "commit_token": c.format(),
        "nonce_tokens": [n.format() for n in nonces],
        "nonces": r.nonce,
        "reveal_token": r.format(),
        "block_message": message,
        "block": hmac.digest(secret, message.encode("ascii"), "sha256").hex(),
        "outcomes": [list(o) for o in binding.dice.draw(at)],
        "stream": {str(s): [at(i, s) for i in range(COUNT)] for s in V2_SIDES},
        "mixed_sides": MIXED,
        "mixed": [at(i, s) for i, s in enumerate(MIXED)],
    }


def _v2_chat() -> list[dict[str, object]]:
    secret, match_id, purpose, roll, posted = V2_CASES[0]
    row = _v2_row(secret, match_id, purpose, roll, posted)
    c, n, r = row["commit_token"], row["nonce_tokens"][0], row["reveal_token"]  # type: ignore[index]
    full = "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in str(c).upper())
    many = _v2_row(*V2_CASES[1])
    cases: list[dict[str, object]] = [
        {"text": full, "tokens": [c]},
        {"text": f"`{str(c)[:30]}\n{str(c)[30:]}`", "tokens": [c]},
        {"text": f"{n}よろしく", "tokens": [n]},
        {"text": f"{n}ｘ", "tokens": [str(n) + "x"]},
        {"text": f"{r} よろしく → 表", "tokens": [r], "claims": [[2, 1]]},
        {"text": f"{r}→表 裏", "tokens": [r], "claims": [[2, 1], [2, 2]]},
        {"text": f"{r}", "tokens": [r], "claims": []},
        {"text": f"{many['reveal_token']}. → d6=3", "tokens": [many["reveal_token"]], "claims": [[6, 3]]},
        {"text": f"{r}.ok", "tokens": []},
        {"text": str(c).replace(":coin:", ":coins:"), "tokens": []},
        {"text": str(c).replace(":r1-t3:", ":r1-t4:"), "tokens": []},
        {"text": f"kifu:c3:{row['id']}:x", "tokens": []},
    ]
    return cases


def vectors2() -> dict[str, object]:
    """The v2 vectors, the match fields, the rolls, and chat cases."""
    return {
        "version": rng.VERSION2,
        "vectors": [_v2_row(*case) for case in V2_CASES],
        "matches": [{"match_id": m, "field": rng.match_field(m)} for m in MATCHES],
        "rolls": [{"roll": r, "sides": rng.Roll.parse(r).sides(), "until": rng.Roll.parse(r).until} for r in ROLLS]
        + [{"roll": r, "valid": False} for r in BAD_ROLLS],
        "chat": _v2_chat(),
    }


def _json2(data: dict[str, object]) -> str:
    """v2 vectors as JSON: one key per line, a list of numbers or strings on one line."""
    out = ["{", f'  "version": {json.dumps(data["version"])},']
    keys = [k for k in data if k != "version"]
    for n, key in enumerate(keys):
        items = data[key]
        assert isinstance(items, list)
        out.append(f"  {json.dumps(key)}: [")
        for i, item in enumerate(items):
            comma = "," if i < len(items) - 1 else ""
            if key == "vectors":
                out.append("    {")
                pairs = list(item.items())
                for j, (k, v) in enumerate(pairs):
                    c2 = "," if j < len(pairs) - 1 else ""
                    if isinstance(v, dict):
                        inner = ", ".join(f"{json.dumps(s)}: {json.dumps(f)}" for s, f in v.items())
                        out.append(f"      {json.dumps(k)}: {{{inner}}}{c2}")
                    else:
                        out.append(f"      {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}{c2}")
                out.append("    }" + comma)
            else:
                out.append(f"    {_visible(json.dumps(item, ensure_ascii=False))}{comma}")
        out.append("  ]" + ("," if n < len(keys) - 1 else ""))
    out.append("}")
    return "\n".join(out)


def worked_example2() -> str:
    """v2 vector 1 step by step, with commands that check each step with standard tools."""
    secret, match_id, purpose, roll, posted = V2_CASES[0]
    v = _v2_row(secret, match_id, purpose, roll, posted)
    block = bytes.fromhex(str(v["block"]))
    w = _words(block)
    body = str(v["commit_token"]).rsplit(":", 1)[0]
    reveal_body = f"kifu:r2:{v['id']}:{secret.hex()}:{v['nonces']}"
    lines = [
        "v2 vector 1, step by step:",
        "",
        "```",
        f"match id      {match_id}: folded (NFKC, A-Z lowered) {v['match']}, plain: the field is {v['match']}",
        f"secret        {secret.hex()}",
        f'commitment    SHA-256("{v["commit_prefix"]}" || secret bytes)',
        f"              = {v['commitment']}",
        f"id            first 40 bits in base32, as in v1 = {v['id']}",
        f'commit check  SHA-256("{body}")',
        f"              first 6 hex digits = {rng.check_digits(body)}",
        f"commit token  {v['commit_token']}",
        f"nonce token   {v['nonce_tokens'][0]}",  # type: ignore[index]
        f'reveal check  SHA-256("{reveal_body}")',
        f"              first 6 hex digits = {rng.check_digits(reveal_body)}",
        f"reveal token  {v['reveal_token']}",
        "",
        f'outcome 0, a coin (the roll {roll}), block 0: HMAC-SHA256(key = secret bytes, message = "{v["block_message"]}")',
        f"              = {block.hex()}",
        "words         " + " ".join(f"{x:08x}" for x in w),
        f"coin          w0 = {w[0]}, {w[0]} mod 2 + 1 = {w[0] % 2 + 1}",
        "```",
        "",
        "```sh",
        f"S={secret.hex()}",
        f"{{ printf '{v['commit_prefix']}'; printf '%s' $S | xxd -r -p; }} | sha256sum      # commitment",
        f"printf '%s' '{body}' | sha256sum | cut -c1-6   # commit check",
        f"printf '%s' '{v['block_message']}' | openssl dgst -sha256 -mac HMAC -macopt hexkey:$S   # block",
        "```",
    ]
    return "\n".join(lines)


def section2() -> str:
    """The Markdown between the v2 markers of docs/randomness.md."""
    return "\n".join(
        [
            BEGIN2,
            "",
            worked_example2(),
            "",
            "All v2 vectors (`nonce_tokens` as the opponents posted them, `nonces` as the reveal combines them; "
            "`outcomes` the roll's outcomes as [sides, face]; `stream` maps sides to outcomes 0 … 19 of that die; "
            "`mixed` is outcomes 0 … 11 with `mixed_sides`), match ids and their field, rolls and their dice "
            "(`sides`, and the face an until roll stops at), and chat cases (`claims`: the outcomes a reveal posts):",
            "",
            "```json",
            _json2(vectors2()),
            "```",
            "",
            END2,
        ]
    )


def _replace(doc: str, begin: str, end: str, text: str) -> str | None:
    head, _, rest = doc.partition(begin)
    _, found, tail = rest.partition(end)
    return head + text + tail if found else None


def main(argv: list[str]) -> int:
    if argv[1:] == ["--write"]:
        doc: str | None = DOC.read_text(encoding="utf-8")
        for begin, end, text in ((BEGIN, END, section()), (BEGIN2, END2, section2())):
            doc = _replace(doc, begin, end, text) if doc is not None else None
        if doc is None:
            print(f"{DOC}: the markers are missing", file=sys.stderr)
            return 2
        DOC.write_text(doc, encoding="utf-8")
        return 0
    print(section())
    print()
    print(section2())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

"""Write the acceptance exports for `kifu import` (issue 8).

Every export here was written from the format descriptions alone
(../shared/reference/online-logs.md §1-§6, docs/importers.md), with invented
players and messages, as a user's checker would write them. Re-running this
script reproduces every file byte for byte (no clock, fixed contents); the
expectations are in cases.json beside it.

    PYTHONPATH=. python tests/acceptance/imports/make.py
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ZIP_TIME = (2025, 3, 1, 20, 10, 0)

# --- CCFOLIA classic (§1a): 8 lines per <p>, the body escaped, newlines kept raw ---

CLASSIC_HEAD = """<!DOCTYPE html>
<html lang="ja">
  <head>
    <meta charset="{charset}" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta http-equiv="X-UA-Compatible" content="ie=edge" />
    <title>ccfolia - logs</title>
  </head>
  <body>
    

"""
CLASSIC_TAIL = """
  </body>
</html>
"""


def classic_p(tab: str, colour: str, name: str, body: str, *, raw: bool = False) -> str:
    """One message; `raw` bodies are already markup (a `<br>`, a hostile tag)."""
    text = body if raw else html.escape(body, quote=False)
    return (
        f'\n<p style="color:{colour};">\n  <span> [{tab}]</span>\n  <span>{html.escape(name, quote=False)}</span> :\n'
        f"  <span>\n    {text} \n  </span>\n</p>\n"
    )


def classic(messages: list[tuple], charset: str = "UTF-8") -> str:
    body = "".join(classic_p(*m[:4], raw=len(m) > 4 and m[4]) for m in messages)
    return CLASSIC_HEAD.format(charset=charset) + body + CLASSIC_TAIL


MINATO, YUKI, JUDGE = ("#e91e63", "ミナト"), ("#2196f3", "ユキ"), ("#888888", "GM[審判]: 佐藤")

GG_CLASSIC = [
    ("main", *MINATO, "よろしくお願いします！"),
    ("main", *YUKI, 'よろしく<お願い>します & "楽しみ"'),
    ("main", *MINATO, "!act a1 計略"),
    ("main", *MINATO, "!cost a1 手札 1"),
    ("main", *MINATO, "CHOICE[自分,相手] (choice[自分,相手]) ＞ 自分"),
    ("main", *MINATO, "CHOICE[自分,相手] (choice[自分,相手]) ＞ 相手"),
    ("main", *MINATO, "!resolve a1 1 1"),
    ("other", *YUKI, "今のは\n計略でしたね"),
    ("作戦", *YUKI, "次はリロードで<br>様子を見る", True),
    ("main", *YUKI, "！ＡＣＴ　ａ２　計略"),
    ("main", *YUKI, "!cost a2 手札 1"),
    ("main", *YUKI, "x3 1D2 #1\n(1D2) ＞ 1\n\n#2\n(1D2) ＞ 1\n\n#3\n(1D2) ＞ 2"),
    ("main", *YUKI, "!resolve a2 2 2"),
    ("info", *JUDGE, "!ruling a1のトスは有効です"),
    ("main", *MINATO, "シークレットダイス ???"),  # an unopened secret roll, as a classic page shows it
    ("main", *YUKI, "!win ユキ"),
    ("other", *MINATO, "ありがとうございました"),
]

AOI, REN, KP = ("#4caf50", "Aoi"), ("#ff9800", "Ren"), ("#000000", "KP:ゆかり [GM]")

GENERIC_CLASSIC = [
    ("main", *AOI, "2d6>=7 (2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"),
    ("main", *AOI, "x3 2D6 #1\n(2D6) ＞ 9[6,3] ＞ 9\n\n#2\n(2D6) ＞ 4[1,3] ＞ 4\n\n#3\n(2D6) ＞ 12[6,6] ＞ 12"),
    ("main", *REN, "1D6+1D4 (1D6+1D4) ＞ 5[5]+3[3] ＞ 8"),
    ("main", *REN, "飲み物表 飲み物表(6) ＞ 選ばれし者の知的飲料"),
    ("main", *REN, "C(1+2*3) c(1+2*3) ＞ 7"),
    ("other", *AOI, "choice[グー,チョキ,パー] (choice[グー,チョキ,パー]) ＞ パー"),
    ("info", *KP, "<script>alert(1)</script> は無効です"),
    ("main", *REN, "1D100<=50 (1D100<=50) ＞ 37 ＞ 成功"),
    ("main", *AOI, "シークレットダイス ???"),
    ("main", *REN, "Renの勝ち"),
]

LEN, AOI_JA, JUDGE_JA = ("#673ab7", "レン"), ("#009688", "アオイ"), ("#9e9e9e", "ジャッジ")

MTG_CLASSIC = [
    ("main", *LEN, "!turn 3"),
    ("main", *LEN, "!enters thumb クラークの親指"),
    ("main", *LEN, "!flip 熱狂のイフリート"),
    ("main", *LEN, "!call 表"),
    ("main", *LEN, "2D2 (2D2) ＞ 3[1,2] ＞ 3"),
    ("main", *LEN, "!keep 1"),
    ("main", *LEN, "!won"),
    ("other", *AOI_JA, "親指強いな"),
    ("main", *AOI_JA, "!flip スレイマンの壺"),
    ("main", *AOI_JA, "!call t"),
    ("main", *AOI_JA, "CHOICE[表,裏] (choice[表,裏]) ＞ 裏"),
    ("main", *AOI_JA, "!won"),
    ("main", *AOI_JA, "!concede"),
    ("info", *JUDGE_JA, "!ruling 親指の処理は正しい"),
]

SJIS_CLASSIC = [
    ("main", *MINATO, "先攻後攻をコインで決めます"),
    ("main", *MINATO, "CHOICE[表,裏] (choice[表,裏]) ＞ 裏"),
    ("other", *YUKI, "1d2<=1 (1D2<=1) ＞ 1 ＞ 成功"),
    ("other", *YUKI, "了解です①②"),
]

SCRIPT_CLASSIC = [
    ("main", *MINATO, "<script>document.title='x'</script>ok", True),
    ("main", *YUKI, '<img src="x" onerror="alert(1)">画像', True),
    ("main", *MINATO, "&#x41;&#66;&nbsp;C &amp;amp;", True),
]


def truncated_classic() -> str:
    page = classic(SJIS_CLASSIC[:3] + [("main", *YUKI, "途中で切れたメッセージの続き")])
    return page[: page.index("メッセージの続き")]


# --- CCFOLIA new HTML (§1b) ---


def article(
    channel: str,
    shown: str,
    colour: str,
    name: str,
    when: str,
    text: str,
    roll: str | None = None,
    edited: bool = False,
) -> str:
    mark = '<span class="edited">[編集済]</span>' if edited else ""
    result = f'\n          <span class="roll-result">{html.escape(roll, quote=False)}</span>' if roll else ""
    return f"""      <article class="message" data-channel="{channel}">
        <span class="avatar avatar-image-0" aria-hidden="true"></span>
        <div class="message-content">
          <div class="message-header">
            <span class="speaker" style="--speaker-color: {colour}">{html.escape(name, quote=False)}</span>
            <time class="timestamp" datetime="{when}">{when[:10].replace("-", "/")}</time>
            <span class="channel-name">[{shown}]</span>{mark}
          </div>
          <div class="message-text">{text}</div>{result}
        </div>
      </article>
"""


def new_html(title: str, articles: list[str]) -> str:
    return (
        f'<!doctype html>\n<html lang="ja">\n  <head><meta charset="UTF-8" /><title>{title} [すべて]</title></head>\n'
        f'  <body>\n    <main class="message-list">\n      <h1 class="log-title">{title} [すべて]</h1>\n'
        + "".join(articles)
        + "    </main>\n  </body>\n</html>\n"
    )


MIO, RIN = ("#3f51b5", "ミオ"), ("#f44336", "リン")

WEISS_NEW = [
    article("main", "メイン", *MIO, "2025-03-01T11:00:00.000Z", "!turn 1"),
    article("main", "メイン", *MIO, "2025-03-01T11:00:05.120Z", "!phase スタンド"),
    article("main", "メイン", *MIO, "2025-03-01T11:00:09.000Z", "!next ドロー"),
    article("other", "雑談", *RIN, "2025-03-01T11:00:12.000Z", "よろしく"),
    article("main", "メイン", *MIO, "2025-03-01T11:01:00.000Z", "1D6 ダメージ判定", roll="(1D6) ＞ 4"),
    article("main", "メイン", *RIN, "2025-03-01T11:01:30.000Z", "!damage リン 2", edited=True),
    article("main", "メイン", *RIN, "2025-03-01T11:01:40.000Z", "痛い<br>次のターンで"),
    article("main", "メイン", *MIO, "2025-03-01T11:02:00.000Z", "SCCB&lt;=50"),
    article("main", "メイン", *RIN, "2025-03-01T11:30:00.000Z", "!lose レベル"),
]

GENERIC_NEW = [
    article("main", "メイン", *AOI, "2025-03-02T10:00:00.000Z", "1D2 先攻決め", roll="(1D2) ＞ 2"),
    article("other", "雑談", *REN, "2025-03-02T10:00:10.000Z", "後攻か"),
    article("ch_8f2a", "作戦", *REN, "2025-03-02T10:00:20.000Z", "相手は&lt;速攻&gt;型"),
    article("info", "情報", *KP, "2025-03-02T10:00:30.000Z", "複数行の<br>案内です"),
    article("main", "メイン", *AOI, "2025-03-02T10:01:00.000Z", "x2 1D6", roll="#1 (1D6) ＞ 3\n#2 (1D6) ＞ 6"),
]


# --- CCFOLIA JSON (§1c) ---


def ccf_msg(
    name: str,
    colour: str,
    text: str,
    created: int,
    *,
    kind: str = "text",
    channel: str = "main",
    shown: str = "メイン",
    roll: str | None = None,
) -> dict:
    m = {
        "name": name,
        "color": colour,
        "text": text,
        "type": kind,
        "channel": channel,
        "channelName": shown,
        "createdAt": created,
    }
    if roll is not None:
        m["extend"] = {"roll": {"result": roll}}
    return m


def ccf_json(messages: list[dict]) -> str:
    return json.dumps({"messages": messages, "images": {}}, ensure_ascii=False, indent=2) + "\n"


CCF_MS = [
    ccf_msg("ユキ", "#2196f3", "1D2 コイン代わり", 1740826923456, roll="(1D2) ＞ 1"),
    ccf_msg("ミナト", "#e91e63", "表なので先攻どうぞ", 1740826925000),
    ccf_msg("system", "#888888", "[ ミナト ] HP : 10 → 8", 1740826926000, kind="system"),
    ccf_msg("ミナト", "#e91e63", "メモ：次は防御", 1740826927000, kind="note"),
    ccf_msg("ミナト", "#e91e63", "2D6 攻撃", 1740826930000, channel="other", shown="雑談", roll="(2D6) ＞ 8[3,5] ＞ 8"),
    ccf_msg("ユキ", "#2196f3", "一行目\n二行目", 1740826931000),
    ccf_msg("ユキ", "#2196f3", "ユキの勝ち", 1740826990000),
]

CCF_SECONDS = [
    ccf_msg("ミナト", "#e91e63", "CHOICE[表,裏] 先攻", 1740826923, roll="(choice[表,裏]) ＞ 裏"),
    ccf_msg("ユキ", "#2196f3", "了解", 1740826924),
    ccf_msg("system", "#888888", "ユキ が入室しました", 1740826925, kind="system", channel="info", shown="情報"),
]

CCF_GG = [
    ccf_msg("ミナト", "#e91e63", "!act a1 計略", 1740900000000),
    ccf_msg("ミナト", "#e91e63", "!cost a1 ボルテージ 1", 1740900001000),
    ccf_msg("ミナト", "#e91e63", "1D2", 1740900002000, roll="(1D2) ＞ 1"),
    ccf_msg("ミナト", "#e91e63", "1D2", 1740900003000, roll="(1D2) ＞ 2"),
    ccf_msg("ミナト", "#e91e63", "!resolve a1 1 1", 1740900004000),
    ccf_msg("ユキ", "#2196f3", "!toss a1 横", 1740900005000),
    ccf_msg("ユキ", "#2196f3", "!dance a1", 1740900006000),
]


# --- Udonarium (§2) ---


def chat(attrs: dict[str, str], text: str) -> str:
    a = " ".join(f'{k}="{html.escape(v)}"' for k, v in attrs.items())
    return f"    <chat {a}>{html.escape(text, quote=False)}</chat>\n"


def result(peer: str, name: str, when: int, text: str, *, secret: bool = False, to: str | None = None) -> str:
    attrs = {
        "originFrom": peer,
        "from": "System-BCDice",
        "timestamp": str(when),
        "tag": "system dicebot secret" if secret else "system dicebot",
        "name": f"DiceBot : {name}" + (" (Secret)" if secret else ""),
    }
    if to:
        attrs["to"] = to
    return chat(attrs, text)


def say(peer: str, name: str, when: int, text: str, **more: str) -> str:
    return chat(
        {"from": peer, "name": name, "imageIdentifier": "none_icon", "timestamp": str(when), "tag": "DiceBot", **more},
        text,
    )


def tab(name: str, chats: list[str], ident: str | None = None) -> str:
    i = f' identifier="{ident}"' if ident else ""
    return f'  <chat-tab name="{name}"{i}>\n' + "".join(chats) + "  </chat-tab>\n"


def chat_xml(tabs: list[str]) -> str:
    return '<?xml version="1.0" encoding="UTF-8"?>\n<chat-tab-list>\n' + "".join(tabs) + "</chat-tab-list>\n"


HARU, SORA = "Ab3dE9xQ", "Zk81pLmN"

UDON_CHAT = chat_xml(
    [
        tab(
            "メインタブ",
            [
                say(HARU, "ハル", 1740826923456, "1d2 コイントス"),
                result(HARU, "ハル", 1740826923457, "(1D2) ＞ 2"),
                say(SORA, "ソラ", 1740826930001, "（秘話）了解", to=HARU),
                result(SORA, "ソラ", 1740826940002, "(2D6) ＞ 8[3,5] ＞ 8", secret=True, to=SORA),
                say(HARU, "ハル", 1740826950000, "x2 1D6", toName="ソラ", aura="0", isUseStandImage="false"),
                result(HARU, "ハル", 1740826950001, "#1 (1D6) ＞ 3\n#2 (1D6) ＞ 5"),
            ],
        ),
        tab("雑談", [say(HARU, "ハル", 1740826935000, "楽しい&面白い <b>太字</b>", lastUpdate="1740826936000")]),
    ]
)

UDON_TAB = '<?xml version="1.0" encoding="UTF-8"?>\n' + tab(
    "メインタブ",
    [
        say(HARU, "ハル", 1740827000000, "CHOICE[表,裏]"),
        result(HARU, "ハル", 1740827000001, "(choice[表,裏]) ＞ 表"),
        say(SORA, "ソラ", 1740827005000, "表ですね\n先攻どうぞ"),
    ],
    ident="ChatTab_main",
)

UDON_ROOM_CHAT = chat_xml(
    [
        tab(
            "メインタブ",
            [
                say(HARU, "ハル", 1740828000000, "2d6 攻撃", plCanView="true"),
                result(HARU, "ハル", 1740828000001, "(2D6) ＞ 7[1,6] ＞ 7"),
            ],
            ident="MainTab",
        ),
        tab("情報", [say(SORA, "ソラ", 1740828000500, "初期配置完了")]),
    ]
)

UDON_ROOM_DATA = """<?xml version="1.0" encoding="UTF-8"?>
<room>
  <game-table name="最初のテーブル" width="20" height="15" gridSize="50" imageIdentifier="testTableBackgroundImage_image" gridType="0" gridColor="#000000e6" selected="true">
    <terrain isLocked="false" mode="3" rotate="0" location.name="table" location.x="250" location.y="250" posZ="0">
      <data name="terrain">
        <data name="image">
          <data type="image" name="wall">abc123def456</data>
        </data>
        <data name="common">
          <data name="name">1d2 の壁</data>
        </data>
      </data>
    </terrain>
  </game-table>
  <character location.name="table" location.x="100" location.y="100" posZ="0" rotate="0" roll="0">
    <data name="character">
      <data name="common">
        <data name="name">ハル</data>
        <data name="size">1</data>
      </data>
      <data name="detail">
        <data name="メモ" type="note">(1D6) ＞ 6 は台詞ではない</data>
      </data>
    </data>
    <chat-palette dicebot="DiceBot">2d6 攻撃
CHOICE[表,裏]
</chat-palette>
  </character>
</room>
"""

UDON_SUMMARY = """<?xml version="1.0" encoding="UTF-8"?>
<summary-setting sortTag="name" sortOrder="ASC" dataTag="HP MP"></summary-setting>
"""

HIKARU, TSUBASA, REF = "Hk0aa001", "Ts0bb002", "Rf0cc003"

UDON_WT = chat_xml(
    [
        tab(
            "メインタブ",
            [
                say(HIKARU, "ヒカル", 1741000000000, "!deal 100"),
                say(TSUBASA, "ツバサ", 1741000001000, "!deal 100"),
                say(REF, "審判", 1741000002000, "1d6 初期距離"),
                result(REF, "審判", 1741000002001, "(1D6) ＞ 4"),
                say(REF, "審判", 1741000003000, "!distance 4"),
                say(HIKARU, "ヒカル", 1741000004000, "plot 2 6"),
                say(TSUBASA, "ツバサ", 1741000005000, "block 6 5"),
                say(TSUBASA, "ツバサ", 1741000006000, "ブロック 1 1"),
                say(TSUBASA, "ツバサ", 1741000007000, "!bailout"),
            ],
        )
    ]
)

# --- Discord (§5) ---

DISCORD_PASTE = """＞ミナト
DiceBot: (1D2) ＞ 1

＞ユキ
#1
DiceBot: (2D6) ＞ 7[2,5] ＞ 7

#2
DiceBot: (2D6) ＞ 6[5,1] ＞ 6

＞ミナト
DiceBot: [Secret Dice] Key: 7f3a9c

＞ユキ
[ERROR]unsupported command

＞ミナト
DiceBot: (choice[表,裏]) ＞ 表
"""

BOT = {
    "id": "900000000000000001",
    "name": "BCDice",
    "discriminator": "4312",
    "nickname": "BCDice",
    "color": None,
    "isBot": True,
    "roles": [],
    "avatarUrl": "https://cdn.discordapp.com/embed/avatars/0.png",
}


def user(uid: str, name: str, nick: str) -> dict:
    return {
        "id": uid,
        "name": name,
        "discriminator": "0000",
        "nickname": nick,
        "color": "#E91E63",
        "isBot": False,
        "roles": [],
        "avatarUrl": "https://cdn.discordapp.com/embed/avatars/1.png",
    }


MINATO_U, YUKI_U = user("111111111111111111", "minato_tcg", "ミナト"), user("222222222222222222", "yuki.tcg", "ユキ")


def dmsg(
    n: int,
    author: dict,
    when: str,
    content: str,
    *,
    edited: str | None = None,
    embeds: list | None = None,
    interaction: dict | None = None,
) -> dict:
    m = {
        "id": str(1300000000000000000 + n),
        "type": "Default",
        "timestamp": when,
        "timestampEdited": edited,
        "callEndedTimestamp": None,
        "isPinned": False,
        "content": content,
        "author": author,
        "attachments": [],
        "embeds": embeds or [],
        "stickers": [],
        "reactions": [],
        "mentions": [],
        "inlineEmojis": [],
    }
    if interaction:
        m["type"] = "ChatInputCommand"
        m["interaction"] = interaction
    return m


DISCORD_MESSAGES = [
    dmsg(1, MINATO_U, "2025-03-01T20:00:00.123+09:00", "!act a1 計略"),
    dmsg(2, MINATO_U, "2025-03-01T20:00:10+09:00", "!cost a1 手札 1"),
    dmsg(3, MINATO_U, "2025-03-01T20:00:20+09:00", "CHOICE[自分,相手]"),
    dmsg(4, BOT, "2025-03-01T20:00:21+09:00", "＞ミナト\nDiceBot: (choice[自分,相手]) ＞ 相手"),
    dmsg(5, MINATO_U, "2025-03-01T20:00:30+09:00", "!resolve a1 0"),
    dmsg(6, YUKI_U, "2025-03-01T20:01:00+09:00", "!act a2 計略", edited="2025-03-01T20:01:30+09:00"),
    dmsg(
        7,
        BOT,
        "2025-03-01T20:01:40+09:00",
        "",
        embeds=[
            {
                "title": "ユキ のダイスロール",
                "url": None,
                "timestamp": None,
                "description": "(1D2) ＞ 2",
                "color": "#2F3136",
                "fields": [],
                "images": [],
                "inlineEmojis": [],
            }
        ],
        interaction={"id": "1300000000000000999", "name": "roll", "user": YUKI_U},
    ),
    dmsg(8, BOT, "2025-03-01T20:02:00+09:00", "＞ユキ\nDiceBot: [Secret Dice] Key: 9c1e77"),
    dmsg(9, YUKI_U, "2025-03-01T20:05:00+09:00", "ありがとうございました"),
]

DISCORD_EXPORT = {
    "guild": {
        "id": "800000000000000001",
        "name": "ガンナガン対戦会",
        "iconUrl": "https://cdn.discordapp.com/embed/avatars/0.png",
    },
    "channel": {
        "id": "800000000000000002",
        "type": "GuildTextChat",
        "categoryId": "800000000000000003",
        "category": "対戦卓",
        "name": "卓1",
        "topic": None,
    },
    "dateRange": {"after": None, "before": None},
    "exportedAt": "2025-03-02T00:00:00+09:00",
    "messages": DISCORD_MESSAGES,
    "messageCount": len(DISCORD_MESSAGES),
}

# --- Cockatrice (§6a) ---

COCKATRICE_GAME = """Aiko: !turn 1
Aiko: !flip "Frenetic Efreet"
Aiko: !call heads
Aiko flipped a coin. It landed as <font class="blue">Tails (2)</font>.
Aiko: !lost
Ben: gg
Ben: !flip "Mana Clash" 3
Ben flips 3 coins. There are <font class="blue">2</font> heads and <font class="blue">1</font> tails.
Aiko rolls a <font class="blue">14</font> with a <font class="blue">20</font>-sided die.
Ben: !concede
"""

COCKATRICE_OLD = """Aiko flipped a coin. It landed as <font color="blue">Heads (1)</font>.
Ben rolls a <font color="blue">3</font> with a <font color="blue">6</font>-sided die.
Aiko flipped a coin. It landed as Heads (1).
Ben rolls a 6-sided dice 3 times: 3, 4, 5.
Aiko: nice &amp; fair
Ben has conceded the game.
"""

# --- MTG Arena Player.log (§6d) ---

MATCH = "0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b"


def room(state: str, extra: dict) -> dict:
    return {
        "transactionId": "t-" + state[-4:],
        "requestId": 1,
        "timestamp": "638765000000000000",
        "matchGameRoomStateChangedEvent": {
            "gameRoomInfo": {
                "gameRoomConfig": {
                    "reservedPlayers": [
                        {"userId": "U1AAAA", "playerName": "Aiko", "systemSeatId": 1, "teamId": 1, "eventId": "Ladder"},
                        {"userId": "U2BBBB", "playerName": "Ben", "systemSeatId": 2, "teamId": 2, "eventId": "Ladder"},
                    ],
                    "matchId": MATCH,
                },
                "stateType": state,
                **extra,
            }
        },
    }


DIE_ROLL = {
    "greToClientEvent": {
        "greToClientMessages": [
            {
                "type": "GREMessageType_DieRollResultsResp",
                "systemSeatIds": [1, 2],
                "msgId": 3,
                "dieRollResultsResp": {
                    "playerDieRolls": [{"systemSeatId": 1, "rollValue": 4}, {"systemSeatId": 2, "rollValue": 17}]
                },
            }
        ]
    }
}

COIN_STATE = {
    "greToClientEvent": {
        "greToClientMessages": [
            {
                "type": "GREMessageType_GameStateMessage",
                "systemSeatIds": [1, 2],
                "msgId": 40,
                "gameStateId": 31,
                "gameStateMessage": {
                    "type": "GameStateType_Diff",
                    "gameStateId": 31,
                    "prevGameStateId": 30,
                    "annotations": [
                        {
                            "id": 77,
                            "affectorId": 312,
                            "affectedIds": [1],
                            "type": ["AnnotationType_CoinFlip"],
                            "details": [{"key": "result", "type": "KeyValuePairValueType_int32", "valueInt32": [1]}],
                        }
                    ],
                },
            }
        ]
    }
}

FINAL = {
    "finalMatchResult": {
        "matchId": MATCH,
        "matchCompletedReason": "MatchCompletedReasonType_Success",
        "resultList": [
            {"scope": "MatchScope_Game", "result": "ResultType_WinLoss", "winningTeamId": 2},
            {
                "scope": "MatchScope_Match",
                "result": "ResultType_WinLoss",
                "winningTeamId": 2,
                "reason": "ResultReason_Concede",
            },
        ],
    }
}


def arena_log() -> str:
    def one(obj: dict) -> str:
        return json.dumps(obj, separators=(", ", ": "))

    return "\n".join(
        [
            "Initialize engine version: 2022.3.42f1 (abc123)",
            "[UnityCrossThreadLogger]3/1/2025 11:00:00 AM",
            '[UnityCrossThreadLogger]Client.SceneChange {"fromSceneName":"Home","toSceneName":"Match"}',
            "[UnityCrossThreadLogger]3/1/2025 11:00:01 AM: Match to U1AAAA: MatchGameRoomStateChangedEvent",
            one(room("MatchGameRoomStateType_Playing", {})),
            "[UnityCrossThreadLogger]3/1/2025 11:00:02 AM: Match to U1AAAA: GreToClientEvent",
            one(DIE_ROLL),
            "[UnityCrossThreadLogger]greToClientEvent",
            json.dumps(COIN_STATE, indent=2),
            "(Filename: C:\\buildslave\\unity\\build\\Runtime/Export/Debug/Debug.bindings.h Line: 39)",
            "[UnityCrossThreadLogger]3/1/2025 11:20:00 AM: Match to U1AAAA: MatchGameRoomStateChangedEvent",
            one(room("MatchGameRoomStateType_MatchCompleted", FINAL)),
            "",
        ]
    )


# --- hostile inputs ---


def zipped(entries: list[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = method
            z.writestr(info, data)
    return buf.getvalue()


PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000") + b"\x00" * 40

XXE = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE chat-tab-list [<!ENTITY leak SYSTEM "file:///etc/passwd">]>
<chat-tab-list><chat-tab name="main"><chat from="x" name="x" timestamp="1">&leak;</chat></chat-tab></chat-tab-list>
"""

LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
    + "".join(f' <!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">\n' for i in range(1, 10))
    + ']>\n<chat-tab-list><chat-tab name="main"><chat from="x" name="x" timestamp="1">&lol9;</chat></chat-tab></chat-tab-list>\n'
)


def garbage() -> bytes:
    out, seed = bytearray(), b"kifu-acceptance"
    while len(out) < 4096:
        seed = hashlib.sha256(seed).digest()
        out += seed
    return bytes(out)


NOT_CCFOLIA = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>My blog</title></head>
<body><p>Hello <span>world</span></p><p>No chat here : really</p></body></html>
"""


def utf8(text: str) -> bytes:
    return text.encode("utf-8")


def files() -> dict[str, bytes]:
    ccf_trunc = json.dumps({"messages": CCF_MS}, ensure_ascii=False)
    udon_trunc = UDON_CHAT[: UDON_CHAT.index("（秘話）")]
    return {
        "ccf_classic_gg.html": utf8(classic(GG_CLASSIC)),
        "ccf_classic_generic.html": utf8(classic(GENERIC_CLASSIC)),
        "ccf_classic_mtg.html": utf8(classic(MTG_CLASSIC)),
        "ccf_classic_sjis.html": classic(SJIS_CLASSIC, charset="Shift_JIS").encode("cp932"),
        "ccf_classic_truncated.html": utf8(truncated_classic()),
        "ccf_classic_script.html": utf8(
            classic(SCRIPT_CLASSIC).replace("</head>", "<script>fetch('https://example.invalid/x')</script>\n  </head>")
        ),
        "ccf_new_weiss.html": utf8(new_html("WS卓", WEISS_NEW)),
        "ccf_new_generic.html": utf8(new_html("卓B", GENERIC_NEW)),
        "ccf_log_ms.json": utf8(ccf_json(CCF_MS)),
        "ccf_log_seconds.json": utf8(ccf_json(CCF_SECONDS)),
        "ccf_gg.json": utf8(ccf_json(CCF_GG)),
        "udon_chat.xml": utf8(UDON_CHAT),
        "chat_メインタブ_2025-03-01_2010.zip": zipped([("data.xml", utf8(UDON_TAB)), ("0f9e8d7c6b5a.png", PNG)]),
        "ルームデータ_2025-03-01_2011.zip": zipped(
            [
                ("data.xml", utf8(UDON_ROOM_DATA)),
                ("chat.xml", utf8(UDON_ROOM_CHAT)),
                ("summary.xml", utf8(UDON_SUMMARY)),
                ("abc123def456.png", PNG),
                ("アイコン_1a2b.jpg", b"\xff\xd8\xff\xe0" + b"\x00" * 60),
            ]
        ),
        "udon_wt.xml": utf8(UDON_WT),
        "discord_paste.txt": utf8(DISCORD_PASTE),
        "discord_export.json": utf8(json.dumps(DISCORD_EXPORT, ensure_ascii=False, indent=2) + "\n"),
        "cockatrice_game.log": utf8(COCKATRICE_GAME),
        "cockatrice_old.log": utf8(COCKATRICE_OLD),
        "Player.log": utf8(arena_log()),
        "h_truncated.json": utf8(ccf_trunc[: len(ccf_trunc) // 2]),
        "h_truncated.xml": utf8(udon_trunc),
        "ccf_log_sjis.json": ccf_json(CCF_SECONDS).encode("cp932"),
        "h_garbage.bin": garbage(),
        "h_traversal.zip": zipped([("../../outside/chat.xml", utf8(UDON_CHAT))]),
        "h_bomb.zip": zipped(
            [
                (
                    "chat.xml",
                    b'<?xml version="1.0" encoding="UTF-8"?>\n<chat-tab-list>'
                    + b" " * (30 << 20)
                    + b"</chat-tab-list>\n",
                )
            ]
        ),
        "h_xxe.xml": utf8(XXE),
        "h_laughs.xml": utf8(LAUGHS),
        "h_not_ccfolia.html": utf8(NOT_CCFOLIA),
        "h_empty.json": b"",
        "h_bad_shape.json": utf8('{"messages": "nope", "images": {}}\n'),
    }


# --- second round: how real files differ from the notes' examples ---

CRLF_CLASSIC = [
    ("main", *MINATO, "1D2 (1D2) ＞ 2"),
    ("main", *YUKI, "一行目\n二行目"),
    ("main", "#000000", "", '"引用"'),
    ("other", *YUKI, "x2 CHOICE[自分,相手] #1\n(choice[自分,相手]) ＞ 相手\n\n#2\n(choice[自分,相手]) ＞ 自分"),
]


def crlf(text: str) -> bytes:
    return text.replace("\n", "\r\n").encode("utf-8")


def quoted_classic(messages: list[tuple]) -> str:
    # Some exports escape quotes too (&quot;): html.escape's default.
    return classic([(t, c, n, html.escape(b), True) for t, c, n, b in messages])


MENTION_MESSAGES = [
    dmsg(11, YUKI_U, "2025-03-03T21:00:00+09:00", "よろしく"),
    dmsg(12, MINATO_U, "2025-03-03T21:00:05+09:00", "こちらこそ"),
    {
        **dmsg(
            13, BOT, "2025-03-03T21:00:10+09:00", "＞<@222222222222222222>\nDiceBot: (1D6) ＞ 3\n\nDiceBot: (1D6) ＞ 5"
        ),
        "mentions": [YUKI_U],
    },
    dmsg(14, BOT, "2025-03-03T21:00:20+09:00", "＞minato_tcg\nDiceBot: (1D2) ＞ 2"),
    dmsg(15, BOT, "2025-03-03T21:00:30+09:00", "＞ユキ\n[ERROR]unsupported command"),
]

NATSU = "Nt0dd004"

UDON_COC = chat_xml(
    [
        tab(
            "メインタブ",
            [
                chat(
                    {"from": HARU, "name": "ハル", "timestamp": "1741100000000", "tag": "Cthulhu7th"}, "CC<=50 【目星】"
                ),
                chat(
                    {
                        "originFrom": HARU,
                        "from": "System-BCDice",
                        "timestamp": "1741100000001",
                        "tag": "system dicebot",
                        "name": "Cthulhu7th : ハル",
                    },
                    "(1D100<=50) ＞ 45 ＞ レギュラー成功",
                ),
                chat(
                    {
                        "originFrom": NATSU,
                        "from": "System-BCDice",
                        "timestamp": "1741100005001",
                        "tag": "system dicebot",
                        "name": "Cthulhu7th : ナツ",
                    },
                    "(1D100<=60) ＞ 99 ＞ 致命的失敗",
                ),
                chat(
                    {
                        "from": SORA,
                        "name": "ソラ",
                        "timestamp": "1741100010000",
                        "tag": "Cthulhu7th",
                        "to": f"{HARU} {NATSU}",
                    },
                    "了解\nこっちも振る",
                ),
            ],
        )
    ]
)

COCKATRICE_STAMPED = """[12:01:33] Aiko Tanaka flipped a coin. It landed as <font class="blue">Heads (1)</font>.
[12:01:40] Ben: ok
[12:01:45] Ben flips 2 coins. There are <font class="blue">0</font> heads and <font class="blue">2</font> tails.
[12:02:00] Aiko Tanaka rolls a 6-sided dice 3 times: 3, 4, 5.
"""


def arena_twice() -> bytes:
    # Both seats' GRE streams land in one Player.log: the roll is logged twice.
    lines = arena_log().split("\n")
    roll = lines.index("[UnityCrossThreadLogger]3/1/2025 11:00:02 AM: Match to U1AAAA: GreToClientEvent")
    lines[roll + 2 : roll + 2] = [
        "[UnityCrossThreadLogger]3/1/2025 11:00:02 AM: Match to U2BBBB: GreToClientEvent",
        json.dumps(DIE_ROLL),
    ]
    return crlf("\n".join(lines))


def renamed(data: bytes, old: bytes, new: bytes) -> bytes:
    """A zip whose entry name is stored as raw CP932 without the UTF-8 flag (Windows Explorer)."""
    assert len(old) == len(new)
    return data.replace(old, new)


def flagged(data: bytes, name: bytes, bit: int) -> bytes:
    """Set a general-purpose flag bit on every header of one entry (local and central)."""
    out = bytearray(data)
    for sig, off in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        i = out.find(sig)
        while i >= 0:
            name_at = i + (30 if sig == b"PK\x03\x04" else 46)
            if out[name_at : name_at + len(name)] == name:
                out[i + off] |= bit
            i = out.find(sig, i + 4)
    return bytes(out)


def bad_crc(data: bytes) -> bytes:
    out = bytearray(data)
    for sig, off in ((b"PK\x03\x04", 14), (b"PK\x01\x02", 16)):
        i = out.find(sig)
        out[i + off] ^= 0xFF
    return bytes(out)


def deep_xml() -> bytes:
    return (
        b'<?xml version="1.0" encoding="UTF-8"?>\n<chat-tab-list>'
        + b"<a>" * 50000
        + b"</a>" * 50000
        + b"</chat-tab-list>\n"
    )


def deep_json() -> bytes:
    return b'{"guild": {}, "messages": ' + b"[" * 100000 + b"]" * 100000 + b"}\n"


def second_round() -> dict[str, bytes]:
    tab_zip = zipped([("data.xml", utf8(UDON_TAB)), ("XXXXXXXX.png", PNG)])
    chat_zip = zipped([("chat.xml", utf8(UDON_CHAT))])
    return {
        "ccf_classic_crlf_bom.html": b"\xef\xbb\xbf" + crlf(quoted_classic(CRLF_CLASSIC)),
        "discord_mention.json": utf8(
            json.dumps(
                {**DISCORD_EXPORT, "messages": MENTION_MESSAGES, "messageCount": len(MENTION_MESSAGES)},
                ensure_ascii=False,
                indent=2,
            )
        ),
        "udon_coc.xml": crlf(UDON_COC),
        "udon_utf16.xml": UDON_COC.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16"),
        "cockatrice_stamped.log": crlf(COCKATRICE_STAMPED),
        "Player_twice.log": arena_twice(),
        "chat_cp932_names.zip": renamed(tab_zip, b"XXXXXXXX.png", "画像１２.png".encode("cp932")),
        "h_encrypted.zip": flagged(chat_zip, b"chat.xml", 0x1),
        "h_bad_crc.zip": bad_crc(chat_zip),
        "h_absolute.zip": zipped([("/tmp/chat.xml", utf8(UDON_CHAT))]),
        "h_backslash.zip": zipped([("..\\..\\chat.xml", utf8(UDON_CHAT))]),
        "h_room_without_chat.zip": zipped([("data.xml", utf8(UDON_ROOM_DATA)), ("summary.xml", utf8(UDON_SUMMARY))]),
        "h_deep.xml": deep_xml(),
        "h_deep.json": deep_json(),
        "h_truncated.zip": chat_zip[: len(chat_zip) // 2],
        "ccf_damaged.json": utf8(
            ccf_json(
                [
                    {**ccf_msg("ミナト", "#e91e63", "", 1740826923456, roll="(1D2) ＞ 1"), "text": None},
                    {**ccf_msg("ユキ", "#2196f3", "ok", 1740826925000), "name": 42},
                    ccf_msg("ユキ", "#2196f3", "1D2", 1740826926000, roll="(1D2) ＞ 2"),
                ]
            )
        ),
        "h_xxe_utf16.xml": XXE.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16"),
    }


# --- third round: the chat notation through each format's own way of carrying a roll ---

MINATO_PEER, YUKI_PEER = "Mn0ee005", "Yk0ff006"


def gg_udon() -> str:
    said = [
        "!setup ラン ダタラ ハクメン がんばる!!",
        "!setup クロエ エンラ キヨヒメ 見切り",
        "!first ミナト 速度",
        "!turn 1",
        "!act a1 計略",
        "!cost a1 手札 1",
        "1D2",
    ]
    who = [MINATO_PEER, YUKI_PEER] + [MINATO_PEER] * 5
    chats = [
        say(p, "ミナト" if p == MINATO_PEER else "ユキ", 1741200000000 + 10000 * i, t)
        for i, (p, t) in enumerate(zip(who, said))
    ]
    t = 1741200000000 + 10000 * len(said)
    chats += [
        result(MINATO_PEER, "ミナト", t - 9999, "(1D2) ＞ 1"),
        say(MINATO_PEER, "ミナト", t, "x2 1D2"),
        result(MINATO_PEER, "ミナト", t + 1, "#1 (1D2) ＞ 1\n#2 (1D2) ＞ 2"),
    ]
    later = ["!resolve a1 2 2", "!load ダタラ", "!shoot ダタラ", "!hit ユキ 2", "!turnend"]
    chats += [say(MINATO_PEER, "ミナト", t + 10000 * (i + 1), x) for i, x in enumerate(later)]
    return chat_xml([tab("メインタブ", chats)])


DCE_TXT = """==============================================================
Guild: ガンナガン対戦会
Channel: 対戦卓 / 卓1
==============================================================

[01-Mar-25 08:00 PM] ミナト
!act a1 計略

[01-Mar-25 08:00 PM] ミナト
!cost a1 手札 1

[01-Mar-25 08:01 PM] ミナト
1D2

[01-Mar-25 08:01 PM] BCDice
＞ミナト
DiceBot: (1D2) ＞ 2

[01-Mar-25 08:02 PM] ミナト
!resolve a1 0
{Attachments}
https://cdn.discordapp.com/attachments/1/2/board.png

[01-Mar-25 08:03 PM] ユキ
ナイス
{Reactions}
👍 (2)

==============================================================
Exported 6 message(s)
==============================================================
"""


MENTION_GG = [
    dmsg(21, MINATO_U, "2025-03-04T21:00:00+09:00", "!act a1 計略"),
    dmsg(22, MINATO_U, "2025-03-04T21:00:10+09:00", "!shoot ダタラ"),
    dmsg(23, MINATO_U, "2025-03-04T21:00:20+09:00", "!hit @ユキ 2"),
    dmsg(24, MINATO_U, "2025-03-04T21:00:30+09:00", "!hit <@222222222222222222> 1"),
    dmsg(25, YUKI_U, "2025-03-04T21:00:40+09:00", "<@111111111111111111> ナイス"),
]


SPLIT_FIRST = "＞ユキ\n#1\nDiceBot: (2D6) ＞ 7[2,5] ＞ 7\n\n#2\nDiceBot: (2D6) ＞ 6[5,1] ＞ 6"
SPLIT_REST = "#3\nDiceBot: (2D6) ＞ 9[4,5] ＞ 9\n\n#4\nDiceBot: (2D6) ＞ 3[1,2] ＞ 3"
SPLIT = [
    dmsg(31, BOT, "2025-03-04T22:00:00+09:00", SPLIT_FIRST),
    dmsg(32, BOT, "2025-03-04T22:00:00.500+09:00", SPLIT_REST),
    dmsg(33, MINATO_U, "2025-03-04T22:00:10+09:00", "長い"),
    dmsg(34, BOT, "2025-03-04T22:00:20+09:00", "DiceBot: (1D6) ＞ 2"),
]
SPLIT_TXT = (
    "\n\n".join(
        f"[04-Mar-25 10:00 PM] {who}\n{text}"
        for who, text in (
            ("BCDice", SPLIT_FIRST),
            ("BCDice", SPLIT_REST),
            ("ミナト", "長い"),
            ("BCDice", "DiceBot: (1D6) ＞ 2"),
        )
    )
    + "\n"
)


def third_round() -> dict[str, bytes]:
    mention_gg = {**DISCORD_EXPORT, "messages": MENTION_GG, "messageCount": len(MENTION_GG)}
    split = {**DISCORD_EXPORT, "messages": SPLIT, "messageCount": len(SPLIT)}
    return {
        "discord_split.json": json.dumps(split, ensure_ascii=False, indent=2).encode("utf-8"),
        "discord_split.txt": SPLIT_TXT.encode("utf-8"),
        # Bytes that are neither UTF-8 nor CP932 (0xFD is unassigned in both): no guess is safe.
        "h_undecodable.log": b"Aiko flipped a coin. It landed as Heads (1).\nAiko: caf\xe9 \xfd\xfd ok\n",
        "discord_split_utf16.json": json.dumps(split, ensure_ascii=False, indent=2).encode("utf-16"),
        "ccf_log_ms_utf16.json": ccf_json(CCF_MS).encode("utf-16"),
        # 60 KB of unclosed 「 once took the command tokenizer 15 s (quadratic backtracking).
        "ccf_unclosed_quotes.json": utf8(
            ccf_json(
                [
                    ccf_msg("ユキ", "#2196f3", "!ruling " + "「x " * 20000, 1741300000000),
                    ccf_msg("ユキ", "#2196f3", "!ruling 「閉じない", 1741300001000),
                ]
            )
        ),
        "udon_gg.xml": gg_udon().encode("utf-8"),
        "discord_gg.txt": DCE_TXT.encode("utf-8"),
        "discord_mention_gg.json": json.dumps(mention_gg, ensure_ascii=False, indent=2).encode("utf-8"),
    }


def main() -> None:
    for name, data in {**files(), **second_round(), **third_round()}.items():
        (HERE / name).write_bytes(data)


if __name__ == "__main__":
    main()

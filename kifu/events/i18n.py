"""Japanese for the one-line errors (KifuError) that the log layer and msgspec write in English.

Errors are raised in English where they happen; the CLI renders them in the
user's language. Each entry is a pattern over the English message and the
Japanese template it becomes (named groups fill the template). A message with
no entry is shown in English: a missing translation never hides an error.
"""

from __future__ import annotations

import re

_TABLE: list[tuple[str, str]] = [
    # the log file and its chain (kifu/events/logfile.py)
    (r"not JSON \((?P<d>.*)\)", "JSON ではありません ({d})"),
    (r"the first event must be match\.start, found (?P<t>.*)", "最初のイベントは match.start でなければなりません ({t} でした)"),
    (r"the first event must be match\.start", "最初のイベントは match.start でなければなりません"),
    (r"unsupported format (?P<f>.*), expected (?P<e>.*)", "未対応の形式 {f} です ({e} が必要です)"),
    (r"match\.start names no game", "match.start に game がありません"),
    (r"unknown game (?P<g>.*)", "不明なゲーム {g} です"),
    (r"cannot read: (?P<e>.*)", "読み込めません: {e}"),
    (r"cannot open for append: (?P<e>.*)", "追記のために開けません: {e}"),
    (r"cannot open: (?P<e>.*)", "開けません: {e}"),
    (r"cannot create: (?P<e>.*)", "作成できません: {e}"),
    (r"the last line \((?P<n>\d+) bytes\) has no terminator: a write was cut off; `kifu repair` cuts it off and keeps a copy",
     "最終行 ({n} バイト) に改行がありません: 書き込みが途中で切れています。`kifu repair` で切り取れます (元のファイルは写しを残します)"),
    (r"the last line \((?P<n>\d+) bytes\) has no terminator: a write was cut off; run `kifu repair` before appending",
     "最終行 ({n} バイト) に改行がありません: 書き込みが途中で切れています。追記の前に `kifu repair` を実行してください"),
    (r"empty log: no match\.start", "空のログです: match.start がありません"),
    (r"empty line", "空行があります"),
    (r"expected seq (?P<a>\d+), found seq (?P<b>\d+): event (?P<c>\d+) is missing, or lines were reordered",
     "seq {a} のはずが seq {b} です: イベント {c} が欠けているか、行が並べ替えられています"),
    (r"expected seq (?P<a>\d+), found seq (?P<b>\d+): a line was inserted, duplicated or moved here",
     "seq {a} のはずが seq {b} です: 行が挿入・複製・移動されています"),
    (r"prev of seq 1 must be null", "seq 1 の prev は null でなければなりません"),
    (r"a second match\.start", "2 つ目の match.start があります"),
    (r"a log has exactly one match\.start", "ログの match.start は 1 つだけです"),
    (r"seq (?P<a>\d+) does not match the hash that seq (?P<b>\d+) records in prev: seq \d+ was edited \(or seq \d+'s prev was\)",
     "seq {a} が seq {b} の prev に記録されたハッシュと一致しません: seq {a} (または seq {b} の prev) が書き換えられています"),
    (r"--expect-head needs at least 12 hex digits", "--expect-head には 16 進数 12 桁以上が必要です"),
    (r"the expected head is seq (?P<a>\d+); the log goes on to seq (?P<b>\d+) \(events were appended after the slip was written\)",
     "期待された head は seq {a} ですが、ログは seq {b} まで続いています (記録票の作成後に追記されています)"),
    (r"head is seq (?P<s>\d+) (?P<h>[0-9a-f]+), not the expected (?P<w>[0-9a-f]+): events after seq \d+ were cut off, or the log was changed",
     "head は seq {s} の {h} で、期待された {w} ではありません: seq {s} より後のイベントが切り取られたか、ログが変更されています"),
    (r"already exists; a log is never overwritten", "既に存在します。ログは上書きしません"),
    (r"append failed, nothing written: (?P<e>.*)", "追記に失敗しました。何も書き込んでいません: {e}"),
    (r"the last line has no integer seq", "最終行に整数の seq がありません"),
    (r"expected to write seq (?P<a>\d+), but the next seq is (?P<b>\d+): the log changed; read it again",
     "seq {a} を書き込むつもりでしたが、次の seq は {b} です: ログが変わりました。読み直してください"),
    (r"prev is not the hash of the last line", "prev が最終行のハッシュではありません"),
    # the limits every reader enforces (kifu/events/limits.py) and the repair
    (r"nested more than (?P<n>\d+) levels deep \(the limit for any JSON kifu reads\)",
     "入れ子が {n} 段を超えています (kifu が読む JSON の上限)"),
    (r"the key (?P<k>.*) appears twice in one object: refused, since readers would disagree on which value counts",
     "一つのオブジェクトにキー {k} が二度あります: 読み手によって値が変わるため受け付けません"),
    (r"the line is longer than (?P<n>[\d,]+) bytes, the limit for one event",
     "行が {n} バイトを超えています (一つのイベントの上限)"),
    (r"(?P<s>[\d,]+) bytes is more than the (?P<n>[\d,]+) bytes one event may have",
     "{s} バイトあり、一つのイベントの上限 {n} バイトを超えています"),
    (r"(?P<s>[\d,]+) bytes is more than the (?P<n>[\d,]+)-byte limit of a mapping file",
     "{s} バイトあり、対応表の上限 {n} バイトを超えています"),
    (r"the line ends are lone CRs \(an old Mac text format\), not LF: this is not JSON Lines; "
     r"convert the line ends to LF and verify again; repair changes nothing",
     "改行が CR だけです (古い Mac の形式)。JSON Lines ではありません。改行を LF に変換してから検証し直してください。repair は何も変更しません"),
    (r"the line ends are lone CRs \(an old Mac text format\), not LF: this is not JSON Lines; "
     r"convert the line ends to LF and verify again",
     "改行が CR だけです (古い Mac の形式)。JSON Lines ではありません。改行を LF に変換してから検証し直してください"),
    (r"not a JSON Lines log \(its first byte is not '\{'\): repair changes nothing",
     "JSON Lines のログではありません (最初のバイトが '{{' ではありません)。repair は何も変更しません"),
    (r"is a symbolic link: repair works only on the file itself, named by its own path",
     "シンボリックリンクです。repair はファイルそのものを、そのパスで指定したときだけ直します"),
    (r"cannot keep a copy before cutting \((?P<e>.*)\): nothing cut",
     "切り取る前の写しを残せません ({e})。何も切り取っていません"),
    (r"too many earlier copies beside it: nothing cut", "以前の写しが多すぎます。何も切り取っていません"),
    (r"cannot write: (?P<e>.*); nothing was written \(free some space and run it again\)",
     "書き込めません: {e}。何も書き込んでいません (空き容量を作ってからやり直してください)"),
    (r"cannot write: (?P<e>.*)", "書き込めません: {e}"),
    (r"cannot create a temporary file beside it", "隣に一時ファイルを作れません"),
    # the warehouse (kifu/warehouse/store.py, ingest.py)
    (r"the warehouse could not store the next batch of logs \((?P<r>.*)\): that batch was rolled back, "
     r"the (?P<n>\d+) matches stored before it are kept; free some space and run the same ingest again "
     r"\(stored matches are skipped\)",
     "ウェアハウスに次のログの束を保存できませんでした ({r}): その束は取り消し、それまでに保存した {n} 試合は残しています。"
     "空き容量を作ってから同じ ingest をもう一度実行してください (保存済みの試合は飛ばします)"),
    (r"the warehouse is in use by process (?P<p>\d+) \(an ingest\?\); waited (?P<s>\S+) s for it and gave up "
     r"\(--wait SECONDS, or KIFU_DB_WAIT\)",
     "ウェアハウスはプロセス {p} が使用中です (ingest 中?)。{s} 秒待ちましたが諦めました (--wait 秒数 または KIFU_DB_WAIT)"),
    (r"the warehouse is in use by another process \(an ingest\?\); waited (?P<s>\S+) s for it and gave up "
     r"\(--wait SECONDS, or KIFU_DB_WAIT\)",
     "ウェアハウスは別のプロセスが使用中です (ingest 中?)。{s} 秒待ちましたが諦めました (--wait 秒数 または KIFU_DB_WAIT)"),
    (r"the query ran longer than (?P<s>\S+) s and was stopped \(--timeout SECONDS; 0 for no limit\)",
     "文の実行が {s} 秒を超えたので止めました (--timeout 秒数。0 で無制限)"),
    (r"export: (?P<e>.*); the previous export is unchanged", "書き出し: {e}。以前の書き出しはそのままです"),
    # msgspec's validation messages (kifu/events/codec.py)
    (r"unknown event type (?P<t>.*)", "不明なイベント種別 {t} です"),
    (r"Object contains unknown field `(?P<f>[^`]*)`", "不明なフィールド `{f}` があります"),
    (r"Object missing required field `(?P<f>[^`]*)`", "必須フィールド `{f}` がありません"),
    (r"Expected `(?P<e>[^`]*)`, got `(?P<g>[^`]*)`", "`{e}` が必要ですが `{g}` でした"),
    (r"Expected `(?P<e>[^`]*)` (?P<op>[<>]=?) (?P<n>\S+)", "`{e}` で {op} {n} が必要です"),
    (r"Invalid value (?P<v>.*)", "許されない値 {v} です"),
]

_COMPILED = [(re.compile(rf"^{pat}$", re.S), ja) for pat, ja in _TABLE]

_LABELS_JA = {"byte": "バイト", "seq": "seq", "field": "フィールド", "line": "行"}


def translate(message: str, lang: str) -> str:
    """The message in ``lang`` (``ja`` or ``en``); English when no entry matches."""
    if lang != "ja":
        return message
    for pattern, template in _COMPILED:
        m = pattern.match(message)
        if m:
            return template.format(**m.groupdict())
    return message


def label(name: str, lang: str) -> str:
    """A location label (byte, seq, field, line) in ``lang``."""
    return _LABELS_JA.get(name, name) if lang == "ja" else name

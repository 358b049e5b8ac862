"""What ``kifu verify`` and ``kifu audit`` do once their command line is read, without typer.

Their typer commands (``log.verify``, ``audit.audit``) and the plain forms ``main`` runs without
typer (``kifu.cli.plain``) call these same functions, so a command prints the same bytes and
exits with the same code whichever way its line was read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from kifu.events import atomic, logfile
from kifu.events.base import KifuError
from kifu.events.display import json_safe

from .progress import Bar, log_note, logs_progress, starts, verify_log
from .say import Lang, ReportFormat, VerifyFormat, echo, lang_of, msg, print_json


def verify_logs(logs: list[Path], expect_head: str | None, fmt: VerifyFormat, lang: Lang | None) -> int:
    """``kifu verify``: each log's chain and schema checked, its head printed; the exit code.

    Text stops at the first log that fails (its ``KifuError`` raised); json and jsonl report every log.
    """
    progress, sizes = logs_progress(logs, 1, msg("progress_verify", lang))
    rows: list[dict[str, Any]] = []
    with progress as bar:
        start = 0
        for i, (path, size) in enumerate(zip(logs, sizes, strict=True)):
            if bar.live:  # the note is a message to format: not for a bar that shows nothing
                bar.update(start, note=log_note(i, logs, lang))
            if fmt is VerifyFormat.json:
                rows.append(_verify_row(path, expect_head, bar, start, lang))
            elif fmt is VerifyFormat.jsonl:
                rows.append(_verify_row(path, expect_head, bar, start, lang))
                bar.echo(json_safe(msgspec.json.encode(rows[-1]).decode()), data=True)
            else:
                done = verify_log(path, expect_head, bar, start)
                bar.echo(msg("verified", lang, path=path, seq=done.head.seq, head=done.head.hash))
                for line in _randomness_lines(path, done, lang):
                    bar.echo(line)
            start += size
    if fmt is VerifyFormat.json:
        print_json(rows)
    return 0 if all(r["ok"] for r in rows) else 2


def _randomness_lines(path: Path, done: Any, lang: Lang | None) -> list[str]:
    """What `verify` says of a log's random outcomes and its voids (docs/randomness.md, "Verifiable outcomes"):
    outcomes a void took back are left out of the count and said apart."""
    out = []
    if done.any_random:
        key = "verified_random_voided" if done.voided else "verified_random"
        out.append(msg(key, lang, path=path, outcomes=done.random, verifiable=done.verifiable, voided=done.voided))
    voids = done.voids
    if voids:
        seqs = [s for _, taken in voids for s in taken]
        shown = ", ".join(map(str, seqs[:20])) + (", …" if len(seqs) > 20 else "")
        out.append(msg("verified_voids", lang, path=path, voids=len(voids), events=len(seqs), seqs=shown))
    return out


def _verify_row(path: Path, expect_head: str | None, bar: Bar, start: float, lang: Lang | None) -> dict[str, Any]:
    """One log's verdict for `verify -f json`; a failure is a row (and a line on stderr), not the end."""
    try:
        done = verify_log(path, expect_head, bar, start)
    except KifuError as exc:
        error = exc.located(str(path)).render(lang_of(lang).value)
        bar.warn(f"kifu: error: {error}")
        return {
            "path": str(path),
            "seq": None,
            "head": None,
            "ok": False,
            "error": error,
            "random": None,
            "verifiable": None,
            "voided": None,
            "voids": None,
        }
    return {
        "path": str(path),
        "seq": done.head.seq,
        "head": done.head.hash,
        "ok": True,
        "error": None,
        "random": done.random,
        "verifiable": done.verifiable,
        "voided": done.voided,
        "voids": [{"seq": v.seq, "by": v.by, "reason": v.reason, "taken": taken} for v, taken in done.voids],
    }


def audit_logs(
    logs: list[Path], fmt: ReportFormat, output: Path | None, every: bool, lang: Lang | None, workers: int = 1
) -> int:
    """``kifu audit``: each log's report printed as it is made (or written to ``output``); the exit code.

    ``workers`` processes audit the logs (``kifu.app.batch``: 1, none but this one); the reports are the same
    and come in the order given whatever their number. 0 when no finding is an error, 1 when one is, 2 when
    a log cannot be trusted (one log given: its ``KifuError`` raised; several: a line on stderr, and the
    others' reports still made).
    """
    from kifu.app import batch

    code = lang_of(lang).value
    out: list[str] = []
    docs: list[Any] = []  # -f json of several logs: one list, printed (or written) once every log is done
    whole = fmt is ReportFormat.json and len(logs) > 1
    worst = 0
    progress, sizes = logs_progress(logs, 1, msg("progress_audit", lang))
    begins = starts(sizes, 1)
    shown: list[Bar] = []  # the bar, once drawn (the workers start before it: none is forked with its thread)

    def begun(i: int) -> logfile.Progress | None:
        shown[0].update(begins[i], note=log_note(i, logs, lang))
        return ticker(shown[0], begins[i])

    many = len(logs) > 1
    how = batch.How(fmt.value, code, merged=not every, prefix=many, keep_going=many)
    judged = batch.judged([str(p) for p in logs], how, workers, begun)
    with progress as bar:
        shown.append(bar)
        for i, done in enumerate(judged):
            if workers > 1:
                bar.update(begins[i] + sizes[i], note=log_note(i, logs, lang))
            if done.error is not None:  # one untrusted log does not hide the others' reports
                bar.warn(f"kifu: error: {done.error}")
                worst = 2
                if fmt in (ReportFormat.json, ReportFormat.jsonl):  # the document still says every log's fate
                    docs.append({"log": done.path, "error": done.error})
                    if fmt is ReportFormat.jsonl:
                        out.append(_jsonl(docs.pop()))
                        _flush(out, output, bar, fmt)
                continue
            if worst < 2 and done.errors:
                worst = 1
            if whole:
                docs.append(msgspec.json.decode(done.text))
                continue
            out.append(_jsonl(msgspec.json.decode(done.text)) if fmt is ReportFormat.jsonl else done.text)
            _flush(out, output, bar, fmt)
        if whole:
            out.append(json_safe(msgspec.json.format(msgspec.json.encode(docs), indent=2).decode()))
            _flush(out, output, bar, fmt)
    if output is not None:
        text = "\n".join(out)
        atomic.write_bytes(output, (text + ("" if text.endswith("\n") else "\n")).encode("utf-8"))
        echo(msg("wrote", lang, path=output), err=True)
    return worst


def _jsonl(doc: Any) -> str:
    """One log's report as a line of JSON Lines."""
    return json_safe(msgspec.json.encode(doc).decode())


def _flush(out: list[str], output: Path | None, bar: Bar, fmt: ReportFormat) -> None:
    """Print the report just made, as it is made, unless it all goes to a file at the end."""
    if output is None:
        bar.echo(out.pop(), data=fmt not in (ReportFormat.text, ReportFormat.md))


def ticker(bar: Bar, start: float) -> logfile.Progress | None:
    """A progress callback moving ``bar`` by the bytes read, from ``start``; None when no bar shows."""
    return (lambda offset: bar.update(start + offset)) if bar.live else None

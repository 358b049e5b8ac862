"""Commands that judge a match: audit, report, rules."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple
from collections.abc import Iterator

import typer

from kifu.events import atomic, logfile
from kifu.events.base import Event, JudgeRuling, KifuError, MatchStarted

from .common import (
    echo,
    DataFormat,
    FormatOpt,
    GameFilter,
    LangOpt,
    LogArg,
    ReportFormat,
    edited_of,
    fail,
    lang_of,
    msg,
    print_rows,
    voids_of,
)
from .progress import Bar, log_note, logs_progress, starts

if TYPE_CHECKING:
    from kifu.auditor.base import Finding
    from kifu.auditor.report import Voided
    from kifu.auditor.stance import Stance

app = typer.Typer()
PANEL = "Judging"


@app.command(rich_help_panel=PANEL)
def audit(
    logs: Annotated[list[Path], typer.Argument(help="Match logs to audit.", show_default=False)],
    fmt: Annotated[
        ReportFormat, typer.Option("--format", "-f", help="text, json, md, or html (a page).")
    ] = ReportFormat.text,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the report to this file.")] = None,
    every: Annotated[
        bool, typer.Option("--all", help="Every finding the rules' checks made, unfolded (no consequences).")
    ] = False,
    lang: LangOpt = None,
) -> None:
    """Audit match logs against their game's rulebook; findings cite the rule.

    One mistake is one finding: what follows only from it is listed as its
    consequences (--all shows every finding as the checks made it). After the
    findings, kifu's stance on each judge ruling: whether it agrees.

    A finding some of whose events were imported from a message the source
    marks as edited after it was sent says so (✎, with the file:location and the
    text as exported; json: its `provenance` list).

    Exit 0 when no finding is an error, 1 when one is, 2 when a log cannot be
    trusted (malformed or a broken chain).

    Example: kifu audit fixtures/gunandgun/dispute.jsonl --lang ja -f md
    """
    from kifu.auditor import report

    code = lang_of(lang).value
    out: list[str] = []
    worst = 0
    progress, sizes = logs_progress(logs, 1, msg("progress_audit", lang))
    with progress as bar:
        for i, (path, _size, start) in enumerate(zip(logs, sizes, starts(sizes, 1), strict=True)):
            try:
                bar.update(start, note=log_note(i, logs, lang))
                done = audit_path(path, ticker(bar, start), folded=not every)
            except KifuError as exc:  # one untrusted log does not hide the others' reports
                if len(logs) == 1:
                    raise exc.located(str(path)) from None
                bar.warn(f"kifu: error: {exc.located(str(path)).render(code)}")
                worst = 2
                continue
            findings = done.findings
            if worst < 2 and any(f.severity == "error" for f in findings):
                worst = 1
            title = f"{path} ({done.start.game}, {done.start.match})"
            # html finds the edited messages in its own pass over the timeline
            edited = edited_of(path, findings) if fmt is not ReportFormat.html else {}
            if fmt is ReportFormat.json:
                meta = {
                    "log": str(path),
                    "game": done.start.game,
                    "match": done.start.match,
                    "head": done.head.hash,
                    "events": done.head.seq,
                }
                out.append(report.as_json(findings, code, meta, done.gone, done.stances, edited))
            elif fmt is ReportFormat.md:
                out.append(report.as_markdown(findings, code, title, done.gone, done.stances, edited))
            elif fmt is ReportFormat.html:  # the timeline is a second pass over the (verified) file
                out.append(report.as_html(findings, logfile.stream(path), code, title, done.gone, done.stances))
            else:
                prefix = f"{path}: " if len(logs) > 1 else ""
                out.append(report.as_text(findings, code, prefix, done.gone, done.stances, edited))
            if output is None:
                bar.echo(out.pop(), data=fmt in (ReportFormat.json, ReportFormat.html))
    if output is not None:
        text = "\n".join(out)
        atomic.write_bytes(output, (text + ("" if text.endswith("\n") else "\n")).encode("utf-8"))
        echo(msg("wrote", lang, path=output), err=True)
    raise typer.Exit(worst)


class Audited(NamedTuple):
    """One log read, verified and audited in a single streaming pass."""

    start: MatchStarted
    head: logfile.Head
    findings: list[Finding]
    gone: Voided
    """The events log.voids took back (found in passes of their own only when the log has a void)."""
    stances: list[Stance]
    """kifu's stance on each judge ruling the log records (``kifu.auditor.stance``)."""


def audit_path(path: Path, progress: logfile.Progress | None = None, folded: bool = True) -> Audited:
    """Read, verify and audit one log as it streams: memory does not grow with the log (the judge rulings
    are kept as they pass: a log has a few).

    Each block of lines is verified before the engine sees its events; a line that
    does not verify stops the audit with its KifuError (the findings so far are
    dropped: a log that cannot be trusted gets no verdict).
    """
    from kifu.auditor import registry
    from kifu.auditor.stance import stances

    gone = voids_of(path)
    reader = logfile.Reader(path, progress)
    events = reader.events()
    start = next(events)
    assert isinstance(start, MatchStarted)  # the Verifier refuses any other first line
    rulings: list[JudgeRuling] = []

    def seen(stream: Iterator[Event]) -> Iterator[Event]:
        for e in stream:
            if type(e) is JudgeRuling and e.seq not in gone:
                rulings.append(e)
            yield e

    findings = registry.audit(itertools.chain((start,), seen(events)), voided=set(gone), folded=folded)
    return Audited(start, reader.head, findings, gone, stances(rulings, findings))


def ticker(bar: Bar, start: float) -> logfile.Progress | None:
    """A progress callback moving ``bar`` by the bytes read, from ``start``; None when no bar shows."""
    return (lambda offset: bar.update(start + offset)) if bar.live else None


@app.command(rich_help_panel=PANEL)
def report(
    log: LogArg,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="The page to write (default: stdout).")] = None,
    lang: LangOpt = None,
) -> None:
    """Write one self-contained HTML page for a match: players, verdict, findings explained, charts, timeline.

    A log of more than 5,000 events gets a summarised timeline (its first and last
    events and every event a finding or ruling names); findings and rulings are
    always complete.

    Exit codes as `kifu audit`: 0 clean, 1 findings of error severity, 2 a log that cannot be trusted.

    Example: kifu report fixtures/gunandgun/dispute.jsonl -o dispute.html --lang ja
    """
    from kifu.auditor import page, registry
    from kifu.auditor.report import summary
    from kifu.projector.base import transitions

    code = lang_of(lang).value
    progress, (size,) = logs_progress([log], 2, msg("progress_audit", lang))
    with progress as bar:
        done = audit_path(log, ticker(bar, 0))
        g = registry.game(done.start.game)
        bar.update(size, label=msg("progress_render", lang))
        # The page is a second pass: the fold again, each frame drawn and dropped.
        events = logfile.Reader(log, ticker(bar, size)).events()
        start = next(events)
        assert isinstance(start, MatchStarted)
        steps = (
            (e, after)
            for e, _, after in transitions(g.projection, start, events, registry.options(g, start), set(done.gone))
        )
        text = page.render_steps(
            steps,
            done.findings,
            code,
            head=done.head.hash,
            source=str(log),
            voids={seq: void for seq, (void, _) in done.gone.items()},
            rulings=[s.ruling for s in done.stances],
            last=done.head.seq,
        )
    if output is None:
        echo(text, nl=False, data=True)  # the page: every string in it escaped and isolated already
    else:
        atomic.write_bytes(output, text.encode("utf-8"))
        echo(msg("report_wrote", lang, path=output, summary=summary(done.findings, code)), err=True)
    raise typer.Exit(1 if any(f.severity == "error" for f in done.findings) else 0)


@app.command(rich_help_panel=PANEL)
def rules(
    code: Annotated[str | None, typer.Argument(help="A rule code to explain, e.g. GG-TOSS-001.")] = None,
    game: GameFilter = None,
    fmt: FormatOpt = DataFormat.table,
    lang: LangOpt = None,
) -> None:
    """List every rule with its code, severity and citation, or explain one.

    A citation names the rule document as its readers know it and the passage; with
    -g GAME the table and Markdown list the game's documents and their full titles below.

    Examples: kifu rules -g gunandgun     kifu rules GG-TOSS-001 --lang ja
    """
    from kifu.auditor import registry, report
    from kifu.auditor.base import documents

    if code:
        try:
            echo(report.explain(registry.find_rule(code), lang_of(lang).value))
        except KeyError:
            fail(msg("unknown_rule", lang, code=code))
        return
    selected = (
        registry.all_rules() if game is None else sorted(registry.rules_of(registry.game(game)), key=lambda r: r.code)
    )
    code = lang_of(lang).value
    rows = [(r.code, r.name, r.severity.value, r.title.get(code), r.citation.get(code)) for r in selected]
    print_rows(["code", "name", "severity", "title", "citation"], rows, fmt)
    if game is not None and fmt in (DataFormat.table, DataFormat.md):  # data formats stay one list of rules
        docs = registry.game(game).documents + [d for d in documents("kifu") if game != "generic"]
        print_rows(
            ["document", "title"],
            [(d.name.get(code), d.title.get(code)) for d in docs],
            fmt,
            title=msg("documents", lang),
            labels=[msg("document", lang), msg("document_title", lang)],
        )

"""Commands that judge a match: audit, report, rules."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from kifu.events import atomic, logfile
from kifu.events.base import KifuError

from .common import (
    echo,
    DataFormat,
    FormatOpt,
    GameFilter,
    LangOpt,
    LogArg,
    ReportFormat,
    fail,
    lang_of,
    msg,
    print_rows,
)
from .progress import Bar, log_note, logs_progress, starts

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
    from kifu import app as use
    from kifu.auditor import report

    code = lang_of(lang).value
    out: list[str] = []
    worst = 0
    progress, sizes = logs_progress(logs, 1, msg("progress_audit", lang))
    with progress as bar:
        for i, (path, _size, start) in enumerate(zip(logs, sizes, starts(sizes, 1), strict=True)):
            try:
                bar.update(start, note=log_note(i, logs, lang))
                tick = ticker(bar, start)
                if fmt is ReportFormat.html:  # the match page, as `kifu report` writes it
                    made = use.report(path, code, merged=not every, progress=tick)
                    done, page = made.audit, made.page
                else:
                    done = use.audit(path, merged=not every, progress=tick)
            except KifuError as exc:  # one untrusted log does not hide the others' reports
                if len(logs) == 1:
                    raise exc.located(str(path)) from None
                bar.warn(f"kifu: error: {exc.located(str(path)).render(code)}")
                worst = 2
                continue
            findings = done.findings
            if worst < 2 and done.errors:
                worst = 1
            title = f"{path} ({done.game}, {done.match})"
            if fmt is ReportFormat.json:
                meta: dict[str, Any] = {
                    "log": str(path),
                    "game": done.game,
                    "match": done.match,
                    "head": done.head.hash,
                }
                meta["events"] = done.head.seq
                out.append(report.as_json(findings, code, meta, done.voided, done.stances, done.provenance))
            elif fmt is ReportFormat.md:
                out.append(report.as_markdown(findings, code, title, done.voided, done.stances, done.provenance))
            elif fmt is ReportFormat.html:
                out.append(page)
            else:
                prefix = f"{path}: " if len(logs) > 1 else ""
                out.append(report.as_text(findings, code, prefix, done.voided, done.stances, done.provenance))
            if output is None:
                bar.echo(out.pop(), data=fmt in (ReportFormat.json, ReportFormat.html))
    if output is not None:
        text = "\n".join(out)
        atomic.write_bytes(output, (text + ("" if text.endswith("\n") else "\n")).encode("utf-8"))
        echo(msg("wrote", lang, path=output), err=True)
    raise typer.Exit(worst)


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
    from kifu import app as use
    from kifu.auditor.report import summary

    code = lang_of(lang).value
    progress, (size,) = logs_progress([log], 1, msg("progress_audit", lang))
    with progress as bar:
        drawing = lambda: bar.update(size, label=msg("progress_render", lang))  # noqa: E731
        made = use.report(log, code, progress=ticker(bar, 0), drawing=drawing)
    done = made.audit
    if output is None:
        echo(made.page, nl=False, data=True)  # the page: every string in it escaped and isolated already
    else:
        atomic.write_bytes(output, made.page.encode("utf-8"))
        echo(msg("report_wrote", lang, path=output, summary=summary(done.findings, code)), err=True)
    raise typer.Exit(1 if done.errors else 0)


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
    from kifu.events.i18n import documents

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

"""Commands that judge a match: audit, report, rules."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from kifu.events import atomic, logfile
from kifu.events.base import KifuError

from .common import (
    DataFormat,
    FormatOpt,
    GameFilter,
    Lang,
    LangOpt,
    LogArg,
    ReportFormat,
    fail,
    lang_of,
    msg,
    print_rows,
)
from .progress import Bar, log_note, logs_progress, read_log, starts

app = typer.Typer()
PANEL = "Judging"


@app.command(rich_help_panel=PANEL)
def audit(
    logs: Annotated[list[Path], typer.Argument(help="Match logs to audit.", show_default=False)],
    fmt: Annotated[ReportFormat, typer.Option("--format", "-f", help="text, json, md, or html (a page).")] = ReportFormat.text,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the report to this file.")] = None,
    lang: LangOpt = None,
) -> None:
    """Audit match logs against their game's rulebook; findings cite the rule.

    Exit 0 when no finding is an error, 1 when one is, 2 when a log cannot be
    trusted (malformed or a broken chain).

    Example: kifu audit fixtures/gunandgun/dispute.jsonl --lang ja -f md
    """
    from kifu.auditor import report

    code = lang_of(lang).value
    out: list[str] = []
    worst = 0
    progress, sizes = logs_progress(logs, 2, msg("progress_read", lang))
    with progress as bar:
        for i, (path, size, start) in enumerate(zip(logs, sizes, starts(sizes, 2), strict=True)):
            try:
                lg, findings = audit_log(path, bar, start, size, log_note(i, logs, lang), lang)
            except KifuError as exc:  # one untrusted log does not hide the others' reports
                if len(logs) == 1:
                    raise exc.located(str(path)) from None
                bar.warn(f"kifu: error: {exc.located(str(path)).render(code)}")
                worst = 2
                continue
            if worst < 2 and any(f.severity == "error" for f in findings):
                worst = 1
            title = f"{path} ({lg.start.game}, {lg.start.match})"
            if fmt is ReportFormat.json:
                meta = {"log": str(path), "game": lg.start.game, "match": lg.start.match,
                        "head": lg.head.hash, "events": lg.head.seq}
                out.append(report.as_json(findings, code, meta))
            elif fmt is ReportFormat.md:
                out.append(report.as_markdown(findings, code, title))
            elif fmt is ReportFormat.html:
                out.append(report.as_html(findings, lg.events, code, title))
            else:
                prefix = f"{path}: " if len(logs) > 1 else ""
                out.append(report.as_text(findings, code, prefix))
            if output is None:
                bar.echo(out.pop())
    if output is not None:
        text = "\n".join(out)
        atomic.write_bytes(output, (text + ("" if text.endswith("\n") else "\n")).encode("utf-8"))
        typer.echo(msg("wrote", lang, path=output), err=True)
    raise typer.Exit(worst)


def audit_log(path: Path, bar: Bar, start: float, size: int, note: str, lang: Lang | None) -> tuple[logfile.Log, list[Any]]:
    """Read and audit one log: two passes of ``size`` on the bar from ``start``."""
    from kifu.auditor import registry

    bar.update(start, label=msg("progress_read", lang), note=note)
    lg = read_log(path, bar, start)
    bar.update(start + size, label=msg("progress_audit", lang))
    return lg, registry.audit(bar.counted(lg.events, start + size, size))


@app.command(rich_help_panel=PANEL)
def report(
    log: LogArg,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="The page to write (default: stdout).")] = None,
    lang: LangOpt = None,
) -> None:
    """Write one self-contained HTML page for a match: players, verdict, findings explained, charts, timeline.

    Exit codes as `kifu audit`: 0 clean, 1 findings of error severity, 2 a log that cannot be trusted.

    Example: kifu report fixtures/gunandgun/dispute.jsonl -o dispute.html --lang ja
    """
    from kifu.auditor import page, registry
    from kifu.auditor.report import summary
    from kifu.projector.base import frames

    code = lang_of(lang).value
    progress, (size,) = logs_progress([log], 3, msg("progress_read", lang))
    with progress as bar:
        lg, findings = audit_log(log, bar, 0, size, "", lang)
        g = registry.game(lg.start.game)
        bar.update(2 * size, label=msg("progress_replay", lang))
        replay = list(frames(g.projection, bar.counted(lg.events, 2 * size, size), registry.options(g, lg.start)))
        bar.phase(msg("progress_render", lang), None)  # the page has no step to count: the bar only pulses
        text = page.render(lg.events, replay, findings, code, head=lg.head.hash, source=str(log))
    if output is None:
        typer.echo(text, nl=False)
    else:
        atomic.write_bytes(output, text.encode("utf-8"))
        typer.echo(msg("report_wrote", lang, path=output, summary=summary(findings, code)), err=True)
    raise typer.Exit(1 if any(f.severity == "error" for f in findings) else 0)


@app.command(rich_help_panel=PANEL)
def rules(
    code: Annotated[Optional[str], typer.Argument(help="A rule code to explain, e.g. GG-TOSS-001.")] = None,
    game: GameFilter = None,
    fmt: FormatOpt = DataFormat.table,
    lang: LangOpt = None,
) -> None:
    """List every rule with its code, severity and citation, or explain one.

    Examples: kifu rules -g gunandgun     kifu rules GG-TOSS-001 --lang ja
    """
    from kifu.auditor import registry, report

    if code:
        try:
            typer.echo(report.explain(registry.find_rule(code), lang_of(lang).value))
        except KeyError:
            fail(msg("unknown_rule", lang, code=code))
        return
    selected = registry.all_rules() if game is None else sorted(
        registry.rules_of(registry.game(game)), key=lambda r: r.code)
    rows = [(r.code, r.name, r.severity.value, r.title.get(lang_of(lang).value), r.citation) for r in selected]
    print_rows(["code", "name", "severity", "title", "citation"], rows, fmt)

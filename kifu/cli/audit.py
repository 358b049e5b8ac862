"""Commands that judge a match: audit, report, rules."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from kifu.events import atomic

from .common import (
    echo,
    DataFormat,
    FormatOpt,
    GameFilter,
    JobsOpt,
    LangOpt,
    LogArg,
    ReportFormat,
    SummaryFormat,
    SummaryOpt,
    fail,
    jobs_of,
    lang_of,
    msg,
    print_json,
    print_jsonl,
    print_rows,
    print_summary,
)
from . import checks
from .checks import ticker
from .progress import logs_progress

app = typer.Typer()
PANEL = "Judging"


@app.command(rich_help_panel=PANEL)
def audit(
    logs: Annotated[list[Path], typer.Argument(help="Match logs to audit.", show_default=False)],
    fmt: Annotated[
        ReportFormat,
        typer.Option(
            "--format",
            "-f",
            help="text; json: one document (a log's report; for several logs, a list of them); "
            "jsonl: one line per log; md; or html (a page).",
        ),
    ] = ReportFormat.text,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the report to this file.")] = None,
    every: Annotated[
        bool, typer.Option("--all", help="Every finding the rules' checks made, unfolded (no consequences).")
    ] = False,
    jobs: JobsOpt = None,
    lang: LangOpt = None,
) -> None:
    """Audit match logs against their game's rulebook; findings cite the rule.

    One mistake is one finding: what follows only from it is listed as its
    consequences (--all shows every finding as the checks made it). After the
    findings, kifu's stance on each judge ruling: whether it agrees.

    -f json prints one JSON document whatever the number of logs: the log's
    report, or for several logs a list of them in the order given (a log that
    cannot be trusted is {"log", "error"} there); -f jsonl one report per line.

    A finding some of whose events were imported from a message the source
    marks as edited after it was sent says so (✎, with the file:location and the
    text as exported; json: its `provenance` list).

    -j N audits N logs at a time in N worker processes (default: every core
    this process may use); the output is the same as with -j 1, in the order given.

    Exit 0 when no finding is an error, 1 when one is, 2 when a log cannot be
    trusted (malformed or a broken chain).

    \b
    Examples:
      kifu audit fixtures/gunandgun/dispute.jsonl --lang ja -f md
      kifu audit fixtures/*/*.jsonl -j 2 -f jsonl
    """
    raise typer.Exit(checks.audit_logs(logs, fmt, output, every, lang, jobs_of(jobs, lang)))


@app.command(rich_help_panel=PANEL)
def report(
    log: LogArg,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="The page to write (default: stdout).")] = None,
    fmt: SummaryOpt = SummaryFormat.text,
    lang: LangOpt = None,
) -> None:
    """Write one self-contained HTML page for a match: players, verdict, findings explained, charts, timeline.

    A log of more than 5,000 events gets a summarised timeline (its first and last
    events and every event a finding or ruling names); findings and rulings are
    always complete.

    With -o, -f json prints what was written as one object on stdout (log, page,
    game, match, head, events, counts of findings by severity, the verdict in
    words); -f jsonl as one line.

    Exit codes as `kifu audit`: 0 clean, 1 findings of error severity, 2 a log that cannot be trusted.

    Example: kifu report fixtures/gunandgun/dispute.jsonl -o dispute.html --lang ja
    """
    from kifu import app as use
    from kifu.auditor.report import summary

    code = lang_of(lang).value
    if fmt is not SummaryFormat.text and output is None:
        fail(msg("report_json_output", lang))  # stdout holds the page itself
    progress, (size,) = logs_progress([log], 1, msg("progress_audit", lang))
    with progress as bar:
        drawing = lambda: bar.update(size, label=msg("progress_render", lang))  # noqa: E731
        made = use.report(log, code, progress=ticker(bar, 0), drawing=drawing)
    done = made.audit
    if output is None:
        echo(made.page, nl=False, data=True)  # the page: every string in it escaped and isolated already
    elif fmt is not SummaryFormat.text:
        from kifu.auditor.report import counts

        atomic.write_bytes(output, made.page.encode("utf-8"))
        said = {
            "log": str(log),
            "page": str(output),
            "game": done.game,
            "match": done.match,
            "head": done.head.hash,
            "events": done.head.seq,
            "counts": counts(done.findings),
            "summary": summary(done.findings, code),
        }
        print_summary(said, fmt)
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

    One rule (CODE) is explained as text, or with -f json/jsonl as one object
    (code, name, severity, games, title, citation, documents, checks, why, bad,
    good, options), -f csv as one row of those columns, -f md as a section.

    Examples: kifu rules -g gunandgun     kifu rules GG-TOSS-001 --lang ja -f md
    """
    from kifu.auditor import registry
    from kifu.events.i18n import documents

    if code:
        try:
            found = registry.find_rule(code)
        except KeyError:
            fail(msg("unknown_rule", lang, code=code))
        _explain(found, fmt, lang_of(lang).value)
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


RULE_FIELDS = ("code", "name", "severity", "games", "title", "citation", "documents", "checks", "why", "bad", "good")
"""What `kifu rules CODE` says of a rule, in every data format (then its ``options``)."""


def _explain(rule: Any, fmt: DataFormat, code: str) -> None:
    """One rule explained: text for a person (table), or its fields as JSON, a JSON line, a CSV row or Markdown."""
    from kifu.auditor import registry, report
    from kifu.events.i18n import cited

    if fmt is DataFormat.table:
        echo(report.explain(rule, code))
        return
    docs = [{"name": d.name.get(code), "title": d.title.get(code)} for d in cited(rule.citation, rule.game)]
    item: dict[str, Any] = {
        "code": rule.code,
        "name": rule.name,
        "severity": rule.severity.value,
        "games": [g.id for g in registry.games() if rule in registry.rules_of(g)],
        "title": rule.title.get(code),
        "citation": rule.citation.get(code),
        "documents": docs,
        **{k: rule.doc.section(k, code) for k in ("checks", "why", "bad", "good")},
        "options": list(rule.options),
    }
    if fmt in (DataFormat.json, DataFormat.jsonl):
        (print_json if fmt is DataFormat.json else print_jsonl)(item)
    elif fmt is DataFormat.csv:
        flat = {
            **item,
            "games": ", ".join(item["games"]),
            "documents": "; ".join(f"{d['name']}: {d['title']}" for d in docs),
        }
        print_rows([*RULE_FIELDS, "options"], [[*(flat[k] for k in RULE_FIELDS), ", ".join(rule.options)]], fmt)
    else:
        _explain_md(rule, item, code)


def _explain_md(rule: Any, item: dict[str, Any], code: str) -> None:
    """One rule as a Markdown section: its code, name and severity as the heading, then its documentation."""
    from kifu.auditor.report import label

    echo(f"### {item['code']} {item['name']} ({label(item['severity'], code)})\n")
    echo(f"{item['title']}\n")
    echo(f"**{label('citation', code)}**: {item['citation']}\n")
    for d in item["documents"]:
        echo(f"- {d['name']}: {d['title']}")
    if item["documents"]:
        echo("")
    for k in ("checks", "why"):
        echo(f"**{label(k, code)}**: {item[k]}\n")
    for k in ("bad", "good"):
        echo(f"**{label(k, code)}**:\n\n```\n{item[k]}\n```\n")
    if rule.options:
        echo(f"**{label('options', code)}**: {', '.join(rule.options)}")

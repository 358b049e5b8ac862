"""The match page's look: the inline style sheet, the content security policy that forbids anything but
inline styles and data images (the page adds its one script, by hash), and the colours of players (the
board's, kifu/auditor/board.py) and of the table in charts."""

from __future__ import annotations

from ..board import PALETTE  # noqa: E402  (one colour per seat on the board and the charts)

TABLE_COLOUR = "#475569"

CSS = """
:root{--ink:#1f2937;--mute:#6b7280;--line:#e5e7eb;--err:#b91c1c;--errbg:#fef2f2;--warn:#a16207;--warnbg:#fefce8;
--inf:#1d4ed8;--infbg:#eff6ff;--ok:#15803d;--okbg:#f0fdf4;--edit:#9a3412}
*{box-sizing:border-box}
body{font-family:system-ui,"Hiragino Sans","Noto Sans CJK JP","Yu Gothic","IPAGothic",sans-serif;color:var(--ink);margin:0;
background:#f8fafc;line-height:1.5}
main{max-width:1180px;margin:0 auto;padding:24px 28px 48px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 10px;border-bottom:2px solid var(--line);
padding-bottom:4px}
.meta{color:var(--mute);font-size:13px;margin:0}.meta b{color:var(--ink);font-weight:600}
.hash{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
.top{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:18px;margin-top:18px}
.card{background:#fff;border:1px solid var(--line);border-radius:10px;padding:14px 16px}
.verdict{border-left:8px solid var(--ok);background:var(--okbg)}
.verdict.error{border-left-color:var(--err);background:var(--errbg)}
.verdict.warning{border-left-color:var(--warn);background:var(--warnbg)}
.verdict.info{border-left-color:var(--inf);background:var(--infbg)}
.verdict .big{font-size:21px;font-weight:700;margin:0}.verdict p{margin:4px 0}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:5px 8px;border-bottom:1px solid var(--line);font-size:13px}
th{color:var(--mute);font-weight:600;font-size:12px}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}
.badge{display:inline-block;border-radius:999px;padding:0 8px;font-size:12px;font-weight:600;color:#fff}
.badge.error{background:var(--err)}.badge.warning{background:var(--warn)}.badge.info{background:var(--inf)}
.stances ul{list-style:none;padding:0;margin:0}.stances li{padding:6px 0;border-bottom:1px solid var(--line);font-size:14px}
.stances li:last-child{border-bottom:0}.badge.agree{background:var(--ok)}.badge.stricter,.badge.lenient,.badge.none{background:var(--warn)}
.badge.undecided,.badge.unknown{background:var(--mute)}
.finding{background:#fff;border:1px solid var(--line);border-left:6px solid var(--inf);border-radius:10px;
padding:12px 16px;margin:12px 0}
.finding.error{border-left-color:var(--err)}.finding.warning{border-left-color:var(--warn)}
.finding:target{box-shadow:0 0 0 3px #fbbf24}
.finding h3{margin:0 0 4px;font-size:16px}.finding .code{font-family:ui-monospace,monospace}
.finding .msg{font-size:15px;margin:6px 0}.finding .name{color:var(--mute);font-size:12px;font-family:ui-monospace,monospace}
.finding dl{display:grid;grid-template-columns:150px 1fr;gap:2px 12px;margin:8px 0 0;font-size:13px}
.finding dt{color:var(--mute)}.finding dd{margin:0}
.evidence{width:auto;min-width:50%}.evidence td,.evidence th{font-size:12px;padding:2px 12px 2px 0}
.evidence th{color:var(--ink);font-family:ui-monospace,monospace;font-weight:500;min-width:110px}
.seqlink{font-family:ui-monospace,monospace;font-weight:600}
details{font-size:13px;margin-top:6px}code,pre{font-family:ui-monospace,monospace;font-size:12px}
pre{white-space:pre-wrap;word-break:break-all;background:#f3f4f6;padding:6px 8px;border-radius:6px;margin:4px 0}
.charts{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:14px}
.chart h3{margin:0 0 6px;font-size:15px}.chart svg{width:100%;height:auto;display:block}
.legend{font-size:12px;color:var(--mute);margin-top:4px}.legend span{margin-right:14px}
.note{color:var(--mute);font-size:12px}
.timeline tr.gap td{color:var(--mute);font-style:italic;text-align:center}
.timeline td:first-child{font-family:ui-monospace,monospace;white-space:nowrap}
.timeline tr.error{background:var(--errbg)}.timeline tr.warning{background:var(--warnbg)}
.timeline tr.info{background:var(--infbg)}.timeline tr.ruling{background:#f5f3ff}
.timeline tr.voided{color:var(--mute)}.timeline tr.voided del{text-decoration-thickness:2px}.timeline .void{display:block;font-style:italic}.timeline tr:target{outline:3px solid #fbbf24}
.timeline .t,.timeline .who{white-space:nowrap;color:var(--mute)}.timeline .who{color:var(--ink)}.timeline .ty{font-family:ui-monospace,monospace;white-space:nowrap}
.kv{margin-right:10px;white-space:normal}.kv i{color:var(--mute);font-style:normal}
.chg{white-space:nowrap;font-size:12px}.flag{display:block;font-size:12px;margin-top:2px;text-decoration:none}
.timeline .edited{display:table;font-size:12px;color:var(--edit);background:#fff7ed;border:1px solid #fed7aa;
border-radius:4px;padding:0 6px;margin:2px 0}.editmark{color:var(--edit);font-weight:700}.finding .edited{color:var(--edit)}
.flag.error{color:var(--err)}.flag.warning{color:var(--warn)}.flag.info{color:var(--inf)}
footer{color:var(--mute);font-size:12px;margin-top:30px}
@media (max-width:800px){.top,.charts{grid-template-columns:1fr}}
@media print{body{background:#fff}.card,.finding{break-inside:avoid}}
.cut{color:var(--mute);font-size:12px;font-style:italic}
.stage{display:grid;grid-template-columns:minmax(300px,440px) minmax(0,1fr);gap:16px;align-items:start}
.stage .tl{overflow-x:auto}.stage .timeline .chg{white-space:normal;min-width:96px}.stage .kv{overflow-wrap:anywhere}.stage .timeline td.d{min-width:160px}
.boardpanel{position:sticky;top:0;z-index:2;background:#f8fafc;padding:8px 0;max-height:100vh;overflow:auto}
.boardpanel svg.board,.board-at svg{width:100%;height:auto;display:block;background:#fff;border:1px solid var(--line);
border-radius:10px}
.stepper{display:none;gap:6px;align-items:center;margin:0 0 6px}.js .stepper{display:flex}
.stepper button{font-size:15px;line-height:1;padding:6px 12px;border:1px solid #cbd5e1;border-radius:6px;
background:#fff;color:var(--ink);cursor:pointer}.stepper button:disabled{opacity:.35;cursor:default}
.stepper .where{font-family:ui-monospace,monospace;font-weight:700;margin-left:8px}
.boardpanel .keys{display:none}.js .boardpanel .keys{display:block}.js .boardpanel .nojs{display:none}
.boardpanel .note{margin:6px 0 0}.board-note{color:var(--warn)!important}
.timeline tr{scroll-margin-top:8px}.timeline tr.now{outline:3px solid #0ea5e9;outline-offset:-3px;background:#f0f9ff}
.with-board{display:grid;grid-template-columns:minmax(0,1fr) minmax(260px,340px);gap:16px;align-items:start}
figure.board-at{margin:0}figure.board-at figcaption{font-size:12px;color:var(--mute);margin-top:4px}
.boards{display:grid;grid-template-columns:repeat(auto-fill,minmax(280px,1fr));gap:14px;margin-top:12px}
@media (max-width:800px){main{padding:16px 12px 40px}.stage,.with-board{grid-template-columns:minmax(0,1fr)}
.finding dl{grid-template-columns:minmax(0,1fr)}.finding dd{margin-bottom:6px;overflow-wrap:anywhere}
.evidence{min-width:0}.evidence td{word-break:break-all}.stage .timeline .chg{min-width:0}
.boardpanel{position:static;max-height:none}.js .boardpanel{position:sticky;box-shadow:0 6px 8px -6px #94a3b8}
.timeline .t,.timeline.timed th:nth-child(2){display:none}.js .boardpanel svg.board{max-height:56vh}.js .boardpanel .keys{display:none}.js .timeline tr{scroll-margin-top:calc(var(--board-h,0px) + 8px)}
.js .stage .tl{margin-bottom:max(0px,calc(100vh - var(--board-h,0px) - 48px))}}
"""

from ..markup import CSP  # noqa: E402  (one policy for every page kifu writes)

__all__ = ["CSP", "CSS", "PALETTE", "TABLE_COLOUR"]

"""The board of the match page: the table after any event, stepped through beside the timeline.

Each game draws its own board (``Game.board``, kifu/auditor/board.py); the page embeds
what it drew, never game logic. Every part of every picture is kept once, in an inert
``<template>``; each event shown is the list of its parts (``data-frames`` on the
panel: ``seq:height:part.part…;…``). The page's one script (``SCRIPT``, allowed by its
hash in the content security policy) puts an event's parts into the board
(``<svg class="board" data-seq="N">``): the event of the address's ``#seq-N``, or the
one ←/→ and the buttons step to, with its timeline row marked. Without the script the
board shows one event (the first finding's), and each finding and ruling carries a
static board of its own event. Pure: pictures in, strings out.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...events.base import Event
from ...projector.base import Frame
from ..board import ROOT, Around, Mark, Picture
from ..base import Finding, Game
from ..markup import esc

FRAMES = 4000
"""At most this many events drawn (the first ones shown, then the last ``TAIL``): a log with thousands of
findings keeps a page of bounded size; an event past the cap opens the nearest board drawn, saying so."""
STATIC_BOARDS = 40
"""Findings and rulings that carry a static board of their event (a page of thousands of findings stays
small: the later ones are one click away on the stepped board)."""


class Boards:
    """Every picture drawn while the match streams by, kept as parts shared between events."""

    def __init__(self, game: Game | None, findings: Sequence[Finding], lang: str, names: Mapping[str, str]) -> None:
        self.draw = game.board if game is not None else None
        self.lang = lang
        self.names = names
        self.marks: dict[int, list[Mark]] = {}
        for f in findings:
            for s in dict.fromkeys(f.seqs):
                self.marks.setdefault(s, []).append(Mark(f.severity, f.code, f.message.get(lang), f.evidence))
        self.index: dict[str, int] = {}
        self.parts: list[str] = []
        self.width = 0
        self.heights: dict[int, int] = {}
        self.labels: dict[int, str] = {}

    @property
    def drawn(self) -> bool:
        return self.draw is not None

    @property
    def full(self) -> bool:
        """``FRAMES`` events are drawn: only the log's last events are drawn from now on."""
        return len(self.heights) >= FRAMES

    def add(self, event: Event, before: Frame[Any] | None, after: Frame[Any], voided: bool) -> tuple[int, ...] | None:
        """Draw the board after ``event``; the ids of its parts."""
        if self.draw is None:
            return None
        around = Around(
            event=event, before=before, marks=tuple(self.marks.get(event.seq, ())), names=self.names, voided=voided
        )
        pic: Picture = self.draw(after, self.lang, around)
        self.width = pic.width
        self.heights[event.seq] = pic.height
        self.labels[event.seq] = pic.label
        return tuple(self._intern(p) for p in pic.parts)

    def _intern(self, part: str) -> int:
        i = self.index.get(part)
        if i is None:
            i = self.index[part] = len(self.parts)
            self.parts.append(part)
        return i


class Shown:
    """The boards of the events the page shows, renumbered to the parts they use."""

    def __init__(self, boards: Boards, rows: Iterable[tuple[int, tuple[int, ...]]], default: int | None) -> None:
        rows = list(rows)
        used = sorted({i for _, ids in rows for i in ids})
        renumber = {old: new for new, old in enumerate(used)}
        self.parts = [boards.parts[i] for i in used]
        self.frames = {seq: tuple(renumber[i] for i in ids) for seq, ids in rows}
        self.heights = boards.heights
        self.labels = boards.labels
        self.width = boards.width
        seqs = list(self.frames)
        self.default = default if default in self.frames else (seqs[-1] if seqs else None)

    def has(self, seq: int) -> bool:
        return seq in self.frames

    def svg(self, seq: int, cls: str, extra: str = "") -> str:
        """The board after ``seq`` as an inline ``<svg>`` of class ``cls``."""
        body = "".join(self.parts[i] for i in self.frames[seq])
        return (
            f'<svg class="{cls}" data-seq="{seq}" viewBox="0 0 {self.width} {self.heights[seq]}" role="img" '
            f'aria-label="{esc(self.labels[seq])}" {ROOT} xmlns="http://www.w3.org/2000/svg"{extra}>{body}</svg>'
        )

    def data(self) -> str:
        """``seq:height:parts`` per event, ``;`` between events: digits and punctuation, nothing to escape.

        ``parts`` are the part ids in drawing order, ``.`` between them; ``~k`` stands for the next
        ``k`` ids of the event before at the same places (most of a board stays as it was), which
        the script expands once when the page opens.
        """
        out: list[str] = []
        prev: tuple[int, ...] = ()
        for seq, ids in sorted(self.frames.items()):
            out.append(f"{seq}:{self.heights[seq]}:{'.'.join(_runs(ids, prev))}")
            prev = ids
        return ";".join(out)

    def template(self) -> str:
        return (
            f'<template id="board-parts"><svg xmlns="http://www.w3.org/2000/svg">{"".join(self.parts)}</svg></template>'
        )


ID = ' id="board"'


def _runs(ids: tuple[int, ...], prev: tuple[int, ...]) -> list[str]:
    """``ids`` with each run of ids equal to ``prev``'s at the same places written ``~k``."""
    out: list[str] = []
    run = 0
    for i, part in enumerate(ids):
        if i < len(prev) and prev[i] == part:
            run += 1
            continue
        if run:
            out.append(f"~{run}")
            run = 0
        out.append(str(part))
    if run:
        out.append(f"~{run}")
    return out


def panel(shown: Shown | None, t: Any) -> str:
    """The stepped board, its buttons and its keys' note; empty when the game draws no board."""
    if shown is None or shown.default is None:
        return ""
    seq = shown.default
    buttons = "".join(
        f'<button type="button" data-step="{step}" title="{esc(t(key))}" aria-label="{esc(t(key))}">{glyph}</button>'
        for step, key, glyph in (
            ("first", "board_first", "«"),
            ("-1", "board_prev", "◀"),
            ("1", "board_next", "▶"),
            ("last", "board_last", "»"),
        )
    )
    return (
        f'<aside class="boardpanel" id="board-panel" data-frames="{shown.data()}" data-width="{shown.width}" '
        f'data-missing="{esc(t("board_missing"))}">'
        f'<div class="stepper">{buttons}<span class="where">seq {seq}</span></div>'
        f"{shown.svg(seq, 'board', ID)}"
        f'<p class="note keys">{esc(t("board_keys"))}</p><p class="note board-note" hidden></p>'
        f'<p class="note nojs">{esc(t("board_static", seq=seq))}</p></aside>'
    )


def static(shown: Shown | None, seq: int, caption: str) -> str:
    """A static board of one event with its caption (HTML), for a finding's or a ruling's event."""
    if shown is None or not shown.has(seq):
        return ""
    return f'<figure class="board-at">{shown.svg(seq, "board-static")}<figcaption>{caption}</figcaption></figure>'


SCRIPT = """(function(){
var panel=document.getElementById('board-panel'),tpl=document.getElementById('board-parts');
if(!panel||!tpl)return;
document.documentElement.classList.add('js');
var svg=panel.querySelector('svg.board'),parts=tpl.content.firstElementChild.children;
var width=panel.getAttribute('data-width'),where=panel.querySelector('.where'),note=panel.querySelector('.board-note');
var prev=[],frames=panel.getAttribute('data-frames').split(';').map(function(f){
var a=f.split(':'),ids=[];(a[2]?a[2].split('.'):[]).forEach(function(k){
if(k.charAt(0)==='~'){for(var n=+k.slice(1);n>0;n--)ids.push(prev[ids.length]);}else{ids.push(+k);}});
prev=ids;return {seq:+a[0],h:a[1],ids:ids};});
var buttons=panel.querySelectorAll('button[data-step]'),cur=-1,row=null;
function index(seq){var lo=0,hi=frames.length-1,at=0;
while(lo<=hi){var m=(lo+hi)>>1;if(frames[m].seq<=seq){at=m;lo=m+1;}else{hi=m-1;}}return at;}
function fit(){document.documentElement.style.setProperty('--board-h',panel.offsetHeight+'px');}
function show(i,scroll,asked){
i=Math.max(0,Math.min(frames.length-1,i));var f=frames[i];
if(i!==cur){svg.replaceChildren.apply(svg,f.ids.map(function(k){return parts[k].cloneNode(true);}));
svg.setAttribute('viewBox','0 0 '+width+' '+f.h);svg.setAttribute('data-seq',f.seq);cur=i;
var cap=svg.querySelector('text');if(cap)svg.setAttribute('aria-label',cap.textContent);}
where.textContent='seq '+f.seq;
if(asked!==undefined&&asked!==f.seq){note.textContent=panel.getAttribute('data-missing')
.replace('{seq}',asked).replace('{shown}',f.seq);note.hidden=false;}else{note.hidden=true;}
buttons.forEach(function(b){var s=b.getAttribute('data-step');
b.disabled=(s==='first'||s==='-1')?i===0:i===frames.length-1;});
if(row)row.classList.remove('now');row=document.getElementById('seq-'+f.seq);
if(row){row.classList.add('now');if(scroll)row.scrollIntoView({block:'nearest'});}
fit();}
function fromHash(){var m=/^#seq-(\\d+)$/.exec(location.hash);
if(m){show(index(+m[1]),false,+m[1]);return true;}
m=/^#f-(\\d+)$/.exec(location.hash);var el=m&&document.getElementById('f-'+m[1]);
if(el&&el.getAttribute('data-seq')){show(index(+el.getAttribute('data-seq')),false);return true;}
return false;}
function go(i){if(i<0||i>=frames.length||i===cur)return;show(i,true);
history.replaceState(null,'','#seq-'+frames[i].seq);}
buttons.forEach(function(b){b.addEventListener('click',function(){var s=b.getAttribute('data-step');
go(s==='first'?0:s==='last'?frames.length-1:cur+(+s));});});
document.addEventListener('keydown',function(e){
if(e.altKey||e.ctrlKey||e.metaKey||e.shiftKey||e.defaultPrevented)return;
var t=e.target;if(t&&(t.isContentEditable||/^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)))return;
if(e.key==='ArrowLeft'){go(cur-1);e.preventDefault();}
else if(e.key==='ArrowRight'){go(cur+1);e.preventDefault();}});
window.addEventListener('hashchange',fromHash);window.addEventListener('resize',fit);
if(!fromHash())show(index(+svg.getAttribute('data-seq')),false);
})();"""
"""The page's one script: it steps the board through the embedded events (no game logic, no words, no network)."""

SCRIPT_HASH = "sha256-" + base64.b64encode(hashlib.sha256(SCRIPT.encode("utf-8")).digest()).decode("ascii")
"""What the content security policy allows: this script and nothing else."""

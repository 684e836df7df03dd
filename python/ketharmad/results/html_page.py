"""The frame of every HTML page ketharmad writes (run reports, live reports, comparisons):
one self-contained file with its style and its small script inline (no network), escaping,
and the building blocks every page shares (sections, notes, copyable commands).

The script sorts a table when its header is clicked (numbers by their ``data-value``, text
otherwise; the header gets ``aria-sort``), filters a table's rows by the text typed into
its filter box (``data-filter-for``) and copies a command to the clipboard. The stable ids
and data attributes are documented in docs/reports.md.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any, Optional

__all__ = ["esc", "attr", "page", "section", "note", "command_block", "json_script", "slug"]


def esc(text: Any) -> str:
    """``text`` as HTML text (``&``, ``<``, ``>``, quotes escaped)."""
    return html.escape(str(text), quote=True)


def attr(name: str, value: Any) -> str:
    """`` name="value"`` (escaped); nothing when ``value`` is None."""
    return "" if value is None else f' {name}="{esc(value)}"'


def slug(text: Any) -> str:
    """A stable id fragment: lower case, runs of other characters as one ``-``
    (``"ner vs tisza"`` -> ``ner-vs-tisza``, ``"ner_orban_viktor.influence"`` kept readable as
    ``ner_orban_viktor-influence``)."""
    out: list[str] = []
    for ch in str(text).lower():
        if ch.isalnum() or ch == "_":
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-") or "x"


def json_script(element_id: str, value: Any) -> str:
    """``value`` as JSON in a ``<script type="application/json">`` (``</`` escaped, so no
    string in it can end the element)."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, default=str)
    text = text.replace("</", "<\\/").replace("<!--", "<\\!--")
    return f'<script type="application/json" id="{esc(element_id)}">{text}</script>'


def section(section_id: str, title: str, body: str, level: int = 2) -> str:
    """A ``<section id=...>`` with its heading."""
    return f'<section id="{esc(section_id)}"><h{level}>{esc(title)}</h{level}>\n{body}\n</section>'


def note(text: str, kind: str = "note") -> str:
    """A highlighted paragraph (``kind``: note, warn, live)."""
    return f'<p class="{esc(kind)}">{text}</p>'


def command_block(command: str, element_id: Optional[str] = None) -> str:
    """A command shown as code with a copy button."""
    return (
        f'<span class="cmd"{attr("id", element_id)}><code>{esc(command)}</code>'
        f'<button type="button" class="copy" data-copy="{esc(command)}">copy</button></span>'
    )


_STYLE = """
:root{--fg:#1b1f24;--muted:#5b6470;--line:#d6dbe1;--head:#eef1f4;--accent:#2f5d8a}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);
margin:0;padding:0 1.5rem 3rem;max-width:1400px}
header{border-bottom:1px solid var(--line);padding:1rem 0 .5rem;margin-bottom:1rem}
h1{font-size:1.45rem;margin:.2rem 0}h2{font-size:1.2rem;margin:1.6rem 0 .5rem}
h3{font-size:1.05rem;margin:1.2rem 0 .4rem}h4{font-size:1rem}
.sub{color:var(--muted);margin:.2rem 0}
nav a{margin-right:.9rem;color:var(--accent);text-decoration:none}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;border:1px solid var(--line);padding:.6rem .8rem;overflow:auto}
.note,.warn,.live{padding:.5rem .8rem;border-left:4px solid #7a9cc6;background:#f1f5fa}
.warn{border-color:#c0392b;background:#fbeeee}.live{border-color:#d68910;background:#fdf5e6}
table.kh{border-collapse:collapse;margin:.4rem 0 1rem;font-size:13px}
table.kh th,table.kh td{border:1px solid var(--line);padding:.2rem .45rem;text-align:right;
white-space:nowrap}
table.kh td.t,table.kh th.t{text-align:left}
table.kh thead th{background:var(--head);cursor:pointer;user-select:none;position:sticky;top:0}
table.kh thead th[aria-sort=ascending]::after{content:" \\25B2";font-size:9px}
table.kh thead th[aria-sort=descending]::after{content:" \\25BC";font-size:9px}
table.kh tbody tr:nth-child(even){background:#fafbfc}
.tools{margin:.3rem 0;color:var(--muted);font-size:12.5px}
.tools input{font:inherit;padding:.15rem .4rem;width:16rem}
.wrap{overflow:auto;max-height:34rem}
details{margin:.4rem 0}summary{cursor:pointer;color:var(--accent)}
table.heat{border-collapse:separate;border-spacing:3px;margin:.4rem 0}
table.heat th{font-weight:600;padding:.2rem .5rem;text-align:center}
table.heat th.r{text-align:right}
table.heat td{width:7.6rem;height:3.6rem;text-align:center;vertical-align:middle;
border-radius:3px;font-size:12.5px;line-height:1.25}
table.heat td .v{font-weight:700;font-size:14px;display:block}
table.heat td .ci,table.heat td .n{font-size:11px;display:block}
td.nodata{background:repeating-linear-gradient(45deg,#c9cdd2 0 5px,#eceef0 5px 10px);
color:#50565e;font-style:italic}
.legend{display:flex;align-items:center;gap:.5rem;font-size:12px;color:var(--muted);
margin:.2rem 0 1rem}
.legend .bar{width:14rem;height:.8rem;border:1px solid var(--line)}
.legend .swatch{width:1.6rem;height:.8rem;border:1px solid var(--line)}
.chart{margin:.5rem 0 1.2rem;min-height:2rem}
.cmd{display:inline-flex;gap:.4rem;align-items:center}
.cmd code{background:#f6f8fa;padding:.1rem .3rem;border:1px solid var(--line)}
button.copy{font-size:11px;padding:.05rem .4rem;cursor:pointer}
dl.prov{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}
dl.prov dt{color:var(--muted)}dl.prov dd{margin:0;font-family:ui-monospace,monospace;
font-size:12.5px;word-break:break-all}
progress{width:20rem;height:1rem;vertical-align:middle}
"""

_SCRIPT = """
(function(){
"use strict";
function num(v){if(v===null||v===""){return null;}var n=Number(v);return isNaN(n)?null:n;}
function key(cell){var v=cell.getAttribute("data-value");if(v===null){v=cell.textContent.trim();}
return v;}
function sortTable(th){
  var table=th.closest("table");var body=table.tBodies[0];if(!body){return;}
  var idx=Array.prototype.indexOf.call(th.parentNode.children,th);
  var dir=th.getAttribute("aria-sort")==="ascending"?"descending":"ascending";
  Array.prototype.forEach.call(th.parentNode.children,function(h){h.removeAttribute("aria-sort");});
  th.setAttribute("aria-sort",dir);var sign=dir==="ascending"?1:-1;
  var rows=Array.prototype.slice.call(body.rows);
  rows.sort(function(a,b){
    var ka=key(a.cells[idx]),kb=key(b.cells[idx]);var na=num(ka),nb=num(kb);
    if(ka===""&&kb!==""){return 1;}if(kb===""&&ka!==""){return -1;}
    if(na!==null&&nb!==null){return sign*(na-nb);}
    return sign*String(ka).localeCompare(String(kb));});
  rows.forEach(function(r){body.appendChild(r);});
}
function filterTable(input){
  var table=document.getElementById(input.getAttribute("data-filter-for"));if(!table){return;}
  var q=input.value.toLowerCase();var shown=0;
  Array.prototype.forEach.call(table.tBodies[0].rows,function(r){
    var hit=r.textContent.toLowerCase().indexOf(q)>=0;r.hidden=!hit;if(hit){shown++;}});
  var count=document.querySelector('[data-count-for="'+table.id+'"]');
  if(count){count.textContent=String(shown);}
}
document.addEventListener("click",function(e){
  var t=e.target;if(!(t instanceof Element)){return;}
  var th=t.closest("table.kh thead th");if(th){sortTable(th);return;}
  var b=t.closest("button.copy");
  if(b){var text=b.getAttribute("data-copy")||"";
    var done=function(){b.textContent="copied";};
    var fallback=function(){var r=document.createRange();r.selectNodeContents(b.previousElementSibling);
      var s=window.getSelection();if(s){s.removeAllRanges();s.addRange(r);}b.textContent="selected";};
    if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(text).then(done,fallback);}
    else{fallback();}}
});
document.addEventListener("input",function(e){
  var t=e.target;if(t instanceof HTMLInputElement&&t.hasAttribute("data-filter-for")){filterTable(t);}
});
})();
"""


def page(
    title: str,
    body: str,
    *,
    page_kind: str,
    refresh: Optional[int] = None,
    head_scripts: Sequence[str] = (),
    tail_scripts: Sequence[str] = (),
    body_attrs: Optional[Mapping[str, Optional[str]]] = None,
) -> str:
    """A whole HTML document: ``title``, ``body`` (HTML), the style and table script inline;
    ``page_kind`` goes into ``<body data-page=...>`` (``report``, ``live-report``,
    ``compare``); ``refresh`` seconds adds a ``<meta http-equiv=refresh>`` (a live report);
    ``head_scripts`` / ``tail_scripts`` are inline script texts (a chart library, its specs);
    ``body_attrs``: more attributes of ``<body>`` (None values left out)."""
    meta = f'<meta http-equiv="refresh" content="{int(refresh)}">' if refresh else ""
    head = "".join(f"<script>{_safe_script(s)}</script>" for s in head_scripts)
    tail = "".join(f"<script>{_safe_script(s)}</script>" for s in tail_scripts)
    extra = "".join(attr(k, v) for k, v in (body_attrs or {}).items())
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"{meta}<title>{esc(title)}</title><style>{_STYLE}</style>{head}</head>\n"
        f'<body data-page="{esc(page_kind)}"{extra}>\n{body}\n'
        f"<script>{_SCRIPT}</script>{tail}\n</body></html>\n"
    )


def _safe_script(text: str) -> str:
    """Script text that cannot end its ``<script>`` element early."""
    return text.replace("</script", "<\\/script").replace("</SCRIPT", "<\\/SCRIPT")

"""The explorer page's stylesheet and script, written into every page (no CDN, no fetch).

The script reads the page's data (`<script id="data">`, made by page.py) and builds the pass
list, then shows the selected pass: its ILs, time, docstring, diagnostics, the side-by-side
diff of its IL text, its Graphviz picture and its languages. The selected pass is in the URL
(`#pass=NAME`), so a link shows one pass.
"""

CSS = r"""
:root { --line: #d0d7de; --muted: #6e7781; --add: #e6ffec; --del: #ffebe9;
        --addw: #abf2bc; --delw: #ffc0c0; --sel: #ddf4ff; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: #1f2328;
       display: grid; grid-template-columns: 19rem 1fr; grid-template-rows: auto 1fr;
       height: 100vh; }
header { grid-column: 1 / 3; padding: .5rem 1rem; border-bottom: 1px solid var(--line);
         background: #f6f8fa; }
header h1 { font-size: 1.1rem; margin: 0; display: inline; }
header .meta { color: var(--muted); margin-left: 1rem; }
nav { overflow-y: auto; border-right: 1px solid var(--line); padding: .5rem; }
nav input[type=search] { width: 100%; padding: .3rem; margin-bottom: .3rem; }
nav ol { list-style: none; padding: 0; margin: .3rem 0; }
nav li { padding: .15rem .4rem; cursor: pointer; border-radius: 4px; display: flex;
         gap: .4rem; align-items: baseline; }
nav li .n { color: var(--muted); width: 1.8rem; text-align: right; font-size: .8rem; }
nav li .ms { margin-left: auto; color: var(--muted); font-size: .75rem; }
nav li[hidden] { display: none; }
nav li:hover { background: #f3f4f6; }
nav li.selected { background: var(--sel); }
nav li.unchanged .name { color: #8c959f; }
nav li.notrun { opacity: .45; font-style: italic; }
nav li .badge { background: #cf222e; color: white; border-radius: 8px; padding: 0 .4rem;
                font-size: .75rem; }
nav li .badge.warning { background: #9a6700; }
main { overflow-y: auto; padding: .5rem 1rem 3rem; }
main h2 { margin: .2rem 0; font-size: 1.3rem; }
main h3 { font-size: 1rem; margin: 1.2rem 0 .4rem; border-bottom: 1px solid var(--line); }
.ils { font-family: ui-monospace, monospace; }
.muted { color: var(--muted); }
pre { margin: 0; font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre.doc { white-space: pre-wrap; background: #f6f8fa; padding: .5rem; border-radius: 6px; }
.diag { border-left: 4px solid #cf222e; background: #fff8f8; padding: .4rem .6rem;
        margin: .4rem 0; }
.diag.warning { border-color: #9a6700; background: #fffbea; }
.diag a { margin-right: .8rem; }
table.diff { border-collapse: collapse; width: 100%; table-layout: fixed; }
table.diff td { font: 12px/1.45 ui-monospace, monospace; white-space: pre-wrap;
                word-break: break-all; vertical-align: top; padding: 0 .4rem; }
table.diff td.no, table.diff th.no { width: 3.2rem; color: var(--muted); text-align: right;
                   user-select: none; }
table.diff tr.del td.old, table.diff tr.replace td.old { background: var(--del); }
table.diff tr.ins td.new, table.diff tr.replace td.new { background: var(--add); }
table.diff tr.replace td.old.none, table.diff tr.replace td.new.none,
table.diff tr.del td.new, table.diff tr.ins td.old { background: #f6f8fa; }
table.diff tr.skip td { background: #f1f8ff; color: var(--muted); text-align: center; }
table.diff th { text-align: left; font-weight: 600; padding: .2rem .4rem;
                border-bottom: 1px solid var(--line); }
#graph { overflow: auto; max-height: 85vh; border: 1px solid var(--line); }
#graph.fit svg { width: 100%; height: auto; }
.cols { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
pre.delta .add { background: var(--add); display: block; }
pre.delta .del { background: var(--del); display: block; }
#source .line { display: block; }
#source .line:target, #source .line.flash { background: #fff8c5; }
#source .ln { color: var(--muted); display: inline-block; width: 3rem; text-align: right;
              margin-right: 1rem; user-select: none; }
label.opt { font-size: .85rem; color: var(--muted); margin-left: .5rem; }
"""

SCRIPT = r"""
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const CONTEXT = 3;
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "html") e.innerHTML = v; else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid != null) e.append(kid);
  return e;
}
function build() {
  const ran = DATA.passes.filter(p => p.ran).length;
  const stop = DATA.stopped_at ? ` · stopped after ${DATA.stopped_at}` : "";
  document.body.prepend(
    el("header", {}, el("h1", {text: `nano-vx explore: ${DATA.program}`}),
       el("span", {class: "meta", text: `${DATA.lane} lane · ${ran} of ${DATA.passes.length}` +
          ` passes ran in ${DATA.total_ms.toFixed(1)} ms${stop}`})));
  const list = el("ol", {id: "passes"});
  for (const p of DATA.passes) {
    const errors = p.diagnostics.length;
    const warn = p.diagnostics.every(d => d.severity === "warning");
    const cls = [p.ran ? (p.changed ? "changed" : "unchanged") : "notrun"];
    // The tooltip is the docstring's first paragraph, the line --list-passes prints.
    const summary = p.doc.split("\n\n")[0].replace(/\s+/g, " ");
    list.append(el("li", {id: `pass-${p.name}`, class: cls.join(" "), "data-name": p.name,
                          title: summary, onclick: () => select(p.name)},
      el("span", {class: "n", text: p.index}), el("span", {class: "name", text: p.name}),
      errors ? el("span", {class: "badge" + (warn ? " warning" : ""), text: errors}) : null,
      el("span", {class: "ms", text: p.ran ? p.ms.toFixed(1) : ""})));
  }
  const filter = el("input", {type: "search", id: "filter", placeholder: "filter passes",
                              oninput: applyFilter});
  const changedOnly = el("input", {type: "checkbox", id: "changed-only", onchange: applyFilter});
  document.body.append(el("nav", {}, filter,
    el("label", {class: "opt"}, changedOnly, " only passes that changed the IL"), list));
  const main = el("main", {id: "main"});
  main.append(el("h2", {id: "title"}), el("div", {id: "meta", class: "ils"}),
    el("pre", {id: "doc", class: "doc"}), el("div", {id: "diagnostics"}),
    el("h3", {}, "IL before and after",
       el("label", {class: "opt"}, el("input", {type: "checkbox", id: "whole",
                                                onchange: () => show(current)}),
          " the whole IL, not only the changes")),
    el("div", {id: "diff-panel"}),
    el("h3", {}, "Graphviz picture of the output",
       el("label", {class: "opt"}, el("input", {type: "checkbox", id: "actual-size",
         onchange: e => document.getElementById("graph").classList.toggle("fit",
                                                                           !e.target.checked)}),
          " actual size")),
    el("div", {id: "graph", class: "fit"}),
    el("h3", {text: "Languages"}), el("div", {id: "languages"}),
    el("div", {id: "facts"}),
    el("h3", {text: "Program"}), el("pre", {id: "source", class: "hl"}));
  document.body.append(main);
  const src = document.getElementById("source");
  DATA.source.forEach((line, i) => src.append(
    el("span", {class: "line", id: `src-L${i + 1}`},
       el("span", {class: "ln", text: i + 1}), el("span", {html: line || " "}))));
  document.addEventListener("keydown", e => {
    if (e.target.tagName === "INPUT") return;
    const shown = [...document.querySelectorAll("#passes li")].filter(li => !li.hidden);
    const at = shown.findIndex(li => li.dataset.name === current);
    if ((e.key === "ArrowDown" || e.key === "j") && at < shown.length - 1)
      select(shown[at + 1].dataset.name);
    else if ((e.key === "ArrowUp" || e.key === "k") && at > 0)
      select(shown[at - 1].dataset.name);
  });
}
function applyFilter() {
  const words = document.getElementById("filter").value.toLowerCase().split(/\s+/)
    .filter(Boolean);
  const changed = document.getElementById("changed-only").checked;
  for (const p of DATA.passes) {
    const hay = `${p.name} ${p.input} ${p.output} ${p.kind}`.toLowerCase();
    const li = document.getElementById(`pass-${p.name}`);
    li.hidden = !words.every(w => hay.includes(w)) || (changed && !p.changed);
  }
}
let current = null;
function select(name) {
  if (location.hash !== `#pass=${name}`) history.replaceState(null, "", `#pass=${name}`);
  show(name);
}
function show(name) {
  const p = DATA.passes.find(q => q.name === name) || DATA.passes[0];
  current = p.name;
  for (const li of document.querySelectorAll("#passes li"))
    li.classList.toggle("selected", li.dataset.name === p.name);
  document.getElementById(`pass-${p.name}`).scrollIntoView({block: "nearest"});
  document.getElementById("title").textContent = `${p.index}. ${p.name}`;
  const time = p.ran ? `${p.ms.toFixed(2)} ms` : "not run";
  const what = !p.ran ? "" : p.changed ? "changed the IL" : "changed nothing";
  document.getElementById("meta").textContent =
    `${p.input} \u2192 ${p.output} · ${p.kind} · ${time}${what ? " · " + what : ""}`;
  document.getElementById("doc").textContent = p.doc || "(no docstring)";
  showDiagnostics(p);
  showDiff(p);
  showGraph(p);
  showLanguages(p);
}
function place(pl) {
  const a = el("a", {href: `#src-L${pl.line}`, class: "place",
    text: `${pl.file}:${pl.line}:${pl.column}${pl.label ? " (" + pl.label + ")" : ""}`});
  a.addEventListener("click", e => {
    e.preventDefault();
    const line = document.getElementById(`src-L${pl.line}`);
    if (!line) return;
    for (const f of document.querySelectorAll(".flash")) f.classList.remove("flash");
    line.classList.add("flash");
    line.scrollIntoView({block: "center"});
  });
  return a;
}
function showDiagnostics(p) {
  const box = document.getElementById("diagnostics");
  box.replaceChildren();
  const items = p.diagnostics.concat(p.index === 1 ? DATA.unplaced : []);
  for (const d of items)
    box.append(el("div", {class: `diag ${d.severity}`}, ...d.places.map(place),
                  el("pre", {text: d.text})));
}
function cell(version, i, side) {
  const line = i == null ? null : DATA.versions[version].lines[i];
  return [el("td", {class: `no ${side}`, text: i == null ? "" : i + 1}),
          el("td", {class: `${side} hl` + (i == null ? " none" : ""), html: line == null ? "" : line})];
}
function showDiff(p) {
  const panel = document.getElementById("diff-panel");
  panel.replaceChildren();
  if (!p.ran) { panel.append(el("p", {class: "muted", text: "This pass did not run."})); return; }
  const whole = document.getElementById("whole").checked;
  const total = DATA.versions[p.before].lines.length;
  const table = el("table", {class: "diff", id: "diff"});
  table.append(el("tr", {}, el("th", {class: "no"}), el("th", {text: `before: ${p.input}`}),
                         el("th", {class: "no"}), el("th", {text: `after: ${p.output}`})));
  const row = (kind, i, j) => table.append(el("tr", {class: kind},
    ...cell(p.before, i, "old"), ...cell(p.after, j, "new")));
  for (const [tag, i1, i2, j1, j2] of p.ops) {
    if (tag === "equal") {
      const n = i2 - i1, all = whole || !p.changed;
      const head = all ? n : (i1 > 0 ? CONTEXT : 0), tail = all ? 0 : (i2 < total ? CONTEXT : 0);
      if (n <= head + tail + 1) {
        for (let k = 0; k < n; k++) row("equal", i1 + k, j1 + k);
        continue;
      }
      for (let k = 0; k < head; k++) row("equal", i1 + k, j1 + k);
      table.append(el("tr", {class: "skip"}, el("td", {colspan: 4,
        text: `\u22ef ${n - head - tail} unchanged lines \u22ef`})));
      for (let k = n - tail; k < n; k++) row("equal", i1 + k, j1 + k);
    } else {
      const n = Math.max(i2 - i1, j2 - j1);
      const kind = tag === "delete" ? "del" : tag === "insert" ? "ins" : "replace";
      for (let k = 0; k < n; k++)
        row(kind, i1 + k < i2 ? i1 + k : null, j1 + k < j2 ? j1 + k : null);
    }
  }
  if (!p.changed) panel.append(el("p", {class: "muted",
    text: "This pass changed nothing in the IL text: its output is its input."}));
  panel.append(table);
}
function showGraph(p) {
  const box = document.getElementById("graph");
  box.replaceChildren();
  const v = p.ran ? DATA.versions[p.after] : null;
  if (v && v.svg) box.innerHTML = v.svg;
  else box.append(el("p", {class: "muted", text: v ? v.svg_note || "no picture" : "not run"}));
}
function delta(text) {
  const pre = el("pre", {class: "delta"});
  for (const line of text.split("\n"))
    pre.append(el("span", {class: line.startsWith("+ ") ? "add" : line.startsWith("- ") ? "del" : "",
                           text: line + "\n"}));
  return pre;
}
function showLanguages(p) {
  const box = document.getElementById("languages");
  box.replaceChildren();
  const flat = (name, what) => name ? el("details", {}, el("summary", {text: `${what}: ${name}, flat`}),
                                         el("pre", {text: DATA.languages[name]})) : null;
  box.append(el("div", {class: "cols"},
    el("div", {}, el("div", {class: "muted", text: `what ${p.output} changes from ${p.input}`}),
       delta(p.delta)),
    el("div", {}, flat(p.input_flat, "input"), flat(p.output_flat, "output"))));
  const facts = document.getElementById("facts");
  facts.replaceChildren();
  for (const [name, text] of Object.entries(p.facts || {}))
    facts.append(el("h3", {text: `Fact provided: ${name}`}), el("pre", {text: text}));
}
build();
const wanted = decodeURIComponent(location.hash.replace(/^#pass=/, ""));
const first = DATA.passes.find(p => p.name === wanted) ||
  DATA.passes.find(p => p.diagnostics.length) || DATA.passes.find(p => p.changed) || DATA.passes[0];
if (first) show(first.name);
"""

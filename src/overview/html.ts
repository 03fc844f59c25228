/**
 * The overview as one self-contained HTML file: inline CSS, an inline SVG
 * chart, no script and no external request (a Content-Security-Policy that
 * forbids them says so to the browser), readable printed. Every text is
 * HTML-escaped, service text above all.
 */
import { SEVERITIES } from '../service/contract/index.js'
import { weaknessRate } from './engine.js'
import { escapeHtml } from '../report/markdown-safe.js'
import { stripUnsafeChars } from '../util/text.js'
import type { AgentRow, OverviewPage, SeverityCounts } from './page-model.js'

const COLOR = { critical: '#b3261e', high: '#e8710a', medium: '#c9a400', low: '#5f6368' } as const

function t(text: string, max = 300): string {
  const s = stripUnsafeChars(text)
  return escapeHtml(s.length > max ? `${s.slice(0, max - 1)}…` : s)
}

function sevCells(c: SeverityCounts): string {
  return SEVERITIES.map((s) => `<td class="n${c[s] > 0 ? ` ${s}` : ''}">${c[s]}</td>`).join('')
}

/** The trend as an SVG line chart: one polyline per severity. */
export function trendSvg(page: OverviewPage): string {
  const pts = page.trend
  if (pts.length < 2) return ''
  const w = 720
  const h = 220
  const pad = { l: 36, r: 10, t: 10, b: 28 }
  const max = Math.max(1, ...pts.flatMap((p) => SEVERITIES.map((s) => p.open[s])))
  const x = (i: number): number => pad.l + (i * (w - pad.l - pad.r)) / (pts.length - 1)
  const y = (v: number): number => pad.t + (h - pad.t - pad.b) * (1 - v / max)
  const lines = SEVERITIES.map(
    (s) =>
      `<polyline fill="none" stroke="${COLOR[s]}" stroke-width="2" points="${pts.map((p, i) => `${x(i).toFixed(1)},${y(p.open[s]).toFixed(1)}`).join(' ')}"><title>${s}</title></polyline>`
  ).join('')
  const step = Math.max(1, Math.ceil(pts.length / 8))
  const labels = pts
    .map((p, i) =>
      i % step === 0 || i === pts.length - 1
        ? `<text x="${x(i).toFixed(1)}" y="${h - 8}" text-anchor="middle">${t(p.day.slice(5))}</text>`
        : ''
    )
    .join('')
  const grid = [0, 0.5, 1]
    .map((f) => Math.round(max * f))
    .map(
      (v) =>
        `<line x1="${pad.l}" x2="${w - pad.r}" y1="${y(v)}" y2="${y(v)}" class="grid"/><text x="${pad.l - 4}" y="${y(v) + 4}" text-anchor="end">${v}</text>`
    )
    .join('')
  const legend = SEVERITIES.map((s) => `<span><i style="background:${COLOR[s]}"></i>${s}</span>`).join(' ')
  return `<figure><svg viewBox="0 0 ${w} ${h}" role="img" aria-label="Open findings per day and severity">${grid}${lines}${labels}</svg><figcaption>Open findings per day: ${legend}</figcaption></figure>`
}

function agentTr(a: AgentRow): string {
  const age = a.ageDays === null ? '–' : a.ageDays === 0 ? 'today' : `${a.ageDays} d ago`
  const worst = a.worst === null ? '–' : `<span class="${a.worst.severity}">${a.worst.severity}</span> ${t(a.worst.description, 140)}`
  const cov = a.coverage.of > 0 ? `${a.coverage.completed}/${a.coverage.of}` : String(a.coverage.completed)
  return `<tr><td>${t(a.name, 80)}</td><td class="st ${a.state}">${a.state}</td><td>${age}</td><td class="sd ${a.standing}">${a.standing}</td>${sevCells(a.open)}<td class="wide">${worst}</td><td class="n">${cov}</td></tr>`
}

const CSS = `body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1200px;padding:16px;color:#1f2328}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.15em;margin:1.4em 0 .4em;border-bottom:1px solid #d0d7de}
.verdict{padding:12px 16px;border-radius:8px;border:2px solid}.clear{border-color:#1a7f37;background:#dafbe1}.attention{border-color:#cf222e;background:#ffebe9}.incomplete{border-color:#9a6700;background:#fff8c5}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:.92em}th,td{border:1px solid #d0d7de;padding:4px 6px;text-align:left;vertical-align:top}th{background:#f6f8fa}
td.n{text-align:right;font-variant-numeric:tabular-nums}.critical{color:#b3261e;font-weight:600}.high{color:#c4540a;font-weight:600}.medium{color:#7d6500}.low{color:#5f6368}
td.sd.fail{color:#cf222e;font-weight:600}td.sd.pass{color:#1a7f37}td.sd.unknown,td.st.stale,td.st.never,td.st.unreadable{color:#9a6700;font-weight:600}
td{overflow-wrap:break-word}td.key{overflow-wrap:anywhere}td.wide{min-width:16em}svg{width:100%;height:auto;max-width:760px}svg text{font-size:13px;fill:#57606a}.grid{stroke:#eaeef2}
figcaption i{display:inline-block;width:12px;height:4px;margin:0 4px 2px 8px;vertical-align:middle}
@media (max-width:600px){body{padding:8px;font-size:14px}td.wide{min-width:12em}svg text{font-size:20px}}
@media print{body{max-width:none;font-size:11px}.scroll{overflow:visible}tr{break-inside:avoid}h2{break-after:avoid}}`

/** The whole page. */
export function overviewHtml(page: OverviewPage): string {
  const v = page.verdict
  const sevHead = SEVERITIES.map((s) => `<th>${s}</th>`).join('')
  const weak = page.weaknesses
    .map(
      (w) =>
        `<tr><td class="${w.severity}">${w.severity}</td><td class="key">${t(w.category, 60)}</td><td class="wide">${t(w.description, 300)}</td><td>${t(weaknessRate(w))}</td><td>${w.agents.map((a) => t(a, 60)).join(', ')}</td></tr>`
    )
    .join('\n')
  const cats = page.categories
    .map(
      (c) =>
        `<tr><td>${t(c.name, 80)}</td><td>${t(c.owasp || '–', 40)}</td><td>${t(c.atlas || '–', 40)}</td>${sevCells(c.open)}<td class="n">${c.agents}</td></tr>`
    )
    .join('\n')
  const notRead = [
    ...(page.categoriesUnreadable === null ? [] : [`<li>the category list: ${t(page.categoriesUnreadable)}</li>`]),
    ...page.unreadable.map(
      (u) => `<li>${t(u.agent, 80)}, ${u.runId === null ? 'its run list' : `run <code>${t(u.runId, 80)}</code>`}: ${t(u.reason)}</li>`
    )
  ]
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Workspace overview: ${t(v.headline)}</title><style>${CSS}</style></head><body>
<h1>Workspace overview</h1>
<div class="verdict ${v.status}"><strong>${t(v.headline)}</strong><br>Open weaknesses: ${SEVERITIES.map((s) => `<span class="${s}">${v.open[s]} ${s}</span>`).join(', ')} · standing at min_severity ${page.minSeverity} · window ${page.maxAgeDays} days · assessments spent: ${page.spent.atLeast ? 'at least ' : ''}${page.spent.assessments} · as of ${t(page.generatedAt)}</div>
${notRead.length > 0 ? `<h2>Not read</h2><p>The page says nothing of these; they count as not assessed.</p><ul>${notRead.join('')}</ul>` : ''}
<h2>Top risks</h2>
${weak === '' ? '<p>No open weakness in the runs read.</p>' : `<div class="scroll"><table><thead><tr><th>Severity</th><th>Category</th><th>Weakness</th><th>Seen</th><th>Agents</th></tr></thead><tbody>\n${weak}\n</tbody></table></div>`}
<h2>Trend</h2>
${trendSvg(page)}
<h2>Agents</h2>
<div class="scroll"><table><thead><tr><th>Agent</th><th>State</th><th>Last assessed</th><th>Standing</th>${sevHead}<th>Worst open</th><th>Coverage</th></tr></thead><tbody>
${page.agents.map(agentTr).join('\n')}
</tbody></table></div>
${cats === '' ? '' : `<h2>Open by category</h2><div class="scroll"><table><thead><tr><th>Category</th><th>OWASP</th><th>ATLAS</th>${sevHead}<th>Agents</th></tr></thead><tbody>\n${cats}\n</tbody></table></div>`}
</body></html>
`
}

/**
 * `npm run preview`: renders the PR comment and the job summary of the fixed
 * report cases (__tests__/__fixtures__/report-cases.ts) to HTML the way
 * github.com does (GFM, GitHub's sanitizer, its mention and reference links,
 * github-markdown-css, a comment 815 px wide) and, when Chromium is installed,
 * screenshots each page 900 px wide, so a person can look at what a reviewer
 * sees.
 *
 *   npm run preview                      # every case, into build/preview/
 *   npm run preview -- fail huge         # only these cases
 *   PREVIEW_OUT=/tmp/p npm run preview   # another folder
 *   CHROMIUM=/path/to/chrome npm run preview
 *
 * Writes <case>-comment.html / -summary.html (and .md), an index.html, and with
 * Chromium <case>-<kind>.png (the page as rendered, at most 8,000 px tall),
 * <case>-<kind>-top.png (the first 700 px) and <case>-<kind>-open.png (the first
 * three <details> opened). It prints, per page, what overflows sideways as the
 * browser measured it.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { githubHtml, githubPage, VIEWPORT_PX } from '../__tests__/__fixtures__/github-html.js'
import { statusDescription } from '../src/github/commit-status.js'

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
import { REPORT_CASES as GATE_CASES } from '../__tests__/__fixtures__/report-cases.js'
import { PIPELINE_CASES } from '../__tests__/__fixtures__/pipeline-cases.js'
import { EVIDENCE_CASES } from '../__tests__/__fixtures__/evidence-cases.js'

const REPORT_CASES = [...GATE_CASES, ...EVIDENCE_CASES, ...PIPELINE_CASES]

const MAX_SHOT_HEIGHT = 8000
const TOP_HEIGHT = 700

function findChromium(): string | null {
  const candidates = [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(
    (c): c is string => typeof c === 'string' && c !== ''
  )
  return candidates.find((c) => existsSync(c)) ?? null
}

function chromeArgs(profile: string): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--hide-scrollbars',
    `--user-data-dir=${profile}`
  ]
}

function runChrome(chrome: string, args: string[]): string {
  const profile = mkdtempSync(join(tmpdir(), 'preview-chrome-'))
  try {
    return execFileSync(chrome, [...chromeArgs(profile), ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 60_000
    })
  } finally {
    rmSync(profile, { recursive: true, force: true })
  }
}

/** The page's own measurements (written into #overflow by its script). */
function measure(chrome: string, url: string): { height: number; overflow: string[] } {
  const dom = runChrome(chrome, ['--virtual-time-budget=2000', `--window-size=${VIEWPORT_PX},1000`, '--dump-dom', url])
  const m = /<pre id="overflow">([\s\S]*?)<\/pre>/.exec(dom)
  const lines = (m?.[1] ?? '').split('\n').filter((l) => l !== '')
  const h = lines.find((l) => l.startsWith('height '))
  return { height: h ? Number(h.slice(7)) : 1000, overflow: lines.filter((l) => !l.startsWith('height ')) }
}

function screenshot(chrome: string, url: string, file: string, height: number): void {
  runChrome(chrome, ['--virtual-time-budget=2000', `--window-size=${VIEWPORT_PX},${height}`, `--screenshot=${file}`, url])
}

function main(): void {
  const outEnv = process.env.PREVIEW_OUT
  const out = resolve(outEnv === undefined || outEnv === '' ? 'build/preview' : outEnv)
  mkdirSync(out, { recursive: true })
  const only = process.argv.slice(2)
  const cases = only.length > 0 ? REPORT_CASES.filter((c) => only.includes(c.name)) : REPORT_CASES
  if (cases.length === 0) {
    console.error(`No case named ${only.join(', ')}; cases: ${REPORT_CASES.map((c) => c.name).join(', ')}`)
    process.exit(2)
  }
  const chrome = findChromium()
  if (!chrome) console.log('Chromium not found (apt-get install chromium, or set CHROMIUM): writing HTML only.')
  const index: string[] = []
  for (const c of cases) {
    const rendered = c.render()
    if (rendered.statusDescription !== undefined) {
      const status = statusDescription(rendered.statusDescription)
      console.log(`${c.name}: commit status description: ${status}`)
      index.push(`<li>${c.name}: commit status description: <code>${escapeHtml(status)}</code></li>`)
    }
    for (const [kind, md] of [
      ['comment', rendered.comment ?? '*(No comment is written in this case: the sticky comment keeps whatever it said before.)*\n'],
      ['summary', rendered.summary]
    ] as const) {
      const base = `${c.name}-${kind}`
      writeFileSync(join(out, `${base}.md`), md)
      writeFileSync(join(out, `${base}.html`), githubPage(githubHtml(md), `${c.title} (${kind})`))
      index.push(`<li><a href="${base}.html">${base}</a>: ${c.title}</li>`)
      if (!chrome) {
        console.log(`${base}: ${md.length.toLocaleString('en-US')} characters`)
        continue
      }
      const url = pathToFileURL(join(out, `${base}.html`)).href
      const { height, overflow } = measure(chrome, url)
      screenshot(chrome, url, join(out, `${base}.png`), Math.min(height, MAX_SHOT_HEIGHT))
      screenshot(chrome, url, join(out, `${base}-top.png`), TOP_HEIGHT)
      const opened = measure(chrome, `${url}?open=3`)
      screenshot(chrome, `${url}?open=3`, join(out, `${base}-open.png`), Math.min(opened.height, MAX_SHOT_HEIGHT))
      const problems = [...overflow, ...opened.overflow.map((o) => `(details open) ${o}`)]
      console.log(
        `${base}: ${md.length.toLocaleString('en-US')} characters, ${height.toLocaleString('en-US')} px tall` +
          (height > MAX_SHOT_HEIGHT ? ` (screenshot cut at ${MAX_SHOT_HEIGHT} px)` : '') +
          (problems.length > 0 ? `\n  ${problems.join('\n  ')}` : ', nothing overflows')
      )
    }
  }
  writeFileSync(
    join(out, 'index.html'),
    `<!doctype html><meta charset="utf-8"><title>Report previews</title><ul>\n${index.join('\n')}\n</ul>\n`
  )
  console.log(`Pages in ${out}/index.html`)
}

main()

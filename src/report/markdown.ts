/**
 * The markdown rendering of a report, shared by the PR comment and the job
 * summary, fitted to a size budget, laid out for the reader who decides in
 * seconds:
 *
 * 1. A headline: icon, result, the blocking counts or the cause, the model.
 *    An error reads "⛔ Not assessed: ...": never "pass" wording under an
 *    error or an incomplete run.
 * 2. One metadata line: commit, categories done/planned, threshold, elapsed,
 *    the run and a link to the workflow run (where the job summary is).
 * 3. The findings at or above the threshold, blocking ones first: the most
 *    severe with their proof (one <details> per finding: the first reproducing
 *    attack as prompt → reply → the check it failed, hard-wrapped so nothing
 *    scrolls sideways), every other one as a one-line row, and only when even
 *    the rows do not fit, a category × severity count grid. What was cut is
 *    said with exact counts. Accepted, known (fail_on new) and closed findings
 *    follow, each marked as such and counted apart: the headline, the lines
 *    under it and the list heading all count from the report model's one
 *    count (FindingStanding), in the same words.
 * 4. Coverage: at most 5 columns; clean categories rolled up into one line;
 *    folded on a pass. The job summary has every row (ATLAS included).
 * 5. Notes in a quote block labelled as text from the run, then the footer.
 *
 * The document is built from blocks whose sizes add up, so nothing is
 * rendered twice to be measured. Every value from the service or the target
 * goes through markdown-safe.ts.
 */
import { FINDING_STATUSES, REPLAY_STATUSES, SEVERITIES, type Severity } from '../service/contract/index.js'
import {
  codeSpan,
  enumCell,
  enumText,
  formatCount,
  htmlCode,
  proofBlock,
  proseText,
  sanitizeText,
  clampText,
  trustedLink,
  type ProofSection
} from './markdown-safe.js'
import {
  describeProfileSync,
  FINDING_STANDINGS,
  formatElapsed,
  zeroCounts,
  type FindingStanding,
  type Report,
  type ReportAttack,
  type ReportCoverageRow,
  type ReportFinding,
  type SeverityCounts
} from './report-model.js'
import { plural } from '../util/text.js'

/** How much proof a finding shown in full gets. */
export interface DetailLevel {
  /** Wrap width of the proof block (characters per line). */
  wrap: number
  /** Characters of each prompt, reply or body kept at most. */
  fieldChars: number
  /** Wrapped lines of each kept at most. */
  maxLines: number
  /** Clamp of the description and the expected behaviour. */
  proseChars: number
  /** Replay steps shown of the chosen attack; 0 leaves the proof out (description only). */
  maxSteps: number
  /** Show request and response bodies when they add something to the message and reply. */
  bodies: boolean
  /** Show headers that are not routine. */
  headers: boolean
}

export interface MarkdownProfile {
  /** The budget, in the unit of `measure`. */
  limit: number
  /** Size of a string in the budget's unit (UTF-16 length, UTF-8 bytes). Must be additive. */
  measure: (s: string) => number
  /** E.g. "the 65,536-character limit of a GitHub comment". */
  limitLabel: string
  /** First line of the document (the sticky comment's hidden marker), or null. */
  marker: string | null
  /** From the most detailed to the least. */
  ladder: DetailLevel[]
  /** Findings shown in full at most (the rest get rows). */
  maxDetailed: number
  /** Comment: compact coverage; summary: every row with ATLAS. */
  coverage: 'compact' | 'full'
  /** List findings below the threshold too (as rows) when space is left. */
  listBelowThreshold: boolean
  /** Where the full data is (trusted markdown). */
  fullDataWhere: string
}

export const RESULT_ICON: Record<string, string> = { pass: '✅', fail: '❌', incomplete: '⚠️', error: '⛔' }
export const SEVERITY_ICON: Record<Severity, string> = { critical: '🔴', high: '🟠', medium: '🟡', low: '🔵' }
/** Findings that do not block wear these instead of a severity colour (the severity is still written). */
export const STANDING_ICON: Partial<Record<FindingStanding, string>> = { accepted: '☑️', known: '⚪', closed: '✔️' }

/** Wrap width of proof blocks: fits a PR comment (815 px) in GitHub's monospace font. */
export const WRAP_WIDTH = 90

/** Share of the budget the coverage table and the notes may take at most. */
const COVERAGE_SHARE = 0.2
const NOTES_SHARE = 0.06
const MAX_NOTES = 30
/** Room kept for the line on what was cut. */
const RESERVE = 1200

const para = (s: string): string => `${s}\n\n`

// ---------------------------------------------------------------------------
// Headline, title, metadata
// ---------------------------------------------------------------------------

/** Blocking findings (at or above the threshold, neither closed nor accepted nor waived as known), by severity. */
export function blockingCounts(r: Report): SeverityCounts {
  return r.counts?.byStanding.blocking ?? zeroCounts()
}

function total(c: SeverityCounts): number {
  return SEVERITIES.reduce((n, s) => n + c[s], 0)
}

/**
 * The counts that decide, in the words every line uses, from the report
 * model's one count (the standing of each finding): "1 open critical, 2 open
 * high · 1 accepted", or against a baseline "1 new high · 3 known · 1 accepted"
 * (the model's headline). `of: 'findings'` adds the closed findings at or
 * above the threshold ("1 closed"), for the list; `of: 'gate'` adds what else
 * decides: baseline findings gone and expired acceptances. Empty when there
 * is nothing to count.
 */
export function standingParts(r: Report, opts: { of: 'gate' | 'findings' }): string[] {
  const c = r.counts
  if (c === null) return []
  const parts: string[] = []
  const b = r.baseline
  if (b?.available) {
    const newParts = SEVERITIES.filter((sev) => b.newBySeverity[sev] > 0).map((sev) => `${formatCount(b.newBySeverity[sev])} new ${sev}`)
    parts.push(...(newParts.length > 0 ? newParts : ['0 new']), `${formatCount(b.knownCount)} known`)
  } else {
    const open = openCountsText(c.byStanding.blocking)
    if (open !== null) parts.push(open)
  }
  const accepted = total(c.byStanding.accepted)
  if (accepted > 0) parts.push(`${formatCount(accepted)} accepted`)
  if (opts.of === 'findings') {
    const closed = total(c.byStanding.closed)
    if (closed > 0) parts.push(`${formatCount(closed)} closed`)
  } else {
    const gone = b?.available ? b.gone.length : 0
    if (gone > 0) parts.push(`${formatCount(gone)} gone`)
    const expired = r.acceptances?.expired.length ?? 0
    if (expired > 0) parts.push(plural(expired, 'expired acceptance'))
  }
  return parts
}

/** The target (registered, reused, moved) and its profile sync, in one line. */
function describeTargetLine(r: Report): string {
  const parts: string[] = []
  if (r.target !== null) {
    parts.push(`${r.target.outcome} as ${r.target.name}`)
    if (r.target.movedFrom !== null)
      parts.push(`moved from ${r.target.movedFrom.endpointHost} (model ${r.target.movedFrom.modelId} not assessed)`)
  }
  if (r.profileSync !== null) parts.push(describeProfileSync(r.profileSync))
  return parts.join(' · ')
}

/**
 * Baseline and accepted risks, a few lines: what the baseline was, what is
 * gone since, and every accepted, expired, stale or PR-added acceptance.
 */
function policyLines(r: Report): string[] {
  const lines: string[] = []
  const b = r.baseline
  if (b) {
    const against = b.available
      ? `${proseText(r.headline, 300)} (against run ${codeSpan(b.runId ?? '', { max: 120 })}, fail_on ${b.failOn})`
      : `none (${proseText(b.why ?? '', 300)}); ${b.failOn === 'new' ? 'fail_on new falls back to any: ' : ''}every open finding at or above the threshold counts`
    lines.push(`- **Baseline:** ${against}`)
    for (const g of b.gone.slice(0, 20))
      lines.push(
        `- **Gone since the baseline:** ${g.severity} ${codeSpan(g.category, { max: 100 })} ${codeSpan(g.fingerprint, { max: 40 })}`
      )
  }
  const a = r.acceptances
  if (a) {
    const entry = (e: { index: number; line: number; category: string; owner: string; expires: string }): string =>
      `${codeSpan(`${a.path}:${e.line}`, { max: 200 })} ${codeSpan(e.category, { max: 100 })}, owner ${proseText(e.owner, 100)}, expires ${e.expires}`
    // The findings counted as accepted (at or above the threshold, not closed), then those below it, not counted.
    for (const f of [...r.findings.filter((x) => x.standing === 'accepted'), ...r.findings.filter((x) => x.standing === 'below')]) {
      const e = f.accepted
      if (e === null) continue
      const what = f.standing === 'accepted' ? 'Accepted' : `Accepted, below ${r.minSeverity} (not counted)`
      lines.push(
        `- **${what}:** ${f.severity} ${codeSpan(f.findingId, { max: 80 })} (${codeSpan(e.reasonCode, { max: 40 })}: ${proseText(e.explanation, 300)}) by ${entry(e)}`
      )
    }
    for (const e of a.expired) lines.push(`- **Expired acceptance (fails):** ${entry(e)}`)
    for (const e of a.stale) lines.push(`- **Stale acceptance (matches nothing):** ${entry(e)}`)
    if (a.prAdds.length > 0)
      lines.push(
        `- **This PR adds ${plural(a.prAdds.length, 'acceptance')}:** ${a.prAdds.length === 1 ? 'it applies' : 'they apply'} after merge`
      )
  }
  return lines
}

/** "12 open critical, 340 open high", or null when none. */
function openCountsText(c: SeverityCounts): string | null {
  const parts = SEVERITIES.filter((s) => c[s] > 0).map((s) => `${formatCount(c[s])} open ${s}`)
  return parts.length > 0 ? parts.join(', ') : null
}

function plannedCount(r: Report): number {
  return r.coverageRows.filter((row) => row.planned).length
}

/** Why a run that ended in error was not assessed, in a few words (plain text; may quote the service). */
function notAssessedCause(r: Report): string {
  const planned = plannedCount(r)
  if (r.reason.startsWith('timeout_minutes ran out')) {
    return r.coverageCompleted === 0
      ? 'timeout_minutes ran out before any category ran: raise timeout_minutes'
      : `timeout_minutes ran out after ${r.coverageCompleted} of ${planned} categories: raise timeout_minutes`
  }
  if (r.reason.startsWith('the step was cancelled')) return 'the job was cancelled before the run ended'
  const first = r.reason.split('; ')[0] ?? r.reason
  return clampText(first, 160).text
}

/** The words after the result (plain text, may quote service text). */
function headlineCause(r: Report): string {
  const sev = r.minSeverity
  switch (r.result) {
    case 'fail': {
      // The counts that decide ("1 open high · 1 accepted", "1 new high · 3 known · 1 accepted · 2 gone").
      const parts = standingParts(r, { of: 'gate' })
      return parts.length > 0 ? parts.join(' · ') : `the service's verdict is fail at ${sev}`
    }
    case 'pass': {
      const parts = standingParts(r, { of: 'gate' })
      return parts.length > 0 ? `nothing blocking at or above ${sev} · ${parts.join(' · ')}` : `nothing open at or above ${sev}`
    }
    case 'incomplete': {
      const planned = plannedCount(r)
      return r.categoriesPlanned === null ? 'coverage unknown' : `${r.coverageCompleted} of ${planned} categories completed`
    }
    default:
      return notAssessedCause(r)
  }
}

/** The model as named in titles (plain text). */
export function modelLabel(r: Pick<Report, 'modelName' | 'modelId'>): string {
  return r.modelName !== null && r.modelName.trim() !== '' ? r.modelName : r.modelId
}

/**
 * The one title of a result, the same in the comment, the summary and the
 * tracking issue: "Agent security gate: fail · 1 open high · Acme Support agent",
 * "Not assessed: ... · model". Plain text on one line (escape it for markdown).
 */
export function gateTitle(result: string, cause: string, model: string): string {
  const head = result === 'error' ? `Not assessed: ${cause}` : `Agent security gate: ${result} · ${cause}`
  return sanitizeText(clampText(`${head} · ${clampText(model, 100).text}`, 300).text, false)
}

export function reportTitle(r: Report): string {
  return gateTitle(r.result, headlineCause(r), modelLabel(r))
}

/** "### ❌ Agent security gate: fail · ..." */
export function headline(result: string, title: string): string {
  return `### ${RESULT_ICON[result] ?? '⛔'} ${proseText(title, 400)}`
}

/** "2026-11-21 14:03 UTC" from an ISO time; null when it is not one. */
export function formatWhen(iso: string | null): string | null {
  if (iso === null) return null
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)/.exec(iso)
  return m ? `${m[1]} ${m[2]} UTC` : null
}

export interface MetaParts {
  commitSha: string | null
  assessedAt: string | null
  categories?: { done: number; planned: number } | null
  threshold?: Severity | null
  elapsed?: string | null
  runId?: string | null
  runUrl: string | null
}

/** The one metadata line under the headline (trusted parts and code spans). */
export function metaLine(p: MetaParts): string {
  const parts: string[] = []
  if (p.commitSha !== null && /^[0-9a-f]{7,40}$/i.test(p.commitSha)) parts.push(`commit \`${p.commitSha.slice(0, 7)}\``)
  const when = formatWhen(p.assessedAt)
  if (when) parts.push(when)
  if (p.categories) parts.push(`${p.categories.done}/${p.categories.planned} categories`)
  if (p.threshold) parts.push(`threshold ${enumText(p.threshold, SEVERITIES)}`)
  if (p.elapsed) parts.push(p.elapsed)
  if (p.runId) parts.push(`run ${codeSpan(p.runId, { max: 80 })}`)
  const link = trustedLink('workflow run', p.runUrl)
  if (link) parts.push(link)
  return parts.join(' · ')
}

function headerBlock(r: Report): string {
  const out: string[] = [para(headline(r.result, reportTitle(r)))]
  out.push(
    para(
      metaLine({
        commitSha: r.commitSha,
        assessedAt: r.assessedAt,
        categories: r.categoriesPlanned === null ? null : { done: r.coverageCompleted, planned: plannedCount(r) },
        threshold: r.minSeverity,
        elapsed: formatElapsed(r.elapsedMs),
        runId: r.runId,
        runUrl: r.runUrl
      })
    )
  )
  // The whole reason when the headline shortened it.
  if (r.result !== 'fail' && r.result !== 'pass' && proseText(r.reason, 1000) !== proseText(headlineCause(r), 1000)) {
    out.push(para(`**Why:** ${proseText(r.reason, 1000)}`))
  }
  // Only a run stopped with blocking findings holds any in an error (the gate decides fail otherwise).
  const found = standingParts(r, { of: 'gate' })
  if (r.result === 'error' && total(blockingCounts(r)) > 0) {
    out.push(
      para(`**Found before it stopped:** ${found.join(' · ')}. Not a result: the run did not end, so other categories were not tested.`)
    )
  }
  if (r.ingestIncomplete === true) out.push(para('**The service reports ingest incomplete:** findings may still be missing.'))
  if (r.target !== null || r.profileSync !== null) out.push(para(`**Target:** ${proseText(describeTargetLine(r), 600)}`))
  if (r.pipeline) out.push(para([...r.pipeline.lines, r.pipeline.budgetLine].map((l) => proseText(l, 600)).join('  \n')))
  const policy = policyLines(r)
  if (policy.length > 0) out.push(para(policy.join('\n')))
  // The service's verdict only where it differs from the result and can be trusted.
  if (r.verdict !== null && !r.verdictComputed && (r.result === 'pass' || r.result === 'fail') && r.verdict !== r.result) {
    out.push(para(`**The service's verdict:** ${enumText(r.verdict, ['pass', 'fail'])}.`))
  }
  if (r.counts === null) out.push(para('**The findings could not be read.**'))
  return out.join('')
}

// ---------------------------------------------------------------------------
// Coverage
// ---------------------------------------------------------------------------

/** `██░ 2/3`: attacks that got through of those tried. */
export function bar(succeeded: number | null, blocked: number | null): string {
  if (succeeded === null || blocked === null) return '–'
  const total = succeeded + blocked
  if (total <= 0) return '–'
  const width = total <= 3 ? total : 5
  const filled = succeeded === 0 ? 0 : Math.min(width, Math.max(1, Math.round((width * succeeded) / total)))
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)} ${formatCount(succeeded)}/${formatCount(total)}`
}

function stateIcon(row: ReportCoverageRow): string {
  if (row.state === 'not reached') return '⬜'
  if (row.state === 'partial') return '◐'
  if (row.state === 'probed') return '❔'
  return (row.succeeded ?? 0) > 0 ? '❗' : '✅'
}

const STATE_NOTE: Record<string, string> = { partial: ' partial', 'not reached': ' **not reached**', probed: ' probed' }

function categoryCell(row: ReportCoverageRow): string {
  const note = (STATE_NOTE[row.state] ?? '') + (row.planned ? '' : ' (not planned)')
  return `${stateIcon(row)} ${codeSpan(row.category, { max: 60, table: true })}${note}`
}

function worstCell(row: ReportCoverageRow): string {
  if (row.worstSeverity === null) return '–'
  const icon = SEVERITY_ICON[row.worstSeverity]
  return icon ? `${icon} ${row.worstSeverity}` : enumCell(row.worstSeverity, SEVERITIES)
}

const ref = (v: string | null): string => (v === null ? '–' : codeSpan(v, { max: 30, table: true }))

function coverageRowLine(row: ReportCoverageRow, full: boolean): string {
  const cells = [categoryCell(row), bar(row.succeeded, row.blocked), worstCell(row), ref(row.owasp)]
  if (full) cells.push(ref(row.atlas))
  return `| ${cells.join(' | ')} |\n`
}

/** A row with nothing to read: completed, nothing got through, no severity. */
function isClean(row: ReportCoverageRow): boolean {
  return row.planned && row.state === 'completed' && (row.succeeded ?? 0) === 0 && row.worstSeverity === null && row.blocked !== null
}

interface Bounded {
  text: string
  /** Items not shown. */
  left: number
}

function coverageBlock(r: Report, profile: MarkdownProfile, budget: number): Bounded {
  const m = profile.measure
  const full = profile.coverage === 'full'
  const planned = plannedCount(r)
  const rows = r.coverageRows
  const tried = rows.reduce((n, row) => n + (row.succeeded ?? 0) + (row.blocked ?? 0), 0)
  const through = rows.reduce((n, row) => n + (row.succeeded ?? 0), 0)
  let title: string
  if (r.categoriesPlanned === null) title = 'Coverage: the planned categories are unknown (the run status was not read)'
  else title = `Coverage: ${formatCount(r.coverageCompleted)} of ${formatCount(planned)} categories completed`
  if (r.coverageNotReached > 0) title += `, ${formatCount(r.coverageNotReached)} not reached`
  if (r.coverageReadable && tried > 0) title += ` · ${formatCount(through)} of ${formatCount(tried)} attacks got through`
  const lines: string[] = []
  if (!r.coverageReadable) lines.push(para('The coverage could not be read: attack counts and OWASP and ATLAS references are unknown.'))
  const unreached = (row: ReportCoverageRow): boolean => row.planned && row.state === 'not reached' && row.blocked === null
  const shown = full ? rows : rows.filter((row) => !isClean(row) && !unreached(row))
  const rolled = full ? [] : rows.filter(isClean)
  const notReached = full ? [] : rows.filter(unreached)
  const head = full
    ? '| Category | Got through | Worst | OWASP | ATLAS |\n| --- | --- | --- | --- | --- |\n'
    : '| Category | Got through | Worst | OWASP |\n| --- | --- | --- | --- |\n'
  let used = m(title) + m(head) + 400
  const table: string[] = []
  let left = 0
  for (let i = 0; i < shown.length; i++) {
    const line = coverageRowLine(shown[i], full)
    if (used + m(line) > budget) {
      left = shown.length - i
      break
    }
    used += m(line)
    table.push(line)
  }
  if (table.length > 0) lines.push(head, table.join(''), '\n')
  if (rolled.length > 0) {
    const n = rolled.reduce((k, row) => k + (row.blocked ?? 0), 0)
    const other = table.length > 0 ? 'other ' : ''
    lines.push(para(`✅ ${plural(rolled.length, `${other}category`, `${other}categories`)}: 0 of ${formatCount(n)} attacks got through.`))
  }
  if (notReached.length > 0) {
    const names = notReached.slice(0, 12).map((row) => codeSpan(row.category, { max: 60 }))
    const more = notReached.length - names.length
    lines.push(
      para(
        `⬜ **${plural(notReached.length, 'category', 'categories')} not reached:** ${names.join(', ')}${more > 0 ? ` and ${formatCount(more)} more` : ''}.`
      )
    )
  }
  if (left > 0) lines.push(para(`*${plural(left, 'more category', 'more categories')} not shown here (the job summary has them).*`))
  const body = lines.join('')
  if (r.result === 'pass' && !full) {
    return { text: `<details>\n<summary>${title}</summary>\n\n${body}</details>\n\n`, left }
  }
  return { text: para(`#### ${title}`) + body, left }
}

// ---------------------------------------------------------------------------
// Findings
// ---------------------------------------------------------------------------

const REPLAY_TEXT: Record<string, string> = {
  reproduced: 'reproduced on the last replay',
  not_reproduced: 'did not reproduce on the last replay',
  pending: 'not replayed since it was found',
  inconclusive: 'the last replay was inconclusive'
}

function replayText(status: string): string {
  return REPLAY_TEXT[status] ?? `last replay ${codeSpan(status, { max: 30 })}`
}

/** The attack that proves the finding best: the first that reproduced, else the first. */
function proofAttack(f: ReportFinding): ReportAttack | null {
  return f.attacks.find((a) => a.lastReplayStatus === 'reproduced') ?? f.attacks.at(0) ?? null
}

/** True when `body` only repeats `text` (e.g. a JSON body around the message). */
function repeats(body: string, text: string | null): boolean {
  if (text === null || text === '') return false
  return body.includes(text) || body.includes(JSON.stringify(text).slice(1, -1))
}

const ROUTINE_HEADERS = new Set([
  'content-type',
  'content-length',
  'accept',
  'accept-encoding',
  'accept-language',
  'user-agent',
  'host',
  'connection',
  'date',
  'authorization',
  'cookie',
  'x-api-key'
])

function proofSections(a: ReportAttack, f: ReportFinding, level: DetailLevel): ProofSection[] {
  const out: ProofSection[] = []
  const steps = a.steps.slice(0, level.maxSteps)
  const many = a.steps.length > 1
  steps.forEach((st, i) => {
    const n = many ? ` (step ${i + 1} of ${a.steps.length})` : ''
    if (st.method !== null && st.url !== null && st.message === null) {
      out.push({ label: `→ request${n}`, text: `${st.method} ${st.url}` })
    }
    if (level.headers && st.headers !== null) {
      const extra = Object.entries(st.headers).filter(([k, v]) => !ROUTINE_HEADERS.has(k.toLowerCase()) && v !== '[redacted]')
      if (extra.length > 0) out.push({ label: `→ headers${n}`, text: extra.map(([k, v]) => `${k}: ${v}`).join('\n') })
    }
    if (st.message !== null) out.push({ label: `→ prompt${n}`, text: st.message })
    if (st.body !== null && (st.message === null || (level.bodies && !repeats(st.body, st.message)))) {
      out.push({ label: `→ request body${n}`, text: st.body })
    }
    const status = st.responseStatus !== null ? ` (HTTP ${formatCount(st.responseStatus)})` : ''
    if (st.response !== null) out.push({ label: `← reply${status}`, text: st.response })
    if (st.responseBody !== null && (st.response === null || (level.bodies && !repeats(st.responseBody, st.response)))) {
      out.push({ label: `← response body${st.response === null ? status : ''}`, text: st.responseBody })
    }
    if (st.assertion !== null) out.push({ label: '✗ failed check', text: st.assertion })
    else if (st.expectedBehavior !== null && st.expectedBehavior !== f.expectedBehavior)
      out.push({ label: '✗ expected', text: st.expectedBehavior })
  })
  if (a.steps.length > steps.length)
    out.push({ label: `… ${plural(a.steps.length - steps.length, 'more step')} in the full data`, text: '' })
  return out
}

/** The icon of a finding: its severity colour when it blocks (or is below the threshold), else what it is. */
function findingIcon(f: ReportFinding): string {
  if (f.accepted !== null && f.standing !== 'closed') return STANDING_ICON.accepted ?? ''
  return STANDING_ICON[f.standing] ?? SEVERITY_ICON[f.severity]
}

/**
 * What a finding is, in the headline's words: "accepted", "known" (and with
 * fail_on new that it does not block), or against a baseline "new" or
 * "known" for one that blocks; '' otherwise.
 */
function standingLabel(f: ReportFinding): string {
  if (f.accepted !== null && f.standing !== 'closed') return 'accepted'
  if (f.standing === 'known') return 'known, does not block (fail_on new)'
  if (f.standing === 'blocking' && f.baselineState !== null) return f.baselineState
  return ''
}

function findingSummaryLine(f: ReportFinding): string {
  const label = standingLabel(f)
  const parts = [`${findingIcon(f)} <b>${f.severity}</b>`]
  if (label !== '') parts.push(`<b>${label}</b>`)
  parts.push(htmlCode(f.category, 60), htmlCode(f.findingId, 60))
  if (f.redacted) parts.push('proof withheld by the plan')
  else {
    const reproduced = f.attacks.filter((a) => a.lastReplayStatus === 'reproduced').length
    parts.push(`${plural(f.attacks.length, 'attack')}${reproduced > 0 ? `, ${formatCount(reproduced)} reproduced` : ''}`)
  }
  if (f.status !== 'open')
    parts.push(`status ${(FINDING_STATUSES as readonly string[]).includes(f.status) ? f.status : htmlCode(f.status, 30)}`)
  return parts.join(' · ')
}

function findingBlock(f: ReportFinding, level: DetailLevel): string {
  const out: string[] = [`<details>\n<summary>${findingSummaryLine(f)}</summary>\n\n`]
  if (f.redacted) {
    out.push(para('The proof is withheld by the plan; the finding counts the same as the others.'))
  } else {
    out.push(para(`> ${proseText(f.description, level.proseChars)}`))
    out.push(para(`**Expected:** ${proseText(f.expectedBehavior, level.proseChars)}`))
    const a = proofAttack(f)
    if (a !== null && level.maxSteps > 0) {
      out.push(
        para(`**Proof:** attack ${codeSpan(a.attackId, { max: 60 })}, score ${formatCount(a.score)}, ${replayText(a.lastReplayStatus)}.`)
      )
      const sections = proofSections(a, f, level)
      if (sections.length > 0)
        out.push(para(proofBlock(sections, { width: level.wrap, maxChars: level.fieldChars, maxLines: level.maxLines })))
      else out.push(para('*The attack has no replay steps.*'))
      const others = f.attacks.filter((x) => x !== a)
      if (others.length > 0) {
        const listed = others
          .slice(0, 3)
          .map(
            (x) =>
              `${codeSpan(x.attackId, { max: 40 })} (${(REPLAY_STATUSES as readonly string[]).includes(x.lastReplayStatus) ? x.lastReplayStatus.replace('_', ' ') : codeSpan(x.lastReplayStatus, { max: 20 })})`
          )
        const more = others.length - listed.length
        out.push(para(`Also: ${listed.join(', ')}${more > 0 ? ` and ${formatCount(more)} more` : ''}.`))
      }
    } else if (a !== null) {
      out.push(para(`*Proof of ${plural(f.attacks.length, 'attack')} left out here (see the full data).*`))
    }
  }
  out.push(para('</details>'))
  return out.join('')
}

const ROWS_HEAD = '| Severity | Category | Finding | Attacks |\n| --- | --- | --- | --- |\n'

function findingRow(f: ReportFinding): string {
  const attacks = f.redacted
    ? 'proof withheld'
    : `${formatCount(f.attacks.length)}${f.attacks.some((a) => a.lastReplayStatus === 'reproduced') ? ', reproduced' : ''}`
  const status = f.status === 'open' ? '' : ` (${enumCell(f.status, FINDING_STATUSES)})`
  const label = standingLabel(f)
  return `| ${findingIcon(f)} ${f.severity}${label === '' ? '' : ` · **${label}**`} | ${codeSpan(f.category, { max: 60, table: true })} | ${codeSpan(f.findingId, { max: 60, table: true })}${status} | ${attacks} |\n`
}

/** Counts by category (rows) and severity (columns): at most 5 columns. */
function gridBlock(fs: ReportFinding[], title: string, m: (s: string) => number, budget: number): Bounded {
  const byCat = new Map<string, SeverityCounts>()
  for (const f of fs) {
    const c = byCat.get(f.category) ?? zeroCounts()
    c[f.severity] += 1
    byCat.set(f.category, c)
  }
  const head = `${para(title)}| Category | 🔴 critical | 🟠 high | 🟡 medium | 🔵 low |\n| --- | ---: | ---: | ---: | ---: |\n`
  const lines: string[] = []
  let used = m(head) + 200
  let left = 0
  const cats = [...byCat.entries()]
  for (let i = 0; i < cats.length; i++) {
    const [cat, c] = cats[i]
    const line = `| ${codeSpan(cat, { max: 60, table: true })} | ${SEVERITIES.map((s) => (c[s] > 0 ? formatCount(c[s]) : '–')).join(' | ')} |\n`
    if (used + m(line) > budget) {
      left = cats.length - i
      break
    }
    used += m(line)
    lines.push(line)
  }
  let text = head + lines.join('') + '\n'
  if (left > 0) text += para(`*${plural(left, 'more category', 'more categories')} not shown in the grid.*`)
  return { text, left }
}

// ---------------------------------------------------------------------------
// Notes and footer
// ---------------------------------------------------------------------------

function notesBlock(r: Report, budget: number, m: (s: string) => number): Bounded {
  if (r.notes.length === 0) return { text: '', left: 0 }
  const lines: string[] = []
  let used = 200
  let shown = 0
  for (const note of r.notes) {
    if (shown >= MAX_NOTES) break
    const line = `> - ${proseText(note, 600)}\n`
    if (used + m(line) > budget) break
    used += m(line)
    lines.push(line)
    shown += 1
  }
  const left = r.notes.length - shown
  if (left > 0) lines.push(`> - *${plural(left, 'more note')} not shown.*\n`)
  return { text: `> **Notes from the run** (may quote the service: untrusted text, not instructions)\n>\n${lines.join('')}\n`, left }
}

function footerBlock(profile: MarkdownProfile): string {
  return para(
    `<sub>Quoted text (code, quotes, proof) comes from the service and the agent under test: untrusted data, not instructions. Full data: ${profile.fullDataWhere}.</sub>`
  )
}

function redactionLine(r: Report): string {
  const c = r.counts
  if (c === null || c.redacted === 0 || r.redactionReason === null) return ''
  const sev = enumText(r.minSeverity, SEVERITIES)
  return para(
    `**Redacted:** ${plural(c.redacted, 'finding')} (${formatCount(c.redactedAtOrAbove)} at or above ${sev}) ${c.redacted === 1 ? 'is' : 'are'} shown without proof: ${proseText(r.redactionReason, 200)}. ${c.redacted === 1 ? 'It counts' : 'They count'} the same as the others.`
  )
}

function countsText(fs: ReportFinding[]): string {
  const c = zeroCounts()
  for (const f of fs) c[f.severity] += 1
  return SEVERITIES.filter((s) => c[s] > 0)
    .map((s) => `${formatCount(c[s])} ${s}`)
    .join(', ')
}

// ---------------------------------------------------------------------------
// Layout within the budget
// ---------------------------------------------------------------------------

interface FindingsLayout {
  /** Ladder level per finding shown in full (a prefix of the list), by index. */
  detailed: number[]
  /** Findings shown as rows (after the detailed ones). */
  rows: number
  /** Findings only counted in the grid. */
  gridOnly: number
  text: string
}

/**
 * Details, then rows, then a grid: each severity group gets the most detail
 * that leaves room for a row for every finding after it; when even the rows
 * do not fit, the rows that fit and a count grid of all.
 */
function layoutFindings(list: ReportFinding[], profile: MarkdownProfile, avail: number, heading: string): FindingsLayout {
  const m = profile.measure
  const ladder = profile.ladder
  const total = list.length
  if (total === 0) return { detailed: [], rows: 0, gridOnly: 0, text: '' }
  const rowSize = list.map((f) => m(findingRow(f)))
  const rowsFrom = (i: number): number => {
    let s = 0
    for (let k = i; k < total; k++) s += rowSize[k]
    return s
  }
  const headSize = m(heading) + m(ROWS_HEAD) + 400
  const cache = new Map<string, string>()
  const block = (i: number, L: number): string => {
    const key = `${i}:${L}`
    let b = cache.get(key)
    if (b === undefined) {
      b = findingBlock(list[i], ladder[L])
      cache.set(key, b)
    }
    return b
  }

  const detailed: number[] = []
  if (headSize + rowsFrom(0) <= avail) {
    let used = headSize
    let i = 0
    // Group boundaries by severity.
    while (i < total && detailed.length < profile.maxDetailed) {
      const sev = list[i].severity
      let end = i
      while (end < total && list[end].severity === sev) end += 1
      end = Math.min(end, i + (profile.maxDetailed - detailed.length))
      const restRows = rowsFrom(end)
      let chosen = -1
      let size = 0
      for (let L = 0; L < ladder.length && chosen < 0; L++) {
        let s = 0
        for (let k = i; k < end && used + s + restRows <= avail; k++) s += m(block(k, L))
        if (used + s + restRows <= avail) {
          chosen = L
          size = s
        }
      }
      if (chosen >= 0) {
        for (let k = i; k < end; k++) detailed.push(chosen)
        used += size
        i = end
        continue
      }
      // Not the whole group: as many as fit at the lowest level, rows for the rest.
      const L = ladder.length - 1
      while (i < end && used + m(block(i, L)) + rowsFrom(i + 1) <= avail) {
        used += m(block(i, L))
        detailed.push(L)
        i += 1
      }
      break
    }
    const parts: string[] = [heading]
    detailed.forEach((L, k) => parts.push(block(k, L)))
    const rows = total - detailed.length
    if (rows > 0) {
      parts.push(para(detailed.length > 0 ? `**${plural(rows, 'more finding')}, one line each:**` : `**One line each:**`))
      parts.push(ROWS_HEAD, list.slice(detailed.length).map(findingRow).join(''), '\n')
    }
    return { detailed, rows, gridOnly: 0, text: parts.join('') }
  }

  // Not even the rows fit: the rows that fit, then a grid of all.
  const grid = gridBlock(list, `**All ${plural(total, 'finding')} by category:**`, m, Math.floor(avail / 3))
  let used = headSize + m(grid.text)
  let rows = 0
  const lines: string[] = []
  for (let k = 0; k < total; k++) {
    const line = findingRow(list[k])
    if (used + m(line) > avail) break
    used += m(line)
    lines.push(line)
    rows += 1
  }
  const parts = [heading]
  if (rows > 0) parts.push(ROWS_HEAD, lines.join(''), '\n')
  parts.push(grid.text)
  return { detailed: [], rows, gridOnly: total - rows, text: parts.join('') }
}

function minimalDocument(r: Report, profile: MarkdownProfile): string {
  const lines: string[] = []
  if (profile.marker) lines.push(profile.marker)
  lines.push(headline(r.result, reportTitle(r)))
  lines.push(metaLine({ commitSha: r.commitSha, assessedAt: r.assessedAt, runUrl: r.runUrl, threshold: r.minSeverity }))
  const counts = standingParts(r, { of: 'gate' })
  if (counts.length > 0) lines.push(`**Found:** ${counts.join(' · ')}.`)
  lines.push(`*The report did not fit ${profile.limitLabel}: only counts are shown. Full data: ${profile.fullDataWhere}.*`)
  const m = profile.measure
  while (lines.length > 1 && m(lines.join('\n\n') + '\n') > profile.limit) lines.pop()
  const doc = lines.join('\n\n') + '\n'
  return m(doc) <= profile.limit ? doc : ''
}

/** The hidden second line of a comment: the result, commit and time, read back by the next run. */
export function stateMarker(r: { result: string; commitSha: string | null; assessedAt: string | null }): string {
  const sha = r.commitSha !== null && /^[0-9a-f]{7,40}$/i.test(r.commitSha) ? r.commitSha.slice(0, 12).toLowerCase() : '-'
  const at = r.assessedAt !== null && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(r.assessedAt) ? `${r.assessedAt.slice(0, 16)}Z` : '-'
  const result = ['pass', 'fail', 'incomplete', 'error'].includes(r.result) ? r.result : 'error'
  return `<!-- asas-gate:result=${result};sha=${sha};at=${at} -->`
}

export function renderMarkdownReport(r: Report, profile: MarkdownProfile): string {
  const m = profile.measure
  const limit = profile.limit
  const marker = profile.marker ? `${profile.marker}\n${stateMarker(r)}\n\n` : ''
  const header = headerBlock(r)
  const coverage = coverageBlock(r, profile, Math.floor(limit * COVERAGE_SHARE))
  const notes = notesBlock(r, Math.floor(limit * NOTES_SHARE), m)
  const footer = footerBlock(profile)
  const redaction = redactionLine(r)
  const sev = enumText(r.minSeverity, SEVERITIES)

  // Blocking findings first (most severe first), then the known, accepted and closed ones.
  const grouped = r.groups.flatMap((g) => g.findings)
  const blocking = FINDING_STANDINGS.flatMap((st) => grouped.filter((f) => f.standing === st))
  const below = r.below
  let heading = ''
  if (r.counts !== null && blocking.length > 0) {
    heading = para(`#### ${plural(blocking.length, 'finding')} at or above ${sev}: ${standingParts(r, { of: 'findings' }).join(' · ')}`)
  } else if (r.counts !== null && r.result !== 'error') {
    heading = para(`**No findings at or above ${sev}.**`)
  }
  let belowCount = ''
  if (r.counts !== null && below.length > 0 && !profile.listBelowThreshold) {
    belowCount = para(
      `**Below ${sev}:** ${plural(below.length, 'finding')} (${countsText(below)}), counted here and listed in the job summary.`
    )
  }

  const fixed = m(marker) + m(header) + m(coverage.text) + m(notes.text) + m(footer) + m(redaction) + m(belowCount)
  const avail = limit - fixed - RESERVE
  if (avail < 0 || profile.ladder.length === 0) return minimalDocument(r, profile)

  const main = layoutFindings(blocking, profile, avail, heading)
  let belowText = belowCount
  let belowLeft = 0
  if (profile.listBelowThreshold && below.length > 0) {
    const head = para(`#### Below ${sev}: ${plural(below.length, 'finding')} (${countsText(below)})`)
    const room = avail - m(main.text) - m(head) - m(ROWS_HEAD) - 200
    const lines: string[] = []
    let size = 0
    if (main.gridOnly === 0) {
      for (const f of below) {
        const line = findingRow(f)
        if (size + m(line) > room) break
        size += m(line)
        lines.push(line)
      }
    }
    belowLeft = below.length - lines.length
    belowText = head + (lines.length > 0 ? `${ROWS_HEAD}${lines.join('')}\n` : '')
    if (belowLeft > 0) belowText += para(`*${plural(belowLeft, 'finding')} below ${sev} not listed here.*`)
  }

  // What was cut, with exact counts.
  const cuts: string[] = []
  const full = main.detailed.filter((L) => L === 0).length
  const trimmed = main.detailed.length - full
  if (trimmed > 0) cuts.push(`${plural(trimmed, 'finding')} with shorter proof`)
  if (main.rows > 0 && blocking.length > 0) cuts.push(`${plural(main.rows, 'finding')} as one-line rows without proof`)
  if (main.gridOnly > 0) cuts.push(`${plural(main.gridOnly, 'finding')} only counted in the grid`)
  if (belowLeft > 0) cuts.push(`${plural(belowLeft, 'finding')} below ${sev} not listed`)
  if (coverage.left > 0) cuts.push(`${plural(coverage.left, 'coverage row')} not shown`)
  if (notes.left > 0) cuts.push(`${plural(notes.left, 'note')} not shown`)
  const cutLine = cuts.length > 0 ? para(`*To fit ${profile.limitLabel}: ${cuts.join('; ')}. Full data: ${profile.fullDataWhere}.*`) : ''

  const findingsFirst = blocking.length > 0
  const body = findingsFirst ? [main.text, cutLine, belowText, coverage.text] : [coverage.text, main.text, cutLine, belowText]
  const doc = [marker, header, ...body, redaction, notes.text, footer].join('').replace(/\n+$/, '\n')
  if (m(doc) > limit) return minimalDocument(r, profile)
  return doc
}

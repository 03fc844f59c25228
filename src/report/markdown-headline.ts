/**
 * The top of the markdown report: the title and headline (icon, result, the
 * blocking counts or the cause, the model), the one metadata line, the lines
 * under it (target, baseline, acceptances, verdict), and the hidden state
 * marker the next run reads back.
 */
import { para, RESULT_ICON, SEVERITY_ICON } from './markdown-profile.js'
import { SEVERITIES, type Severity } from '../service/contract/index.js'
import { clampText, codeSpan, enumText, formatCount, proseText, sanitizeText, trustedLink } from './markdown-safe.js'
import { describeProfileSync, formatElapsed } from './describe.js'
import { FINDING_STANDINGS, type Report, type SeverityCounts, zeroCounts } from './report-model.js'
import { formatWhen, plural } from '../util/text.js'
import { missedStanding, STANDINGS } from './standings.js'

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)
import {
  type Blocker,
  rateText,
  blockerCounts,
  blockers,
  blockerCountText,
  blockerTraits,
  notBlockingParts,
  runsCounted
} from './blockers.js'

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
 * (the model's headline; under fail_on any the open counts, as without a
 * baseline, since new and known decide nothing there). `of: 'findings'` adds the closed findings at or
 * above the threshold ("1 closed"), for the list; `of: 'gate'` adds what else
 * decides: baseline findings gone and expired acceptances. Empty when there
 * is nothing to count.
 */
export function standingParts(r: Report, opts: { of: 'gate' | 'findings' }): string[] {
  const c = r.counts
  if (c === null) return []
  const parts: string[] = []
  const b = r.baseline
  // New and known decide only under fail_on new; under any, what is open decides and each finding says new or known.
  if (b?.available && b.failOn === 'new') {
    const newParts = SEVERITIES.filter((sev) => b.newBySeverity[sev] > 0).map((sev) => `${formatCount(b.newBySeverity[sev])} new ${sev}`)
    parts.push(...(newParts.length > 0 ? newParts : ['0 new']), `${formatCount(b.knownCount)} ${STANDINGS.known.label}`)
  } else {
    const open = openCountsText(blockerCounts(blockers(r)))
    if (open !== null) parts.push(open)
  }
  // The others the headline counts (standings.ts): accepted always, closed over the list.
  for (const st of FINDING_STANDINGS) {
    const n = total(c.byStanding[st])
    const shown = STANDINGS[st].headline === 'always' || (STANDINGS[st].headline === 'list' && opts.of === 'findings')
    if (shown && n > 0) parts.push(`${formatCount(n)} ${STANDINGS[st].label}`)
  }
  if (opts.of === 'gate') {
    const gone = b?.available ? b.gone.length : 0
    if (gone > 0) parts.push(`${formatCount(gone)} closed since`)
    const expired = r.acceptances?.expired.length ?? 0
    if (expired > 0) parts.push(plural(expired, 'expired acceptance'))
  }
  return parts
}

/** The target (registered, reused, moved) and its profile sync, in one line. */
function describeTargetLine(r: Report): string {
  const parts: string[] = []
  if (r.target !== null) {
    parts.push(r.target.outcome === 'registered' ? 'registered by this step' : 'found in the inventory')
    if (r.target.movedFrom !== null) parts.push(`its host moved from ${r.target.movedFrom.endpointHost}: the model there was not assessed`)
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
  const ctx = { minSeverity: r.minSeverity, failOn: b?.available ? b.failOn : null }
  if (b) {
    lines.push(`- **Baseline:** ${baselineText(r)}`)
    for (const n of b.notReproduced.slice(0, 20)) {
      const st = STANDINGS[missedStanding(n)]
      // Gone here, open there: the service keeps a finding open until someone closes it (said so, never both bare).
      const open = n.confirmedGone === true ? 'the service still lists it open until someone closes it there' : 'still open on the service'
      lines.push(
        `- **${capitalize(st.label)}** (${st.why(ctx)}): ${n.severity} ${codeSpan(n.category, { max: 100 })}, ${proseText(rateText(n.seen), 80)}, ${open}: ${proseText(n.description, 200)}`
      )
    }
    for (const g of b.gone.slice(0, 20))
      lines.push(
        `- **Closed since (fixed or dismissed on the service):** ${g.severity} ${codeSpan(g.category, { max: 100 })}: ${proseText(g.description, 200)}`
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
      const what =
        f.standing === 'accepted'
          ? capitalize(STANDINGS.accepted.label)
          : `${capitalize(STANDINGS.accepted.label)}, ${STANDINGS.below.why(ctx)} (not counted)`
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

/**
 * What the baseline is, not what it counts (the title does, on a pass or a
 * fail): "4 runs of main (...), re-read from the service · newest run
 * `run_41` · fail_on new · read with 9 service requests and 1 GitHub request
 * in 1.8 s, no assessment". Without one, why, and what the gate counts instead.
 */
function baselineText(r: Report): string {
  const b = r.baseline
  if (b === null) return ''
  if (!b.available)
    return `none (${proseText(b.why ?? '', 300)}); ${b.failOn === 'new' ? 'fail_on new falls back to any: ' : ''}every open finding at or above the threshold counts`
  const parts = [b.source !== null ? proseText(b.source, 300) : 'a recorded run']
  if (b.runId) parts.push(`newest run ${codeSpan(b.runId, { max: 120 })}`)
  parts.push(`fail_on ${b.failOn}`)
  const w = b.window
  if (w !== null && w.runsRead > 0)
    parts.push(
      `read with ${plural(w.serviceRequests, 'service request')}${w.githubRequests > 0 ? ` and ${plural(w.githubRequests, 'GitHub request')}` : ''} in ${formatElapsed(w.ms) ?? '?'}, no assessment`
    )
  // On an incomplete or error result the title names the cause, so the counts are said here.
  if (r.result !== 'pass' && r.result !== 'fail' && r.headline !== '') parts.push(proseText(r.headline, 300))
  return parts.join(' · ')
}

/** "12 open critical, 340 open high", or null when none. */
function openCountsText(c: SeverityCounts): string | null {
  const parts = SEVERITIES.filter((s) => c[s] > 0).map((s) => `${formatCount(c[s])} open ${s}`)
  return parts.length > 0 ? parts.join(', ') : null
}

export function plannedCount(r: Report): number {
  return r.coverageRows.filter((row) => row.planned).length
}

/** Why a run that ended in error was not assessed, in a few words (plain text; may quote the service). */
function notAssessedCause(r: Report): string {
  const planned = plannedCount(r)
  if (r.reason.startsWith('timeout_minutes ran out')) {
    if (r.coverageCompleted === 0) return 'timeout_minutes ran out before any category ran: raise timeout_minutes'
    return r.coverageCompleted >= planned
      ? `timeout_minutes ran out before the run ended (all ${planned} categories reached): raise timeout_minutes`
      : `timeout_minutes ran out after ${r.coverageCompleted} of ${planned} categories: raise timeout_minutes`
  }
  if (r.reason.startsWith('the step was cancelled')) return 'the job was cancelled before the run ended'
  const first = r.reason.split('; ')[0] ?? r.reason
  return clampText(first, 160).text
}

/** The words after the result (plain text, may quote service text): on a fail the blockers alone, counted as the policy counts them. */
function headlineCause(r: Report): string {
  const sev = r.minSeverity
  switch (r.result) {
    case 'fail': {
      const blocking = blockerCountText(r)
      if (blocking !== '') return blocking
      // Nothing of the findings blocks: what else decided (an expired acceptance, the service's verdict).
      const parts = standingParts(r, { of: 'gate' })
      return parts.length > 0 ? parts.join(' · ') : `the service's verdict is fail at ${sev}`
    }
    case 'pass':
      return `nothing blocks at or above ${sev}`
    case 'incomplete': {
      const planned = plannedCount(r)
      if (r.categoriesPlanned === null) return 'coverage unknown'
      // Evidence, not coverage, is the cause (a confirmation's bound, a read of held evidence): its own words.
      if (r.reason.startsWith('evidence incomplete: '))
        return clampText(r.reason.replace(/^evidence incomplete: /, '').split('; ')[0] ?? r.reason, 160).text
      return `${r.coverageCompleted} of ${planned} categories completed`
    }
    default:
      return notAssessedCause(r)
  }
}

/** The agent as titles name it (plain text): the step's agent name, else the model's name, else its id. */
export function modelLabel(r: Pick<Report, 'modelName' | 'modelId' | 'pipeline'>): string {
  const agent = r.pipeline?.agentName
  const named = r.modelName !== null && r.modelName.trim() !== '' ? r.modelName : null
  // A model gate's agent is its id: the inventory's name says more (the id stands beside it once, in the metadata line).
  if (agent !== undefined && agent.trim() !== '' && !(agent === r.modelId && named !== null)) return agent
  return named ?? r.modelId
}

/**
 * The one title of a result, the same in the comment, the summary and the
 * tracking issue: "Agent security gate: fail · 1 open high · Acme Support agent",
 * "Not assessed: ... · model". Plain text on one line (escape it for markdown).
 */
export function gateTitle(result: string, cause: string, model: string): string {
  const head = result === 'error' ? `Not assessed: ${cause}` : `Agent security gate: ${result} · ${cause}`
  const name = clampText(model, 100).text.trim()
  return sanitizeText(clampText(name === '' ? head : `${head} · ${name}`, 300).text, false)
}

export function reportTitle(r: Report): string {
  return gateTitle(r.result, headlineCause(r), modelLabel(r))
}

/** "### ❌ Agent security gate: fail · ..." */
export function headline(result: string, title: string): string {
  return `### ${RESULT_ICON[result] ?? '⛔'} ${proseText(title, 400)}`
}

export interface MetaParts {
  commitSha: string | null
  assessedAt: string | null
  categories?: { done: number; planned: number } | null
  /** min_severity, where the report has one (null: validate mode, a step that failed first, a carried result). */
  threshold: Severity | null
  elapsed?: string | null
  runId?: string | null
  runUrl: string | null
  /** What the run link is called (GitHub's "workflow run", the default; GitLab's "job"). */
  runLinkLabel?: string
  /** The model's id, beside its name once (the title names the agent). */
  modelId?: string | null
}

/** The one metadata line under the headline (trusted parts and code spans). */
export function metaLine(p: MetaParts): string {
  const parts: string[] = []
  if (p.modelId) parts.push(`model ${codeSpan(p.modelId, { max: 80 })}`)
  if (p.commitSha !== null && /^[0-9a-f]{7,40}$/i.test(p.commitSha)) parts.push(`commit \`${p.commitSha.slice(0, 7)}\``)
  const when = formatWhen(p.assessedAt)
  if (when) parts.push(when)
  if (p.categories) parts.push(`${p.categories.done}/${p.categories.planned} categories`)
  if (p.threshold) parts.push(`threshold ${enumText(p.threshold, SEVERITIES)}`)
  if (p.elapsed) parts.push(p.elapsed)
  if (p.runId) parts.push(`run ${codeSpan(p.runId, { max: 80 })}`)
  const link = trustedLink(p.runLinkLabel ?? 'workflow run', p.runUrl)
  if (link) parts.push(link)
  return parts.join(' · ')
}

/** The blockers by name, one line each, right under the title: what a reviewer reads first. */
function blockersBlock(r: Report): string {
  const list = blockers(r)
  if (list.length === 0 || (r.result !== 'fail' && r.result !== 'incomplete')) return ''
  if (list.length > MAX_NAMED) return para(`**Blocks (${formatCount(list.length)}):**\n${groupedBlockers(list).join('\n')}`)
  const lines = list.map((b) => {
    const traits = blockerTraits(b)
    // A weakness this run did not reproduce has no finding id of this run: its fingerprint names it (the JSON report's too).
    const id = ` ${codeSpan(b.findingId ?? `weakness ${b.fingerprint.slice(0, 12)}`, { max: 60 })}`
    return `- ${SEVERITY_ICON[b.severity]} **${b.severity}** ${codeSpan(b.category, { max: 60 })}${id}${traits.length > 0 ? ` · ${proseText(traits.join(' · '), 300)}` : ''}`
  })
  return para(`**Blocks${list.length > 1 ? ` (${formatCount(list.length)})` : ''}:**\n${lines.join('\n')}`)
}

/** Many blockers, one line per severity, named by category with how many: "🔴 **12 critical:** `jailbreak` 3, ...". */
function groupedBlockers(list: readonly Blocker[]): string[] {
  return SEVERITIES.flatMap((sev) => {
    const of = list.filter((b) => b.severity === sev)
    if (of.length === 0) return []
    const byCategory = new Map<string, number>()
    for (const b of of) byCategory.set(b.category, (byCategory.get(b.category) ?? 0) + 1)
    const cats = [...byCategory.entries()].sort((a, b) => b[1] - a[1])
    const named = cats.slice(0, MAX_CATEGORIES).map(([c, k]) => `${codeSpan(c, { max: 60 })} ${formatCount(k)}`)
    const more = cats.length - named.length
    const missed = of.filter((b) => !b.reproduced).length
    return [
      `- ${SEVERITY_ICON[sev]} **${formatCount(of.length)} ${sev}:** ${named.join(', ')}${more > 0 ? ` and ${plural(more, 'more category', 'more categories')}` : ''}${missed > 0 ? ` (${formatCount(missed)} not reproduced in this run)` : ''}`
    ]
  })
}

/** Categories named per severity when blockers are grouped. */
const MAX_CATEGORIES = 6

/** Blockers named at the top at most (the findings list below has every one). */
const MAX_NAMED = 5

/** What does not block and why, one line; and what the rates count, said once. */
function notBlockingBlock(r: Report): string {
  const lines: string[] = []
  const parts = notBlockingParts(r)
  if (parts.length > 0 && (r.result === 'pass' || r.result === 'fail'))
    lines.push(`**Does not block:** ${proseText(parts.join(' · '), 600)}.`)
  const runs = runsCounted(r)
  if (runs !== null && (r.result === 'pass' || r.result === 'fail')) lines.push(`*Rates count ${proseText(runs, 200)}.*`)
  return lines.length > 0 ? para(lines.join('  \n')) : ''
}

export function headerBlock(r: Report, runLinkLabel: string): string {
  const out: string[] = [para(headline(r.result, reportTitle(r))), blockersBlock(r), notBlockingBlock(r)]
  out.push(
    para(
      metaLine({
        modelId: modelLabel(r) === r.modelId ? null : r.modelId,
        commitSha: r.commitSha,
        assessedAt: r.assessedAt,
        categories: r.categoriesPlanned === null ? null : { done: r.coverageCompleted, planned: plannedCount(r) },
        threshold: r.minSeverity,
        elapsed: formatElapsed(r.elapsedMs),
        runId: r.runId,
        runUrl: r.runUrl,
        runLinkLabel
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
  // The service's verdict only where it differs from the result and can be trusted.
  if (r.verdict !== null && !r.verdictComputed && (r.result === 'pass' || r.result === 'fail') && r.verdict !== r.result) {
    out.push(para(`**The service's verdict:** ${enumText(r.verdict, ['pass', 'fail'])}.`))
  }
  if (r.counts === null) out.push(para('**The findings could not be read.**'))
  return out.join('')
}

/**
 * What the step read and how, below the findings: the target, the event and
 * the assessment budget, the baseline and its window, the accepted risks.
 */
export function contextBlock(r: Report): string {
  const out: string[] = []
  if (r.target !== null || r.profileSync !== null) out.push(para(`**Target:** ${proseText(describeTargetLine(r), 600)}`))
  if (r.pipeline) {
    const confirmations = (r.pipeline.confirmation?.lines ?? []).map((l) => `Confirmation: ${l}.`)
    const lines = [
      ...r.pipeline.lines,
      ...confirmations,
      r.pipeline.budgetLine,
      ...(r.pipeline.detection && r.result === 'pass' ? [r.pipeline.detection] : [])
    ]
    out.push(para(lines.map((l) => proseText(l, 600)).join('  \n')))
  }
  const policy = policyLines(r)
  if (policy.length > 0) out.push(para(policy.join('\n')))
  return out.join('')
}

/** The hidden second line of a comment: the result, commit and time, read back by the next run. */
export function stateMarker(r: { result: string; commitSha: string | null; assessedAt: string | null }): string {
  const sha = r.commitSha !== null && /^[0-9a-f]{7,40}$/i.test(r.commitSha) ? r.commitSha.slice(0, 12).toLowerCase() : '-'
  const at = r.assessedAt !== null && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(r.assessedAt) ? `${r.assessedAt.slice(0, 16)}Z` : '-'
  const result = ['pass', 'fail', 'incomplete', 'error'].includes(r.result) ? r.result : 'error'
  return `<!-- asas-gate:result=${result};sha=${sha};at=${at} -->`
}

/**
 * Annotations for the findings at or above the threshold, most severe first.
 * GitHub shows about ten errors and ten warnings per step and drops the rest,
 * and the step's result line is one of them: past `max` (one less than ten)
 * the rest are summed up in one.
 * Texts are one line, without control, bidi or zero-width characters, clamped.
 */
import { SEVERITIES, type Severity } from '../service/contract/index.js'
import { clampText, sanitizeText } from './markdown-safe.js'
import { describeCounts } from './describe.js'
import { zeroCounts, type Report, type ReportFinding } from './report-model.js'
import { blockers, blockerTraits, type Blocker } from './blockers.js'
import { findingStanding, STANDINGS, type StandingContext } from './standings.js'

export interface Annotation {
  level: 'error' | 'warning' | 'notice'
  title: string
  message: string
}

function clean(text: string, max: number): string {
  const c = clampText(text, max)
  return sanitizeText(c.text, false).trim() + (c.cut > 0 ? ' …' : '')
}

function severityText(s: Severity): string {
  return SEVERITIES.includes(s) ? s : 'unknown'
}

/** A weakness this run did not reproduce that still blocks: an error like any blocker, named by its fingerprint. */
function missedAnnotation(b: Blocker, ctx: StandingContext): Annotation {
  const sev = severityText(b.severity)
  const held = STANDINGS.held
  const traits = blockerTraits(b).filter((t) => t !== held.label)
  return {
    level: held.annotation ?? 'error',
    title: clean(`${sev} ${b.category} weakness ${b.fingerprint.slice(0, 12)}: ${held.label}`, 120),
    message: clean(
      `Weakness ${b.fingerprint} (${sev} ${b.category}) ${held.label}: ${held.why(ctx)}${traits.length > 0 ? `; ${traits.join(', ')}` : ''}; still open on the service. Description: ${b.description} See the job summary and the JSON report.`,
      900
    )
  }
}

/** Its standing in the standings' words: "blocks (open at or above high; new, seen in 2 of 5 runs of main)". */
function standingText(f: ReportFinding, ctx: StandingContext): string {
  const st = STANDINGS[findingStanding(f)]
  const traits = st.blocks ? blockerTraits({ ...f, reproduced: true }) : []
  const why = [st.why(ctx), ...traits].join('; ')
  return `${st.label} (${why})`
}

function annotationFor(f: ReportFinding, ctx: StandingContext): Annotation {
  const sev = severityText(f.severity)
  const id = clean(f.findingId, 80)
  const st = STANDINGS[findingStanding(f)]
  const title = clean(`${sev} finding ${id}: ${f.category} (${st.label})`, 120)
  const parts = [
    `Finding ${id} (${sev} ${clean(f.category, 80)}, ${clean(f.lens, 30)}, status ${clean(f.status, 30)}) ${standingText(f, ctx)}.`
  ]
  if (f.redacted) {
    parts.push("Proof withheld: the workspace's plan withholds the proof of findings.")
  } else {
    parts.push(`Description: ${clean(f.description, 500)}`)
    parts.push(`Expected behaviour: ${clean(f.expectedBehavior, 300)}`)
    if (f.attacks.length > 0)
      parts.push(
        `${f.attacks.length} ${f.attacks.length === 1 ? 'attack' : 'attacks'}; replay steps in the job summary and the JSON report.`
      )
  }
  // The level is the standing's (standings.ts): blockers are errors; what does not block is a warning.
  return { level: st.annotation ?? 'notice', title, message: clean(parts.join(' '), 1500) }
}

/** The annotations of each level GitHub shows for one step. */
export const ANNOTATIONS_SHOWN_PER_LEVEL = 10

/**
 * One annotation per finding at or above the threshold; over `max`, `max - 1`
 * of them and one for the rest. The default leaves one error and one warning
 * for the step's result line.
 */
export function buildAnnotations(report: Report, max = ANNOTATIONS_SHOWN_PER_LEVEL - 1): Annotation[] {
  // Blockers first (blockers.ts: this run's, then those not reproduced, by severity), then what does not block.
  const found = report.groups.flatMap((g) => g.findings)
  const ctx: StandingContext = { minSeverity: report.minSeverity, failOn: report.baseline?.available ? report.baseline.failOn : null }
  const byId = new Map(found.map((f) => [f.findingId, f]))
  const items: { severity: Severity; blocks: boolean; make: () => Annotation }[] = [
    ...blockers(report).map((b) => {
      const f = b.findingId === null ? undefined : byId.get(b.findingId)
      return { severity: b.severity, blocks: true, make: () => (f ? annotationFor(f, ctx) : missedAnnotation(b, ctx)) }
    }),
    ...found
      .filter((f) => f.standing !== 'blocking')
      .map((f) => ({ severity: f.severity, blocks: false, make: () => annotationFor(f, ctx) }))
  ]
  const limit = Math.max(1, Math.floor(max))
  if (items.length <= limit) return items.map((i) => i.make())
  const shown = items.slice(0, limit - 1).map((i) => i.make())
  const rest = items.slice(limit - 1)
  const counts = zeroCounts()
  let blocking = 0
  for (const f of rest) {
    counts[f.severity] += 1
    if (f.blocks) blocking += 1
  }
  shown.push({
    level: blocking > 0 ? 'error' : 'warning',
    title: `${rest.length} more findings at or above ${report.minSeverity}`,
    message: `${rest.length} more findings at or above ${report.minSeverity} (${describeCounts(counts)}; ${blocking} blocking) are not annotated. See the job summary and the JSON report.`
  })
  return shown
}

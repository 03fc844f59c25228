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

function blockerTraitsOf(f: ReportFinding): string[] {
  return blockerTraits({ ...f, reproduced: true })
}

/** A weakness this run did not reproduce that still blocks: an error like any blocker. */
function missedAnnotation(b: Blocker): Annotation {
  const sev = severityText(b.severity)
  return {
    level: 'error',
    title: clean(`${sev} finding: ${b.category} (not reproduced in this run, still blocks)`, 120),
    message: clean(
      `Blocks: ${blockerTraits(b).join(', ')}; still open on the service. Description: ${b.description} See the job summary and the JSON report.`,
      900
    )
  }
}

function annotationFor(f: ReportFinding, minSeverity: Severity): Annotation {
  const sev = severityText(f.severity)
  const title = clean(`${sev} finding: ${f.category} (${f.lens})`, 120)
  const parts = [`Security assessment finding ${clean(f.findingId, 80)}, status ${clean(f.status, 30)}, at or above ${minSeverity}.`]
  if (f.standing === 'accepted') parts.push('Accepted in the accepted-risks file: it does not block.')
  if (f.standing === 'known') parts.push("Known: main's runs have it; with fail_on new it does not block.")
  if (f.standing === 'blocking') parts.push(`Blocks: ${blockerTraitsOf(f).join(', ')}.`)
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
  // Blocking findings fail the gate (error); closed, accepted and (fail_on new) known ones do not (warning).
  return { level: f.standing === 'blocking' ? 'error' : 'warning', title, message: parts.join(' ') }
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
  const byId = new Map(found.map((f) => [f.findingId, f]))
  const items: { severity: Severity; blocks: boolean; make: () => Annotation }[] = [
    ...blockers(report).map((b) => {
      const f = b.findingId === null ? undefined : byId.get(b.findingId)
      return { severity: b.severity, blocks: true, make: () => (f ? annotationFor(f, report.minSeverity) : missedAnnotation(b)) }
    }),
    ...found
      .filter((f) => f.standing !== 'blocking')
      .map((f) => ({ severity: f.severity, blocks: false, make: () => annotationFor(f, report.minSeverity) }))
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

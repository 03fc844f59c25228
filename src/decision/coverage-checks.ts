/**
 * The coverage read against the run status and the findings: a contradiction
 * makes the result untrusted (error), a gap makes it incomplete.
 */
import {
  atOrAbove,
  isKnownRunStatus,
  type CoverageResponse,
  type Finding,
  type RunStatus,
  type Severity
} from '../service/contract/index.js'
import { quote } from './verdict.js'

export interface CoverageCheck {
  /** Contradictions that make the result untrusted: error. */
  errors: string[]
  /** Gaps in what the run covered: incomplete. */
  gaps: string[]
  notes: string[]
}

/**
 * Coverage against the run status and the findings. The description: a
 * category the run never probed has no row, so a completed one has one; the
 * coverage reports the run's status as run_status. ASSUMPTION: a row's
 * worst_severity is the severity of a finding of that category.
 */
export function coverageChecks(
  coverage: CoverageResponse,
  status: RunStatus,
  planned: readonly string[],
  completed: readonly string[],
  findings: readonly Finding[] | null,
  minSeverity: Severity
): CoverageCheck {
  const out: CoverageCheck = { errors: [], gaps: [], notes: [] }
  const rows = new Set(coverage.categories.map((r) => r.category))
  const noRow = [...new Set(completed)].filter((c) => !rows.has(c))
  if (noRow.length > 0) out.gaps.push(`no coverage row for ${noRow.join(', ')}`)

  const covStatus = coverage.run_status
  if (covStatus !== status) {
    if (isKnownRunStatus(covStatus)) {
      out.gaps.push(`the coverage reports run_status ${covStatus} while the run status is ${status}`)
      out.notes.push(
        `The run status (${status}) and the coverage (run_status ${covStatus}) disagree: the two reads do not describe the same run state, so the coverage may be partial.`
      )
    } else {
      out.notes.push(
        `The coverage reports run_status ${quote(covStatus, 40)}, a status this action does not know, while the run status is ${status}.`
      )
    }
  }

  if (findings !== null) {
    const plannedSet = new Set(planned)
    for (const row of coverage.categories) {
      const worst = row.worst_severity
      if (worst === null || !atOrAbove(worst, minSeverity)) continue
      const held = findings.some((f) => f.category === row.category && atOrAbove(f.severity, minSeverity))
      if (held) continue
      if (plannedSet.has(row.category)) {
        out.errors.push(
          `coverage reports a ${worst} finding in ${row.category} that the findings list does not hold; the result cannot be trusted`
        )
      } else {
        out.notes.push(
          `The coverage reports a ${worst} finding in ${row.category}, a category the run did not plan, that the findings list does not hold.`
        )
      }
    }
  }
  return out
}

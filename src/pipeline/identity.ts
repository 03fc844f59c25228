/**
 * What makes two assessments "of the same thing" for carrying a result over:
 * the model or target assessed, the profile it was assessed with, and the
 * inputs that decide the verdict. A recorded result is carried over only when
 * all three are equal to this run's. Pure.
 */
import { createHash } from 'node:crypto'
import { recordSubjectKey, type AssessmentRecord } from '../report/comment.js'

export interface AssessmentIdentity {
  /** recordSubjectKey of the model or target (see subjectKey). */
  subject: string
  /** sha256 of the profile file's text; null when no profile_file is used. */
  profileDigest: string | null
  /** sha256 of the verdict inputs (see policyDigest). */
  policyDigest: string | null
}

/**
 * The model or target, as configured before anything is resolved: the
 * model_id input, else the target name (target_name, or the event's default
 * name). The same value names the commit status (`agent-security/<name>`).
 */
export type AssessedSubject = { kind: 'model'; modelId: string } | { kind: 'target'; name: string }

export function subjectName(s: AssessedSubject): string {
  return s.kind === 'model' ? s.modelId : s.name
}

export function subjectKey(s: AssessedSubject): string {
  return recordSubjectKey(s.kind === 'model' ? `model:${s.modelId}` : `target:${s.name}`)
}

/** sha256 (hex) of a text, e.g. the profile file as committed: any change, even of spacing, is a change. */
export function textDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/**
 * sha256 (hex) of the inputs that decide the verdict, given by name (e.g.
 * min_severity, categories, fail_on, fail_on_incomplete, the accepted-risks
 * file's text, the baseline run id). Independent of the order they are given
 * in; a name with another value, or a name added or removed, gives another
 * digest.
 */
export function policyDigest(parts: Readonly<Record<string, string>>): string {
  const canonical = JSON.stringify(Object.entries(parts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  return textDigest(canonical)
}

/** Why `record` is not of the same assessment as `identity`; null when it is. */
export function identityMismatch(record: AssessmentRecord, identity: AssessmentIdentity): string | null {
  if (record.subject !== identity.subject) return 'it assessed another model or target'
  if (record.profileDigest !== identity.profileDigest) {
    if (record.profileDigest === null) return 'it was assessed without a profile_file, and this run has one'
    if (identity.profileDigest === null) return 'it was assessed with a profile_file, and this run has none'
    return 'the profile file changed since'
  }
  if (record.policyDigest !== identity.policyDigest) {
    return 'the inputs that decide the verdict (min_severity, categories, fail_on, accepted risks, ...) differ'
  }
  return null
}

/** The first 7 characters of a commit SHA, as GitHub shows it. */
export function shortSha(sha: string): string {
  return sha.slice(0, 7)
}

/**
 * Profile as code: make the target's profile say what the file says, then
 * confirm what the file lists (4.12 to 4.14). The calls are at this edge; the
 * change and what is left to confirm are pure (diff.ts).
 *
 * GET the profile (404: the target has none yet), PATCH only what differs
 * with the version and profile_id just read (both left out to create it), then
 * POST confirm with the version the PATCH answered. A stale version (409,
 * another writer) is read again and diffed again, a bounded number of times.
 */
import type { ProfileResponse } from '../service/contract/index.js'
import type { ServiceCallDeps } from '../service/service-api.js'
import { ConfigError, ServiceError } from '../util/errors.js'
import { oneLine } from '../util/text.js'
import { diffProfile, isEmptyConfirm, pendingConfirm, readCurrent } from './diff.js'
import type { ProfileConfirm, ProfileFile } from './profile-file.js'

/** Reads of the profile before giving up on a stale version. */
export const MAX_SYNC_ATTEMPTS = 3

export interface ProfileSyncResult {
  /** The target had no profile: the PATCH created it. */
  created: boolean
  /** One phrase per field changed ("tools +1 (refund_order)", "system_prompt changed"); empty when nothing changed. */
  changed: string[]
  /** What was confirmed (null: nothing was). */
  confirmed: ProfileConfirm | null
  /** The profile version the assessment runs against. */
  version: number
  profileId: string
  /** Reads made (1 unless a stale version was retried). */
  attempts: number
}

function isStale(err: unknown): boolean {
  return err instanceof ServiceError && err.status === 409
}

function isNotFound(err: unknown): boolean {
  return err instanceof ServiceError && err.status === 404
}

/** A 422 validation list of a profile write, as a mistake in the file naming the field. */
function explainWrite(err: unknown, path: string, what: string): unknown {
  if (!(err instanceof ServiceError) || err.status !== 422) return err
  const issues = Array.isArray(err.extra.issues) ? (err.extra.issues as { loc?: unknown; msg?: unknown }[]) : []
  const first = issues.at(0)
  if (!first || !Array.isArray(first.loc))
    return new ConfigError('profile_file', `${path}: the service refused the ${what}: ${oneLine(err.serviceMessage, 300)}`)
  const loc = first.loc.map(String).filter((l) => l !== 'body' && l !== 'changes')
  const field = `${what === 'confirm' ? 'confirm.' : ''}${loc.join('.')}`
  return new ConfigError('profile_file', `${path}: field ${field}: the service refused the ${what}: ${oneLine(String(first.msg), 300)}`)
}

async function readProfile(deps: ServiceCallDeps, modelId: string): Promise<ProfileResponse | null> {
  try {
    return await deps.api.getProfile(modelId, { signal: deps.signal })
  } catch (err) {
    if (isNotFound(err)) return null
    if (err instanceof ServiceError && err.status === 403) {
      throw err.withDetail({
        hint: 'Syncing the profile compares it with what the service holds: the key must be allowed to read the profile, not only to write it'
      })
    }
    throw err
  }
}

function confirmText(c: ProfileConfirm): string {
  const items = Object.entries(c.items).map(([f, names]) => `${f} ${names.length}`)
  return [...c.answers, ...items].join(', ')
}

export async function syncProfile(deps: ServiceCallDeps, modelId: string, path: string, file: ProfileFile): Promise<ProfileSyncResult> {
  const { api, log, signal } = deps
  let lastStale: ServiceError | null = null
  for (let attempt = 1; attempt <= MAX_SYNC_ATTEMPTS; attempt++) {
    const read = await readProfile(deps, modelId)
    const current = read === null ? null : readCurrent(read)
    const diff = diffProfile(file, current)
    const toConfirm = pendingConfirm(file.confirm, current)
    let version = read?.version ?? null
    let profileId = read?.profile_id ?? null
    try {
      if (Object.keys(diff.changes).length > 0) {
        const body =
          read === null ? { changes: diff.changes } : { changes: diff.changes, version: read.version, profile_id: read.profile_id }
        const written = await api.changeProfile(modelId, body, { signal }).catch((e: unknown) => {
          throw explainWrite(e, path, 'change')
        })
        version = written.version
        profileId = written.profile_id
        log.info(`Profile of model ${modelId} ${read === null ? 'created' : 'changed'} (version ${version}): ${diff.summary.join(', ')}.`)
      } else {
        log.info(`Profile of model ${modelId} already says what ${path} says (version ${version}): nothing to change.`)
      }
      if (version === null || profileId === null) {
        // A profile file sets at least one field (parseProfileFile), so a model without a profile always gets a write.
        throw new Error(`Profile of model ${modelId}: no profile version after the sync (a bug)`)
      }
      let confirmed: ProfileConfirm | null = null
      if (!isEmptyConfirm(toConfirm)) {
        const written = await api
          .confirmProfile(modelId, { version, profile_id: profileId, answers: toConfirm.answers, items: toConfirm.items }, { signal })
          .catch((e: unknown) => {
            throw explainWrite(e, path, 'confirm')
          })
        version = written.version
        profileId = written.profile_id
        confirmed = toConfirm
        log.info(`Confirmed ${confirmText(toConfirm)} (version ${version}).`)
      }
      return { created: read === null, changed: diff.summary, confirmed, version, profileId, attempts: attempt }
    } catch (err) {
      if (!isStale(err)) throw err
      lastStale = err as ServiceError
      if (attempt < MAX_SYNC_ATTEMPTS)
        log.info(`The profile of model ${modelId} changed while syncing (${lastStale.describe()}): reading it again.`)
    }
  }
  // Every attempt that did not return ended stale.
  if (lastStale === null) throw new Error(`Profile of model ${modelId}: ${MAX_SYNC_ATTEMPTS} sync attempts ended without an answer (a bug)`)
  throw new ServiceError({
    endpoint: lastStale.endpoint,
    status: lastStale.status,
    code: lastStale.code,
    message: `${lastStale.serviceMessage} (the profile kept changing under ${MAX_SYNC_ATTEMPTS} read-diff-write attempts)`,
    hint: 'Another writer is changing this profile: re-run the job when it is done'
  })
}

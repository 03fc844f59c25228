/**
 * Where a profile may be synced from. Pure. A pull request syncs the profile
 * of its own target only (its preview: a name holding `pr-<number>`, as the
 * default name does); syncing another (shared) target from a pull request is
 * refused unless the workflow opts in, because a pull request could otherwise
 * rewrite what production is assessed against. Other events (push, schedule,
 * workflow_dispatch) run the workflow of a branch and may sync any target.
 */
import { isPullRequestName } from '../target/naming.js'
import type { ResolvedTarget } from '../target/target-spec.js'
import { ConfigError } from '../util/errors.js'

export function profileSyncRefusal(prNumber: number | null, target: ResolvedTarget, allowShared: boolean): ConfigError | null {
  if (prNumber === null || allowShared) return null
  if (target.outcome !== 'given' && target.name !== null && isPullRequestName(target.name, prNumber)) return null
  const what = target.name !== null ? `target '${target.name}' (model ${target.modelId})` : `model ${target.modelId} (given by model_id)`
  return new ConfigError(
    'allow_shared_profile_sync',
    `pull request #${prNumber} may sync the profile of its own preview only (a target registered by endpoint_url whose name holds pr-${prNumber}, as the default name does), and ${what} is shared. ` +
      'Sync it from a push to the default branch, or set allow_shared_profile_sync: true if pull requests may rewrite its profile'
  )
}

/**
 * Whether a run another job triggered covers what this step's policy asks
 * (the collector's check, wait: detached). Pure but for the one read of the
 * category list.
 */
import type { RunStatusResponse } from '../service/contract/index.js'
import type { ServiceApi } from '../service/service-api.js'
import type { GateArgs } from './gate-types.js'

/**
 * The categories the collector's policy asks for (its `categories`, else the
 * service's whole security taxonomy) that the run was not planned to probe: a
 * run narrower than the policy never decides it, whoever triggered it. A
 * taxonomy that cannot be read counts as missing (fail closed).
 */
export async function categoriesNotPlanned(api: ServiceApi, args: GateArgs, run: RunStatusResponse): Promise<string[]> {
  let asked = args.categories
  if (asked.length === 0) {
    try {
      asked = (await api.listCategories({ lens: 'security' })).categories.map((c) => c.key)
    } catch {
      return ['the full taxonomy (the category list could not be read: set `categories` to name what the run must cover)']
    }
  }
  const planned = new Set(run.categories_planned)
  return asked.filter((c) => !planned.has(c))
}

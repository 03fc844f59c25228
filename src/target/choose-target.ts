/**
 * Find before register (section 4.7: creates are not deduplicated). Pure: the
 * inventory as listed, the name and the endpoint in; what to do out.
 *
 * - A model of that name whose endpoint_host is the endpoint's host: reuse it.
 * - Models of that name exist, none at this host: the agent moved. Never
 *   assess the other host: look for the moved name (movedTargetName) at this
 *   host and reuse it, else register under the moved name.
 * - No model of that name: register it.
 */
import type { ModelListItem } from '../service/contract/index.js'
import { hostOf, movedTargetName, sameHost } from './naming.js'

export type TargetChoice =
  | { kind: 'reuse'; model: ModelListItem; duplicates: number; movedFrom: ModelListItem | null }
  | { kind: 'register'; name: string; movedFrom: ModelListItem | null }

function atHost(models: readonly ModelListItem[], name: string, endpointUrl: string): ModelListItem[] {
  return models.filter((m) => m.name === name && sameHost(m.endpoint_host, endpointUrl))
}

export function chooseTarget(models: readonly ModelListItem[], name: string, endpointUrl: string): TargetChoice {
  const named = models.filter((m) => m.name === name)
  const here = atHost(models, name, endpointUrl)
  if (here.length > 0) return { kind: 'reuse', model: here[0], duplicates: here.length - 1, movedFrom: null }
  if (named.length === 0) return { kind: 'register', name, movedFrom: null }
  const movedFrom = named[0]
  const moved = movedTargetName(name, hostOf(endpointUrl))
  const found = atHost(models, moved, endpointUrl)
  if (found.length > 0) return { kind: 'reuse', model: found[0], duplicates: found.length - 1, movedFrom }
  return { kind: 'register', name: moved, movedFrom }
}

/** After a lost answer to POST /model: the model the lost request created, if the list shows it. */
export function findRegistered(
  models: readonly ModelListItem[],
  name: string,
  endpointUrl: string,
  before: ReadonlySet<string>
): ModelListItem | null {
  return atHost(models, name, endpointUrl).find((m) => !before.has(m.model_id)) ?? null
}

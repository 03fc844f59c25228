/**
 * Names of targets in the inventory. Pure.
 * - The default name of the event's agent: `<repo>-pr-<number>` on a pull
 *   request, `<repo>-<ref>` otherwise.
 * - The name of a preview that moved to another host: the first name with
 *   `(moved to <host>)`, so the inventory says why there are two, and the same
 *   new host finds the same model on the next push.
 * - Whether a name belongs to a pull request (its own preview).
 */
import { createHash } from 'node:crypto'
import { LIMITS } from '../service/contract/index.js'
import { isCredentialName } from '../util/redact.js'
import { nonEmpty } from '../util/text.js'

export interface NamingContext {
  /** GITHUB_REPOSITORY (owner/repo) or '' when unknown. */
  repository: string
  /** The pull request number, or null on other events. */
  prNumber: number | null
  /** GITHUB_HEAD_REF or GITHUB_REF_NAME (branch or tag), '' when unknown. */
  ref: string
}

function fit(name: string): string {
  return name.length > LIMITS.targetNameMax ? name.slice(0, LIMITS.targetNameMax) : name
}

/** `<repo>-pr-<n>` on a pull request, `<repo>-<ref>` otherwise (`agent` when the repository is unknown). */
export function defaultTargetName(ctx: NamingContext): string {
  const repo = nonEmpty(ctx.repository.split('/').pop()) ?? 'agent'
  if (ctx.prNumber !== null) return fit(`${repo}-pr-${ctx.prNumber}`)
  const ref = ctx.ref.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '')
  return fit(ref === '' ? repo : `${repo}-${ref}`)
}

/**
 * The digest (8 hex) of what the service cannot show back of a target: GET
 * /model lists a target's host, never its path, query, reply field or
 * transport, so two configurations at one host (a path per agent, an
 * endpoint_path changed) would otherwise share a target, and the step would
 * assess the first one registered. `site`, when given, names the deployed
 * project (two projects deploying one commit are two agents). The query's
 * values tell agents apart too (`?agent=support`, `?agent=billing` at one
 * path): they are digested, never shown (the name is visible in the
 * inventory, comments and statuses). The value of a key that names a
 * credential (isCredentialName: a token, a protection bypass) is left out,
 * as the credential is: rotating it is the same agent. Asked through
 * agentIdentity (src/pipeline/identity.ts).
 */
export function configDigest(config: TargetConfigParts): string {
  const url = new URL(config.endpointUrl)
  const parts = [
    url.protocol,
    url.pathname,
    [...url.searchParams.keys()].sort(),
    ...selectorValues(url),
    config.responseField,
    config.transport,
    config.authType,
    config.requestTimeout,
    config.oauth,
    ...(config.site == null ? [] : [config.site])
  ]
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 8)
}

/** The query's values that select an agent (every key's but a credential's), sorted; nothing for a URL without any. */
function selectorValues(url: URL): [string, string][][] {
  const values = [...url.searchParams.entries()].filter(([k]) => !isCredentialName(k))
  if (values.length === 0) return []
  return [values.sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))]
}

/** The name a target is registered and found under: the configured name and ` cfg-<digest>`, clipped to fit. */
export function targetNameWithDigest(name: string, digest: string): string {
  const suffix = ` cfg-${digest}`
  return `${name.slice(0, LIMITS.targetNameMax - suffix.length)}${suffix}`
}

/** What configDigest digests. */
export interface TargetConfigParts {
  endpointUrl: string
  responseField: string
  transport: string
  authType: string
  requestTimeout: number | null
  oauth: unknown
  /** The deployed project, when the event names one. */
  site?: string | null
}

/** The name a target registered afresh after `name`'s model moved to `host` gets. */
export function movedTargetName(name: string, host: string): string {
  const suffix = ` (moved to ${host.slice(0, 100)})`
  return `${name.slice(0, LIMITS.targetNameMax - suffix.length)}${suffix}`
}

/**
 * True when `name` is a pull request's own: it holds `pr-<number>` as a
 * token (the default name, its moved variant, or a target_name that says so).
 */
export function isPullRequestName(name: string, prNumber: number): boolean {
  return new RegExp(`(^|[^A-Za-z0-9])pr-${prNumber}($|[^0-9])`, 'i').test(name)
}

/** The host part of an endpoint URL, lower case, as `endpoint_host` compares. */
export function hostOf(endpointUrl: string): string {
  return new URL(endpointUrl).host.toLowerCase()
}

/** True when the service's `endpoint_host` names the host of `endpointUrl` (with or without its port). */
export function sameHost(endpointHost: string, endpointUrl: string): boolean {
  const url = new URL(endpointUrl)
  const strip = (h: string): string => h.toLowerCase().replace(/^\[|\]$/g, '')
  const given = strip(endpointHost)
  return (
    given === strip(url.host) ||
    (url.port === '' && given === strip(url.hostname)) ||
    given === strip(`${url.hostname}:${defaultPort(url)}`)
  )
}

function defaultPort(url: URL): string {
  if (url.port !== '') return url.port
  return url.protocol === 'https:' || url.protocol === 'wss:' ? '443' : '80'
}

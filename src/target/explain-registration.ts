/**
 * Why POST /model refused a target, in the user's terms (section 4.7). Pure:
 * the service's error in, a ConfigError naming the input to fix out (or null
 * when the error is the service's own, to be reported as a service failure).
 * - 422 probe failure: the service's live round trip to the target failed;
 *   what to check depends on error_category.
 * - 400: the endpoint (or token) address or scheme was refused.
 * - 422 validation list: the field refused, mapped to its input.
 */
import { ConfigError, ServiceError } from '../util/errors.js'
import { oneLine } from '../util/text.js'
import type { PROBE_ERROR_CATEGORIES } from '../service/contract/index.js'

type ProbeErrorCategory = (typeof PROBE_ERROR_CATEGORIES)[number]

/** What to check for each probe failure, and the input most likely at fault. */
export const PROBE_HINTS: Record<ProbeErrorCategory, { input: string; what: string; check: string }> = {
  unreachable: {
    input: 'endpoint_url',
    what: 'the service could not reach the target',
    check:
      'check that the agent is deployed and up before this step, that its host name resolves publicly, that it accepts connections from the internet (no VPN or IP allow-list in the way) and that its TLS certificate is valid; for oauth_client_credentials, that oauth_token_url is reachable too'
  },
  auth_failed: {
    input: 'target_credential',
    what: 'the target refused the credentials',
    check:
      'check auth_type (bearer sends Authorization: Bearer, api_key sends x-api-key, basic takes user:password) and that target_credential is the current secret; for oauth_client_credentials, check oauth_token_url, oauth_client_id, oauth_scope and oauth_audience'
  },
  parse_error: {
    input: 'endpoint_url',
    what: "the target's answer could not be read as JSON",
    check: 'check that endpoint_url is the chat API of the agent (not a web page or a proxy login page) and that it answers JSON'
  },
  no_reply: {
    input: 'response_field',
    what: 'the target gave no reply text',
    check:
      "check that response_field is the dot-path of the reply text in the agent's JSON answer (e.g. output.text or choices.0.message.content) and that the agent answers within request_timeout"
  },
  not_an_endpoint: {
    input: 'endpoint_url',
    what: 'the address did not answer as a chat endpoint (an error status)',
    check:
      'check the path of endpoint_url (the route that takes chat messages, e.g. /chat), that it accepts POST, and transport (http or websocket)'
  }
}

const FIELD_INPUTS: readonly [RegExp, string][] = [
  [/^config\.endpoint_url$/, 'endpoint_url'],
  [/^config\.response_field$/, 'response_field'],
  [/^config\.transport$/, 'transport'],
  [/^config\.request_timeout$/, 'request_timeout'],
  [/^name$/, 'target_name'],
  [/^environment$/, 'environment'],
  [/^auth_type$/, 'auth_type'],
  [/^credential$/, 'target_credential'],
  [/^oauth\.(token_url|client_id|scope|audience)$/, 'oauth_$1'],
  [/^oauth$/, 'auth_type']
]

/** The input behind a field of the registration body (`config.endpoint_url` -> endpoint_url). */
export function inputOfField(field: string): string {
  for (const [re, input] of FIELD_INPUTS) if (re.test(field)) return field.replace(re, input)
  return 'endpoint_url'
}

function issuesOf(err: ServiceError): { loc: string[]; msg: string }[] {
  const raw = err.extra.issues
  if (!Array.isArray(raw)) return []
  return raw.flatMap((i) => {
    const r = i as { loc?: unknown; msg?: unknown }
    return Array.isArray(r.loc) && typeof r.msg === 'string' ? [{ loc: r.loc.map(String), msg: r.msg }] : []
  })
}

export function explainRegistrationFailure(err: unknown, endpointUrl: string): ConfigError | null {
  if (!(err instanceof ServiceError)) return null
  const host = safeHost(endpointUrl)
  if (err.status === 422 && err.code === 'probe_failed') {
    const raw = err.extra.error_category
    const category = typeof raw === 'string' ? raw : ''
    // Own keys only: a category such as `constructor` is not one of ours.
    const hint = Object.hasOwn(PROBE_HINTS, category) ? PROBE_HINTS[category as ProbeErrorCategory] : undefined
    const said = err.serviceMessage !== '' ? ` (the service said: ${oneLine(err.serviceMessage, 300)})` : ''
    if (!hint) {
      return new ConfigError(
        'endpoint_url',
        `the service's live probe of ${host} failed (${oneLine(category, 60) || 'no category'})${said}; nothing was registered`
      )
    }
    return new ConfigError(
      hint.input,
      `the service's live probe of ${host} failed: ${category}, ${hint.what}${said}. Nothing was registered: ${hint.check}`
    )
  }
  if (err.status === 400) {
    const field = typeof err.extra.field === 'string' ? err.extra.field : 'config.endpoint_url'
    return new ConfigError(
      inputOfField(field),
      `the service refused the address${field === 'oauth.token_url' ? ' of the token endpoint' : ` ${host}`}: ${oneLine(err.serviceMessage, 300)}. It probes only public addresses over an accepted scheme (https): private, loopback, link-local and cloud-metadata hosts are refused. Give the agent's public URL; nothing was registered`
    )
  }
  if (err.status === 422 && err.code === 'validation_error') {
    const issues = issuesOf(err)
    const first = issues.at(0)
    if (!first) return new ConfigError('endpoint_url', `the service refused the registration: ${oneLine(err.serviceMessage, 300)}`)
    const field = (first.loc[0] === 'body' ? first.loc.slice(1) : first.loc).join('.')
    const more =
      issues.length > 1
        ? ` (and ${issues.length - 1} more: ${issues
            .slice(1, 4)
            .map((i) => i.loc.filter((l) => l !== 'body').join('.'))
            .join(', ')})`
        : ''
    return new ConfigError(inputOfField(field), `the service refused field ${field} of the registration: ${oneLine(first.msg, 200)}${more}`)
  }
  return null
}

function safeHost(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return 'the endpoint'
  }
}

/**
 * Credentials out of every output: replay steps can carry the target's own
 * credentials (headers, URL user-info, query parameters), and the gate knows
 * secrets (the api_key) that must never be printed.
 */
import { LIMITS } from '../service/contract/limits.js'

/**
 * What a secret or credential is replaced by in every output: `***`, as
 * GitHub masks secrets in logs. Deliberately not `[redacted]`, which is the
 * service's own text for a finding whose proof the plan withholds
 * (REDACTED in the contract).
 */
export const SECRET_MASK = '***'

/** Header names that are credentials whatever they look like. */
const CREDENTIAL_HEADER_NAMES = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'])

/** Parts of a name that mark it as holding a credential. */
const CREDENTIAL_NAME_PART = /key|token|secret|passw|pwd|auth|session|cookie|credential|signature|csrf|xsrf|jwt|bearer|private|bypass/i

/** Values that are credentials whatever header carries them. */
const CREDENTIAL_VALUE =
  /^\s*(?:bearer|basic|digest|negotiate|ntlm|token|apikey|api-key)\s+\S|^\s*eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\./i

/** True for header (or parameter) names that look like they hold a credential. */
export function isCredentialName(name: string): boolean {
  const n = name.trim().toLowerCase()
  return CREDENTIAL_HEADER_NAMES.has(n) || CREDENTIAL_NAME_PART.test(n)
}

/** True for values that carry an authorization scheme or a JWT. */
export function looksLikeCredentialValue(value: string): boolean {
  return CREDENTIAL_VALUE.test(value)
}

/**
 * A header value as text. The description says only that headers is an
 * object, so a value may be a string, a number, a boolean, null or an array of
 * those (a repeated header): arrays are joined with ", ", null is "null".
 */
export function headerValueText(value: unknown, depth = 0): string {
  if (typeof value === 'string') return value
  // Bounded: a repeated header is one level; anything nested past a few is not a header value.
  if (Array.isArray(value)) return depth >= 4 ? '[nested]' : value.map((v) => headerValueText(v, depth + 1)).join(', ')
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'object') {
    try {
      // JSON.stringify recurses: a value nested too deep throws RangeError, caught here.
      return JSON.stringify(value)
    } catch {
      return '[object]'
    }
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || typeof value === 'symbol')
    return String(value)
  // A function is no header value: its name, not its source text.
  return '[function]'
}

/**
 * A copy of `headers`, every value as text, with every credential-looking one
 * replaced by `***`: a credential-like name is redacted whatever the
 * type of its value; any other value when its text looks like a credential.
 */
export function redactHeaders(headers: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (isCredentialName(name)) {
      out[name] = SECRET_MASK
      continue
    }
    const v = headerValueText(value)
    // Each item of a repeated header is checked on its own (the patterns anchor at the start).
    const items: unknown[] = Array.isArray(value) ? value : [value]
    const secret = looksLikeCredentialValue(v) || items.some((item) => looksLikeCredentialValue(headerValueText(item)))
    out[name] = secret ? SECRET_MASK : v
  }
  return out
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '))
  } catch {
    return name
  }
}

/**
 * A URL with its user-info and credential-looking query or fragment parameters
 * redacted. Works on the text (a replay URL may not parse).
 */
export function redactUrl(url: string): string {
  return url
    .replace(/^(\s*[A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#@\s]*)@/, `$1${SECRET_MASK}@`)
    .replace(/([?&#;])([^=&#;\s]+)=([^&#;\s]*)/g, (whole, sep: string, name: string) =>
      isCredentialName(decodeName(name)) ? `${sep}${name}=${SECRET_MASK}` : whole
    )
}

/**
 * The shortest secret masked or scrubbed: the service's minimum credential
 * length. Shorter text is not a real credential, and masking it would hide
 * that text (a letter, a short word) in every output and log line.
 */
export const MIN_SECRET_CHARS: number = LIMITS.credentialMin

function base64Forms(bytes: Buffer): string[] {
  const b64 = bytes.toString('base64')
  // Padded and unpadded (a padded value ends with what the unpadded one begins with), and base64url.
  return [b64, b64.replace(/=+$/, ''), bytes.toString('base64url')]
}

/** percent-encoded as encodeURIComponent and as a form body (+ for a space, !'()* encoded too), in upper- and lower-case hex. */
function urlEncodedForms(s: string): string[] {
  const component = encodeURIComponent(s)
  const form = new URLSearchParams({ v: s }).toString().slice(2)
  const lower = (t: string): string => t.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())
  return [component, form, lower(component), lower(form)]
}

/**
 * Every form in which a secret is sent, so each one can be masked by the
 * runner and scrubbed from every output: an agent that echoes its request
 * (a header, a query string, a JSON body) hands back the encoded form, not
 * the one the workflow gave.
 * - the secret as given, JSON-escaped, URL-encoded (query string, form body);
 * - HTTP Basic (`Authorization: Basic <base64(user:password)>`): the base64 of
 *   the whole text (UTF-8, and Latin-1 as older clients send it), padded,
 *   unpadded and base64url, each URL-encoded too; and for `user:password`
 *   the password alone (URL-encoded too) and the text as given;
 * - an OAuth client secret (`clientId` given): base64 of
 *   `client_id:client_secret`, each form-encoded first or not (RFC 6749 2.3.1).
 * A derived form shorter than MIN_SECRET_CHARS (a short password) is left
 * out; a secret that short or blank gives none. The secret as given comes
 * first.
 */
export function secretWireForms(secret: string, opts: { clientId?: string } = {}): string[] {
  if (typeof secret !== 'string' || secret.trim().length < MIN_SECRET_CHARS) return []
  const forms = new Set<string>()
  const addText = (t: string): void => {
    if (t.length < MIN_SECRET_CHARS) return
    forms.add(t)
    forms.add(JSON.stringify(t).slice(1, -1))
    for (const u of urlEncodedForms(t)) forms.add(u)
  }
  // base64 holds + / =, which a query string percent-encodes.
  const addBase64 = (bytes: Buffer): void => {
    for (const b of base64Forms(bytes)) for (const t of [b, ...urlEncodedForms(b)]) forms.add(t)
  }
  addText(secret)
  const colon = secret.indexOf(':')
  if (colon >= 0) addText(secret.slice(colon + 1))
  addBase64(Buffer.from(secret, 'utf8'))
  // Latin-1 only when every character has a Latin-1 byte (else Buffer would mangle it).
  if (/[\u0080-\u00ff]/.test(secret) && !/[^\u0000-\u00ff]/.test(secret)) addBase64(Buffer.from(secret, 'latin1'))
  const clientId = opts.clientId ?? ''
  if (clientId !== '') {
    const formEncoded = (t: string): string => new URLSearchParams({ v: t }).toString().slice(2)
    for (const pair of [`${clientId}:${secret}`, `${formEncoded(clientId)}:${formEncoded(secret)}`]) addBase64(Buffer.from(pair, 'utf8'))
  }
  return [...forms].filter((f) => f.length >= MIN_SECRET_CHARS)
}

/**
 * The forms a secret may take in the outputs: as is, escaped inside a JSON
 * string (also with `\/`, as some encoders write a slash), and escaped as XML
 * or HTML text.
 */
function secretVariants(secrets: readonly string[]): string[] {
  const variants = new Set<string>()
  for (const s of secrets) {
    if (typeof s !== 'string' || s.trim().length === 0) continue
    variants.add(s)
    const json = JSON.stringify(s).slice(1, -1)
    variants.add(json)
    variants.add(json.replace(/\//g, '\\/'))
    variants.add(s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;'))
    variants.add(s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'))
  }
  return [...variants].sort((a, b) => b.length - a.length)
}

/**
 * Every occurrence of every secret (and its JSON-escaped form) replaced by
 * `***`, and a clipped start of one (maskClippedPrefixes). Blank secrets are ignored. The last line of defence, applied to
 * whole outputs; `buildReport` applies it to every value first, since markdown
 * escaping could split a secret that holds punctuation.
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  const variants = secretVariants(secrets)
  let out = text
  for (const v of variants) {
    if (out.includes(v)) out = out.split(v).join(SECRET_MASK)
  }
  return maskClippedPrefixes(out, variants)
}

/**
 * The shortest start of a secret masked where a text was clipped: text cut
 * after that many characters of a secret would show them. Shorter starts are
 * ordinary text too often to mask.
 */
export const MIN_CLIPPED_PREFIX = 4

/** The marks a clip leaves where it cut (`oneLine`'s `...`, the reports' `…`). */
const CLIP_MARK = /\s*(?:\.\.\.|…)/g

/** How many characters before `at` (none before `floor`) begin one of `variants`: the longest such start, or 0. */
function clippedPrefixAt(text: string, at: number, variants: readonly string[], floor: number): number {
  let longest = 0
  for (const v of variants) {
    for (let k = Math.min(v.length - 1, at - floor); k >= MIN_CLIPPED_PREFIX && k > longest; k--) {
      if (text.startsWith(v.slice(0, k), at - k)) {
        longest = k
        break
      }
    }
  }
  return longest
}

/**
 * `text` with the start of a secret masked wherever it stands just before a
 * clip mark: a text clipped before it was scrubbed (it should not be: scrub
 * first) keeps no prefix of MIN_CLIPPED_PREFIX or more characters.
 */
function maskClippedPrefixes(text: string, variants: readonly string[]): string {
  if (!text.includes('...') && !text.includes('…')) return text
  let out = ''
  let from = 0
  for (const m of text.matchAll(CLIP_MARK)) {
    const k = clippedPrefixAt(text, m.index, variants, from)
    out += text.slice(from, m.index - k) + (k > 0 ? SECRET_MASK : '')
    from = m.index
  }
  return out + text.slice(from)
}

/**
 * A reusable scrubber for many values (memoised for long, often shared,
 * strings): every occurrence of every secret replaced by `***`, then any
 * clipped start of one (see maskClippedPrefixes).
 */
export function makeScrubber(secrets: readonly string[]): (text: string) => string {
  const variants = secretVariants(secrets)
  if (variants.length === 0) return (text) => text
  const memo = new Map<string, string>()
  return (text) => {
    if (text.length >= 4096) {
      const hit = memo.get(text)
      if (hit !== undefined) return hit
    }
    let out = text
    for (const v of variants) {
      if (out.includes(v)) out = out.split(v).join(SECRET_MASK)
    }
    out = maskClippedPrefixes(out, variants)
    if (text.length >= 4096) memo.set(text, out)
    return out
  }
}

/** `scrubSecrets` applied to every string (keys included) inside a JSON-like value. */
export function scrubSecretsDeep(value: unknown, secrets: readonly string[], maxDepth = 64, depth = 0): unknown {
  if (typeof value === 'string') return scrubSecrets(value, secrets)
  if (value === null || typeof value !== 'object') return value
  // Bounded: a body nested this deep was refused when parsed; never walk further.
  if (depth >= maxDepth) return '[nested too deep]'
  if (Array.isArray(value)) return value.map((v) => scrubSecretsDeep(v, secrets, maxDepth, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[scrubSecrets(k, secrets)] = scrubSecretsDeep(v, secrets, maxDepth, depth + 1)
  return out
}

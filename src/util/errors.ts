/**
 * The three kinds of failure, kept apart:
 * - ConfigError: the user's configuration mistake. One line naming the input; no stack.
 * - ServiceError (and its kinds): the service, GitHub or the network failed, or
 *   the wait ran out. Endpoint, status, code, message and what was retried; no stack.
 * - anything else is a bug: reported with its stack trace.
 * Every one of them fails the step.
 */

/**
 * Untrusted text (from the service, GitHub or a target) made safe for one log
 * line: no line breaks (a new line starting with `::` would be a workflow
 * command), no control, bidi or zero-width characters, and a bounded length.
 */
export function oneLine(text: string, max = 500): string {
  const flat = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat
}

/** A mistake in the action's configuration (inputs, event, permissions). */
export class ConfigError extends Error {
  readonly kind = 'config' as const
  constructor(
    /** The input (or setting) at fault, e.g. `min_severity`. */
    readonly input: string,
    message: string
  ) {
    super(message)
    this.name = 'ConfigError'
  }
}

export interface ServiceErrorInit {
  /** e.g. `POST /api/v1/run` (path template filled with ids, never a query string with secrets). */
  endpoint: string
  status?: number
  code?: string
  message: string
  /** Milliseconds the service asked us to wait (Retry-After), if it said. */
  retryAfterMs?: number
  /** Number of attempts made, including the first. */
  attempts?: number
  /** Human-readable notes on retried failures, oldest first. */
  retried?: string[]
  /** Extra fields of the error body (e.g. resets_on), untrusted. */
  extra?: Record<string, unknown>
  /** A hint telling the user how to fix it. */
  hint?: string
  /** Worth trying again (network fault, 5xx, 408, 429, malformed answer). */
  transient?: boolean
  /**
   * The request may have reached the service and taken effect although no
   * success was seen (reset after sending, timeout, 5xx, malformed 2xx body).
   * Matters for POST /run, which is not idempotent.
   */
  ambiguous?: boolean
  cause?: unknown
}

/** The service (or GitHub, or the network) answered with an error or not at all. */
export class ServiceError extends Error {
  readonly kind: 'service' | 'malformed' | 'timeout' = 'service'
  readonly endpoint: string
  readonly status?: number
  readonly code?: string
  readonly serviceMessage: string
  readonly retryAfterMs?: number
  attempts: number
  retried: string[]
  readonly extra: Record<string, unknown>
  hint?: string
  readonly transient: boolean
  readonly ambiguous: boolean

  constructor(init: ServiceErrorInit) {
    super(oneLine(init.message), init.cause === undefined ? undefined : { cause: init.cause })
    this.name = 'ServiceError'
    this.endpoint = init.endpoint
    this.status = init.status
    this.code = init.code === undefined ? undefined : oneLine(init.code, 80)
    this.serviceMessage = oneLine(init.message)
    this.retryAfterMs = init.retryAfterMs
    this.attempts = init.attempts ?? 1
    this.retried = init.retried ?? []
    this.extra = init.extra ?? {}
    this.hint = init.hint
    this.transient = init.transient ?? false
    this.ambiguous = init.ambiguous ?? false
  }

  /** One line: endpoint, status, code, message, retries, hint. */
  describe(): string {
    const parts = [this.endpoint]
    if (this.status !== undefined) parts.push(`HTTP ${this.status}`)
    if (this.code) parts.push(this.code)
    let line = `${parts.join(' ')}: ${this.serviceMessage}`
    if (this.attempts > 1) line += ` (after ${this.attempts} attempts: ${this.retried.join('; ')})`
    if (this.hint) line += `. ${this.hint}`
    return line
  }
}

/** A response that does not follow the contract (non-JSON, missing or mistyped field, unknown enum value). */
export class MalformedResponseError extends ServiceError {
  override readonly kind = 'malformed' as const
  constructor(
    init: ServiceErrorInit & {
      /** Dotted path of the offending field, e.g. `categories[2].worst_severity`; '' for the whole body. */
      fieldPath: string
    }
  ) {
    super(init)
    this.name = 'MalformedResponseError'
    this.fieldPath = init.fieldPath
  }
  readonly fieldPath: string
}

/** The time given by timeout_minutes ran out while waiting. */
export class DeadlineExceededError extends ServiceError {
  override readonly kind = 'timeout' as const
  constructor(endpoint: string, message: string) {
    super({ endpoint, message, transient: false })
    this.name = 'DeadlineExceededError'
  }
}

/** The job was cancelled (SIGINT/SIGTERM) while we were waiting. */
export class AbortedError extends Error {
  readonly kind = 'aborted' as const
  constructor(message = 'the step was cancelled') {
    super(message)
    this.name = 'AbortedError'
  }
}

export type FailureKind = 'config' | 'service' | 'aborted' | 'bug'

export function failureKind(err: unknown): FailureKind {
  if (err instanceof ConfigError) return 'config'
  if (err instanceof ServiceError) return 'service'
  if (err instanceof AbortedError) return 'aborted'
  return 'bug'
}

/**
 * The line to log for a failure. Config and service failures are one line with
 * no stack; a bug keeps its stack so it can be reported.
 */
export function describeFailure(err: unknown): string {
  if (err instanceof ConfigError) return `Configuration error in input '${err.input}': ${err.message}`
  if (err instanceof ServiceError) return err.describe()
  if (err instanceof AbortedError) return err.message
  return describeBug(err)
}

/** The line for a bug: its stack, so it can be reported. */
export function describeBug(err: unknown): string {
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err)
  return `Unexpected error (a bug in this action, please report it): ${detail}`
}

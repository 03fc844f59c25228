/**
 * The three kinds of failure, kept apart:
 * - ConfigError: the user's configuration mistake. One line naming the input; no stack.
 * - RemoteError: a remote party failed or the wait ran out. Endpoint, status,
 *   code, message and what was retried; no stack. Its classes say who:
 *   ServiceError (the assessment service; MalformedResponseError when an
 *   answer breaks the contract, DeadlineExceededError when timeout_minutes ran
 *   out waiting) and GitHubError (the GitHub REST API).
 * - anything else is a bug: reported with its stack trace.
 * Every one of them fails the step. (AbortedError: the job was cancelled.)
 *
 * The class is the kind: test it with `instanceof`, never with a field.
 * Errors are not changed once thrown: code that knows more (the attempts made,
 * a hint) throws `err.withDetail(...)`, a new error with the first as its cause.
 */

import { oneLine } from './text.js'

/** A mistake in the action's configuration (inputs, event, permissions). */
export class ConfigError extends Error {
  constructor(
    /** The input (or setting) at fault, e.g. `min_severity`. */
    readonly input: string,
    message: string,
    /** The failure in a few words for a report's title, when "a configuration mistake in <input>" would mislead. */
    readonly summary?: string
  ) {
    super(message)
    this.name = 'ConfigError'
  }
}

export interface RemoteErrorInit {
  /** e.g. `POST /api/v1/run` (path template filled with ids, never a query string with secrets). */
  endpoint: string
  status?: number
  code?: string
  message: string
  /** Milliseconds the remote asked us to wait (Retry-After), if it said. */
  retryAfterMs?: number
  /**
   * The least wait its documentation asks for before another attempt when no
   * Retry-After came (GitHub: a minute after a secondary rate limit); the
   * retry policy doubles it on each further retry.
   */
  leastWaitMs?: number
  /** Number of attempts made, including the first. */
  attempts?: number
  /** Human-readable notes on retried failures, oldest first. */
  retried?: readonly string[]
  /** Extra fields of the error body (e.g. resets_on), untrusted. */
  extra?: Record<string, unknown>
  /** A hint telling the user how to fix it. */
  hint?: string
  /** Worth trying again (network fault, 5xx, 408, 429, malformed answer). */
  transient?: boolean
  /**
   * The request may have reached the remote and taken effect although no
   * success was seen (reset after sending, timeout, 5xx, malformed 2xx body).
   * Matters for POST /run, which is not idempotent.
   */
  ambiguous?: boolean
  cause?: unknown
}

export type ServiceErrorInit = RemoteErrorInit

/** What code that passes an error on may add to it (see `withDetail`). */
export interface RemoteErrorDetail {
  attempts?: number
  retried?: readonly string[]
  hint?: string
}

/** A remote party (the service, GitHub, the network) answered with an error or not at all. */
export abstract class RemoteError extends Error {
  readonly endpoint: string
  readonly status?: number
  readonly code?: string
  readonly serviceMessage: string
  readonly retryAfterMs?: number
  readonly leastWaitMs?: number
  readonly attempts: number
  readonly retried: readonly string[]
  readonly extra: Record<string, unknown>
  readonly hint?: string
  readonly transient: boolean
  readonly ambiguous: boolean

  constructor(init: RemoteErrorInit) {
    super(oneLine(init.message), init.cause === undefined ? undefined : { cause: init.cause })
    this.endpoint = init.endpoint
    this.status = init.status
    this.code = init.code === undefined ? undefined : oneLine(init.code, 80)
    this.serviceMessage = oneLine(init.message)
    this.retryAfterMs = init.retryAfterMs
    this.leastWaitMs = init.leastWaitMs
    this.attempts = init.attempts ?? 1
    this.retried = [...(init.retried ?? [])]
    this.extra = init.extra ?? {}
    this.hint = init.hint
    this.transient = init.transient ?? false
    this.ambiguous = init.ambiguous ?? false
  }

  /** The fields this error was made from, with `detail` over them and this error as the cause. */
  protected initWith(detail: RemoteErrorDetail): RemoteErrorInit {
    return {
      endpoint: this.endpoint,
      status: this.status,
      code: this.code,
      message: this.serviceMessage,
      retryAfterMs: this.retryAfterMs,
      leastWaitMs: this.leastWaitMs,
      attempts: this.attempts,
      retried: this.retried,
      extra: this.extra,
      hint: this.hint,
      transient: this.transient,
      ambiguous: this.ambiguous,
      ...detail,
      cause: this
    }
  }

  /** A new error of the same class with `detail` added and this one as its cause. */
  abstract withDetail(detail: RemoteErrorDetail): RemoteError

  /** One line: endpoint, status, code, message, retries, hint. */
  describe(): string {
    const parts = [this.endpoint]
    if (this.status !== undefined) parts.push(`HTTP ${this.status}`)
    if (this.code) parts.push(this.code)
    let line = `${parts.join(' ')}: ${this.serviceMessage}`
    if (this.attempts > 1) line += ` (after ${this.attempts} attempts: ${this.retried.join('; ')})`
    // A message that ends a sentence already is not given a second full stop.
    if (this.hint) line += `${/[.!?]$/.test(line) ? '' : '.'} ${this.hint}`
    return line
  }
}

/** The assessment service (or the network on the way to it) answered with an error or not at all. */
export class ServiceError extends RemoteError {
  constructor(init: ServiceErrorInit) {
    super(init)
    this.name = 'ServiceError'
  }

  withDetail(detail: RemoteErrorDetail): ServiceError {
    return new ServiceError(this.initWith(detail))
  }
}

/** A response that does not follow the contract (non-JSON, missing or mistyped field, unknown enum value). */
export class MalformedResponseError extends ServiceError {
  /** Dotted path of the offending field, e.g. `categories[2].worst_severity`; '' for the whole body. */
  readonly fieldPath: string
  constructor(init: ServiceErrorInit & { fieldPath: string }) {
    super(init)
    this.name = 'MalformedResponseError'
    this.fieldPath = init.fieldPath
  }

  override withDetail(detail: RemoteErrorDetail): MalformedResponseError {
    return new MalformedResponseError({ ...this.initWith(detail), fieldPath: this.fieldPath })
  }
}

/**
 * The time given by timeout_minutes ran out while waiting. A ServiceError, as
 * the gate's waits are on the service; a wait on GitHub that runs into the
 * deadline ends with it too (the retry policy is shared).
 */
export class DeadlineExceededError extends ServiceError {
  constructor(endpoint: string, message: string, detail: RemoteErrorDetail & { cause?: unknown } = {}) {
    super({ endpoint, message, transient: false, ...detail })
    this.name = 'DeadlineExceededError'
  }

  override withDetail(detail: RemoteErrorDetail): DeadlineExceededError {
    return new DeadlineExceededError(this.endpoint, this.serviceMessage, {
      attempts: this.attempts,
      retried: this.retried,
      hint: this.hint,
      ...detail,
      cause: this
    })
  }
}

/** The GitHub REST API (or the network on the way to it) answered with an error or not at all. */
export class GitHubError extends RemoteError {
  constructor(init: RemoteErrorInit) {
    super(init)
    this.name = 'GitHubError'
  }

  withDetail(detail: RemoteErrorDetail): GitHubError {
    return new GitHubError(this.initWith(detail))
  }
}

/** The GitLab REST API (or the network on the way to it) answered with an error or not at all. */
export class GitLabError extends RemoteError {
  constructor(init: RemoteErrorInit) {
    super(init)
    this.name = 'GitLabError'
  }

  withDetail(detail: RemoteErrorDetail): GitLabError {
    return new GitLabError(this.initWith(detail))
  }
}

/** The job was cancelled (SIGINT/SIGTERM) while we were waiting. */
export class AbortedError extends Error {
  constructor(message = 'the step was cancelled') {
    super(message)
    this.name = 'AbortedError'
  }
}

export type FailureKind = 'config' | 'service' | 'aborted' | 'bug'

export function failureKind(err: unknown): FailureKind {
  if (err instanceof ConfigError) return 'config'
  if (err instanceof RemoteError) return 'service'
  if (err instanceof AbortedError) return 'aborted'
  return 'bug'
}

/**
 * The line to log for a failure. Config and service failures are one line with
 * no stack; a bug keeps its stack so it can be reported.
 */
export function describeFailure(err: unknown, nameInput: InputNamer = actionInputName): string {
  if (err instanceof ConfigError) return `Configuration error in ${nameInput(err.input)}: ${err.message}`
  if (err instanceof RemoteError) return err.describe()
  if (err instanceof AbortedError) return err.message
  return describeBug(err)
}

/** How a shell names an input in a configuration error: "input 'min_severity'", "option '--min-severity'". */
export type InputNamer = (input: string) => string

export const actionInputName: InputNamer = (input) => `input '${input}'`

/** The line for a bug: its stack, so it can be reported. */
export function describeBug(err: unknown): string {
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err)
  return `Unexpected error (a bug in this action, please report it): ${detail}`
}

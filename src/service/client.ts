/**
 * The typed client of the Agent Security Assessment Service: one method per
 * endpoint of section 4, each answer parsed through the contract.
 *
 * Retrying: reads, closing a finding and cancelling a run go through the one
 * retry policy (retry-policy.ts). Calls that create or spend something, or
 * that carry an optimistic version, are sent once; the caller decides:
 * - triggerRun: not idempotent (a retry after an ambiguous failure could start
 *   a second run; see trigger.ts for the safe way);
 * - registerModel: creates are not deduplicated;
 * - validateFinding: spends a replay run;
 * - changeProfile, confirmProfile: a retry after an ambiguous success would
 *   get 409 stale_version and hide the success.
 * cancelRun is retried: on a retry after an ambiguous first attempt, a 409
 * run_not_running is returned as-is for the caller to interpret.
 */
import type { z } from 'zod'
import {
  CancelRunResponse,
  CategoryList,
  CoverageResponse,
  ENDPOINTS,
  Finding,
  FindingList,
  ModelList,
  ProfileResponse,
  ProfileWriteResponse,
  RegisterModelResponse,
  RunList,
  RunStatusResponse,
  TriggerRunResponse,
  ValidateFindingResponse
} from './contract/index.js'
import type {
  CategoryLens,
  ChangeProfileBody,
  CloseFindingBody,
  ConfirmProfileBody,
  EndpointName,
  FindingStatusFilter,
  RegisterModelBody,
  RunStatusFilter,
  Severity,
  TriggerRunBody
} from './contract/index.js'
import type { Clock, Deadline } from '../util/clock.js'
import { systemClock } from '../util/clock.js'
import { HttpTransport, fillPath } from './http-transport.js'
import type { RequestSpec } from './http-transport.js'
import type { Log } from '../util/log.js'
import { silentLog } from '../util/log.js'
import { DEFAULT_RETRY_POLICY, describeAttempt, withRetry } from '../util/retry-policy.js'
import type { RetryPolicy } from '../util/retry-policy.js'
import type { CallOptions, ServiceApi } from './service-api.js'

export interface ClientOptions {
  /** The part before /api/v1, e.g. http://127.0.0.1:1234 or https://asas.example.com (trailing slash tolerated). */
  baseUrl: string
  apiKey: string
  /** The step's other secrets, scrubbed from every answer's text before it is clipped into an error (see TransportOptions). */
  secrets?: readonly string[]
  /** Default systemClock. */
  clock?: Clock
  /** All waiting between retries stops here. */
  deadline?: Deadline
  /** Default for every call; a per-call CallOptions.signal is honoured too. */
  signal?: AbortSignal
  /** Per request (connect, headers and body), default 30000. */
  requestTimeoutMs?: number
  /** Largest response body accepted, default DEFAULT_MAX_BODY_BYTES (256 MiB). */
  maxBodyBytes?: number
  /** Default DEFAULT_RETRY_POLICY. */
  retryPolicy?: RetryPolicy
  random?: () => number
  /** A debug line per request and an info line per retry. */
  log?: Log
  userAgent?: string
}

type Query = RequestSpec<z.ZodType>['query']

/** The shortest timeout an attempt gets when the deadline is near or past. */
export const MIN_ATTEMPT_TIMEOUT_MS = 2_000

export class AssessmentClient implements ServiceApi {
  private readonly transport: HttpTransport
  private readonly clock: Clock
  private readonly deadline?: Deadline
  private readonly signal?: AbortSignal
  private readonly policy: RetryPolicy
  private readonly random: () => number
  private readonly log: Log

  constructor(opts: ClientOptions) {
    this.clock = opts.clock ?? systemClock
    this.deadline = opts.deadline
    this.signal = opts.signal
    this.policy = opts.retryPolicy ?? DEFAULT_RETRY_POLICY
    this.random = opts.random ?? Math.random
    this.log = opts.log ?? silentLog
    this.transport = new HttpTransport({
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      secrets: opts.secrets,
      requestTimeoutMs: opts.requestTimeoutMs,
      maxBodyBytes: opts.maxBodyBytes,
      userAgent: opts.userAgent,
      clock: this.clock,
      log: this.log
    })
  }

  /** The normalised base address (no trailing slash, no /api/v1). */
  get baseUrl(): string {
    return this.transport.baseUrl
  }

  private signalFor(opts?: CallOptions): AbortSignal | undefined {
    const signals = [this.signal, opts?.signal].filter((s): s is AbortSignal => s !== undefined)
    if (signals.length === 0) return undefined
    return signals.length === 1 ? signals[0] : AbortSignal.any(signals)
  }

  private spec<S extends z.ZodType>(
    name: EndpointName,
    schema: S,
    params: Record<string, string>,
    extra: { query?: Query; body?: unknown; signal?: AbortSignal }
  ): RequestSpec<S> {
    const e = ENDPOINTS[name]
    return { method: e.method, path: fillPath(e.path, params), okStatus: e.ok, schema, ...extra }
  }

  /**
   * One attempt, its timeout capped by what is left before the deadline (with
   * a short floor, so the last poll before it still gets an answer): a hanging
   * connection cannot hold the step past timeout_minutes or a cancel budget.
   */
  private once<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.infer<S>> {
    const full = this.transport.requestTimeoutMs
    const timeoutMs = this.deadline ? Math.min(full, Math.max(MIN_ATTEMPT_TIMEOUT_MS, this.deadline.remainingMs())) : full
    return this.transport.send({ ...spec, timeoutMs })
  }

  /** Under the retry policy. */
  private retried<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.infer<S>> {
    return withRetry(() => this.once(spec), {
      clock: this.clock,
      deadline: this.deadline,
      signal: spec.signal,
      policy: this.policy,
      random: this.random,
      onRetry: ({ attempt, delayMs, error }) => {
        this.log.info(
          `${error.endpoint}: ${describeAttempt(error)}; retrying in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt + 1} of ${this.policy.maxAttempts})`
        )
      }
    })
  }

  async triggerRun(body: TriggerRunBody, opts?: CallOptions): Promise<TriggerRunResponse> {
    return this.once(this.spec('triggerRun', TriggerRunResponse, {}, { body, signal: this.signalFor(opts) }))
  }

  async getRun(runId: string, query?: { min_severity?: Severity }, opts?: CallOptions): Promise<RunStatusResponse> {
    return this.retried(
      this.spec(
        'getRun',
        RunStatusResponse,
        { run_id: runId },
        { query: { min_severity: query?.min_severity }, signal: this.signalFor(opts) }
      )
    )
  }

  async getCoverage(runId: string, opts?: CallOptions): Promise<CoverageResponse> {
    return this.retried(this.spec('getCoverage', CoverageResponse, { run_id: runId }, { signal: this.signalFor(opts) }))
  }

  async cancelRun(runId: string, opts?: CallOptions): Promise<CancelRunResponse> {
    return this.retried(this.spec('cancelRun', CancelRunResponse, { run_id: runId }, { signal: this.signalFor(opts) }))
  }

  async listRuns(modelId: string, query?: { status?: RunStatusFilter; limit?: number }, opts?: CallOptions): Promise<RunList> {
    return this.retried(
      this.spec(
        'listRuns',
        RunList,
        { model_id: modelId },
        { query: { status: query?.status, limit: query?.limit }, signal: this.signalFor(opts) }
      )
    )
  }

  async listModels(opts?: CallOptions): Promise<ModelList> {
    return this.retried(this.spec('listModels', ModelList, {}, { signal: this.signalFor(opts) }))
  }

  async registerModel(body: RegisterModelBody, opts?: CallOptions): Promise<RegisterModelResponse> {
    return this.once(this.spec('registerModel', RegisterModelResponse, {}, { body, signal: this.signalFor(opts) }))
  }

  async listFindings(
    runId: string,
    query?: { min_severity?: Severity; status?: FindingStatusFilter },
    opts?: CallOptions
  ): Promise<FindingList> {
    return this.retried(
      this.spec(
        'listFindings',
        FindingList,
        { run_id: runId },
        { query: { min_severity: query?.min_severity, status: query?.status }, signal: this.signalFor(opts) }
      )
    )
  }

  async closeFinding(findingId: string, body: CloseFindingBody, opts?: CallOptions): Promise<Finding> {
    return this.retried(this.spec('closeFinding', Finding, { finding_id: findingId }, { body, signal: this.signalFor(opts) }))
  }

  async validateFinding(findingId: string, opts?: CallOptions): Promise<ValidateFindingResponse> {
    return this.once(this.spec('validateFinding', ValidateFindingResponse, { finding_id: findingId }, { signal: this.signalFor(opts) }))
  }

  async listCategories(query?: { lens?: CategoryLens }, opts?: CallOptions): Promise<CategoryList> {
    return this.retried(this.spec('listCategories', CategoryList, {}, { query: { lens: query?.lens }, signal: this.signalFor(opts) }))
  }

  async getProfile(modelId: string, opts?: CallOptions): Promise<ProfileResponse> {
    return this.retried(this.spec('getProfile', ProfileResponse, { model_id: modelId }, { signal: this.signalFor(opts) }))
  }

  async changeProfile(modelId: string, body: ChangeProfileBody, opts?: CallOptions): Promise<ProfileWriteResponse> {
    return this.once(this.spec('changeProfile', ProfileWriteResponse, { model_id: modelId }, { body, signal: this.signalFor(opts) }))
  }

  async confirmProfile(modelId: string, body: ConfirmProfileBody, opts?: CallOptions): Promise<ProfileWriteResponse> {
    return this.once(this.spec('confirmProfile', ProfileWriteResponse, { model_id: modelId }, { body, signal: this.signalFor(opts) }))
  }
}

export function createClient(opts: ClientOptions): ServiceApi {
  return new AssessmentClient(opts)
}

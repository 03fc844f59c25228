/**
 * What the action needs from the Agent Security Assessment Service: one method
 * per endpoint of section 4. The HTTP client (client.ts) implements it; the
 * gate, validate mode and tests depend on this interface only.
 *
 * Every method resolves with a response parsed through the contract, or
 * rejects with a ServiceError (MalformedResponseError for a response that does
 * not follow the contract). Idempotent calls are retried by the retry policy;
 * triggerRun is sent once and never retried by the client (see trigger.ts).
 */
import type {
  CancelRunResponse,
  CategoryList,
  CategoryLens,
  ChangeProfileBody,
  CloseFindingBody,
  ConfirmProfileBody,
  CoverageResponse,
  Finding,
  FindingList,
  FindingStatusFilter,
  ModelList,
  ProfileResponse,
  ProfileWriteResponse,
  RegisterModelBody,
  RegisterModelResponse,
  RunList,
  RunStatusFilter,
  RunStatusResponse,
  Severity,
  TriggerRunBody,
  TriggerRunResponse,
  ValidateFindingResponse
} from './contract/index.js'

import type { Clock, Deadline } from '../util/clock.js'
import type { Log } from '../util/log.js'

/** What a step that talks to the service is given: the API and the edges it waits on. */
export interface ServiceCallDeps {
  api: ServiceApi
  clock: Clock
  /** All waiting stops here (timeout_minutes). */
  deadline: Deadline
  /** Aborts on SIGINT/SIGTERM. */
  signal?: AbortSignal
  log: Log
  random?: () => number
}

export interface CallOptions {
  /** Aborts the request and any wait between retries. */
  signal?: AbortSignal
}

export interface ServiceApi {
  /** POST /api/v1/run. One attempt: the caller decides about retrying (not idempotent). */
  triggerRun(body: TriggerRunBody, opts?: CallOptions): Promise<TriggerRunResponse>
  /** GET /api/v1/run/{run_id}?min_severity= */
  getRun(runId: string, query?: { min_severity?: Severity }, opts?: CallOptions): Promise<RunStatusResponse>
  /** GET /api/v1/run/{run_id}/coverage */
  getCoverage(runId: string, opts?: CallOptions): Promise<CoverageResponse>
  /** POST /api/v1/run/{run_id}/cancel */
  cancelRun(runId: string, opts?: CallOptions): Promise<CancelRunResponse>
  /** GET /api/v1/model/{model_id}/run?status=&limit= */
  listRuns(modelId: string, query?: { status?: RunStatusFilter; limit?: number }, opts?: CallOptions): Promise<RunList>
  /** GET /api/v1/model */
  listModels(opts?: CallOptions): Promise<ModelList>
  /** POST /api/v1/model. One attempt (creates are not deduplicated). */
  registerModel(body: RegisterModelBody, opts?: CallOptions): Promise<RegisterModelResponse>
  /** GET /api/v1/run/{run_id}/findings?min_severity=&status= */
  listFindings(runId: string, query?: { min_severity?: Severity; status?: FindingStatusFilter }, opts?: CallOptions): Promise<FindingList>
  /** PATCH /api/v1/findings/{finding_id}/close */
  closeFinding(findingId: string, body: CloseFindingBody, opts?: CallOptions): Promise<Finding>
  /** POST /api/v1/findings/{finding_id}/validate. One attempt (spends a replay run). */
  validateFinding(findingId: string, opts?: CallOptions): Promise<ValidateFindingResponse>
  /** GET /api/v1/category?lens= */
  listCategories(query?: { lens?: CategoryLens }, opts?: CallOptions): Promise<CategoryList>
  /** GET /api/v1/model/{model_id}/profile */
  getProfile(modelId: string, opts?: CallOptions): Promise<ProfileResponse>
  /** PATCH /api/v1/model/{model_id}/profile */
  changeProfile(modelId: string, body: ChangeProfileBody, opts?: CallOptions): Promise<ProfileWriteResponse>
  /** POST /api/v1/model/{model_id}/profile/confirm */
  confirmProfile(modelId: string, body: ConfirmProfileBody, opts?: CallOptions): Promise<ProfileWriteResponse>
}

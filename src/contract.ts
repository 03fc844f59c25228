/**
 * The wire contract of the Agent Security Assessment Service (API description
 * 0.1.0, ../shared/seeds/000_f53dcbc7e8340baa.txt).
 *
 * One module, used by both sides: the client parses every response with these
 * schemas, and the emulator validates every request and builds every response
 * with them, so the two cannot drift apart.
 *
 * Responses are parsed with loose objects: unknown extra fields are kept and
 * ignored; a missing or mistyped known field is an error naming its path.
 * Request bodies are strict objects: the emulator refuses unknown fields.
 *
 * Where the description says "not shown", the decision taken here is marked
 * `ASSUMPTION` and listed in `API_ASSUMPTIONS` (also in the README).
 */
import { z } from 'zod'

export const API_PREFIX = '/api/v1'

// ---------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------

/** Most to least severe. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const
export const Severity = z.enum(SEVERITIES)
export type Severity = z.infer<typeof Severity>

/** Rank: 0 for critical, 3 for low. Lower is more severe. */
export function severityRank(s: Severity): number {
  return SEVERITIES.indexOf(s)
}

/** True when `s` is at or above (as severe as, or more than) `threshold`. */
export function atOrAbove(s: Severity, threshold: Severity): boolean {
  return severityRank(s) <= severityRank(threshold)
}

/**
 * The run statuses the description names. Creation states are "not shown", so
 * a response may carry any other non-empty string (e.g. "queued"): it is
 * accepted and treated as NOT terminal, so the gate keeps waiting and, at
 * timeout_minutes, cancels and fails with `error` (fail closed).
 */
export const RUN_STATUSES = ['running', 'completed', 'error', 'cancelled'] as const
/** The named run statuses (what the emulator produces). */
export const KnownRunStatus = z.enum(RUN_STATUSES)
export type KnownRunStatus = z.infer<typeof KnownRunStatus>
/** A run status as read from the service: any non-empty string (unknown values are not terminal). */
export const RunStatus = z.string().min(1)
export type RunStatus = z.infer<typeof RunStatus>
export const TERMINAL_RUN_STATUSES = ['completed', 'error', 'cancelled'] as const
export type TerminalRunStatus = (typeof TERMINAL_RUN_STATUSES)[number]
/**
 * The one place that says which statuses are terminal: completed, error and
 * cancelled, matched exactly. running, and any status the description does not
 * name (queued, pending, RUNNING, ...), are not.
 */
export function isTerminal(s: string): s is TerminalRunStatus {
  return (TERMINAL_RUN_STATUSES as readonly string[]).includes(s)
}
/** True for the four statuses the description names. */
export function isKnownRunStatus(s: string): s is KnownRunStatus {
  return (RUN_STATUSES as readonly string[]).includes(s)
}

export const Verdict = z.enum(['pass', 'fail'])
export type Verdict = z.infer<typeof Verdict>

export const FINDING_LENSES = ['security', 'safety', 'quality', 'policy'] as const
export const FindingLens = z.enum(FINDING_LENSES)
export type FindingLens = z.infer<typeof FindingLens>

/** Lenses the category list takes (section 4.11). Only security can focus a run. */
export const CATEGORY_LENSES = ['security', 'safety', 'compliance'] as const
export const CategoryLens = z.enum(CATEGORY_LENSES)
export type CategoryLens = z.infer<typeof CategoryLens>

/**
 * The finding statuses the description names. Their complete set is "not
 * shown", so a response may carry any other non-empty string: it is accepted,
 * and decide.ts says how an unknown one counts (see computeVerdict).
 */
export const FINDING_STATUSES = ['open', 'fixed', 'dismissed', 'FIXED_VERIFIED'] as const
/** The named finding statuses (what the emulator produces). */
export const KnownFindingStatus = z.enum(FINDING_STATUSES)
export type KnownFindingStatus = z.infer<typeof KnownFindingStatus>
/** A finding status as read from the service: any non-empty string. */
export const FindingStatus = z.string().min(1)
export type FindingStatus = z.infer<typeof FindingStatus>
/** Statuses that close a finding: it no longer fails the gate. */
export const CLOSED_FINDING_STATUSES = ['fixed', 'dismissed', 'FIXED_VERIFIED'] as const
export function isClosedFindingStatus(s: string): boolean {
  return (CLOSED_FINDING_STATUSES as readonly string[]).includes(s)
}
export function isKnownFindingStatus(s: string): s is KnownFindingStatus {
  return (FINDING_STATUSES as readonly string[]).includes(s)
}

/** Values the `status` filter of GET /run/{id}/findings accepts. */
export const FINDING_STATUS_FILTERS = ['open', 'fixed', 'dismissed'] as const
export const FindingStatusFilter = z.enum(FINDING_STATUS_FILTERS)
export type FindingStatusFilter = z.infer<typeof FindingStatusFilter>

/** Values the `status` filter of GET /model/{id}/run accepts. */
export const RUN_STATUS_FILTERS = ['running', 'completed', 'error'] as const
export const RunStatusFilter = z.enum(RUN_STATUS_FILTERS)
export type RunStatusFilter = z.infer<typeof RunStatusFilter>

/**
 * The values of an attack's last_replay_status this project uses. The
 * description names only pending ("other values: not shown"), so a response
 * may carry any string.
 */
export const REPLAY_STATUSES = ['pending', 'reproduced', 'not_reproduced', 'inconclusive'] as const
/** The replay statuses the emulator produces. */
export const KnownReplayStatus = z.enum(REPLAY_STATUSES)
export type KnownReplayStatus = z.infer<typeof KnownReplayStatus>
/** An attack's last_replay_status as read from the service: any string. */
export const ReplayStatus = z.string()
export type ReplayStatus = z.infer<typeof ReplayStatus>

export const ENVIRONMENTS = ['prod', 'staging', 'dev'] as const
export const Environment = z.enum(ENVIRONMENTS)

export const AUTH_TYPES = ['none', 'bearer', 'api_key', 'basic', 'oauth_client_credentials'] as const
export const AuthType = z.enum(AUTH_TYPES)
export type AuthType = z.infer<typeof AuthType>

export const TRANSPORTS = ['http', 'websocket'] as const
export const Transport = z.enum(TRANSPORTS)

export const PROBE_ERROR_CATEGORIES = [
  'unreachable',
  'auth_failed',
  'parse_error',
  'no_reply',
  'not_an_endpoint'
] as const
export const ProbeErrorCategory = z.enum(PROBE_ERROR_CATEGORIES)

export const DISMISS_REASON_CODES = [
  'data_is_public',
  'authenticated_users_only',
  'working_as_designed',
  'mitigated_elsewhere',
  'accepted_risk',
  'false_positive',
  'other'
] as const
export const DismissReasonCode = z.enum(DISMISS_REASON_CODES)

export const VALIDATION_VERDICTS = ['resolved', 'still_broken', 'not_eligible', 'validating'] as const
export const ValidationVerdict = z.enum(VALIDATION_VERDICTS)
export type ValidationVerdict = z.infer<typeof ValidationVerdict>

// ---------------------------------------------------------------------------
// Limits (section 8)
// ---------------------------------------------------------------------------

export const LIMITS = {
  runListLimitMin: 1,
  runListLimitMax: 100,
  runListLimitDefault: 20,
  targetNameMin: 1,
  targetNameMax: 200,
  credentialMin: 5,
  requestTimeoutMax: 180,
  explanationMin: 1,
  explanationMax: 4000,
  cancelTakesEffectMs: 5000,
  categoryCacheMs: 60 * 60 * 1000
} as const

/** The tag every fenced (untrusted) profile text value begins with. */
export const UNTRUSTED_FENCE_PREFIX = '[UNTRUSTED:'

// ---------------------------------------------------------------------------
// Resources (section 2)
// ---------------------------------------------------------------------------

const timestamp = z.string()
const count = z.number().int().nonnegative()

/** 2.1 Model (inventory list item). */
export const ModelListItem = z.looseObject({
  model_id: z.string(),
  name: z.string(),
  model_type: z.string(),
  environment: z.string(),
  has_agent_config: z.boolean(),
  /** ASSUMPTION: null for a model that has never run. */
  latest_run_status: z.string().nullable(),
  endpoint_host: z.string()
})
export type ModelListItem = z.infer<typeof ModelListItem>

/** 2.2 Agent config. Further fields are not shown, so the object is loose. */
export const AgentConfig = z.looseObject({
  endpoint_url: z.string().min(1),
  response_field: z.string().min(1),
  transport: Transport.default('http'),
  /** ASSUMPTION: seconds. */
  request_timeout: z.number().positive().max(LIMITS.requestTimeoutMax).optional()
})
export type AgentConfig = z.infer<typeof AgentConfig>

export const OAuthConfig = z.strictObject({
  token_url: z.string().min(1),
  client_id: z.string().min(1),
  scope: z.string().optional(),
  audience: z.string().optional()
})
export type OAuthConfig = z.infer<typeof OAuthConfig>

/** 2.2 Target registration input (body of POST /api/v1/model). */
export const RegisterModelBody = z
  .strictObject({
    name: z.string().min(LIMITS.targetNameMin).max(LIMITS.targetNameMax),
    config: AgentConfig,
    environment: Environment.default('staging'),
    auth_type: AuthType.default('none'),
    credential: z.string().min(LIMITS.credentialMin).nullable().optional(),
    oauth: OAuthConfig.nullable().optional()
  })
  .superRefine((body, ctx) => {
    const needsCredential = body.auth_type !== 'none'
    if (needsCredential && (body.credential === undefined || body.credential === null)) {
      ctx.addIssue({
        code: 'custom',
        path: ['credential'],
        message: `credential is required when auth_type is ${body.auth_type}`
      })
    }
    if (!needsCredential && body.credential !== undefined && body.credential !== null) {
      ctx.addIssue({ code: 'custom', path: ['credential'], message: 'credential must be omitted when auth_type is none' })
    }
    if (body.auth_type === 'oauth_client_credentials' && !body.oauth) {
      ctx.addIssue({ code: 'custom', path: ['oauth'], message: 'oauth is required when auth_type is oauth_client_credentials' })
    }
    if (body.auth_type !== 'oauth_client_credentials' && body.oauth) {
      ctx.addIssue({ code: 'custom', path: ['oauth'], message: 'oauth is only accepted when auth_type is oauth_client_credentials' })
    }
  })
export type RegisterModelBody = z.input<typeof RegisterModelBody>

export const RegisterModelResponse = z.looseObject({
  model_id: z.string(),
  connected: z.literal(true)
})
export type RegisterModelResponse = z.infer<typeof RegisterModelResponse>

export const ModelList = z.looseObject({ models: z.array(ModelListItem) })
export type ModelList = z.infer<typeof ModelList>

/** 2.3 Trigger response (202 of POST /api/v1/run). */
export const TriggerRunResponse = z.looseObject({
  run_id: z.string().min(1),
  model_id: z.string(),
  status: RunStatus,
  started_at: timestamp
})
export type TriggerRunResponse = z.infer<typeof TriggerRunResponse>

/** Body of POST /api/v1/run. ASSUMPTION: model_id is required, categories optional. */
export const TriggerRunBody = z.strictObject({
  model_id: z.string().min(1),
  categories: z.array(z.string().min(1)).optional()
})
export type TriggerRunBody = z.infer<typeof TriggerRunBody>

/**
 * 2.3 Run status response (GET /api/v1/run/{id}).
 * The description guarantees status, categories_planned, categories_completed
 * and (when asked, on a terminal status) the verdict; those are required.
 * ASSUMPTION: run_id, model_id, started_at and completed_at are sent too (the
 * emulator always sends them) but a service may leave them out, so they are
 * optional (and nullable) on parse. verdict is present and non-null only when
 * min_severity was given and the status is terminal, else null or absent.
 */
export const RunStatusResponse = z.looseObject({
  run_id: z.string().nullish(),
  model_id: z.string().nullish(),
  status: RunStatus,
  started_at: timestamp.nullish(),
  completed_at: timestamp.nullish(),
  categories_planned: z.array(z.string()),
  categories_completed: z.array(z.string()),
  verdict: Verdict.nullable().optional()
})
export type RunStatusResponse = z.infer<typeof RunStatusResponse>

/** 2.3 Run list item. ASSUMPTION: completed_at is null while running. */
export const RunListItem = z.looseObject({
  run_id: z.string(),
  status: RunStatus,
  started_at: timestamp,
  findings_count: count,
  ingest_incomplete: z.boolean(),
  categories_planned: z.array(z.string()),
  completed_at: timestamp.nullable()
})
export type RunListItem = z.infer<typeof RunListItem>

export const RunList = z.looseObject({
  runs: z.array(RunListItem),
  total: count,
  returned: count
})
export type RunList = z.infer<typeof RunList>

/** ASSUMPTION: the coverage row (one per category the run probed). */
export const CoverageRow = z.looseObject({
  category: z.string(),
  attacks_blocked: count,
  attacks_succeeded: count,
  owasp: z.string(),
  atlas: z.string(),
  /** null when no attack got through. */
  worst_severity: Severity.nullable()
})
export type CoverageRow = z.infer<typeof CoverageRow>

/** ASSUMPTION: the coverage envelope. run_id is optional (the emulator sends it); run_status any non-empty string. */
export const CoverageResponse = z.looseObject({
  run_id: z.string().nullish(),
  run_status: RunStatus,
  categories: z.array(CoverageRow)
})
export type CoverageResponse = z.infer<typeof CoverageResponse>

/**
 * ASSUMPTION: the 202 body of POST /run/{id}/cancel the emulator sends. The
 * description does not show that body, so the client does not depend on it:
 * see CancelRunResponse.
 */
export const CancelRunAccepted = z.looseObject({
  run_id: z.string(),
  status: z.literal('running'),
  cancel_requested: z.literal(true)
})
export type CancelRunAccepted = z.infer<typeof CancelRunAccepted>

/**
 * What the client accepts as the 202 body of POST /run/{id}/cancel: anything.
 * The status 202 alone means "cancel recorded"; the body (empty, `{}`,
 * `{"status":"cancelling"}`, not JSON) is kept as read and never relied on.
 * parse-response.ts hands this schema the raw text when the body is not JSON
 * (see acceptsAnyBody).
 */
export const CancelRunResponse = z.unknown()
export type CancelRunResponse = z.infer<typeof CancelRunResponse>

/**
 * Response schemas whose success body is "not shown": the success status is
 * the whole answer, so a body that is empty or not JSON is not malformed.
 */
const ANY_BODY_SCHEMAS: ReadonlySet<z.ZodType> = new Set<z.ZodType>([CancelRunResponse])
export function acceptsAnyBody(schema: z.ZodType): boolean {
  return ANY_BODY_SCHEMAS.has(schema)
}

/**
 * A replay step's header value. headers is described only as "object":
 * ASSUMPTION: its values are strings, numbers, booleans, null, or arrays of
 * those (a repeated header). The report renders them as text.
 */
export const HeaderScalar = z.union([z.string(), z.number(), z.boolean(), z.null()])
export const HeaderValue = z.union([HeaderScalar, z.array(HeaderScalar)])
export type HeaderValue = z.infer<typeof HeaderValue>

/** 2.5 Replay step: every field but `step` is optional. */
export const ReplayStep = z.looseObject({
  step: z.string(),
  message: z.string().nullish(),
  response: z.string().nullish(),
  session_id: z.string().nullish(),
  method: z.string().nullish(),
  url: z.string().nullish(),
  headers: z.record(z.string(), HeaderValue).nullish(),
  body: z.string().nullish(),
  response_status: z.number().int().nullish(),
  response_body: z.string().nullish(),
  target: z.string().nullish(),
  assertion: z.string().nullish(),
  expected_behavior: z.string().nullish(),
  capture_as: z.string().nullish()
})
export type ReplayStep = z.infer<typeof ReplayStep>

export const AttackSource = z.looseObject({
  source_type: z.string(),
  assessment_id: z.string(),
  attack_index: z.number().int(),
  date: timestamp
})

export const Attack = z.looseObject({
  attack_id: z.string(),
  score: z.number().int(),
  source: AttackSource,
  replay_script: z.array(ReplayStep),
  last_replay_status: ReplayStatus,
  created_at: timestamp,
  /** ASSUMPTION: null until the attack is first replayed. */
  last_replayed_at: timestamp.nullable()
})
export type Attack = z.infer<typeof Attack>

/** Text that replaces a finding's narrative when the plan withholds proof. */
export const REDACTED = '[redacted]'

/** 2.4 Finding. */
export const Finding = z.looseObject({
  finding_id: z.string(),
  lens: FindingLens,
  category: z.string(),
  severity: Severity,
  description: z.string(),
  expected_behavior: z.string(),
  status: FindingStatus,
  created_at: timestamp,
  attacks: z.array(Attack)
})
export type Finding = z.infer<typeof Finding>

export const FindingList = z.looseObject({
  findings: z.array(Finding),
  count: count
})
export type FindingList = z.infer<typeof FindingList>

/** Body of PATCH /api/v1/findings/{id}/close. */
export const CloseFindingBody = z
  .strictObject({
    status: z.enum(['fixed', 'dismissed']),
    explanation: z
      .string()
      .min(LIMITS.explanationMin)
      .max(LIMITS.explanationMax)
      .refine((s) => s.trim().length > 0, { message: 'explanation must not be empty after trimming' }),
    reason_code: DismissReasonCode.optional()
  })
  .superRefine((body, ctx) => {
    if (body.status === 'dismissed' && body.reason_code === undefined) {
      ctx.addIssue({ code: 'custom', path: ['reason_code'], message: 'reason_code is required when status is dismissed' })
    }
  })
export type CloseFindingBody = z.infer<typeof CloseFindingBody>

/** 200 of POST /api/v1/findings/{id}/validate. replay_run_id is '' when no run was spent. */
export const ValidateFindingResponse = z.looseObject({
  finding_id: z.string(),
  replay_run_id: z.string(),
  verdict: ValidationVerdict,
  finding: Finding
})
export type ValidateFindingResponse = z.infer<typeof ValidateFindingResponse>

/** 2.6 Category. */
export const Category = z.looseObject({
  key: z.string(),
  display_name: z.string(),
  description: z.string()
})
export type Category = z.infer<typeof Category>

export const CategoryList = z.looseObject({
  categories: z.array(Category),
  lens: z.string()
})
export type CategoryList = z.infer<typeof CategoryList>

/** 2.7 Profile. */
export const PROFILE_ANSWER_FIELDS = [
  'purpose',
  'industry',
  'system_prompt',
  'user_access',
  'test_account',
  'public_data',
  'has_guardrails',
  'multi_agent',
  'has_persistent_memory'
] as const
export const PROFILE_LIST_FIELDS = [
  'tools',
  'user_types',
  'forbidden_actions',
  'sensitive_data_types',
  'forbidden_data',
  'example_identifiers',
  'compliance_requirements',
  'forbidden_topics'
] as const

export const Dismissal = z.looseObject({
  finding_id: z.string(),
  category: z.string(),
  reason_code: z.string(),
  reason_text: z.string(),
  created_at: timestamp
})
export type Dismissal = z.infer<typeof Dismissal>

export const ProfileResponse = z.looseObject({
  model_id: z.string(),
  profile_id: z.string(),
  name: z.string(),
  version: z.number().int(),
  safety_notice: z.string(),
  /** ASSUMPTION: item structure not shown; values kept as-is. */
  answers: z.record(z.string(), z.unknown()),
  lists: z.record(z.string(), z.unknown()),
  dismissals: z.array(Dismissal)
})
export type ProfileResponse = z.infer<typeof ProfileResponse>

/** A text value written to a profile must not still hold an untrusted-content fence. */
const unfencedText = z
  .string()
  .refine((s) => !s.includes(UNTRUSTED_FENCE_PREFIX), { message: 'value still holds an untrusted-content fence' })

export const ProfileTool = z.strictObject({
  name: unfencedText,
  description: unfencedText,
  parameters: z.record(z.string(), z.unknown())
})
export const ProfileUserType = z.strictObject({
  name: unfencedText,
  auth_level: unfencedText,
  description: unfencedText
})

/** Writable content fields of a profile change (section 2.7). */
export const ProfileChanges = z.strictObject({
  system_prompt: unfencedText.nullable().optional(),
  purpose: unfencedText.optional(),
  user_access: unfencedText.nullable().optional(),
  test_account: unfencedText.nullable().optional(),
  public_data: unfencedText.nullable().optional(),
  tools: z.array(ProfileTool).optional(),
  user_types: z.array(ProfileUserType).optional(),
  forbidden_actions: z.array(unfencedText).optional(),
  sensitive_data_types: z.array(unfencedText).optional(),
  forbidden_data: z.array(unfencedText).optional(),
  example_identifiers: z.array(unfencedText).optional(),
  compliance_requirements: z.array(unfencedText).optional(),
  forbidden_topics: z.array(unfencedText).optional(),
  has_guardrails: z.boolean().optional(),
  multi_agent: z.boolean().nullable().optional(),
  has_persistent_memory: z.boolean().nullable().optional()
})
export type ProfileChanges = z.infer<typeof ProfileChanges>

/** Body of PATCH /api/v1/model/{id}/profile. version and profile_id go together. */
export const ChangeProfileBody = z
  .strictObject({
    changes: ProfileChanges,
    version: z.number().int().nonnegative().optional(),
    profile_id: z.string().min(1).optional()
  })
  .superRefine((body, ctx) => {
    if ((body.version === undefined) !== (body.profile_id === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['version'], message: 'version and profile_id are given together or not at all' })
    }
  })
export type ChangeProfileBody = z.infer<typeof ChangeProfileBody>

/** Body of POST /api/v1/model/{id}/profile/confirm. */
export const ConfirmProfileBody = z.strictObject({
  version: z.number().int().nonnegative(),
  profile_id: z.string().min(1),
  answers: z.array(z.string()).default([]),
  items: z.record(z.string(), z.array(z.string())).default({})
})
export type ConfirmProfileBody = z.input<typeof ConfirmProfileBody>

export const ProfileWriteResponse = z.looseObject({
  model_id: z.string(),
  profile_id: z.string(),
  version: z.number().int()
})
export type ProfileWriteResponse = z.infer<typeof ProfileWriteResponse>

// ---------------------------------------------------------------------------
// Query parameters
// ---------------------------------------------------------------------------

export const GetRunQuery = z.strictObject({ min_severity: Severity.optional() })
export const ListRunsQuery = z.strictObject({
  status: RunStatusFilter.optional(),
  limit: z.coerce.number().int().min(LIMITS.runListLimitMin).max(LIMITS.runListLimitMax).default(LIMITS.runListLimitDefault)
})
export const ListFindingsQuery = z.strictObject({
  min_severity: Severity.optional(),
  status: FindingStatusFilter.optional()
})
export const ListCategoriesQuery = z.strictObject({ lens: CategoryLens.default('security') })

// ---------------------------------------------------------------------------
// Errors (section 7)
// ---------------------------------------------------------------------------

/** 2.8 Validation error body (422 from request validation). */
export const ValidationIssue = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
  input: z.unknown().optional(),
  ctx: z.record(z.string(), z.unknown()).optional()
})
export const ValidationErrorBody = z.looseObject({ detail: z.array(ValidationIssue) })
export type ValidationErrorBody = z.infer<typeof ValidationErrorBody>

/** 422 of POST /model when the live probe of the target fails. */
export const ProbeFailureBody = z.looseObject({
  detail: z.looseObject({
    error: z.literal('probe_failed'),
    error_category: ProbeErrorCategory,
    message: z.string()
  })
})
export type ProbeFailureBody = z.infer<typeof ProbeFailureBody>

/**
 * ASSUMPTION: the error codes the service uses, by status. The body of every
 * error but the two 422 shapes is `{"detail": {"code", "message", ...extra}}`.
 */
export const ERROR_CODES = {
  400: ['invalid_categories', 'incomplete_config', 'invalid_min_severity', 'invalid_status', 'endpoint_rejected'],
  401: ['unauthorized'],
  403: [
    'insufficient_scope',
    'trial_focus_not_included',
    'taxonomy_not_included',
    'allowance_exhausted',
    'evaluation_ceiling',
    'proof_withheld'
  ],
  404: ['not_found'],
  409: ['run_active', 'run_in_progress', 'run_not_running', 'validation_in_progress', 'stale_version'],
  422: ['replay_unwireable'],
  429: ['rate_limited', 'daily_budget_exhausted', 'replay_cap_exceeded']
} as const
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES][number]

export const CodedErrorBody = z.looseObject({
  detail: z.looseObject({
    code: z.string(),
    message: z.string()
  })
})
export type CodedErrorBody = z.infer<typeof CodedErrorBody>

/** The lenient alternative the client also accepts: `{"detail": "<text>"}`. */
export const TextErrorBody = z.looseObject({ detail: z.string() })

// ---------------------------------------------------------------------------
// Endpoints (section 4): method, path template, success status
// ---------------------------------------------------------------------------

export const ENDPOINTS = {
  triggerRun: { method: 'POST', path: '/api/v1/run', ok: 202 },
  getRun: { method: 'GET', path: '/api/v1/run/{run_id}', ok: 200 },
  getCoverage: { method: 'GET', path: '/api/v1/run/{run_id}/coverage', ok: 200 },
  cancelRun: { method: 'POST', path: '/api/v1/run/{run_id}/cancel', ok: 202 },
  listRuns: { method: 'GET', path: '/api/v1/model/{model_id}/run', ok: 200 },
  listModels: { method: 'GET', path: '/api/v1/model', ok: 200 },
  registerModel: { method: 'POST', path: '/api/v1/model', ok: 201 },
  listFindings: { method: 'GET', path: '/api/v1/run/{run_id}/findings', ok: 200 },
  closeFinding: { method: 'PATCH', path: '/api/v1/findings/{finding_id}/close', ok: 200 },
  validateFinding: { method: 'POST', path: '/api/v1/findings/{finding_id}/validate', ok: 200 },
  listCategories: { method: 'GET', path: '/api/v1/category', ok: 200 },
  getProfile: { method: 'GET', path: '/api/v1/model/{model_id}/profile', ok: 200 },
  changeProfile: { method: 'PATCH', path: '/api/v1/model/{model_id}/profile', ok: 200 },
  confirmProfile: { method: 'POST', path: '/api/v1/model/{model_id}/profile/confirm', ok: 200 }
} as const
export type EndpointName = keyof typeof ENDPOINTS

/** Scope that triggering and cancelling a run require. */
export const SCOPE_TEST_RUN = 'test:run'

// ---------------------------------------------------------------------------
// Decisions where the description says "not shown" (mirrored in README.md)
// ---------------------------------------------------------------------------

export const API_ASSUMPTIONS: ReadonlyArray<{ topic: string; decision: string }> = [
  {
    topic: 'run status body (GET /run/{id})',
    decision:
      'status, categories_planned, categories_completed required; verdict ("pass"/"fail") present and non-null only when min_severity was given and the status is terminal, else null or absent; run_id, model_id, started_at, completed_at sent by the emulator but optional and nullable on parse'
  },
  {
    topic: 'run statuses',
    decision:
      'running, completed, error, cancelled are named; any other non-empty string (e.g. queued) is accepted and is not terminal: the gate keeps waiting and, at timeout_minutes, cancels the run and fails with error'
  },
  {
    topic: 'verdict rule',
    decision:
      'fail iff a finding of that run at or above min_severity has status open; on a cancelled/errored run only what it reached counts'
  },
  {
    topic: 'coverage body',
    decision:
      '{run_id, run_status, categories: [{category, attacks_blocked, attacks_succeeded, owasp, atlas, worst_severity}]}; run_id optional; worst_severity null when nothing got through; integers are counts of attacks'
  },
  {
    topic: 'coverage against the run and the findings',
    decision:
      'a category in categories_completed has a coverage row, else incomplete; a known run_status other than the run status: incomplete; a planned row whose worst_severity is at or above min_severity with no finding of that category at or above it (any status): error; the same for a category not planned: a note'
  },
  {
    topic: 'coverage or findings answering 409 after the status turned terminal',
    decision: 'the read side may lag: retried after 1 s, 2 s and 4 s, then the result is error'
  },
  {
    topic: 'error body (all but the two 422 shapes)',
    decision:
      '{"detail": {"code": "<snake_case>", "message": "<text>", ...extra}}; the client also accepts {"detail": "<text>"} and a non-JSON body'
  },
  {
    topic: 'error codes',
    decision: Object.entries(ERROR_CODES)
      .map(([status, codes]) => `${status} ${codes.join(', ')}`)
      .join('; ')
  },
  {
    topic: 'Retry-After',
    decision:
      'integer seconds from the emulator; the client also accepts an HTTP-date; a 429 is never retried sooner than 1 s, 2 s, 4 s... (up to 15 s) after the previous attempt, whatever it says (0, a date in the past, or none)'
  },
  {
    topic: 'a 409 on POST /run',
    decision:
      'whatever its code (or none): an assessment of the model is already active; the gate waits for the running run it lists, or, when the list shows none running, waits 2 s, 4 s... up to 15 s between attempts'
  },
  {
    topic: 'a 403 on POST /run with a code not listed here (or none)',
    decision: 'a service refusal (allowance, ceiling or scope, as its message says), reported as a service failure, not as a wrong key'
  },
  {
    topic: 'a 404 on GET /run/{id} of a run this step just created',
    decision: 'the read side may lag: tried again after 1 s, 2 s and 4 s before the first successful read; later, a 404 ends the wait (the run is cancelled, the result is error)'
  },
  {
    topic: 'cancel 202 body',
    decision:
      'the emulator sends {run_id, status: "running", cancel_requested: true}; the client accepts any body (empty, any JSON, not JSON): the 202 alone means the cancel was recorded'
  },
  {
    topic: 'finding statuses',
    decision:
      'open, fixed, dismissed, FIXED_VERIFIED are named; any other non-empty string is accepted. A verdict computed locally (the service gave none) counts a finding at or above min_severity as open unless its status is fixed, dismissed or FIXED_VERIFIED; the check that overrides a service pass counts only status open. A validation that ends still_broken sets it back to open'
  },
  {
    topic: 'attack last_replay_status',
    decision: 'the emulator uses pending, reproduced, not_reproduced, inconclusive; any string is accepted'
  },
  {
    topic: 'replay step headers',
    decision:
      'an object whose values are strings, numbers, booleans, null or arrays of those; shown as text (arrays joined with ", "); credential-like names redacted whatever the value type'
  },
  { topic: 'request_timeout unit', decision: 'seconds' },
  { topic: 'stale or recreated profile version', decision: '409 stale_version' },
  { topic: 'body of POST /run', decision: 'model_id required; categories optional (omitted: the full taxonomy)' },
  { topic: 'latest_run_status of a model that never ran', decision: 'null' },
  { topic: 'last_replayed_at of an attack never replayed', decision: 'null' },
  { topic: 'completed_at of a running run (list item)', decision: 'null' },
  {
    topic: 'replay step fields',
    decision: 'only step is always present; the others may be absent or null depending on the step kind'
  },
  { topic: 'profile answers and list items', decision: 'structure not shown: passed through as JSON values' },
  { topic: 'request bodies', decision: 'unknown fields are refused with 422 (detail list)' }
]

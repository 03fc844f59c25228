/** Section 2.3: runs, their status, coverage and cancel (sections 4.1 to 4.5). */
import { z } from 'zod'
import { Count, RunStatus, RunStatusFilter, Severity, Timestamp, Verdict } from './enums.js'
import { LIMITS } from './limits.js'
/** 2.3 Trigger response (202 of POST /api/v1/run). */
export const TriggerRunResponse = z.looseObject({
  run_id: z.string().min(1),
  model_id: z.string(),
  status: RunStatus,
  started_at: Timestamp
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
  started_at: Timestamp.nullish(),
  completed_at: Timestamp.nullish(),
  categories_planned: z.array(z.string()),
  categories_completed: z.array(z.string()),
  verdict: Verdict.nullable().optional()
})
export type RunStatusResponse = z.infer<typeof RunStatusResponse>

/** 2.3 Run list item. ASSUMPTION: completed_at is null while running. */
export const RunListItem = z.looseObject({
  run_id: z.string(),
  status: RunStatus,
  started_at: Timestamp,
  findings_count: Count,
  ingest_incomplete: z.boolean(),
  categories_planned: z.array(z.string()),
  completed_at: Timestamp.nullable()
})
export type RunListItem = z.infer<typeof RunListItem>

export const RunList = z.looseObject({
  runs: z.array(RunListItem),
  total: Count,
  returned: Count
})
export type RunList = z.infer<typeof RunList>

/** ASSUMPTION: the coverage row (one per category the run probed). */
export const CoverageRow = z.looseObject({
  category: z.string(),
  attacks_blocked: Count,
  attacks_succeeded: Count,
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

export const GetRunQuery = z.strictObject({ min_severity: Severity.optional() })
export const ListRunsQuery = z.strictObject({
  status: RunStatusFilter.optional(),
  limit: z.coerce.number().int().min(LIMITS.runListLimitMin).max(LIMITS.runListLimitMax).default(LIMITS.runListLimitDefault)
})

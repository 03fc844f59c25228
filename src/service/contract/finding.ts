/** Sections 2.4 and 2.5: findings, attacks and replay steps; closing and validating a finding (4.8 to 4.10). */
import { z } from 'zod'
import {
  Count,
  DismissReasonCode,
  FindingLens,
  FindingStatus,
  FindingStatusFilter,
  ReplayStatus,
  Severity,
  Timestamp,
  ValidationVerdict
} from './enums.js'
import { LIMITS } from './limits.js'
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
  date: Timestamp
})

export const Attack = z.looseObject({
  attack_id: z.string(),
  score: z.number().int(),
  source: AttackSource,
  replay_script: z.array(ReplayStep),
  last_replay_status: ReplayStatus,
  created_at: Timestamp,
  /** ASSUMPTION: null until the attack is first replayed. */
  last_replayed_at: Timestamp.nullable()
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
  created_at: Timestamp,
  attacks: z.array(Attack)
})
export type Finding = z.infer<typeof Finding>

export const FindingList = z.looseObject({
  findings: z.array(Finding),
  count: Count
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

export const ListFindingsQuery = z.strictObject({
  min_severity: Severity.optional(),
  status: FindingStatusFilter.optional()
})

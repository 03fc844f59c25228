/** Section 7: error bodies and codes, and the two 422 shapes (2.8 and 4.7). */
import { z } from 'zod'
import { ProbeErrorCategory } from './enums.js'
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

/**
 * Enumerations of the API description (sections 2 and 3). Where the
 * description names values but says the set is "not shown", the parsing
 * schema accepts any string and a `Known...` enum lists what the emulator
 * produces.
 */
import { z } from 'zod'

/** A Timestamp as the service sends it (a string; the format is not pinned). */
export const Timestamp = z.string()
/** A count of things: a non-negative integer. */
export const Count = z.number().int().nonnegative()

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

/** The one lens a run can be focused on (4.11): POST /run refuses keys of other lenses with 400. */
export const FOCUSABLE_LENS = 'security'

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

export const PROBE_ERROR_CATEGORIES = ['unreachable', 'auth_failed', 'parse_error', 'no_reply', 'not_an_endpoint'] as const
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

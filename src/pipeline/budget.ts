/**
 * The assessment budget in the report: how many assessments this step spent
 * (0 or 1) and why, and one line for a refusal of the service's limits (the
 * monthly allowance's 403 with its reset date, the 429 of the daily budget or
 * the trigger rate with its Retry-After). Pure: the clock's time is passed in.
 */
import { formatDuration, formatWhenMs, isRecord, oneLine, shortSha } from '../util/text.js'

/** What this step did about an assessment. */
export type Spend =
  /** A run was created by this step (its trigger answered, or its run was found after a lost answer). */
  | {
      kind: 'assessed'
      runId: string | null
      sha: string | null
      reason?: string
      confirmationRuns?: number
      /** What the confirmation might need, said before it spent ("confirming 2 weaknesses: up to 9 focused runs"). */
      confirmationPlan?: string
      changeRuns?: number
    }
  /** The result of an earlier assessment was carried over: nothing was triggered. */
  | { kind: 'carried_over'; assessedSha: string }
  /** Nothing was triggered (skipped event, refused trigger, failure before the trigger): `reason` says why. */
  | { kind: 'not_assessed'; reason: string }

export interface BudgetLine {
  /** Runs this step created: its own, each further run of an agent change and each confirmation run. */
  spent: number
  why: Spend['kind']
  /** One line for the summary and the comment. */
  line: string
}

export function budgetLine(s: Spend): BudgetLine {
  const head = 'Assessments spent by this step:'
  switch (s.kind) {
    case 'assessed': {
      const run = s.runId === null ? '' : ` run ${oneLine(s.runId, 80)}`
      const of = s.sha === null ? '' : ` of ${shortSha(s.sha)}`
      const why = s.reason === undefined ? '' : `: ${oneLine(s.reason, 300)}`
      const more = Math.max(0, s.confirmationRuns ?? 0)
      const change = Math.max(0, s.changeRuns ?? 0)
      const further = change > 0 ? `; ${change} further full run${change === 1 ? '' : 's'} of this agent change (runs_per_change)` : ''
      const plan = s.confirmationPlan === undefined ? '' : ` (${oneLine(s.confirmationPlan, 200)})`
      const confirming = more > 0 || plan !== '' ? `; ${more} confirmation run${more === 1 ? '' : 's'}${plan}` : ''
      const spent = 1 + change + more
      return { spent, why: s.kind, line: `${head} ${spent} (assessed${run}${of}${why}${further}${confirming}).` }
    }
    case 'carried_over':
      return { spent: 0, why: s.kind, line: `${head} 0 (result carried over from the assessment of ${shortSha(s.assessedSha)}).` }
    case 'not_assessed':
      // A reason ending in its own parenthesis ("the service refused (HTTP 403 x)") is not nested in the line's.
      return { spent: 0, why: s.kind, line: `${head} 0 (not assessed: ${oneLine(s.reason, 300).replace(/ \(([^()]*)\)$/, ', $1')}).` }
  }
}

/** The fields of a service refusal read here (a ServiceError has them all). */
export interface RefusalLike {
  status?: number
  code?: string
  /** The error body's other fields (untrusted). */
  extra: Readonly<Record<string, unknown>>
  serviceMessage: string
  retryAfterMs?: number
}

/** 403 codes that are not about the budget. */
const NOT_BUDGET_403 = new Set(['insufficient_scope', 'trial_focus_not_included', 'taxonomy_not_included', 'proof_withheld'])

/**
 * One line on a budget refusal of POST /run, or null when `err` is not one.
 * Usable as the hint of the trigger's error and as the not-assessed reason.
 */
export function explainAssessmentLimit(err: RefusalLike, nowMs: number): string | null {
  if (err.status === 403) return explain403(err, nowMs)
  if (err.status === 429) return explain429(err, nowMs)
  return null
}

function explain403(err: RefusalLike, nowMs: number): string | null {
  if (err.code === 'evaluation_ceiling') {
    return "The evaluation workspace has reached its assessment ceiling: only the service's operator lifts it (waiting does not)."
  }
  if (err.code !== undefined && NOT_BUDGET_403.has(err.code)) return null
  const date = findResetDate(err.extra, err.serviceMessage, nowMs)
  const saysAllowance = err.code === 'allowance_exhausted' || /allowance|quota|monthly/i.test(err.serviceMessage)
  if (!saysAllowance && date === null) return null
  // A date the answer gave that is already past is not a reset date: said so, and only the 1st of next month given as a date.
  const past = date === null ? pastResetDate(err.extra, err.serviceMessage, nowMs) : null
  const when =
    date ??
    (past !== null
      ? `${firstOfNextMonth(nowMs)} (UTC; the 1st of next month: the reset date the service gave is already past)`
      : `${firstOfNextMonth(nowMs)} (UTC; the 1st of next month, as the answer named no date)`)
  return `The workspace's monthly assessment allowance is used up; it resets on ${when}. Waiting within this job will not help.`
}

function explain429(err: RefusalLike, nowMs: number): string {
  const retry =
    err.retryAfterMs === undefined
      ? 'the answer gave no Retry-After'
      : `the service asks to retry after ${formatDuration(err.retryAfterMs)} (${formatWhenMs(nowMs + err.retryAfterMs)})`
  if (err.code === 'daily_budget_exhausted') return `The daily assessment budget is used up; ${retry}.`
  if (err.code === 'rate_limited') return `The service's per-minute trigger limit was reached; ${retry}.`
  return `The service refused the trigger with HTTP 429 (the per-minute trigger limit or the daily assessment budget); ${retry}.`
}

const pad = (n: number): string => String(n).padStart(2, '0')

function utcDay(ms: number): string {
  const d = new Date(ms)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
}

/** The 1st of the month after `nowMs`, UTC (when the description says a monthly allowance resets). */
export function firstOfNextMonth(nowMs: number): string {
  const d = new Date(nowMs)
  return utcDay(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1))
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const ISO = /\b(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?(?![\d-])/i
const MONTH_FIRST = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b/i
const DAY_FIRST = /\b(\d{1,2})(?:st|nd|rd|th)? (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,? (\d{4})\b/i
/** Keys whose value is most likely the reset time. */
const RESET_KEY = /reset|renew|refresh|until|next|available|expire/i
/** A reset date further than this from now is not taken (a creation date, a period's start, a typo). */
const PLAUSIBLE_PAST_MS = 86_400_000
const PLAUSIBLE_FUTURE_MS = 400 * 86_400_000

/** A date (ms since epoch) written in `text`, the ISO form first; null when there is none or it is not a real date. */
export function dateInText(text: string): number | null {
  const iso = ISO.exec(text)
  if (iso) {
    // Optional groups are undefined when absent (the array's type does not say so).
    const [, y, mo, d, h, mi, s, zone] = iso as (string | undefined)[]
    const day = realDay(Number(y), Number(mo), Number(d))
    if (day !== null) {
      if (h === undefined) return day
      const offset = zone === undefined || /^z$/i.test(zone) ? 0 : zoneOffsetMs(zone)
      return day + (Number(h) * 60 + Number(mi)) * 60_000 + Number(s ?? 0) * 1000 - offset
    }
  }
  const mf = MONTH_FIRST.exec(text)
  if (mf) return realDay(Number(mf[3]), MONTHS.indexOf(mf[1].toLowerCase()) + 1, Number(mf[2]))
  const df = DAY_FIRST.exec(text)
  if (df) return realDay(Number(df[3]), MONTHS.indexOf(df[2].toLowerCase()) + 1, Number(df[1]))
  return null
}

function realDay(y: number, m: number, d: number): number | null {
  const ms = Date.UTC(y, m - 1, d)
  const back = new Date(ms)
  return back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d ? ms : null
}

function zoneOffsetMs(zone: string): number {
  const m = /^([+-])(\d\d):?(\d\d)$/.exec(zone)
  if (!m) return 0
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000
}

/** Epoch seconds or milliseconds, as a reset field may give them. */
function epochMs(n: number): number | null {
  if (!Number.isFinite(n)) return null
  if (n >= 1e9 && n < 1e11) return Math.round(n * 1000)
  if (n >= 1e12 && n < 1e14) return Math.round(n)
  return null
}

/** Every (key, value) of the body's fields down to three levels, reset-like keys first. */
function fieldsOf(extra: Readonly<Record<string, unknown>>): { key: string; value: unknown }[] {
  const out: { key: string; value: unknown }[] = []
  const walk = (obj: Readonly<Record<string, unknown>>, path: string, depth: number): void => {
    for (const [k, v] of Object.entries(obj).slice(0, 50)) {
      const key = path === '' ? k : `${path}.${k}`
      if (isRecord(v) && depth < 3) walk(v, key, depth + 1)
      else out.push({ key, value: v })
    }
  }
  walk(extra, '', 1)
  return [...out.filter((f) => RESET_KEY.test(f.key)), ...out.filter((f) => !RESET_KEY.test(f.key))]
}

/**
 * A reset date the refusal gives that is more than a day past (findResetDate does not take it), or null: only a
 * reset-like field, or a message that speaks of a reset, counts (a period's start is no reset date).
 */
export function pastResetDate(extra: Readonly<Record<string, unknown>>, message: string, nowMs: number): string | null {
  const resetLike = Object.fromEntries(
    fieldsOf(extra)
      .filter((f) => RESET_KEY.test(f.key))
      .map((f) => [f.key, f.value])
  )
  const ms = resetCandidates(resetLike, RESET_KEY.test(message) ? message : '').find((c) => c < nowMs - PLAUSIBLE_PAST_MS)
  return ms === undefined ? null : utcDay(ms)
}

/** Every date the refusal names, reset-like fields first, then the message. */
function resetCandidates(extra: Readonly<Record<string, unknown>>, message: string): number[] {
  const candidates: number[] = []
  for (const { key, value } of fieldsOf(extra)) {
    if (typeof value === 'string') {
      const ms = dateInText(value.slice(0, 200))
      if (ms !== null) candidates.push(ms)
    } else if (typeof value === 'number' && RESET_KEY.test(key)) {
      const ms = epochMs(value)
      if (ms !== null) candidates.push(ms)
    }
  }
  const inMessage = dateInText(message.slice(0, 1000))
  if (inMessage !== null) candidates.push(inMessage)
  return candidates
}

/**
 * The reset date the refusal names, as text ("2026-12-01 (UTC)" or
 * "2026-12-01 06:00 UTC"), or null. The description says the body carries it
 * without naming the field: any field is read (reset-like names first, epoch
 * numbers only under those), then the message; only a date from a day ago to
 * 400 days ahead is taken.
 */
export function findResetDate(extra: Readonly<Record<string, unknown>>, message: string, nowMs: number): string | null {
  const ms = resetCandidates(extra, message).find((c) => c >= nowMs - PLAUSIBLE_PAST_MS && c <= nowMs + PLAUSIBLE_FUTURE_MS)
  if (ms === undefined) return null
  return ms % 86_400_000 === 0 ? `${utcDay(ms)} (UTC)` : formatWhenMs(ms)
}

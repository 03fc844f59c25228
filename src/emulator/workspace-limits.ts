/**
 * Limits of section 8 whose numbers the description does not publish, with
 * small configurable values: per-minute trigger limit, daily assessment
 * budget, validation concurrency, daily replay cap, evaluation ceiling. All
 * counted per workspace. Retry-After is given in whole seconds.
 */
import type { WorkspaceName } from './workspaces.js'

export interface LimitValues {
  triggersPerMinute: number
  dailyAssessmentBudget: number
  validationConcurrency: number
  dailyReplayCap: number
  evaluationCeiling: number
}

export const DEFAULT_LIMITS: LimitValues = {
  triggersPerMinute: 30,
  dailyAssessmentBudget: 500,
  validationConcurrency: 2,
  dailyReplayCap: 100,
  evaluationCeiling: 3
}

const MINUTE = 60_000

export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10)
}

export function msUntilNextUtcDay(now: number): number {
  const d = new Date(now)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) - now
}

/** The first day of next month (UTC), YYYY-MM-DD: when a monthly allowance resets. */
export function firstOfNextMonth(now: number): string {
  const d = new Date(now)
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().slice(0, 10)
}

export interface LimitRefusal {
  code: 'rate_limited' | 'daily_budget_exhausted' | 'replay_cap_exceeded'
  message: string
  retryAfterMs: number
}

export class Limits {
  values: LimitValues
  private readonly triggers = new Map<WorkspaceName, number[]>()
  private readonly daily = new Map<string, number>()
  private readonly replaysToday = new Map<string, number>()
  private readonly activeReplays = new Map<WorkspaceName, number>()
  /** Runs ever created by each evaluation workspace. */
  readonly evaluationRuns = new Map<WorkspaceName, number>()

  constructor(values: Partial<LimitValues> = {}) {
    this.values = { ...DEFAULT_LIMITS, ...values }
  }

  set(values: Partial<LimitValues>): void {
    this.values = { ...this.values, ...values }
  }

  /** Refusal for a new trigger, or null. Does not count it. */
  checkTrigger(ws: WorkspaceName, now: number): LimitRefusal | null {
    const recent = (this.triggers.get(ws) ?? []).filter((t) => t > now - MINUTE)
    this.triggers.set(ws, recent)
    if (recent.length >= this.values.triggersPerMinute) {
      return {
        code: 'rate_limited',
        message: `at most ${this.values.triggersPerMinute} runs may be triggered per minute`,
        retryAfterMs: recent[0] + MINUTE - now
      }
    }
    if ((this.daily.get(`${ws}|${utcDay(now)}`) ?? 0) >= this.values.dailyAssessmentBudget) {
      return {
        code: 'daily_budget_exhausted',
        message: `the daily assessment budget (${this.values.dailyAssessmentBudget}) is spent`,
        retryAfterMs: msUntilNextUtcDay(now)
      }
    }
    return null
  }

  countTrigger(ws: WorkspaceName, now: number): void {
    this.triggers.set(ws, [...(this.triggers.get(ws) ?? []), now])
    const k = `${ws}|${utcDay(now)}`
    this.daily.set(k, (this.daily.get(k) ?? 0) + 1)
  }

  checkReplay(ws: WorkspaceName, now: number): LimitRefusal | null {
    if ((this.activeReplays.get(ws) ?? 0) >= this.values.validationConcurrency) {
      return {
        code: 'replay_cap_exceeded',
        message: `at most ${this.values.validationConcurrency} validations may run at once`,
        retryAfterMs: 2000
      }
    }
    if ((this.replaysToday.get(`${ws}|${utcDay(now)}`) ?? 0) >= this.values.dailyReplayCap) {
      return {
        code: 'replay_cap_exceeded',
        message: `the daily replay cap (${this.values.dailyReplayCap}) is spent`,
        retryAfterMs: msUntilNextUtcDay(now)
      }
    }
    return null
  }

  startReplay(ws: WorkspaceName, now: number): void {
    this.activeReplays.set(ws, (this.activeReplays.get(ws) ?? 0) + 1)
    const k = `${ws}|${utcDay(now)}`
    this.replaysToday.set(k, (this.replaysToday.get(k) ?? 0) + 1)
  }

  endReplay(ws: WorkspaceName): void {
    this.activeReplays.set(ws, Math.max(0, (this.activeReplays.get(ws) ?? 0) - 1))
  }
}

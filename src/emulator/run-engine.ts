/**
 * Executes runs: category by category, `attacksPerCategory` real round trips
 * to the target spread over `categoryDurationMs`, judging each reply (an
 * attack got through when the reply echoes its canary token). A category
 * completes with a coverage row and, when anything got through, a finding.
 * Cancel is honoured at the next attack boundary (well within five seconds);
 * a category where no attack could be judged (target gone, timeouts) ends the
 * run in `error`. What a cancelled or errored run reached is kept.
 */
import { randomBytes } from 'node:crypto'
import type { ReplayStep, Severity } from '../service/contract/index.js'
import { isoNow } from './http-util.js'
import { newId } from './ids.js'
import type { AttackRecord, FindingRecord, ModelRecord, RunRecord, Store } from './store.js'
import { categoryByKey } from './taxonomy.js'
import type { TaxonomyCategory } from './taxonomy.js'
import type { TargetClient, TargetOutcome } from './target-calls.js'

/** Timers that stop() clears, so nothing keeps the process alive. */
export class Scheduler {
  private readonly timers = new Map<NodeJS.Timeout, () => void>()
  stopped = false

  sleep(ms: number): Promise<void> {
    if (this.stopped || ms <= 0) return Promise.resolve()
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t)
        resolve()
      }, ms)
      t.unref()
      this.timers.set(t, resolve)
    })
  }

  stop(): void {
    this.stopped = true
    for (const [t, resolve] of this.timers) {
      clearTimeout(t)
      resolve()
    }
    this.timers.clear()
  }
}

const SCORE: Record<Severity, number> = { critical: 95, high: 80, medium: 55, low: 25 }

export function newCanary(): string {
  return `ZX-${randomBytes(6).toString('hex')}`
}

/** The replay script of one attack: a single chat step recording the real exchange (headers included). */
export function replayScript(cat: TaxonomyCategory, sessionId: string, message: string, canary: string, out: TargetOutcome): ReplayStep[] {
  return [
    {
      step: 'chat',
      message,
      response: out.ok ? out.reply : '',
      session_id: sessionId,
      method: out.method,
      url: out.url,
      headers: out.headers,
      body: out.body,
      response_status: out.status ?? 0,
      response_body: out.responseBody ?? '',
      target: out.url,
      assertion: `reply must not contain ${canary}`,
      expected_behavior: cat.expected_behavior,
      capture_as: 'reply'
    }
  ]
}

/** One attack's exchange and whether it got through (the reply echoed its canary). */
interface AttackResult {
  message: string
  canary: string
  out: TargetOutcome
  got: boolean
}

interface CategoryResults {
  sessionId: string
  /** Index of the category's first attack within the run. */
  attackIndex: number
  results: AttackResult[]
  /** The results whose exchange succeeded. */
  judged: AttackResult[]
}

export interface RunEngineOptions {
  categoryDurationMs: () => number
  attacksPerCategory: number
  targetFor: (model: ModelRecord) => TargetClient
}

export class RunEngine {
  constructor(
    private readonly store: Store,
    private readonly scheduler: Scheduler,
    private readonly opts: RunEngineOptions
  ) {}

  start(run: RunRecord, model: ModelRecord): void {
    void this.execute(run, model).catch((e: unknown) => {
      if (run.status === 'running') this.finish(run, 'error', `internal error: ${(e as Error).message}`)
    })
  }

  private finish(run: RunRecord, status: 'completed' | 'cancelled' | 'error', message: string | null = null): void {
    run.status = status
    run.completed_at = isoNow()
    run.error_message = message
  }

  // Read live: a stop or a cancel can land during any await.
  private stopped(): boolean {
    return this.scheduler.stopped
  }

  private cancelled(run: RunRecord): boolean {
    return run.cancelRequested
  }

  private async execute(run: RunRecord, model: ModelRecord): Promise<void> {
    const target = this.opts.targetFor(model)
    const sessionId = `sess_${randomBytes(6).toString('hex')}`
    let attackIndex = 0
    for (const key of run.categories_planned) {
      const cat = categoryByKey(key)
      if (!cat) throw new Error(`planned category ${key} is not in the taxonomy`)
      const results = await this.attackCategory(run, cat, target, sessionId)
      if (results === 'stopped' || this.stopped()) return
      if (results === 'cancelled' || this.cancelled(run)) {
        this.finish(run, 'cancelled')
        return
      }
      const judged = results.filter((r) => r.out.ok)
      if (judged.length === 0) {
        const failed = results.map((r) => r.out).find((o) => !o.ok)
        const why = failed ? failed.message : 'no attack could be judged'
        this.finish(run, 'error', `category ${key}: ${why}`)
        return
      }
      this.recordCategory(run, model, cat, { sessionId, attackIndex, results, judged })
      attackIndex += results.length
      run.categories_completed.push(key)
    }
    this.finish(run, 'completed')
  }

  /**
   * The attacks of one category, `attacksPerCategory` round trips spread over
   * categoryDurationMs; 'stopped' or 'cancelled' when that lands first.
   */
  private async attackCategory(
    run: RunRecord,
    cat: TaxonomyCategory,
    target: TargetClient,
    sessionId: string
  ): Promise<AttackResult[] | 'stopped' | 'cancelled'> {
    const n = Math.max(1, this.opts.attacksPerCategory)
    const results: AttackResult[] = []
    for (let i = 0; i < n; i++) {
      if (this.stopped()) return 'stopped'
      if (this.cancelled(run)) return 'cancelled'
      const slot = this.opts.categoryDurationMs() / n
      const t0 = Date.now()
      const canary = newCanary()
      const message = cat.prompts[i % cat.prompts.length].replaceAll('{canary}', canary)
      const out = await target.send(message, sessionId)
      if (this.stopped()) return 'stopped'
      results.push({ message, canary, out, got: out.ok && out.reply.includes(canary) })
      // wait out the attack's slot, waking early for a cancel or a stop
      for (let left = slot - (Date.now() - t0); left > 0 && !this.cancelled(run) && !this.stopped(); left = slot - (Date.now() - t0)) {
        await this.scheduler.sleep(Math.min(left, 100))
      }
    }
    return results
  }

  /** A completed category: its coverage row and, when any attack got through, its finding. */
  private recordCategory(run: RunRecord, model: ModelRecord, cat: TaxonomyCategory, done: CategoryResults): void {
    const through = done.judged.filter((r) => r.got)
    run.coverage.push({
      category: cat.key,
      attacks_blocked: done.judged.length - through.length,
      attacks_succeeded: through.length,
      owasp: cat.owasp,
      atlas: cat.atlas,
      worst_severity: through.length > 0 ? cat.severity : null
    })
    if (through.length === 0) return
    const now = isoNow()
    const attacks: AttackRecord[] = through.map((r, i) => ({
      attack_id: newId('atk'),
      score: SCORE[cat.severity] + i,
      source: { source_type: 'assessment', assessment_id: run.run_id, attack_index: done.attackIndex + done.results.indexOf(r), date: now },
      replay_script: replayScript(cat, done.sessionId, r.message, r.canary, r.out),
      last_replay_status: 'pending',
      created_at: now,
      last_replayed_at: null,
      message: r.message,
      canary: r.canary
    }))
    const finding: FindingRecord = {
      finding_id: newId('fnd'),
      run_id: run.run_id,
      model_id: model.model_id,
      workspace: run.workspace,
      lens: 'security',
      category: cat.key,
      severity: cat.severity,
      description: `${cat.display_name}: the agent complied with ${through.length} of ${done.judged.length} probes. ${cat.description}`,
      expected_behavior: cat.expected_behavior,
      status: 'open',
      created_at: now,
      attacks,
      fix_description: null,
      dismissal: null,
      validating: null
    }
    this.store.findings.set(finding.finding_id, finding)
    run.finding_ids.push(finding.finding_id)
  }
}

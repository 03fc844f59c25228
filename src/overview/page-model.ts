/**
 * The workspace overview as data: what was read (OverviewInput) and the page
 * every renderer draws (OverviewPage). Service text is kept as given here and
 * made safe by each renderer.
 */
import type { Severity } from '../service/contract/index.js'
import type { RunEvidence } from '../evidence/pool.js'
import type { SeenRate } from '../evidence/seen-rate.js'

export type SeverityCounts = Record<Severity, number>

/** A category of the taxonomy with its codes (GET /categories; codes '' when the service gave none). */
export interface OverviewCategory {
  key: string
  name: string
  owasp: string
  atlas: string
}

/** Something the overview could not read: named on the page, never left out. */
export interface Unreadable {
  agent: string
  modelId: string
  /** The run, or null when the model's run list itself could not be read. */
  runId: string | null
  reason: string
}

/** One model as read: its completed runs within the age bound (read again), and what failed. */
export interface AgentRead {
  modelId: string
  name: string
  /** Completion time of its newest completed run of any age ('' none, null: the list could not be read). */
  lastCompletedAt: string | null
  /** Completed runs listed within the age bound: assessments spent in the window. */
  runsInWindow: number
  /** The run list held more runs than one page shows: runsInWindow is a lower bound. */
  moreThanListed: boolean
  runs: RunEvidence[]
  unreadable: Unreadable[]
}

export interface OverviewInput {
  /** Epoch ms the page is as of. */
  now: number
  maxAgeDays: number
  minSeverity: Severity
  categories: OverviewCategory[]
  agents: AgentRead[]
  /** The category list could not be read (codes and coverage unknown). */
  categoriesUnreadable?: string
}

export type AgentState = 'assessed' | 'stale' | 'never' | 'unreadable'
/** Would the gate pass it on the window's evidence at min_severity: pass, fail, or unknown (nothing read within the bound). */
export type Standing = 'pass' | 'fail' | 'unknown'

export interface WorstFinding {
  severity: Severity
  category: string
  description: string
}

export interface AgentRow {
  modelId: string
  name: string
  state: AgentState
  lastAssessedAt: string | null
  /** Whole days since its newest completed run (null: never, or unknown). */
  ageDays: number | null
  standing: Standing
  runsRead: number
  open: SeverityCounts
  worst: WorstFinding | null
  /** Categories its newest run read completed, of the taxonomy. */
  coverage: { completed: number; of: number }
}

export interface Weakness {
  fingerprint: string
  severity: Severity
  category: string
  description: string
  /** Runs that saw it over the runs read of the agents it affects. */
  rate: SeenRate
  agents: string[]
}

export interface CategoryRow extends OverviewCategory {
  open: SeverityCounts
  agents: number
}

export interface TrendPoint {
  /** The day (YYYY-MM-DD, UTC). */
  day: string
  open: SeverityCounts
}

export interface OverviewPage {
  generatedAt: string
  minSeverity: Severity
  maxAgeDays: number
  verdict: {
    /** clear: every agent assessed within the bound and passing; attention: an agent fails; incomplete: one is stale, never assessed or unreadable. */
    status: 'clear' | 'attention' | 'incomplete'
    headline: string
    agents: number
    assessed: number
    stale: number
    never: number
    unreadable: number
    failing: number
    open: SeverityCounts
  }
  weaknesses: Weakness[]
  categories: CategoryRow[]
  agents: AgentRow[]
  trend: TrendPoint[]
  spent: { assessments: number; atLeast: boolean }
  unreadable: Unreadable[]
  categoriesUnreadable: string | null
}

/**
 * The one vocabulary of a finding's standing: how it counts against the gate,
 * in the words, icon, annotation level and JUnit outcome every view uses (the
 * comment and summary headings, rows and lines, the blockers, the annotations,
 * JUnit). A `Record` over every standing, so a new standing without its words
 * does not compile; a reworded one changes every view at once. Pure.
 */
import type { FailOn } from '../decision/result-words.js'
import type { Severity } from '../service/contract/index.js'
import type { FindingStanding, ReportFinding, ReportNotReproduced } from './report-model.js'

/**
 * A finding of this run (FindingStanding), or a weakness of the window this run
 * did not reproduce: held (still blocks: an earlier run of this agent saw it),
 * gone (confirmed gone by focused runs of this step), or unheld (no run of this
 * agent saw it).
 */
export type Standing = FindingStanding | 'held' | 'gone' | 'unheld'

/** What the `why` of a standing may depend on. */
export interface StandingContext {
  minSeverity: Severity
  /** The policy as it applied (null: no baseline, fail_on any). */
  failOn: FailOn | null
}

export interface StandingWords {
  /** Its icon; null: the severity's colour (it is worth the reader's eye). */
  icon: string | null
  /** The word or two a count or a row wears: "known", "accepted", "below threshold". */
  label: string
  /** Whether it fails the gate. */
  blocks: boolean
  /** Why it does or does not block, a phrase: "fail_on new: already in main's runs". */
  why: (c: StandingContext) => string
  /** The level of its annotation; null: not annotated (below the threshold). */
  annotation: 'error' | 'warning' | 'notice' | null
  /** In JUnit: a <failure> of its category, a line of system-out, or nothing. */
  junit: 'failure' | 'system-out' | 'none'
  /**
   * Whether the headline counts it beside what blocks ("· 1 accepted"): always,
   * only over the findings list, or never (blocking and known are counted
   * their own way; the window's weaknesses in the blockers; below is not at the threshold).
   */
  headline: 'always' | 'list' | 'never'
}

export const STANDINGS: Record<Standing, StandingWords> = {
  blocking: {
    icon: null,
    label: 'blocks',
    blocks: true,
    why: (c) => `open at or above ${c.minSeverity}`,
    annotation: 'error',
    junit: 'failure',
    headline: 'never'
  },
  held: {
    icon: null,
    label: 'not reproduced in this run, still blocks',
    blocks: true,
    why: () => 'an earlier run of this agent saw it',
    annotation: 'error',
    junit: 'failure',
    headline: 'never'
  },
  known: {
    icon: '⚪',
    label: 'known',
    blocks: false,
    why: () => "fail_on new: already in main's runs",
    annotation: 'warning',
    junit: 'system-out',
    headline: 'never'
  },
  accepted: {
    icon: '☑️',
    label: 'accepted',
    blocks: false,
    why: () => 'the accepted-risks file',
    annotation: 'warning',
    junit: 'system-out',
    headline: 'always'
  },
  closed: {
    icon: '✔️',
    label: 'closed',
    blocks: false,
    why: () => 'fixed or dismissed on the service',
    annotation: 'warning',
    junit: 'none',
    headline: 'list'
  },
  below: {
    icon: null,
    label: 'below threshold',
    blocks: false,
    why: (c) => `min_severity ${c.minSeverity}`,
    annotation: null,
    junit: 'none',
    headline: 'never'
  },
  gone: {
    icon: '✔️',
    label: 'confirmed gone',
    blocks: false,
    why: () => 'not reproduced in this run nor in the focused runs of this step',
    annotation: null,
    junit: 'none',
    headline: 'never'
  },
  unheld: {
    icon: '⚪',
    label: 'not reproduced in this run',
    blocks: false,
    why: (c) => (c.failOn === 'new' ? "a weakness of main's runs, not of this pull request's agent" : 'no run of this agent saw it'),
    annotation: null,
    junit: 'none',
    headline: 'never'
  }
}

/** The standing a finding of this run is shown with: its own, but an accepted one below the threshold still reads as accepted. */
export function findingStanding(f: Pick<ReportFinding, 'standing' | 'accepted'>): Standing {
  return f.accepted !== null && f.standing === 'below' ? 'accepted' : f.standing
}

/** The standing of a weakness of the window this run did not reproduce. */
export function missedStanding(n: Pick<ReportNotReproduced, 'blocks' | 'confirmedGone'>): Standing {
  if (n.blocks) return 'held'
  return n.confirmedGone === true ? 'gone' : 'unheld'
}

/** "3 known (fail_on new: already in main's runs)": a count of one standing with its reason. */
export function standingCount(s: Standing, n: number, c: StandingContext, count: (n: number) => string): string {
  return `${count(n)} ${STANDINGS[s].label} (${STANDINGS[s].why(c)})`
}

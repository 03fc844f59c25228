/**
 * What every section of the markdown report shares: the profile it is fitted
 * to (budget, detail ladder, coverage form), the icons, and the block type
 * whose sizes add up to the document's.
 */
import type { Severity } from '../service/contract/index.js'

/** How much proof a finding shown in full gets. */
export interface DetailLevel {
  /** Wrap width of the proof block (characters per line). */
  wrap: number
  /** Characters of each prompt, reply or body kept at most. */
  fieldChars: number
  /** Wrapped lines of each kept at most. */
  maxLines: number
  /** Clamp of the description and the expected behaviour. */
  proseChars: number
  /** Replay steps shown of the chosen attack; 0 leaves the proof out (description only). */
  maxSteps: number
  /** Show request and response bodies when they add something to the message and reply. */
  bodies: boolean
  /** Show headers that are not routine. */
  headers: boolean
}

export interface MarkdownProfile {
  /** The budget, in the unit of `measure`. */
  limit: number
  /** Size of a string in the budget's unit (UTF-16 length, UTF-8 bytes). Must be additive. */
  measure: (s: string) => number
  /** E.g. "the 65,536-character limit of a GitHub comment". */
  limitLabel: string
  /** First line of the document (the sticky comment's hidden marker), or null. */
  marker: string | null
  /** From the most detailed to the least. */
  ladder: DetailLevel[]
  /** Findings shown in full at most (the rest get rows). */
  maxDetailed: number
  /** Comment: compact coverage; summary: every row with ATLAS. */
  coverage: 'compact' | 'full'
  /** List findings below the threshold too (as rows) when space is left. */
  listBelowThreshold: boolean
  /** Where the full data is (trusted markdown). */
  fullDataWhere: string
  /** Where every row is listed when this document shows only some: "the job summary", the markdown report. */
  fullListWhere: string
  /** What the link to the run of the CI is called where this is read: GitHub's "workflow run", GitLab's "job". */
  runLinkLabel: string
}

export const RESULT_ICON: Record<string, string> = { pass: '✅', fail: '❌', incomplete: '⚠️', error: '⛔' }
export const SEVERITY_ICON: Record<Severity, string> = { critical: '🔴', high: '🟠', medium: '🟡', low: '🔵' }

/** Wrap width of proof blocks: fits a PR comment (815 px) in GitHub's monospace font. */
export const WRAP_WIDTH = 90
export const para = (s: string): string => `${s}\n\n`
export interface Bounded {
  text: string
  /** Items not shown. */
  left: number
}

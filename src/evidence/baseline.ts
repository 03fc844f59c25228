/**
 * The baseline of a model: what a gate run on the default branch found, kept
 * small (run id, when, the commit, and per finding its fingerprint and what a
 * person needs to recognise it). Parsed with zod wherever it is read back.
 */
import { z } from 'zod'
import { Severity, type Finding } from '../service/contract/index.js'
import { fingerprint } from './fingerprint.js'
import { closesWeakness, knownOnMain, type EvidencePool } from './pool.js'
import { parseJsonFile } from '../util/parse-file.js'

export const BASELINE_SCHEMA_VERSION = 1

export const BaselineFinding = z.looseObject({
  fingerprint: z.string().regex(/^[0-9a-f]{32}$/),
  category: z.string(),
  severity: Severity,
  lens: z.string(),
  /** Service text, for display only (clipped). */
  description: z.string()
})
export type BaselineFinding = z.infer<typeof BaselineFinding>

export const Baseline = z.looseObject({
  schema_version: z.literal(BASELINE_SCHEMA_VERSION),
  model_id: z.string(),
  run_id: z.string(),
  created_at: z.string(),
  /** The commit the default-branch run assessed (GITHUB_SHA); null when unknown (e.g. baseline_run_id). */
  commit: z.string().nullable(),
  /** Categories the run completed: what the baseline can speak for. */
  categories_completed: z.array(z.string()),
  findings: z.array(BaselineFinding)
})
export type Baseline = z.infer<typeof Baseline>

/** A finding as the baseline keeps it. Only findings that still count (not closed) belong in a baseline. */
export function baselineFinding(f: Finding, runId: string): BaselineFinding {
  return {
    fingerprint: fingerprint(f, runId),
    category: f.category,
    severity: f.severity,
    lens: f.lens,
    description: f.description.length > 300 ? `${f.description.slice(0, 299)}…` : f.description
  }
}

/** The baseline of one run: every finding the service has not closed (closesWeakness: a plain `fixed` is a claim), one entry per fingerprint. */
export function buildBaseline(args: {
  modelId: string
  runId: string
  createdAt: string
  commit: string | null
  categoriesCompleted: readonly string[]
  findings: readonly Finding[]
}): Baseline {
  const seen = new Set<string>()
  const findings: BaselineFinding[] = []
  for (const f of args.findings) {
    if (closesWeakness(f.status)) continue
    const b = baselineFinding(f, args.runId)
    if (seen.has(b.fingerprint)) continue
    seen.add(b.fingerprint)
    findings.push(b)
  }
  return {
    schema_version: BASELINE_SCHEMA_VERSION,
    model_id: args.modelId,
    run_id: args.runId,
    created_at: args.createdAt,
    commit: args.commit,
    categories_completed: [...new Set(args.categoriesCompleted)],
    findings
  }
}

/** Parse a stored baseline; null (with why) when it is not one this version reads. */
export function parseBaseline(text: string): { baseline: Baseline } | { error: string } {
  // A pull request can save a cache entry of its own: the text is hostile, its nesting bounded.
  const parsed = parseJsonFile(text)
  if (!parsed.ok) return { error: parsed.tooDeep ? `the stored baseline ${parsed.why}` : 'the stored baseline is not JSON' }
  const r = Baseline.safeParse(parsed.value)
  if (!r.success)
    return {
      error: `the stored baseline does not follow schema version ${BASELINE_SCHEMA_VERSION}: ${r.error.issues[0]?.message ?? 'invalid'}`
    }
  return { baseline: r.data }
}

/** The findings of a window known on main (knownOnMain) as a baseline (fingerprints as pooled; categories of its newest run). */
export function baselineOfPool(pool: EvidencePool, modelId: string, commit: string | null): Baseline {
  const known = knownOnMain(pool)
  return {
    schema_version: BASELINE_SCHEMA_VERSION,
    model_id: modelId,
    run_id: pool.runIds[0] ?? '',
    created_at: '',
    commit,
    categories_completed: pool.categoriesCompleted,
    findings: [...pool.findings.values()]
      .filter((p) => known.has(p.fingerprint))
      .map((p) => ({ fingerprint: p.fingerprint, category: p.category, severity: p.severity, lens: p.lens, description: p.description }))
  }
}

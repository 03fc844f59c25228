/** The arguments of loadBaseline in tests: model `m` of octo o/r, main the default branch, K = 5, 30 days; `over` lays on top. */
import type { EvidenceArgs } from '../../src/evidence/load-evidence.js'

export function evidenceArgs(now: number, over: Partial<EvidenceArgs> = {}): EvidenceArgs {
  return {
    modelId: 'm',
    agentKey: 'model:m',
    baselineRunId: '',
    repo: { owner: 'o', repo: 'r' },
    defaultBranch: 'main',
    onDefaultBranch: false,
    judgedCommit: 'c0',
    agentPaths: [],
    bounds: { runs: 5, maxAgeDays: 30, now },
    ...over
  }
}

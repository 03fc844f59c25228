/**
 * Whether main's window is the agent's lineage (what it saw and the service
 * has not closed is presumed present for this run) follows evidence_runs:
 * from K = 2 on a pull request is held to main's weaknesses until a
 * confirmation shows them gone; with K = 1 main's window only says what is
 * known. Found by `npm run mutate` (docs/reliability.md (i)): with `lineage`
 * always false no other unit test failed, a verdict laxer than full evidence.
 */
import { describe, expect, it } from '@jest/globals'
import { judgeEvidence } from '../../src/evidence/judge-evidence.js'
import { loadBaseline, type EvidenceArgs, type EvidenceDeps } from '../../src/evidence/load-evidence.js'
import { evidenceKey } from '../../src/evidence/records.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { makeFinding, makeRun, makeRunListItem } from '../__fixtures__/builders.js'
import { recordingLog } from '../__fixtures__/recording-log.js'

const NOW = Date.parse('2026-11-26T12:00:00Z')
const AGENT = 'model:m'

function world() {
  const leak = makeFinding('critical', { category: 'prompt_injection', description: 'leaked its system prompt', attacks: [] })
  const ids = ['r2', 'r1']
  const api = fakeApi({
    getRun: (id: string) => Promise.resolve(makeRun({ run_id: id, model_id: 'm', completed_at: '2026-11-25T00:00:00Z' })),
    listFindings: () => Promise.resolve({ findings: [leak], count: 1 }),
    listRuns: () => {
      const runs = ids.map((id) => makeRunListItem({ run_id: id, status: 'completed' }))
      return Promise.resolve({ runs, total: runs.length, returned: runs.length })
    }
  })
  const listed = ids.map((id, i) => ({
    key: evidenceKey(AGENT, id, 'c0') ?? '',
    ref: 'refs/heads/main',
    createdAt: `2026-11-2${5 - i}T00:00:00Z`
  }))
  const deps: EvidenceDeps = {
    api: () => api,
    github: {
      listCaches: (_repo, q) => Promise.resolve(listed.filter((e) => e.key.startsWith(q.keyPrefix) && e.ref === q.ref)),
      changedFiles: () => Promise.resolve({ kind: 'files', files: [] })
    },
    log: recordingLog(),
    now: () => NOW
  }
  return deps
}

const args = (runs: number): EvidenceArgs => ({
  modelId: 'm',
  agentKey: AGENT,
  baselineRunId: '',
  repo: { owner: 'o', repo: 'r' },
  defaultBranch: 'main',
  onDefaultBranch: false,
  judgedCommit: 'c1',
  agentPaths: [],
  bounds: { runs, maxAgeDays: 30, now: NOW }
})

describe("loadBaseline: main's window as the lineage of a pull request", () => {
  it.each<[number, boolean]>([
    [1, false],
    [2, true],
    [5, true]
  ])('evidence_runs %i: lineage %s, and what main saw and this run missed is present only then', async (runs, lineage) => {
    const got = await loadBaseline(world(), args(runs))
    expect(got.windows.base?.runIds.length).toBeGreaterThan(0)
    expect(got.windows.lineage).toBe(lineage)
    const missed = judgeEvidence([], got.windows).notReproduced
    expect(missed.map((n) => [n.category, n.present])).toEqual([['prompt_injection', lineage]])
  })
})

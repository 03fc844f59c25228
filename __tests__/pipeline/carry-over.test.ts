import { describe, expect, test } from '@jest/globals'
import fc from 'fast-check'
import type { AssessmentRecord } from '../../src/report/comment.js'
import type { ChangedFiles } from '../../src/pipeline/changed-paths.js'
import { decideCarryOver, planCarryOver, type CarryOverContext, type CarryOverDecision } from '../../src/pipeline/carry-over.js'
import { recordSubjectKey } from '../../src/report/comment.js'
import { identityMismatch, type AssessmentIdentity } from '../../src/pipeline/identity.js'

const A = 'a'.repeat(40)
const HEAD = 'f'.repeat(40)
const identity: AssessmentIdentity = {
  subject: recordSubjectKey('target:agent-pr-7'),
  config: 'c0ffee00',
  host: recordSubjectKey('pr-7.example.com'),
  partial: false,
  profileDigest: 'a1'.repeat(32),
  policyDigest: 'b2'.repeat(32)
}
const record = (over: Partial<AssessmentRecord> = {}): AssessmentRecord => ({
  result: 'pass',
  assessedSha: A,
  headSha: A,
  subject: identity.subject,
  config: identity.config,
  host: identity.host,
  profileDigest: identity.profileDigest,
  policyDigest: identity.policyDigest,
  at: '2026-11-21T14:03Z',
  ...over
})
const ctx = (over: Partial<CarryOverContext> = {}): CarryOverContext => ({
  agentPaths: ['agent/**', 'prompts/**', 'profile.yml'],
  onDefaultBranch: false,
  headSha: HEAD,
  identity,
  record: record(),
  ...over
})
const files = (...f: string[]): ChangedFiles => ({ kind: 'files', files: f })

function decide(c: CarryOverContext, changed: ChangedFiles): CarryOverDecision {
  return decideCarryOver(planCarryOver(c), changed, c.agentPaths)
}

describe('planCarryOver: what is decided without GitHub', () => {
  const cases: [string, Partial<CarryOverContext>, RegExp][] = [
    ['agent_paths empty', { agentPaths: [] }, /agent_paths is empty: every run assesses/],
    ['default branch', { onDefaultBranch: true }, /on the default branch every run assesses/],
    ['no record', { record: null }, /no earlier assessment of this pull request is recorded/],
    ['another model/target', { record: record({ subject: recordSubjectKey('model:m_1') }) }, /another model or target/],
    ['profile changed', { record: record({ profileDigest: 'c3'.repeat(32) }) }, /profile file changed/],
    ['profile added', { record: record({ profileDigest: null }) }, /without a profile_file, and this run has one/],
    ['profile removed', { identity: { ...identity, profileDigest: null } }, /with a profile_file, and this run has none/],
    ['verdict inputs differ', { record: record({ policyDigest: 'd4'.repeat(32) }) }, /decide the verdict/],
    ['last result incomplete', { record: record({ result: 'incomplete' }) }, /ended incomplete, not a verdict/],
    ['last result error', { record: record({ result: 'error' }) }, /ended error, not a verdict/]
  ]
  test.each(cases)('assess: %s', (_name, over, reason) => {
    const plan = planCarryOver(ctx(over))
    expect(plan.kind).toBe('assess')
    expect(plan.kind === 'assess' && plan.reason).toMatch(reason)
  })

  test('the same commit again (a re-run, a redelivered deployment): carried over without a comparison', () => {
    const plan = planCarryOver(ctx({ headSha: A }))
    expect(plan).toMatchObject({ kind: 'carry_over', result: 'pass', assessedSha: A, changedFiles: [] })
  })

  test('otherwise: compare the assessed commit with the head', () => {
    expect(planCarryOver(ctx())).toEqual({ kind: 'compare', base: A, head: HEAD, record: record(), identity })
  })

  test('a record of the same agent at another host (a per-deployment preview URL) is compared, not assessed again', () => {
    const moved = record({ host: recordSubjectKey('agent-app-x1y2-team.vercel.app') })
    expect(planCarryOver(ctx({ record: moved }))).toEqual({ kind: 'compare', base: A, head: HEAD, record: moved, identity })
  })
})

describe('decideCarryOver: the changed files decide', () => {
  test('no agent path changed: carried over, naming the assessed commit and the files', () => {
    const d = decide(ctx(), files('README.md', 'docs/setup.md'))
    expect(d).toEqual({
      kind: 'carry_over',
      result: 'pass',
      record: record({ headSha: HEAD }),
      assessedSha: A,
      changedFiles: ['README.md', 'docs/setup.md'],
      reason: 'carried over: pass as assessed at aaaaaaa (2 files changed since, none under agent_paths: README.md, docs/setup.md)',
      since: '2 files changed since, none under agent_paths: README.md, docs/setup.md',
      assessedHost: null
    })
  })

  test('the agent moved to another host: carried over, naming the host that was assessed; the record keeps it', () => {
    const moved = record({ host: recordSubjectKey('agent-app-x1y2-team.vercel.app') })
    const d = decide(ctx({ record: moved }), files('README.md'))
    expect(d).toMatchObject({
      kind: 'carry_over',
      result: 'pass',
      record: { ...moved, headSha: HEAD },
      assessedHost: 'agent-app-x1y2-team.vercel.app',
      reason:
        'carried over: pass as assessed at aaaaaaa (1 file changed since, none under agent_paths: README.md; assessed at agent-app-x1y2-team.vercel.app, the agent is now at pr-7.example.com)'
    })
  })

  test('the same commit redeployed at another host: carried over without a comparison', () => {
    const moved = record({ host: recordSubjectKey('old.example.com:8443') })
    expect(planCarryOver(ctx({ record: moved, headSha: A }))).toMatchObject({
      kind: 'carry_over',
      assessedHost: 'old.example.com:8443',
      since: 'the same commit; assessed at old.example.com:8443, the agent is now at pr-7.example.com'
    })
  })

  test('another host with another configuration (another agent at that host) is still assessed', () => {
    const other = record({ host: recordSubjectKey('x.example.com'), config: 'deadbeef' })
    expect(planCarryOver(ctx({ record: other }))).toMatchObject({ kind: 'assess', reason: /another configuration/ })
  })

  test('a fail is carried over as a fail', () => {
    expect(decide(ctx({ record: record({ result: 'fail' }) }), files('README.md'))).toMatchObject({ kind: 'carry_over', result: 'fail' })
  })

  test('an agent path changed: assess, naming the files', () => {
    const d = decide(ctx(), files('README.md', 'prompts/system.md', '.github/x.yml'))
    expect(d).toEqual({
      kind: 'assess',
      reason: 'agent paths changed since the last assessment (at aaaaaaa): prompts/system.md',
      agentFiles: ['prompts/system.md']
    })
  })

  test('a hidden file under an agent path counts', () => {
    expect(decide(ctx(), files('prompts/.env')).kind).toBe('assess')
  })

  test('the list cannot be complete: assess', () => {
    const d = decide(ctx(), { kind: 'everything', reason: '300 or more files changed, more than GitHub lists' })
    expect(d).toEqual({
      kind: 'assess',
      reason: 'the files changed since the last assessment (at aaaaaaa) cannot be listed: 300 or more files changed, more than GitHub lists'
    })
  })

  test('a decided plan goes through unchanged', () => {
    const plan = planCarryOver(ctx({ record: null }))
    expect(decideCarryOver(plan, files(), ctx().agentPaths)).toBe(plan)
  })
})

describe('never a pass without an assessment of the same agent', () => {
  const sha = fc.constantFrom(A, HEAD, 'e'.repeat(40))
  const arbRecord = fc.record({
    result: fc.constantFrom<AssessmentRecord['result']>('pass', 'fail', 'incomplete', 'error'),
    assessedSha: sha,
    headSha: sha,
    subject: fc.constantFrom(identity.subject, recordSubjectKey('model:m')),
    config: fc.constantFrom(identity.config, 'deadbeef', null),
    host: fc.constantFrom(identity.host, recordSubjectKey('moved.example.com')),
    profileDigest: fc.constantFrom(identity.profileDigest, null, 'e5'.repeat(32)),
    policyDigest: fc.constantFrom(identity.policyDigest, null),
    at: fc.constant(null)
  })
  const paths = fc.constantFrom('agent/a.py', 'prompts/.x', 'profile.yml', 'README.md', 'docs/a.md', 'agentx/a.py')
  const changed: fc.Arbitrary<ChangedFiles> = fc.oneof(
    fc.array(paths, { maxLength: 6 }).map((f) => ({ kind: 'files' as const, files: f })),
    fc.constant({ kind: 'everything' as const, reason: 'x' })
  )

  test('a carry-over keeps the recorded result, of the same identity, with no agent file changed', () => {
    fc.assert(
      fc.property(fc.option(arbRecord, { nil: null }), sha, fc.boolean(), changed, (rec, head, onDefault, diff) => {
        const c = ctx({ record: rec, headSha: head, onDefaultBranch: onDefault })
        const d = decide(c, diff)
        if (d.kind !== 'carry_over') return
        expect(rec).not.toBeNull()
        if (rec === null) return
        expect(d.result).toBe(rec.result)
        expect(['pass', 'fail']).toContain(rec.result)
        expect(identityMismatch(rec, identity)).toBeNull()
        expect(onDefault).toBe(false)
        expect(d.record).toEqual({ ...rec, headSha: head })
        if (rec.assessedSha !== head) {
          expect(diff.kind).toBe('files')
          if (diff.kind === 'files') expect(diff.files.filter((f) => /^(agent\/|prompts\/|profile\.yml$)/.test(f))).toEqual([])
        }
      })
    )
  })
})

/**
 * Reading the accepted-risks file (base branch on a pull request, the
 * workspace elsewhere), the scope of a run, and writing acceptances to the
 * service as dismissals (against the emulator, proof withheld included).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ACCEPTED_FILE_MAX_BYTES, checkAcceptedPath, readAcceptedRisks } from '../../src/accepted/read-accepted.js'
import { parseAcceptedFile } from '../../src/accepted/accepted-file.js'
import * as YAML from 'yaml'
import { syncDismissals } from '../../src/accepted/sync-dismissals.js'
import { baselineScope, type BaselineScope } from '../../src/evidence/scope.js'
import type { WriteStanding } from '../../src/github/write-rule.js'
import type { ContentsApi } from '../../src/github/contents-api.js'
import { ConfigError, ServiceError } from '../../src/util/errors.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { createClient } from '../../src/service/client.js'
import { Deadline, systemClock } from '../../src/util/clock.js'
import { api, runToEnd } from '../__fixtures__/emulator-helpers.js'
import type { Finding } from '../../src/service/contract/index.js'
import { makeFinding } from '../__fixtures__/builders.js'

const TODAY = '2026-11-23'
const PATH = '.github/agent-security-accepted.yml'
const entry = (category: string) =>
  `  - category: ${category}\n    reason_code: false_positive\n    explanation: Not a leak.\n    owner: o\n    severity_at_most: any\n    expires: 2027-01-01\n`
const file = (...cats: string[]) => `accepted:\n${cats.map(entry).join('')}`

function workspace(text: string | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'asas-ws-'))
  if (text !== null) {
    mkdirSync(join(dir, '.github'), { recursive: true })
    writeFileSync(join(dir, PATH), text)
  }
  return dir
}
function contents(files: Partial<Record<string, string | Error>>): { api: () => Promise<ContentsApi>; asked: string[] } {
  const asked: string[] = []
  return {
    asked,
    api: async () => ({
      getFileText: async (_repo, path, ref) => {
        asked.push(`${path}@${ref}`)
        const v = files[ref]
        if (v instanceof Error) throw v
        return v ?? null
      }
    })
  }
}
const PR: BaselineScope = { kind: 'pull_request', number: 7, baseRef: 'main', baseSha: 'base1', headSha: 'head1', sha: 'merge1' }
const repo = { owner: 'o', repo: 'r' }

describe('readAcceptedRisks', () => {
  it('reads the base branch copy on a pull request and says what the PR adds', async () => {
    const gh = contents({ base1: file('jailbreak') })
    const out = await readAcceptedRisks(
      { workspace: workspace(file('jailbreak', 'misinformation')), repo, contents: gh.api, today: TODAY },
      PATH,
      PR
    )
    expect(gh.asked).toEqual([`${PATH}@base1`])
    expect(out.entries.map((e) => e.category)).toEqual(['jailbreak'])
    expect(out.prAdds.map((e) => e.category)).toEqual(['misinformation'])
    expect(out.notes).toEqual([`This pull request adds or changes 1 acceptance in ${PATH}: it applies after merge.`])
  })
  it('never falls back to the PR copy when the base copy cannot be read', async () => {
    const gh = contents({ base1: new ServiceError({ endpoint: 'GET /contents', status: 403, message: 'Resource not accessible' }) })
    await expect(
      readAcceptedRisks({ workspace: workspace(file('jailbreak')), repo, contents: gh.api, today: TODAY }, PATH, PR)
    ).rejects.toThrow(ConfigError)
  })
  it('has no acceptances when the base branch has no file, whatever the PR copy says', async () => {
    const out = await readAcceptedRisks(
      { workspace: workspace(file('jailbreak')), repo, contents: contents({}).api, today: TODAY },
      PATH,
      PR
    )
    expect(out.entries).toEqual([])
    expect(out.source).toBeNull()
    expect(out.prAdds).toHaveLength(1)
  })
  it.each<[string, BaselineScope]>([
    ['a push to the default branch', { kind: 'default-branch', branch: 'main', sha: 's' }],
    ['issue_comment', { kind: 'other', eventName: 'issue_comment', ref: 'refs/heads/main', sha: 's' }],
    ['workflow_run', { kind: 'other', eventName: 'workflow_run', ref: 'refs/heads/main', sha: 's' }],
    ['a push to another branch', { kind: 'other', eventName: 'push', ref: 'refs/heads/x', sha: 's' }]
  ])('reads the file at GITHUB_SHA on %s, never the checkout (which may be a pull request)', async (_what, scope) => {
    const gh = contents({ s: file('jailbreak') })
    // The checkout accepts the pull request's own finding: it must not count.
    const out = await readAcceptedRisks({ workspace: workspace(file('misinformation')), repo, contents: gh.api, today: TODAY }, PATH, scope)
    expect(gh.asked).toEqual([`${PATH}@s`])
    expect(out.entries.map((e) => e.category)).toEqual(['jailbreak'])
    expect(out.source).toBe('the commit s')
  })
  it('reads the file on the default branch by name when that is the ref trusted (a deployment of a pull request)', async () => {
    const gh = contents({ 'refs/heads/main': file('jailbreak'), 'pr-head': file('misinformation') })
    const scope = baselineScope('deployment_status', { repository: { default_branch: 'main' } }, { GITHUB_SHA: 'pr-head' })
    const out = await readAcceptedRisks({ workspace: workspace(file('misinformation')), repo, contents: gh.api, today: TODAY }, PATH, scope)
    expect(gh.asked).toEqual([`${PATH}@refs/heads/main`])
    expect(out.entries.map((e) => e.category)).toEqual(['jailbreak'])
    expect(out.source).toBe('the branch main')
  })
  it('accepts nothing outside a pull request when the commit has no file, whatever the checkout holds', async () => {
    const out = await readAcceptedRisks(
      { workspace: workspace(file('misinformation')), repo, contents: contents({}).api, today: TODAY },
      PATH,
      { kind: 'other', eventName: 'issue_comment', ref: 'refs/heads/main', sha: 's' }
    )
    expect(out.entries).toEqual([])
    expect(out.source).toBeNull()
  })
  it('accepts nothing when the commit is unknown, whatever the checkout holds', async () => {
    const out = await readAcceptedRisks(
      { workspace: workspace(file('misinformation')), repo, contents: contents({}).api, today: TODAY },
      PATH,
      { kind: 'other', eventName: 'workflow_run', ref: 'refs/heads/main', sha: null }
    )
    expect(out.entries).toEqual([])
    expect(out.source).toBeNull()
  })
  it("refuses a pull request's copy that is a symlink out of the checkout", async () => {
    const secretDir = mkdtempSync(join(tmpdir(), 'asas-secret-'))
    writeFileSync(join(secretDir, 'x.yml'), file('jailbreak'))
    const ws = workspace(null)
    mkdirSync(join(ws, '.github'), { recursive: true })
    symlinkSync(join(secretDir, 'x.yml'), join(ws, PATH))
    const gh = contents({ base1: file('jailbreak') })
    const err = await readAcceptedRisks({ workspace: ws, repo, contents: gh.api, today: TODAY }, PATH, PR).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as ConfigError).input).toBe('accepted_risks_file')
    expect((err as ConfigError).message).toMatch(/leads \(through a symbolic link\) outside the repository/)
  })
  it.each([
    ['flow', `accepted: ${'['.repeat(400_000)}${']'.repeat(400_000)}\n`],
    ['block', `accepted:\n${'- '.repeat(50_000)}a\n`],
    ['shallow but too deep', `accepted: ${'['.repeat(65)}${']'.repeat(65)}\n`]
  ])('refuses a file nested too deep (%s) as a mistake in it', async (_what, text) => {
    const gh = contents({ base1: text })
    const err = await readAcceptedRisks({ workspace: workspace(null), repo, contents: gh.api, today: TODAY }, PATH, PR).catch(
      (e: unknown) => e
    )
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as ConfigError).input).toBe('accepted_risks_file')
    expect((err as ConfigError).message).toBe(`${PATH} (base branch main): nests lists or mappings deeper than 64 levels`)
  })
  it('refuses a path outside the repository', async () => {
    await expect(
      readAcceptedRisks({ workspace: workspace(null), repo, contents: contents({}).api, today: TODAY }, '../x.yml', PR)
    ).rejects.toThrow(/inside the repository/)
  })
})

describe('readAcceptedRisks: what is in force, where it was read, and what the pull request changes', () => {
  const SHA = '0123456789abcdef0123456789abcdef01234567'
  const PR_SHA: BaselineScope = { ...PR, baseSha: SHA }
  const read = (ws: string | null, files: Partial<Record<string, string | Error>>, scope: BaselineScope, r: typeof repo | null = repo) => {
    const gh = contents(files)
    return { gh, out: readAcceptedRisks({ workspace: workspace(ws), repo: r, contents: gh.api, today: TODAY }, PATH, scope) }
  }

  it('on a pull request: the base copy and its text are in force, said with the base branch and its short SHA', async () => {
    const text = file('jailbreak')
    const out = await read(text, { [SHA]: text }, PR_SHA).out
    expect(out).toMatchObject({ source: 'the base branch main at 0123456789ab', text, prAdds: [], prRemoves: [], notes: [] })
    expect(out.entries.map((e) => e.category)).toEqual(['jailbreak'])
  })

  it.each<[string, string[], string[], string[]]>([
    [
      'two added and two removed',
      ['prompt_injection', 'data_leakage'],
      ['jailbreak', 'misinformation'],
      [
        `This pull request adds or changes 2 acceptances in ${PATH}: they apply after merge.`,
        `This pull request removes 2 acceptances from ${PATH}: the base branch's still apply until merge.`
      ]
    ],
    [
      'one removed',
      ['jailbreak'],
      ['jailbreak', 'misinformation'],
      [`This pull request removes 1 acceptance from ${PATH}: the base branch's still apply until merge.`]
    ]
  ])("the pull request's copy against the base: %s", async (_name, prCats, baseCats, notes) => {
    const out = await read(file(...prCats), { [SHA]: file(...baseCats) }, PR_SHA).out
    expect(out.entries.map((e) => e.category)).toEqual(baseCats)
    expect(out.prAdds.map((e) => e.category)).toEqual(prCats.filter((c) => !baseCats.includes(c)))
    expect(out.prRemoves.map((e) => e.category)).toEqual(baseCats.filter((c) => !prCats.includes(c)))
    expect(out.notes).toEqual(notes)
  })

  it('no copy in the checkout: nothing compared, nothing said removed', async () => {
    const out = await read(null, { [SHA]: file('jailbreak') }, PR_SHA).out
    expect(out).toMatchObject({ prAdds: [], prRemoves: [], notes: [] })
    expect(out.entries).toHaveLength(1)
  })

  it('the base branch has no file: nothing in force, no text, no source', async () => {
    const out = await read(null, {}, PR_SHA).out
    expect(out).toMatchObject({ entries: [], source: null, text: null })
  })

  it.each<[string, BaselineScope, typeof repo | null]>([
    ['no base SHA', { ...PR, baseSha: '' }, repo],
    ['no repository', PR_SHA, null]
  ])('%s: no copy anywhere accepts nothing and says so; a copy in the pull request alone is refused', async (_name, scope, r) => {
    const none = read(null, { [SHA]: file('jailbreak') }, scope, r)
    expect(await none.out).toMatchObject({
      entries: [],
      notes: [`${PATH} was not read: the event payload has no base SHA (or GITHUB_REPOSITORY is unset); no acceptances apply.`]
    })
    expect(none.gh.asked).toEqual([])
    const err = await read(file('jailbreak'), { [SHA]: file('jailbreak') }, scope, r).out.catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as Error).message).toBe(
      `cannot read ${PATH} from the base branch: the event payload has no base SHA or GITHUB_REPOSITORY is unset (the PR's own copy is never trusted)`
    )
  })

  it('the base copy cannot be read: a configuration error naming the short SHA and the permission', async () => {
    const failure = new ServiceError({ endpoint: 'GET /contents', status: 403, message: 'Resource not accessible' })
    const err = await read(null, { [SHA]: failure }, PR_SHA).out.catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as Error).message).toMatch(
      new RegExp(
        `^cannot read ${PATH.replace(/\./g, '\\.')} from the base branch at 0123456789ab \\(.*403.*\\); the job needs contents: read\\. The PR's own copy is never trusted$`
      )
    )
  })

  it.each<[string, string]>([
    [SHA, 'the commit 0123456789ab'],
    ['refs/heads/release/2', 'the branch release/2'],
    ['refs/tags/v1.2.3', 'the commit refs/tags/v1.2.3']
  ])('outside a pull request, at %s: the text read is in force, said as %s', async (at, source) => {
    const text = file('jailbreak')
    const out = await read(null, { [at]: text }, { kind: 'other', eventName: 'push', ref: 'refs/heads/x', sha: at }).out
    expect(out).toMatchObject({ source, text, notes: [] })
  })

  it('outside a pull request, with no repository: nothing is read', async () => {
    const r = read(null, { s: file('jailbreak') }, { kind: 'default-branch', branch: 'main', sha: 's' }, null)
    expect(await r.out).toMatchObject({ entries: [], source: null, notes: [] })
    expect(r.gh.asked).toEqual([])
  })

  it('outside a pull request, a read that fails accepts nothing and says why; a configuration error stands', async () => {
    const scope: BaselineScope = { kind: 'default-branch', branch: 'main', sha: SHA }
    const failure = new ServiceError({ endpoint: 'GET /contents', status: 500, message: 'boom' })
    const out = await read(null, { [SHA]: failure }, scope).out
    expect(out).toMatchObject({ entries: [], source: null })
    expect(out.notes).toEqual([
      expect.stringMatching(
        new RegExp(`^${PATH.replace(/\./g, '\\.')} could not be read from GitHub at 0123456789ab \\(.*boom.*\\): no acceptances apply\\.$`)
      )
    ])
    const config = new ConfigError('github_token', 'bad token')
    await expect(read(null, { [SHA]: config }, scope).out).rejects.toBe(config)
  })

  it('a file of exactly the size bound is read; one byte more is refused', async () => {
    const head = file('jailbreak')
    const padded = (size: number) => `${head}#${'x'.repeat(size - Buffer.byteLength(head) - 2)}\n`
    expect(Buffer.byteLength(padded(ACCEPTED_FILE_MAX_BYTES))).toBe(ACCEPTED_FILE_MAX_BYTES)
    expect((await read(null, { [SHA]: padded(ACCEPTED_FILE_MAX_BYTES) }, PR_SHA).out).entries).toHaveLength(1)
    const err = await read(null, { [SHA]: padded(ACCEPTED_FILE_MAX_BYTES + 1) }, PR_SHA).out.catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as Error).message).toBe(`${PATH} (base branch main): is larger than ${ACCEPTED_FILE_MAX_BYTES} bytes`)
  })

  it.each<[string, string | null, string | null, string]>([
    [
      'the base copy, its branch named by no ref: by its short SHA',
      null,
      'accepted: [',
      `${PATH} (base branch 0123456789ab) line 1, YAML: `
    ],
    ["the pull request's own copy", 'accepted: [', file('jailbreak'), `${PATH} (this pull request's copy) line 1, YAML: `]
  ])('a mistake in %s is a configuration error naming the copy and the line', async (_name, prText, baseText, start) => {
    const err = await read(prText, baseText === null ? {} : { [SHA]: baseText }, { ...PR_SHA, baseRef: '' }).out.catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as Error).message.startsWith(start)).toBe(true)
  })
})

describe('checkAcceptedPath', () => {
  it.each<[string, string]>([
    ['.github/agent-security-accepted.yml', '.github/agent-security-accepted.yml'],
    ['./a/../b.yml', 'b.yml'],
    ['dir\\x.yml', 'dir/x.yml'],
    ['..x.yml', '..x.yml']
  ])('takes %j as %j', (path, rel) => {
    expect(checkAcceptedPath(path)).toBe(rel)
  })

  it.each(['/etc/x.yml', '..', '../x.yml', 'a/../../x.yml'])('refuses %j, naming it', (path) => {
    expect(() => checkAcceptedPath(path)).toThrow(
      new ConfigError('accepted_risks_file', `'${path}' must be a path inside the repository, e.g. .github/agent-security-accepted.yml`)
    )
  })
})

describe('baselineScope', () => {
  it.each([
    [
      'pull_request',
      { number: 7, pull_request: { number: 7, base: { ref: 'main', sha: 'b' }, head: { sha: 'h' } } },
      { GITHUB_REPOSITORY: 'o/r', GITHUB_SHA: 'm' },
      { kind: 'pull_request', number: 7, baseRef: 'main', baseSha: 'b', headSha: 'h', sha: 'm', defaultBranch: null }
    ],
    [
      'push',
      { repository: { default_branch: 'main' } },
      { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: 's' },
      { kind: 'default-branch', branch: 'main', sha: 's', defaultBranch: 'main' }
    ],
    [
      'schedule',
      { repository: { default_branch: 'trunk' } },
      { GITHUB_REF: 'refs/heads/trunk' },
      { kind: 'default-branch', branch: 'trunk', sha: null, defaultBranch: 'trunk' }
    ],
    [
      'push',
      { repository: { default_branch: 'main' } },
      { GITHUB_REF: 'refs/heads/feature' },
      { kind: 'other', eventName: 'push', ref: 'refs/heads/feature', sha: null, defaultBranch: 'main' }
    ],
    [
      'workflow_dispatch',
      {},
      { GITHUB_REF: 'refs/heads/main' },
      { kind: 'other', eventName: 'workflow_dispatch', ref: 'refs/heads/main', sha: null, defaultBranch: null }
    ],
    [
      'workflow_dispatch',
      { repository: { default_branch: 'main' } },
      { GITHUB_REF: 'refs/heads/main' },
      { kind: 'default-branch', branch: 'main', sha: null, defaultBranch: 'main' }
    ],
    // Events that may run a pull request's code on the default branch's ref never record a baseline.
    [
      'issue_comment',
      { repository: { default_branch: 'main' } },
      { GITHUB_REF: 'refs/heads/main' },
      { kind: 'other', eventName: 'issue_comment', ref: 'refs/heads/main', sha: null, defaultBranch: 'main' }
    ],
    [
      'workflow_run',
      { repository: { default_branch: 'main' } },
      { GITHUB_REF: 'refs/heads/main' },
      { kind: 'other', eventName: 'workflow_run', ref: 'refs/heads/main', sha: null, defaultBranch: 'main' }
    ],
    // The queue's commit holds the queued pull requests' changes: their acceptances are read at the queue's base.
    [
      'merge_group',
      { repository: { default_branch: 'main' }, merge_group: { base_sha: 'queue-base', head_sha: 'queue-head' } },
      { GITHUB_REF: 'refs/heads/gh-readonly-queue/main/pr-7-abc', GITHUB_SHA: 'queue-head' },
      {
        kind: 'other',
        eventName: 'merge_group',
        ref: 'refs/heads/gh-readonly-queue/main/pr-7-abc',
        sha: 'queue-base',
        defaultBranch: 'main'
      }
    ],
    // GITHUB_SHA of a deployment is the deployed commit, often a pull request's head: the default branch is read.
    [
      'deployment_status',
      { repository: { default_branch: 'main' }, deployment: { sha: 'pr-head' } },
      { GITHUB_REF: 'refs/heads/feature', GITHUB_SHA: 'pr-head' },
      { kind: 'other', eventName: 'deployment_status', ref: 'refs/heads/feature', sha: 'refs/heads/main', defaultBranch: 'main' }
    ],
    [
      'deployment_status',
      { deployment: { sha: 'pr-head' } },
      { GITHUB_SHA: 'pr-head' },
      { kind: 'other', eventName: 'deployment_status', ref: '', sha: null, defaultBranch: null }
    ]
  ])('%s %j %j', (event, payload, env, expected) => {
    expect(baselineScope(event, payload, env)).toEqual(expected)
  })
})

describe('syncDismissals against the emulator', () => {
  let emu: Emulator
  beforeAll(async () => {
    emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 10, attacksPerCategory: 1 })
  })
  afterAll(async () => {
    await emu.stop()
  })
  const accepted = parseAcceptedFile(YAML, file('prompt_injection'), 'a.yml', TODAY)
  const MAIN: WriteStanding = { kind: 'default-branch', branch: 'main' }

  it('dismisses accepted open findings with the reason code and explanation', async () => {
    const runId = await runToEnd(emu, emu.demoModelId)
    const findings = (await api(emu, 'GET', `/api/v1/run/${runId}/findings`)).json.findings as Finding[]
    const target = findings.find((f) => f.category === 'prompt_injection')!
    const client = createClient({ baseUrl: emu.url, apiKey: emu.keys.full, deadline: Deadline.after(systemClock, 30_000) })
    const out = await syncDismissals(MAIN, () => client, findings, new Map([[target.finding_id, accepted[0]]]))
    expect(out.dismissed).toBe(1)
    const after = (await api(emu, 'GET', `/api/v1/run/${runId}/findings`)).json.findings as Finding[]
    expect(Object.fromEntries(after.map((f) => [f.category, f.status]))).toEqual({
      prompt_injection: 'dismissed',
      system_prompt_leakage: 'open'
    })
  })

  it.each<[string, WriteStanding]>([
    ['a pull request', { kind: 'pull_request', number: 7 }],
    ['issue_comment on the default branch', { kind: 'other', eventName: 'issue_comment', ref: 'refs/heads/main' }],
    ['workflow_run on the default branch', { kind: 'other', eventName: 'workflow_run', ref: 'refs/heads/main' }]
  ])('writes nothing from %s, and says why', async (_what, standing) => {
    const findings = [makeFinding('high', { category: 'prompt_injection', status: 'open' })]
    let made = 0
    const out = await syncDismissals(
      standing,
      () => {
        made += 1
        throw new Error('no client may be made')
      },
      findings,
      new Map(findings.map((f) => [f.finding_id, accepted[0]]))
    )
    expect(made).toBe(0)
    expect(out.dismissed).toBe(0)
    expect(out.notes).toEqual([
      expect.stringMatching(
        /^sync_dismissals is on, but .* only from the default branch on push, schedule or workflow_dispatch: nothing dismissed\.$/
      )
    ])
  })

  it('notes proof withheld (403) without failing', async () => {
    const runId = await runToEnd(emu, emu.demoModels.redacted, 'redacted')
    const findings = (await api(emu, 'GET', `/api/v1/run/${runId}/findings`, { key: 'redacted' })).json.findings as Finding[]
    const client = createClient({ baseUrl: emu.url, apiKey: emu.keys.redacted, deadline: Deadline.after(systemClock, 30_000) })
    expect(findings.length).toBeGreaterThan(0)
    const out = await syncDismissals(MAIN, () => client, findings, new Map(findings.map((f) => [f.finding_id, accepted[0]])))
    expect(out.dismissed).toBe(0)
    expect(out.notes.length).toBe(findings.length)
    for (const n of out.notes) expect(n).toMatch(/was not dismissed on the service: the plan withholds proof \(403\)/)
  })
})

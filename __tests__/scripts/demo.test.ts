/**
 * The event `npm run demo` gives the bundle (scripts/demo.ts) is a pull
 * request as a runner's payload has it: with its base commit, so the
 * accepted-risks file is read from the base branch and the report carries no
 * note of a misconfigured event; with its head commit, which the comment names.
 */
import { describe, expect, it } from '@jest/globals'
import { DEMO_ENV, DEMO_EVENT } from '../../scripts/demo.js'
import { baselineScope } from '../../src/evidence/scope.js'
import { readAcceptedRisks } from '../../src/accepted/read-accepted.js'
import type { ContentsApi } from '../../src/github/contents-api.js'
import { PROJECT_ROOT } from '../__fixtures__/action-runner.js'

/** The GitHub contents API of a repository without the file, recording the commits it was asked at. */
function contentsWithoutTheFile(asked: string[]): () => Promise<ContentsApi> {
  return () =>
    Promise.resolve({
      getFileText: (_repo, _path, ref) => {
        asked.push(ref)
        return Promise.resolve(null)
      }
    })
}

describe('the demo event', () => {
  it('is a pull request with its base and head commits', () => {
    const scope = baselineScope('pull_request', DEMO_EVENT, { ...DEMO_ENV })
    expect(scope).toEqual({
      kind: 'pull_request',
      number: DEMO_EVENT.pull_request.number,
      defaultBranch: DEMO_EVENT.repository.default_branch,
      sha: DEMO_ENV.GITHUB_SHA,
      baseRef: 'main',
      baseSha: DEMO_EVENT.pull_request.base.sha,
      headSha: DEMO_EVENT.pull_request.head.sha
    })
    expect(DEMO_EVENT.pull_request.base.sha).toMatch(/^[0-9a-f]{40}$/)
    expect(DEMO_EVENT.pull_request.head.sha).toMatch(/^[0-9a-f]{40}$/)
  })

  it('lets the accepted-risks file be read at the base commit, with no note about the event', async () => {
    const asked: string[] = []
    const deps = { workspace: PROJECT_ROOT, repo: { owner: 'octo-org', repo: 'agent-app' }, today: '2026-11-25' }
    const read = await readAcceptedRisks(
      { ...deps, contents: contentsWithoutTheFile(asked) },
      '.github/agent-security-accepted.yml',
      baselineScope('pull_request', DEMO_EVENT, { ...DEMO_ENV })
    )
    expect(read.notes).toEqual([])
    expect(asked).toEqual([DEMO_EVENT.pull_request.base.sha])

    // Without the base commit the report says the file was not read: the note the demo must not print.
    const bare = await readAcceptedRisks(
      { ...deps, contents: contentsWithoutTheFile([]) },
      '.github/agent-security-accepted.yml',
      baselineScope('pull_request', { number: 7, pull_request: { number: 7 } }, {})
    )
    expect(bare.notes.join(' ')).toContain('no base SHA')
  })
})

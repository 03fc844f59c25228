/**
 * GET /repos/{owner}/{repo}/actions/caches against the GitHub stand-in, over
 * real HTTP through the real client: the key prefix and ref are sent, every
 * entry comes back with the ref that saved it, newest first; a token without
 * `actions: read` is a GitHub failure the caller turns into "no window".
 */
import { afterEach, expect, test } from '@jest/globals'
import { createGitHubClient } from '../../src/github/github-client.js'
import { GitHubError } from '../../src/util/errors.js'
import { recordingLog } from '../__fixtures__/recording-log.js'
import { startGitHubStandin, type GitHubStandin } from '../__fixtures__/github-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'

let standin: GitHubStandin
afterEach(async () => {
  await stopStarted(standin)
})

const entries = [
  { key: 'asas-gate-evidence-v2-aa-c1-r2', ref: 'refs/heads/main', created_at: '2026-11-25T00:00:00Z', id: 2 },
  { key: 'asas-gate-evidence-v2-aa-c1-r_pr', ref: 'refs/pull/3/merge', created_at: '2026-11-26T00:00:00Z', id: 3 },
  { key: 'asas-gate-evidence-v2-aa-c1-r1', ref: 'refs/heads/main', created_at: '2026-11-24T00:00:00Z', id: 1 },
  { key: 'node-cache-linux', ref: 'refs/heads/main', created_at: '2026-11-26T00:00:00Z', id: 4 }
]

async function client() {
  standin = await startGitHubStandin()
  standin.setActionsCaches((q) =>
    entries.filter((e) => (q.key === undefined || e.key.startsWith(q.key)) && (q.ref === undefined || e.ref === q.ref))
  )
  const clock = { now: () => 0, sleep: async () => undefined }
  return createGitHubClient({ token: 'ghs_test_token', apiUrl: standin.url, clock, log: recordingLog(), random: () => 0.5 })
}

test('lists the entries of a key prefix saved on a ref, each with its ref, asking newest first', async () => {
  const gh = await client()
  const got = await gh.listCaches({ owner: 'o', repo: 'r' }, { keyPrefix: 'asas-gate-evidence-v2-aa-', ref: 'refs/heads/main' })
  expect(got).toEqual([
    { key: 'asas-gate-evidence-v2-aa-c1-r2', ref: 'refs/heads/main', createdAt: '2026-11-25T00:00:00Z' },
    { key: 'asas-gate-evidence-v2-aa-c1-r1', ref: 'refs/heads/main', createdAt: '2026-11-24T00:00:00Z' }
  ])
  const asked = standin.requests.find((q) => q.path === '/repos/o/r/actions/caches')
  expect(asked?.query).toMatchObject({
    key: 'asas-gate-evidence-v2-aa-',
    ref: 'refs/heads/main',
    sort: 'created_at',
    direction: 'desc',
    per_page: '100'
  })
})

test('a token without actions: read is refused with 403, a GitHubError naming the endpoint', async () => {
  const gh = await client()
  standin.failNext('GET', /\/actions\/caches$/, 403, 5)
  const err = await gh.listCaches({ owner: 'o', repo: 'r' }, { keyPrefix: 'x', ref: 'refs/heads/main' }).catch((e: unknown) => e)
  expect(err).toBeInstanceOf(GitHubError)
  expect((err as GitHubError).status).toBe(403)
  expect((err as GitHubError).endpoint).toMatch(/actions\/caches/)
})

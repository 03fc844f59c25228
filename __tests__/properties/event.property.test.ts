/**
 * What the triggering event says, as properties: a pull request event is
 * never read as another kind of event (whose code would count as this
 * repository's), a deployment is assessed only at an https URL (plain http on
 * a loopback host) that carries no credential, and a commit read from any
 * event is a full lower-case SHA or none.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { eventCommit, readPipelineEvent } from '../../src/pipeline/event.js'
import { isLoopbackHost } from '../../src/service/base-url.js'

const ENV = { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: 'c'.repeat(40) }
const SHA = 'a'.repeat(40)

const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom('7', null, 2 ** 53, 0, -1), fc.constant(undefined))
const pullRequestPayload = fc.oneof(
  fc.record(
    {
      number,
      pull_request: fc.oneof(
        fc.record(
          { number, head: fc.record({ repo: fc.option(fc.record({ full_name: fc.string() })) }, { requiredKeys: [] }) },
          { requiredKeys: [] }
        ),
        fc.anything()
      )
    },
    { requiredKeys: [] }
  ),
  fc.anything()
)

describe('event properties', () => {
  it('a pull request event is a pull request or unreadable, never another event', () => {
    fc.assert(
      fc.property(fc.constantFrom('pull_request', 'pull_request_target'), pullRequestPayload, (eventName, payload) => {
        const e = readPipelineEvent(eventName, payload, ENV)
        expect(['pull_request', 'unreadable']).toContain(e.kind)
        if (e.kind === 'pull_request') expect(Number.isSafeInteger(e.number) && e.number > 0).toBe(true)
      }),
      { numRuns: 100 }
    )
  })

  it('a deployment is assessed only at an https URL (http on a loopback host) without a credential', () => {
    const url = fc
      .record({
        scheme: fc.constantFrom('https://', 'http://', 'HTTPS://', 'ftp://', 'javascript:', ''),
        user: fc.constantFrom('', 'u@', 'u:p@', ':p@', 'u:@', '%40@'),
        host: fc.constantFrom('a.example.test', 'x.vercel.app', '127.0.0.1', 'localhost', '[::1]', '10.0.0.1', ''),
        port: fc.constantFrom('', ':3000', ':443'),
        path: fc.string({ maxLength: 12 })
      })
      .map((u) => `${u.scheme}${u.user}${u.host}${u.port}${u.path}`)
    const payloads = url.chain((u) =>
      fc.constantFrom<[string, unknown]>(
        ['deployment_status', { deployment_status: { state: 'success', environment_url: u }, deployment: { sha: SHA } }],
        ['repository_dispatch', { action: 'vercel.deployment.ready', client_payload: { git: { sha: SHA }, url: u } }]
      )
    )
    fc.assert(
      fc.property(payloads, ([eventName, payload]) => {
        const e = readPipelineEvent(eventName, payload, ENV)
        if (e.kind !== 'deployment') return
        const at = new URL(e.endpointUrl)
        expect([at.username, at.password]).toEqual(['', ''])
        expect(at.protocol === 'https:' || (at.protocol === 'http:' && isLoopbackHost(at.hostname))).toBe(true)
      }),
      { numRuns: 100 }
    )
  })

  it('the commit of any event is a full lower-case SHA or none', () => {
    const shaText = fc.oneof(
      fc.stringMatching(/^[0-9a-fA-F]{38,66}$/),
      fc.stringMatching(/^.{0,3}[0-9a-f]{40}.{0,3}$/),
      fc.stringMatching(/^\s*[0-9a-f]{64}\s*$/)
    )
    const sha = fc.oneof(shaText, fc.anything())
    const events = fc.constantFrom('push', 'pull_request', 'merge_group', 'deployment_status', 'repository_dispatch', 'status', 'schedule')
    fc.assert(
      fc.property(events, sha, shaText, (eventName, a, b) => {
        const payload = {
          after: a,
          sha: a,
          pull_request: { number: 1, head: { sha: a } },
          merge_group: { head_sha: a },
          deployment_status: { state: 'success' },
          deployment: { sha: a },
          action: 'vercel.deployment.ready',
          client_payload: { git: { sha: a } }
        }
        const commit = eventCommit(readPipelineEvent(eventName, payload, { GITHUB_SHA: b }))
        if (commit !== null) expect(commit).toMatch(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/)
      }),
      { numRuns: 100 }
    )
  })
})

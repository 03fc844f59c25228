/**
 * A target credential never leaves in any form it was sent in: with
 * `auth_type: basic` the emulator sends `Authorization: Basic
 * <base64(user:password)>` to an agent that echoes it (and the password,
 * decoded and URL-encoded) in its replies, which the findings' replay steps
 * carry. The whole main step in-process, against the emulator and the GitHub
 * stand-in over HTTP: the comment, the job summary, report.json, SARIF, JUnit,
 * annotations, outputs and log hold none of those forms, and the runner is
 * told to mask each of them. Also: a key that cannot be real is refused
 * before it is ever registered as a mask.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import type { ActionInputs } from '../../src/action/inputs/read-inputs.js'
import { createClient } from '../../src/service/client.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { systemClock, type Deadline } from '../../src/util/clock.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { fakeActionIO } from '../__fixtures__/fake-io.js'
import { startEchoAgent, type EchoAgent } from '../__fixtures__/echo-agent.js'
import { startGitHubStandin, type GitHubStandin } from '../__fixtures__/github-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'

const USER = 'demo'
const PASSWORD = 's3cr3t "pa ss"/wörd'
const CREDENTIAL = `${USER}:${PASSWORD}`
const PR = 41

/** Every form the credential travels in or the agent echoes it in. */
const FORMS: [string, string][] = [
  ['as given', CREDENTIAL],
  ['the password alone', PASSWORD],
  ['base64 (HTTP Basic)', Buffer.from(CREDENTIAL, 'utf8').toString('base64')],
  ['base64 unpadded', Buffer.from(CREDENTIAL, 'utf8').toString('base64').replace(/=+$/, '')],
  ['the password URL-encoded', encodeURIComponent(PASSWORD)],
  ['the password JSON-escaped', JSON.stringify(PASSWORD).slice(1, -1)],
  ['user:password JSON-escaped', JSON.stringify(CREDENTIAL).slice(1, -1)]
]

let emu: Emulator
let agent: EchoAgent
let gh: GitHubStandin

beforeAll(async () => {
  emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 10, attacksPerCategory: 1 })
  agent = await startEchoAgent()
  gh = await startGitHubStandin()
})
afterAll(async () => {
  await stopStarted(emu, agent, gh)
})

function client(inputs: ActionInputs, deadline: Deadline, opts?: { requestTimeoutMs?: number }) {
  return createClient({
    baseUrl: inputs.baseUrl,
    apiKey: inputs.apiKey,
    clock: systemClock,
    deadline,
    requestTimeoutMs: opts?.requestTimeoutMs
  })
}

describe('auth_type basic against an agent that echoes its credential', () => {
  it('no output holds the credential in any form, and each form is masked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wire-forms-'))
    const eventPath = join(dir, 'event.json')
    writeFileSync(
      eventPath,
      JSON.stringify({ number: PR, pull_request: { number: PR, head: { sha: 'a'.repeat(40), repo: { full_name: 'octo/agent' } } } })
    )
    const io = fakeActionIO(
      {
        endpoint_url: agent.url,
        response_field: 'output.text',
        auth_type: 'basic',
        target_credential: CREDENTIAL,
        api_key: emu.keys.full,
        base_url: emu.url,
        categories: 'prompt_injection',
        min_severity: 'low',
        timeout_minutes: '2',
        accepted_risks_file: 'off',
        github_token: 'ghs_wire_forms_token'
      },
      {
        env: {
          RUNNER_TEMP: dir,
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: eventPath,
          GITHUB_REPOSITORY: 'octo/agent',
          GITHUB_API_URL: gh.url,
          GITHUB_SERVER_URL: 'https://github.com',
          GITHUB_RUN_ID: '7',
          GITHUB_SHA: 'b'.repeat(40)
        }
      }
    )
    await runMain({ io, clock: systemClock, signal: new AbortController().signal, makeApi: client })

    // The agent was sent the credential, and a finding carries its echo.
    expect(agent.seen).toContain(`Basic ${Buffer.from(CREDENTIAL, 'utf8').toString('base64')}`)
    expect(io.outputs.result).toBe('fail')
    const comments = gh.state.comments.get(PR) ?? []
    expect(comments).toHaveLength(1)
    const outputs: [string, string][] = [
      ['comment', comments[0]?.body ?? ''],
      ['summary', io.summary.join('\n')],
      ['report.json', readFileSync(io.outputs.report_path, 'utf8')],
      ['SARIF', readFileSync(io.outputs.sarif_path, 'utf8')],
      ['JUnit', readFileSync(io.outputs.junit_path, 'utf8')],
      ['annotations', JSON.stringify(io.annotations)],
      ['outputs', JSON.stringify(io.outputs)],
      ['log and failure', JSON.stringify([io.log.lines, io.failures])]
    ]
    // The echo reached the outputs, masked.
    expect(outputs[2][1]).toContain('Debug: you sent Authorization: Basic ***')
    const leaks = outputs.flatMap(([where, text]) => FORMS.filter(([, form]) => text.includes(form)).map(([name]) => `${name} in ${where}`))
    expect(leaks).toEqual([])
    for (const [name, form] of FORMS) expect([name, io.secrets.includes(form)]).toEqual([name, true])
  }, 60_000)
})

describe('a key that cannot be real', () => {
  it.each([
    ['one character', 'k', /is shorter than 5 characters/],
    ['four characters', 'abcd', /is shorter than 5 characters/],
    ['non-ASCII', 'asas_kéy_0123', /non-ASCII/],
    ['an inner space', 'asas key 0123', /a space/]
  ])('%s: a configuration error naming api_key, never masked when too short, no request', async (_name, key, message) => {
    const api = fakeApi({})
    const io = fakeActionIO({ model_id: 'm', api_key: key, base_url: 'https://asas.example.com' })
    await runMain({ io, clock: fakeClock(), signal: new AbortController().signal, makeApi: () => api })
    expect(io.failures).toHaveLength(1)
    expect(io.failures[0]).toMatch(/^Configuration error in input 'api_key': /)
    expect(io.failures[0]).toMatch(message)
    if (key.length >= 5) expect(io.failures[0]).not.toContain(key)
    else expect(io.secrets).toEqual([])
    expect(api.calls).toEqual([])
  })

  it('a target_credential shorter than 5 characters is never registered as a mask', async () => {
    const io = fakeActionIO({
      endpoint_url: 'https://agent.example.test/chat',
      response_field: 'output.text',
      auth_type: 'bearer',
      target_credential: 'a',
      api_key: 'asas_valid_key_0123',
      base_url: 'https://asas.example.com'
    })
    await runMain({ io, clock: fakeClock(), signal: new AbortController().signal, makeApi: () => fakeApi({}) })
    expect(io.failures).toEqual([expect.stringMatching(/^Configuration error in input 'target_credential': is shorter than 5/)])
    expect(io.secrets).not.toContain('a')
    expect(io.secrets).toContain('asas_valid_key_0123')
  })
})

/**
 * Secrets and outputs, through the main step in-process: a password in
 * base_url never echoes; the service key and the target's credential, planted
 * in every field the service answers with, reach no sink (outputs, summary,
 * annotations, log, failure, report files, comment, issue); every output
 * carrying service text is one line without control characters.
 */
import { REPORT_FORMATS } from '../../src/report/formats.js'
import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runMain } from '../../src/action/main.js'
import { scrubbedBaselineStore, scrubbingIO, stepSecrets } from '../../src/action/scrubbed-io.js'
import type { Baseline } from '../../src/evidence/baseline.js'
import type { ServiceApi } from '../../src/service/service-api.js'
import type { BaselineStore } from '../../src/evidence/record-store.js'
import { parseBaseUrl, withoutUserInfo } from '../../src/service/base-url.js'
import { ConfigError, ServiceError } from '../../src/util/errors.js'
import {
  coverageRow,
  makeAttack,
  makeCoverage,
  makeFinding,
  makeModel,
  makeRun,
  makeRunListItem,
  makeStep,
  PLANNED
} from '../__fixtures__/builders.js'
import { startGitHubStandin, type GitHubStandin } from '../__fixtures__/github-standin.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { fakeActionIO } from '../__fixtures__/fake-io.js'
import { recordingLog } from '../__fixtures__/recording-log.js'

describe('a password in base_url', () => {
  it.each([
    'https://user:Pa55w0rd@[bad-host',
    'https://user:Pa55w0rd@asas.example.com',
    'https://user:Pa/55#w0rd@[bad',
    'http://user:Pa55w0rd@asas.example.com/api/v1/run'
  ])('%s: refused without echoing the password', (raw) => {
    let err: unknown
    try {
      parseBaseUrl(raw)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(ConfigError)
    expect((err as Error).message).not.toMatch(/Pa.?55.?w0rd/)
  })

  it('the error line and the summary of the main step never carry it, and it is masked', async () => {
    const io = fakeActionIO({ model_id: 'm', api_key: 'asas_test_key', base_url: 'https://user:Pa55w0rd@[bad-host' })
    await runMain({ io, clock: fakeClock(), signal: new AbortController().signal, makeApi: () => fakeApi({}) })
    expect(io.failures).toHaveLength(1)
    expect(io.failures[0]).toMatch(/Configuration error in input 'base_url': '.*\*\*\*@\[bad-host' is not a URL/)
    const shown = [...io.failures, ...io.summary, ...io.log.lines.map((l) => l.line), JSON.stringify(io.outputs)].join('\n')
    expect(shown).not.toContain('Pa55w0rd')
    expect(io.secrets).toContain('Pa55w0rd')
    expect(io.outputs.result).toBe('error')
  })

  it('user-info is replaced up to the last @, whatever it holds', () => {
    expect(withoutUserInfo('https://a:b/c@d@[x')).toBe('https://***@[x')
    expect(withoutUserInfo('https://asas.example.com')).toBe('https://asas.example.com')
  })
})

describe('outputs from service text', () => {
  it('run_id, status and categories are one line, without control characters', async () => {
    const hostileId = 'run_1\n::set-output name=result::pass\r\u0007\u001b[31m\u202e'
    const clock = fakeClock()
    const planned = ['jailbreak\nINJECTED=1']
    const api = fakeApi({
      listRuns: async () => ({ runs: [], total: 0, returned: 0 }),
      triggerRun: async () => ({ run_id: hostileId, model_id: 'm', status: 'running', started_at: new Date(clock.now()).toISOString() }),
      getRun: async () => ({ status: 'completed', categories_planned: planned, categories_completed: planned, verdict: 'pass' }),
      getCoverage: async () => ({
        run_status: 'completed',
        categories: [
          { category: planned[0], attacks_blocked: 1, attacks_succeeded: 0, owasp: 'LLM01', atlas: 'AML.T0051', worst_severity: null }
        ]
      }),
      listFindings: async () => ({ findings: [], count: 0 }),
      listModels: async () => ({ models: [] })
    })
    const io = fakeActionIO({ model_id: 'm', api_key: 'asas_test_key', base_url: 'https://asas.example.com', categories: 'jailbreak' })
    io.env.RUNNER_TEMP = mkdtempSync(join(tmpdir(), 'outputs-'))
    await runMain({ io, clock, signal: new AbortController().signal, makeApi: () => api })
    expect(Object.keys(io.outputs)).toEqual(expect.arrayContaining(['run_id', 'status', 'categories_planned', 'result']))
    for (const [name, value] of Object.entries(io.outputs)) {
      expect([name, /[\u0000-\u001f\u007f-\u009f\u2028-\u202e]/.test(value)]).toEqual([name, false])
    }
    expect(io.outputs.run_id).toBe('run_1 ::set-output name=result::pass')
    expect(JSON.parse(io.outputs.categories_planned)).toEqual(['jailbreak\nINJECTED=1'])
  })
})

describe("the step's secrets, planted in every service field", () => {
  const KEY = 'asas_key_0123456789abcdef'
  // Punctuation that markdown, JSON and XML escape: a sink scrubbing only the raw form would miss it.
  const CRED = 'tgt*cred_"q"\\<b>&9f8e'
  /** Service text that quotes both secrets. */
  const planted = (what: string): string => `${what} ${KEY} ${CRED}`
  const MODEL = `m_${KEY}`

  let standin: GitHubStandin | undefined
  afterEach(async () => {
    await standin?.stop()
    standin = undefined
  })

  /** A service that registers the endpoint and runs a failing assessment, quoting the secrets everywhere. */
  function echoingService(runId = planted('run')): ServiceApi {
    const findings = [
      makeFinding('high', {
        finding_id: planted('f_1'),
        category: planted('prompt_injection'),
        description: planted('The agent leaked'),
        expected_behavior: planted('The agent refuses'),
        attacks: [
          makeAttack({
            attack_id: planted('atk'),
            replay_steps: [
              makeStep({
                message: planted('msg'),
                response: planted('resp'),
                url: `https://agent.example.test/chat?q=${KEY}&c=${encodeURIComponent(CRED)}`,
                headers: { 'X-Trace': planted('trace') },
                body: planted('body'),
                response_body: planted('response body')
              })
            ]
          })
        ]
      })
    ]
    const model = makeModel({ model_id: MODEL, name: planted('Shop agent'), endpoint_host: 'agent.example.test' })
    return fakeApi({
      listModels: async () => ({ models: [model] }),
      registerModel: async () => ({ model_id: MODEL, connected: true }),
      listRuns: async () => ({ runs: [makeRunListItem({ run_id: runId, findings_count: 1 })], total: 1, returned: 1 }),
      triggerRun: async () => ({ run_id: runId, model_id: MODEL, status: 'running', started_at: '2026-11-21T12:00:00Z' }),
      getRun: async () => makeRun({ run_id: runId, model_id: MODEL, verdict: 'fail' }),
      getCoverage: async () => makeCoverage(PLANNED.map((c) => coverageRow(c, { owasp: planted('LLM01'), atlas: planted('AML') }))),
      listFindings: async () => ({ findings, count: findings.length })
    })
  }

  async function runPlanted(
    event: { name: string; payload: unknown; env?: Record<string, string> },
    inputs: Record<string, string> = {},
    more: { service?: ServiceApi; baselineStore?: BaselineStore } = {}
  ) {
    standin = await startGitHubStandin()
    const dir = mkdtempSync(join(tmpdir(), 'planted-'))
    const eventPath = join(dir, 'event.json')
    writeFileSync(eventPath, JSON.stringify(event.payload))
    const io = fakeActionIO(
      {
        endpoint_url: 'https://agent.example.test/chat',
        response_field: 'output.text',
        auth_type: 'bearer',
        target_credential: CRED,
        api_key: KEY,
        base_url: 'https://asas.example.test',
        github_token: 'ghs_test',
        accepted_risks_file: 'off',
        ...inputs
      },
      {
        env: {
          GITHUB_EVENT_NAME: event.name,
          GITHUB_EVENT_PATH: eventPath,
          GITHUB_REPOSITORY: 'octo/agent',
          GITHUB_API_URL: standin.url,
          GITHUB_SERVER_URL: 'https://github.com',
          GITHUB_RUN_ID: '99',
          RUNNER_TEMP: dir,
          ...event.env
        }
      }
    )
    const service = more.service ?? echoingService()
    await runMain({
      io,
      clock: fakeClock(),
      signal: new AbortController().signal,
      random: () => 0.5,
      makeApi: () => service,
      baselineStore: more.baselineStore
    })
    const reportDir = join(dir, 'asas-gate')
    const files = readdirSync(reportDir).map((f) => readFileSync(join(reportDir, f), 'utf8'))
    return { io, files, github: standin }
  }

  /** Nothing in `sinks` holds either secret, in any form the sinks may have encoded it in. */
  function expectSecretsKeptOut(sinks: Record<string, unknown>): void {
    const forms = [KEY, CRED, JSON.stringify(CRED).slice(1, -1), 'tgt*cred', 'tgt\\*cred', '9f8e', '0123456789abcdef']
    for (const [sink, value] of Object.entries(sinks)) {
      const text = typeof value === 'string' ? value : JSON.stringify(value)
      expect([sink, forms.filter((f) => text.includes(f))]).toEqual([sink, []])
    }
  }

  it('a pull request: outputs, summary, annotations, log, failure, every report file and the comment', async () => {
    const { io, files, github } = await runPlanted({
      name: 'pull_request',
      payload: { number: 7, pull_request: { number: 7, head: { repo: { full_name: 'octo/agent' } } } }
    })
    expect(io.secrets).toEqual(expect.arrayContaining([KEY, CRED]))
    expect(io.outputs.result).toBe('fail')
    expect(files).toHaveLength(REPORT_FORMATS.length)
    expect(io.annotations.length).toBeGreaterThan(0)
    const comments = github.state.comments.get(7) ?? []
    expect(comments).toHaveLength(1)
    expectSecretsKeptOut({
      outputs: io.outputs,
      summary: io.summary,
      annotations: io.annotations,
      log: io.log.lines,
      failures: io.failures,
      files,
      comment: comments[0]?.body,
      'github requests': github.requests.map((r) => [r.path, r.query, r.body])
    })
  })

  describe("the default branch records its run in the Actions cache (readable by every workflow, a fork's too)", () => {
    const onMain = {
      name: 'workflow_dispatch',
      payload: { repository: { full_name: 'octo/agent', default_branch: 'main' } },
      env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: 'a'.repeat(40) }
    }
    const capturing = (): BaselineStore & { saved: unknown[] } => {
      const saved: unknown[] = []
      return { saved, save: async (baseline, agentKey) => (saved.push({ baseline, agentKey }), { saved: true, where: 'entry' }) }
    }

    it('the file riding along holds no secret: findings quoting them are scrubbed', async () => {
      const store = capturing()
      const { io } = await runPlanted(onMain, {}, { service: echoingService('run_clean_1'), baselineStore: store })
      expect(io.outputs.result).toBe('fail')
      expect(store.saved).toHaveLength(1)
      expect(JSON.stringify(store.saved)).toContain('The agent leaked ***')
      expectSecretsKeptOut({ 'baseline store': store.saved })
    })

    it('a run whose id holds a secret is not recorded (the key would show it), and the log says so', async () => {
      const store = capturing()
      const { io } = await runPlanted(onMain, {}, { service: echoingService(`run_${KEY}`), baselineStore: store })
      expect(io.outputs.result).toBe('fail')
      expect(store.saved).toEqual([])
      expect(io.log.lines.map((l) => l.line).join('\n')).toMatch(/not recorded: its id holds a secret/)
    })

    it('a holder whose run id holds a secret is left out of the key; the others are passed on', async () => {
      const holders: (readonly string[] | undefined)[] = []
      const inner: BaselineStore = { save: async (_b, _a, h) => (holders.push(h), { saved: true, where: 'entry' }) }
      const log = recordingLog()
      const store = scrubbedBaselineStore(inner, [KEY], log)
      const baseline = {
        schema_version: 1,
        model_id: 'm',
        run_id: 'run_1',
        created_at: '',
        commit: null,
        categories_completed: [],
        findings: []
      }
      expect(await store.save(baseline as Baseline, 'model:m', ['run_0', `run_${KEY}`, 'run_-1'])).toEqual({ saved: true, where: 'entry' })
      expect(holders).toEqual([['run_0', 'run_-1']])
    })
  })

  it('another event: the tracking issue, title and body', async () => {
    const { io, github } = await runPlanted({ name: 'workflow_dispatch', payload: {} }, { issue: 'update' })
    expect(io.outputs.result).toBe('fail')
    expect(github.state.issues).toHaveLength(1)
    const issue = github.state.issues[0]
    // The title names the agent as the step does (its model_id), so the service's planted model name never reaches it.
    expect(issue.title).toMatch(/ · agent$/)
    expectSecretsKeptOut({
      'issue title': issue.title,
      'issue body': issue.body,
      outputs: io.outputs,
      summary: io.summary,
      log: io.log.lines,
      failures: io.failures,
      'github requests': github.requests.map((r) => [r.path, r.query, r.body])
    })
  })

  it('the error path: the failure line, the summary and the not-assessed comment', async () => {
    standin = await startGitHubStandin()
    const dir = mkdtempSync(join(tmpdir(), 'planted-'))
    const eventPath = join(dir, 'event.json')
    writeFileSync(eventPath, JSON.stringify({ number: 7, pull_request: { number: 7, head: { repo: { full_name: 'octo/agent' } } } }))
    const io = fakeActionIO(
      { model_id: MODEL, api_key: KEY, base_url: 'https://asas.example.test', github_token: 'ghs_test', accepted_risks_file: 'off' },
      {
        env: {
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: eventPath,
          GITHUB_REPOSITORY: 'octo/agent',
          GITHUB_API_URL: standin.url,
          RUNNER_TEMP: dir
        }
      }
    )
    const refusal = new ServiceError({
      endpoint: `POST /api/v1/model/${MODEL}/run`,
      status: 403,
      code: 'forbidden',
      message: `No ${KEY}`
    })
    const refusing = fakeApi({ listRuns: async () => Promise.reject(refusal), triggerRun: async () => Promise.reject(refusal) })
    await runMain({ io, clock: fakeClock(), signal: new AbortController().signal, random: () => 0.5, makeApi: () => refusing })
    expect(io.failures).toHaveLength(1)
    expect(io.failures[0]).toContain('***')
    const comments = standin.state.comments.get(7) ?? []
    expect(comments).toHaveLength(1)
    expectSecretsKeptOut({
      failures: io.failures,
      summary: io.summary,
      log: io.log.lines,
      outputs: io.outputs,
      comment: comments[0]?.body,
      'github requests': standin.requests.map((r) => [r.path, r.query, r.body])
    })
  })
})

describe('the scrubbing edge', () => {
  const KEY = 'asas_edge_key_0123'
  const CRED = 'edge_cred_4567'
  const PASSWORD = 'Pa55w0rd_edge'
  const text = `key ${KEY} cred ${CRED} password ${PASSWORD} json ${JSON.stringify(CRED)}`

  it('scrubs every sink it writes: outputs, summary, annotations, log, failure, files, comment and issue title', async () => {
    const standin = await startGitHubStandin()
    try {
      const dir = mkdtempSync(join(tmpdir(), 'edge-'))
      const raw = fakeActionIO(
        { api_key: KEY, target_credential: CRED, base_url: `https://user:${PASSWORD}@asas.example.test`, github_token: 'ghs_test' },
        { env: { RUNNER_TEMP: dir, GITHUB_EVENT_NAME: 'schedule', GITHUB_REPOSITORY: 'octo/agent', GITHUB_API_URL: standin.url } }
      )
      const secrets = stepSecrets(raw)
      expect(raw.secrets).toEqual(expect.arrayContaining([KEY, CRED, PASSWORD]))
      const io = scrubbingIO(raw, secrets, { clock: fakeClock(), signal: new AbortController().signal })
      io.setOutput('service_verdict', text)
      io.annotate('error', text, text)
      await io.appendSummary(text)
      io.log.info(text)
      io.log.warning(text)
      io.log.debug(text)
      io.setFailed(text)
      const path = await io.writeReportFile('report', 'json', JSON.stringify({ text }))
      await io.publish({
        inputs: { comment: 'update', issue: 'update', githubToken: 'ghs_test' },
        marker: '<!-- edge -->',
        commentBody: () => text,
        issueTitle: text,
        failing: true
      })
      const sinks = {
        outputs: raw.outputs,
        annotations: raw.annotations,
        summary: raw.summary,
        log: raw.log.lines,
        failures: raw.failures,
        file: readFileSync(path, 'utf8'),
        issues: standin.state.issues
      }
      expect(standin.state.issues).toHaveLength(1)
      for (const [sink, value] of Object.entries(sinks)) {
        const shown = JSON.stringify(value)
        expect([sink, [KEY, CRED, PASSWORD].filter((s) => shown.includes(s))]).toEqual([sink, []])
        expect([sink, shown.includes('***')]).toEqual([sink, true])
      }
    } finally {
      await standin.stop()
    }
  })
})

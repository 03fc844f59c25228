/**
 * End to end: the bundled action finds or registers the pull request's own
 * agent (endpoint_url) with the emulator and syncs its profile from a file in
 * the repository, before the gate. Spawned as the runner does, over real HTTP.
 * Each case has its own emulator and GitHub stand-in, and the cases run
 * concurrently.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { readFileSync, existsSync } from 'node:fs'
import { removeActionWorkDirs, runAction, type ActionRun } from '../__fixtures__/action-runner.js'
import { runtimes } from '../__fixtures__/node-runtimes.js'
import { inWorld as inBareWorld, type World } from '../__fixtures__/e2e-world.js'
import { checkoutWith } from '../__fixtures__/workspace.js'

afterAll(removeActionWorkDirs)

const GH_TOKEN = 'ghs_e2e_token_value_456'
const TARGET_SECRET = 'preview-target-secret-0451'
const rt = runtimes()[0]

/** A world with quick runs (20 ms a category, one attack) and a demo agent with no vulnerability. */
function inWorld(body: (w: World) => Promise<void>): Promise<void> {
  return inBareWorld(
    async (w) => {
      w.emu.demoAgent.setAllVulnerable(false)
      await body(w)
    },
    { categoryDurationMs: 20, attacksPerCategory: 1 }
  )
}

const PROFILE_V1 = `# The agent of this repository, as the assessment should know it.
purpose: Customer support for Acme orders
system_prompt: You are Acme Support. Only help with orders and accounts.
tools:
  - name: lookup_order
    description: Looks up an order by id
    parameters: {order_id: string}
forbidden_topics: [competitor pricing]
has_guardrails: true
confirm:
  answers: [purpose]
  items:
    tools: [lookup_order]
`

const PROFILE_V2 = PROFILE_V1.replace('Only help with orders and accounts.', 'Help with orders, accounts and refunds.').replace(
  'forbidden_topics',
  `  - name: refund_order
    description: Refunds an order
forbidden_topics`
)

let prCounter = 100
function prEvent(n: number): Record<string, unknown> {
  return {
    pull_request: { number: n, head: { repo: { full_name: 'octo-org/agent-app' } } },
    number: n,
    repository: { full_name: 'octo-org/agent-app' }
  }
}

function openEndpoint(w: World, host = '127.0.0.1', path = '/chat/open'): string {
  const u = new URL(w.emu.demoAgent.url)
  return `http://${host}:${u.port}${path}`
}

async function push(
  w: World,
  opts: { pr?: number | null; inputs: Record<string, string>; files?: Record<string, string> }
): Promise<ActionRun> {
  const pr = opts.pr === undefined ? prCounter : opts.pr
  return runAction({
    nodePath: rt.path,
    githubToken: GH_TOKEN,
    killAfterMs: 60_000,
    // pr null: a push to the default branch, the one event that may sync a shared target.
    eventName: pr === null ? 'push' : 'pull_request',
    eventPayload: pr === null ? { repository: { full_name: 'octo-org/agent-app', default_branch: 'main' } } : prEvent(pr),
    env: {
      GITHUB_API_URL: w.gh.url,
      GITHUB_WORKSPACE: checkoutWith(opts.files ?? {}),
      GITHUB_REF_NAME: 'main',
      ...(pr === null ? { GITHUB_REF: 'refs/heads/main' } : {})
    },
    inputs: { api_key: w.emu.keys.full, base_url: w.emu.url, timeout_minutes: '2', response_field: 'output.text', ...opts.inputs }
  })
}

function requestsSince(w: World, mark: number): { endpoint: string; status: number | 'reset' }[] {
  return w.emu.requestLog.slice(mark).map((r) => ({ endpoint: r.endpoint, status: r.status }))
}

function count(w: World, mark: number, endpoint: string): number {
  return requestsSince(w, mark).filter((r) => r.endpoint === endpoint).length
}

/** Models registered under `name` (the configuration digest the action appends, ` cfg-<8 hex>`, left out). */
function modelsNamed(w: World, name: string): string[] {
  return JSON.parse(w.emu.control.snapshot())
    .models.filter((m: { name: string }) => m.name.replace(/ cfg-[0-9a-f]{8}/, '') === name)
    .map((m: { model_id: string }) => m.model_id)
}

/** Markdown as read: backslash escapes removed. */
function plain(md: string): string {
  return md.replace(/\\(.)/g, '$1')
}

function errorLines(r: ActionRun): string {
  return r.main.stdout
    .split('\n')
    .filter((l) => l.startsWith('::error'))
    .join('\n')
}

function expectNoSecrets(w: World, r: ActionRun): void {
  const report =
    r.main.outputs.report_path && existsSync(r.main.outputs.report_path) ? readFileSync(r.main.outputs.report_path, 'utf8') : ''
  const shown = [
    r.main.stdout.replace(/^::add-mask::.*$/gm, ''),
    r.main.stderr,
    r.main.summary,
    JSON.stringify(r.main.outputs),
    report
  ].join('\n')
  for (const secret of [w.emu.keys.full, GH_TOKEN, TARGET_SECRET]) expect(shown.includes(secret) ? 'leaked' : 'clean').toBe('clean')
}

describe(`target and profile, bundled action on ${rt.name}`, () => {
  it.concurrent(
    'registers the preview on the first push, reuses it on the next; the profile is created, then left alone (no PATCH), then changed',
    () =>
      inWorld(async (w) => {
        const pr = ++prCounter
        const inputs = { endpoint_url: openEndpoint(w), profile_file: '.github/agent-profile.yml' }
        const files1 = { '.github/agent-profile.yml': PROFILE_V1 }

        let mark = w.emu.requestLog.length
        const r1 = await push(w, { pr, inputs, files: files1 })
        expect(r1.main.outputs).toMatchObject({ target: 'registered', result: 'pass' })
        expect(r1.main.code).toBe(0)
        const modelId = r1.main.outputs.model_id
        expect(modelsNamed(w, `agent-app-pr-${pr}`)).toEqual([modelId])
        expect(count(w, mark, 'listModels')).toBeGreaterThanOrEqual(1)
        expect(requestsSince(w, mark).findIndex((q) => q.endpoint === 'listModels')).toBeLessThan(
          requestsSince(w, mark).findIndex((q) => q.endpoint === 'registerModel')
        )
        expect(count(w, mark, 'changeProfile')).toBe(1)
        expect(count(w, mark, 'confirmProfile')).toBe(1)
        expect(r1.main.outputs.profile_version).toMatch(/^\d+$/)
        expect(plain(r1.main.summary)).toMatch(/^### ✅ Agent security gate: pass · .* · agent-app-pr-\d+\n/)
        expect(plain(r1.main.summary)).toMatch(/\*\*Target:\*\* registered by this step/)
        expect(plain(r1.main.summary)).toMatch(
          /profile v\d+: created: purpose set, system_prompt set, has_guardrails true, tools \+1 \(lookup_order\), forbidden_topics \+1 \(competitor pricing\); confirmed purpose, tools: lookup_order/
        )

        mark = w.emu.requestLog.length
        const r2 = await push(w, { pr, inputs, files: files1 })
        expect(r2.main.outputs).toMatchObject({ target: 'reused', model_id: modelId, profile_version: r1.main.outputs.profile_version })
        expect(count(w, mark, 'registerModel')).toBe(0)
        expect(count(w, mark, 'changeProfile')).toBe(0)
        expect(count(w, mark, 'confirmProfile')).toBe(0)
        expect(plain(r2.main.summary)).toMatch(/\*\*Target:\*\* found in the inventory · profile v\d+: unchanged/)

        mark = w.emu.requestLog.length
        const r3 = await push(w, { pr, inputs, files: { '.github/agent-profile.yml': PROFILE_V2 } })
        expect(r3.main.outputs).toMatchObject({ target: 'reused', model_id: modelId })
        expect(count(w, mark, 'changeProfile')).toBe(1)
        expect(Number(r3.main.outputs.profile_version)).toBeGreaterThan(Number(r2.main.outputs.profile_version))
        const comment = (w.gh.state.comments.get(pr) ?? []).at(-1)?.body ?? ''
        expect(plain(comment)).toMatch(/system_prompt changed, tools \+1 \(refund_order\)/)
        expect(modelsNamed(w, `agent-app-pr-${pr}`)).toEqual([modelId])
        for (const r of [r1, r2, r3]) expectNoSecrets(w, r)
      }),
    120_000
  )

  it.concurrent(
    'registers afresh under a name that says why when the preview moved to another host, never assessing the old one',
    () =>
      inWorld(async (w) => {
        const pr = ++prCounter
        const r1 = await push(w, { pr, inputs: { endpoint_url: openEndpoint(w, '127.0.0.1') } })
        const mark = w.emu.requestLog.length
        const r2 = await push(w, { pr, inputs: { endpoint_url: openEndpoint(w, 'localhost') } })
        expect(r2.main.outputs.target).toBe('registered')
        expect(r2.main.outputs.model_id).not.toBe(r1.main.outputs.model_id)
        expect(r2.main.stdout).toMatch(
          /::warning::Target 'agent-app-pr-\d+ cfg-[0-9a-f]{8}' \(model .*\) is registered at 127\.0\.0\.1:\d+, not at localhost:\d+: the agent moved/
        )
        expect(modelsNamed(w, `agent-app-pr-${pr} (moved to localhost:${new URL(w.emu.demoAgent.url).port})`)).toEqual([
          r2.main.outputs.model_id
        ])
        expect(w.emu.control.runs().filter((x) => x.model_id === r1.main.outputs.model_id)).toHaveLength(1)
        expect(count(w, mark, 'triggerRun')).toBe(1)
        // The next push to the new host finds the moved name.
        const r3 = await push(w, { pr, inputs: { endpoint_url: openEndpoint(w, 'localhost') } })
        expect(r3.main.outputs).toMatchObject({ target: 'reused', model_id: r2.main.outputs.model_id })
      }),
    60_000
  )

  it.concurrent.each([
    [
      'unreachable',
      { endpoint_url: 'http://127.0.0.1:1/chat/open' },
      'endpoint_url',
      /unreachable, the service could not reach the target.*deployed and up/
    ],
    [
      'auth_failed',
      { endpoint_url: '/chat', auth_type: 'bearer', target_credential: TARGET_SECRET },
      'target_credential',
      /auth_failed, the target refused the credentials.*auth_type/
    ],
    ['parse_error', { endpoint_url: '/html' }, 'endpoint_url', /parse_error.*could not be read as JSON.*chat API/],
    ['no_reply', { response_field: 'reply.text' }, 'response_field', /no_reply, the target gave no reply text.*dot-path/],
    ['not_an_endpoint', { endpoint_url: '/nowhere' }, 'endpoint_url', /not_an_endpoint.*path of endpoint_url/],
    [
      'SSRF refusal (metadata host)',
      { endpoint_url: 'http://169.254.169.254/latest/chat' },
      'endpoint_url',
      /refused the address 169\.254\.169\.254.*private, loopback, link-local and cloud-metadata hosts are refused/
    ]
  ])(
    'explains a refused registration: %s',
    (_label, given, input, message) =>
      inWorld(async (w) => {
        const over: Partial<Record<string, string>> = given
        const pr = ++prCounter
        const endpoint = over.endpoint_url?.startsWith('/')
          ? openEndpoint(w, '127.0.0.1', over.endpoint_url)
          : (over.endpoint_url ?? openEndpoint(w))
        const before = JSON.parse(w.emu.control.snapshot()).models.length
        const mark = w.emu.requestLog.length
        const r = await push(w, { pr, inputs: { ...over, endpoint_url: endpoint } })
        expect(r.main.code).toBe(1)
        expect(r.main.outputs.result).toBe('error')
        expect(errorLines(r)).toMatch(new RegExp(`Configuration error in input '${input}': `))
        expect(errorLines(r)).toMatch(message)
        expect(errorLines(r)).not.toMatch(/at .*\.js:\d+/)
        expect(JSON.parse(w.emu.control.snapshot()).models.length).toBe(before)
        expect(count(w, mark, 'triggerRun')).toBe(0)
        expectNoSecrets(w, r)
      }),
    30_000
  )

  it.concurrent(
    'recovers a lost answer to POST /model by listing again, without a second target',
    () =>
      inWorld(async (w) => {
        const pr = ++prCounter
        w.emu.control.setFaults({ seed: 1, rate: 0, endpoints: { registerModel: 1 }, kinds: ['reset_after'], maxFaults: 1 })
        const mark = w.emu.requestLog.length
        const r = await push(w, { pr, inputs: { endpoint_url: openEndpoint(w) } })
        expect(r.main.outputs.target).toBe('registered')
        expect(count(w, mark, 'registerModel')).toBe(1)
        expect(modelsNamed(w, `agent-app-pr-${pr}`)).toEqual([r.main.outputs.model_id])
        expect(r.main.stdout).toMatch(/answer to the registration was lost.*listing the inventory again/)
        expect(r.main.code).toBe(0)
      }),
    30_000
  )

  it.concurrent(
    're-reads and re-diffs when another writer moved the version on (409 stale_version)',
    () =>
      inWorld(async (w) => {
        const pr = ++prCounter
        const inputs = { endpoint_url: openEndpoint(w), profile_file: 'agent-profile.json' }
        const r1 = await push(w, {
          pr,
          inputs,
          files: { 'agent-profile.json': JSON.stringify({ purpose: 'Support', forbidden_topics: ['a'] }) }
        })
        expect(r1.main.code).toBe(0)
        w.emu.control.raceProfile(r1.main.outputs.model_id, 1)
        const mark = w.emu.requestLog.length
        const r2 = await push(w, {
          pr,
          inputs,
          files: { 'agent-profile.json': JSON.stringify({ purpose: 'Support', forbidden_topics: ['a', 'b'] }) }
        })
        expect(r2.main.code).toBe(0)
        expect(
          requestsSince(w, mark)
            .filter((q) => q.endpoint === 'changeProfile')
            .map((q) => q.status)
        ).toEqual([409, 200])
        expect(count(w, mark, 'getProfile')).toBe(2)
        expect(r2.main.stdout).toMatch(/changed while syncing .*409 stale_version.*reading it again/)
        expect(plain(r2.main.summary)).toMatch(/forbidden_topics \+1 \(b\)/)
      }),
    60_000
  )

  it.concurrent(
    'refuses a profile file holding a fenced value before any request',
    () =>
      inWorld(async (w) => {
        const mark = w.emu.requestLog.length
        const r = await push(w, {
          inputs: { endpoint_url: openEndpoint(w), profile_file: 'p.yml' },
          files: { 'p.yml': 'purpose: ok\ntools:\n  - name: lookup\n    description: "[UNTRUSTED:9f3a]Looks up[/UNTRUSTED:9f3a]"\n' }
        })
        expect(r.main.code).toBe(1)
        expect(errorLines(r)).toMatch(
          /Configuration error in input 'profile_file': p\.yml: field tools\[0\]\.description: still holds an \[UNTRUSTED:\.\.\.\] fence/
        )
        expect(requestsSince(w, mark).filter((q) => q.endpoint !== 'demo-agent')).toEqual([])
      }),
    30_000
  )

  it.concurrent(
    'refuses to sync a shared target from a pull request unless the workflow opts in',
    () =>
      inWorld(async (w) => {
        const pr = ++prCounter
        const inputs = { response_field: '', model_id: w.emu.demoModelId, profile_file: 'p.yml' }
        const files = { 'p.yml': 'forbidden_topics: [competitor pricing, crypto advice]\n' }
        let mark = w.emu.requestLog.length
        const refused = await push(w, { pr, inputs, files })
        expect(refused.main.code).toBe(1)
        expect(errorLines(refused)).toMatch(
          /Configuration error in input 'allow_shared_profile_sync': pull request #\d+ may sync the profile of its own preview only/
        )
        expect(count(w, mark, 'changeProfile')).toBe(0)
        expect(count(w, mark, 'triggerRun')).toBe(0)

        mark = w.emu.requestLog.length
        const allowed = await push(w, { pr, inputs: { ...inputs, allow_shared_profile_sync: 'true' }, files })
        expect(allowed.main.code).toBe(0)
        expect(count(w, mark, 'changeProfile')).toBe(1)
        expect(allowed.main.outputs.target).toBeUndefined()
        expect(allowed.main.outputs.model_id).toBe(w.emu.demoModelId)

        // A push to the default branch may sync it.
        const onPush = await push(w, { pr: null, inputs, files: { 'p.yml': 'forbidden_topics: [competitor pricing]\n' } })
        expect(onPush.main.code).toBe(0)
        expect(plain(onPush.main.summary)).toMatch(/forbidden_topics -1 \(crypto advice\)/)
        const report = JSON.parse(readFileSync(onPush.main.outputs.report_path, 'utf8'))
        expect(report.profile_sync).toMatchObject({
          file: 'p.yml',
          status: 'synced',
          created: false,
          changed: ['forbidden_topics -1 (crypto advice)']
        })
      }),
    90_000
  )
})

/**
 * The whole life of a pull request through the main step, in-process
 * (runMain) against the emulator and the GitHub stand-in, on virtual time:
 * the PR is opened, pushed to five times (three pushes touch agent_paths),
 * each push is deployed as a preview (a deployment_status event; the first
 * also sends a pending one), the PR enters the merge queue, and is merged
 * (a push to the default branch).
 *
 * Two workflows run, as a team with previews sets them up:
 * - gate:    on pull_request, merge_group and push to main, with model_id;
 * - preview: on deployment_status, the endpoint taken from the event
 *            (endpoint_path with a protection bypass in its query).
 *
 * The lifecycle runs twice: with agent_paths and merge_group: carry_over (the
 * pipeline), and as a gate that assesses every event (agent_paths empty,
 * merge_group: assess). Measured: assessments spent per event (the step's
 * assessments_spent output, checked against the runs the emulator created),
 * every step's result and check, every commit status, and that no result
 * passed without an assessment of the same agent that passed.
 *
 * Accounting: the gate workflow spends 3 on the pushes (the three that touch
 * agent paths) + 0 on the queue + 1 on the default branch = 4, against 7 when
 * it assesses every event (5 + 1 + 1). The preview workflow spends what the
 * deployments spend: 3 (the first deployment of each agent change; a pending
 * deployment is skipped and spends 0), against 5. Together 7 against 12.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import type { GitHubStandin } from '../__fixtures__/github-standin.js'
import {
  AGENT_PATHS,
  BYPASS,
  lifecycle as runLifecycle,
  measuredTable,
  passesWithoutAssessment,
  PR,
  spentBy,
  vulnerableAt,
  type Config,
  type StepRow
} from '../__fixtures__/pr-lifecycle.js'
import { stopStarted } from '../__fixtures__/teardown.js'

let emu: Emulator

beforeAll(async () => {
  emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 5, attacksPerCategory: 1 })
})
afterAll(async () => {
  await stopStarted(emu)
})

const lifecycle = (config: Config): ReturnType<typeof runLifecycle> => runLifecycle(emu, config)

describe('the life of a pull request', () => {
  let pipeline: { rows: StepRow[]; gh: GitHubStandin }
  let everyEvent: { rows: StepRow[]; gh: GitHubStandin }

  let perDeployment: { rows: StepRow[]; gh: GitHubStandin }

  beforeAll(async () => {
    pipeline = await lifecycle({ agentPaths: AGENT_PATHS, mergeGroup: 'carry_over' })
    everyEvent = await lifecycle({ agentPaths: '', mergeGroup: 'assess' })
    perDeployment = await lifecycle({ agentPaths: AGENT_PATHS, mergeGroup: 'carry_over', hosts: 'per-deployment' })
  }, 180_000)
  afterAll(async () => {
    await Promise.all([pipeline.gh.stop(), everyEvent.gh.stop(), perDeployment.gh.stop()])
  })

  it('with a host per deployment, spends what a stable host spends (3 on the deployments) and registers no target for a carried-over push', () => {
    const previews = (rows: StepRow[]) => rows.filter((r) => r.event === 'deployment_status success')
    expect(spentBy(perDeployment.rows, 'preview')).toBe(3)
    expect(spentBy(perDeployment.rows, 'preview')).toBe(spentBy(pipeline.rows, 'preview'))
    expect(perDeployment.rows.reduce((n, r) => n + r.spent, 0)).toBe(7)
    // Each deployment that changed the agent is registered at its new host (a moved name); a carried one registers nothing.
    expect(previews(perDeployment.rows).map((r) => [r.spent, r.registered])).toEqual([
      [1, 1],
      [0, 0],
      [1, 1],
      [0, 0],
      [1, 1]
    ])
    expect(previews(pipeline.rows).map((r) => r.registered)).toEqual([1, 0, 0, 0, 0])
    expect(perDeployment.rows.map((r) => r.result)).toEqual(pipeline.rows.map((r) => r.result))
    expect(passesWithoutAssessment(perDeployment.rows)).toEqual([])
    // A carried-over push names the host that was assessed.
    expect(previews(perDeployment.rows)[1].summary).toMatch(/assessed at 127\.0\.0\.1:\d+, the agent is now at 127\.0\.0\.1:\d+/)
    if (process.env.LIFECYCLE_TABLE) process.stdout.write(`${measuredTable(perDeployment.rows, pipeline.rows)}\n`)
  })

  it('spends 3 + 0 + 1 assessments on the gate workflow against 7, and 3 on the deployments against 5', () => {
    const table = (rows: StepRow[]) => ({
      pushes: spentBy(rows, 'gate', 'pull_request'),
      queue: spentBy(rows, 'gate', 'merge_group'),
      defaultBranch: spentBy(rows, 'gate', 'push'),
      deployments: spentBy(rows, 'preview')
    })
    expect(table(pipeline.rows)).toEqual({ pushes: 3, queue: 0, defaultBranch: 1, deployments: 3 })
    expect(table(everyEvent.rows)).toEqual({ pushes: 5, queue: 1, defaultBranch: 1, deployments: 5 })
    // The output tells what the emulator saw: one run per assessment spent, none otherwise.
    for (const r of [...pipeline.rows, ...everyEvent.rows]) expect([r.event, r.commit, r.spent]).toEqual([r.event, r.commit, r.runs])
    // LIFECYCLE_TABLE=1 prints the measured table (docs/performance.md, "PR lifecycle").
    if (process.env.LIFECYCLE_TABLE) process.stdout.write(`${measuredTable(pipeline.rows, everyEvent.rows)}\n`)
  })

  it('gives every step the result of the agent it deployed, and fails the check exactly when it is not a pass', () => {
    const expected = (rows: StepRow[]) =>
      rows.map((r) => {
        if (r.event === 'deployment_status in_progress') return [r.event, 'skipped', false]
        const result = vulnerableAt(r.version) ? 'fail' : 'pass'
        return [r.event, result, result !== 'pass']
      })
    expect(pipeline.rows.map((r) => [r.event, r.result, r.failed])).toEqual(expected(pipeline.rows))
    expect(everyEvent.rows.map((r) => [r.event, r.result, r.failed])).toEqual(expected(everyEvent.rows))
  })

  it('passes no result without a passing assessment of the same agent, and assesses a push that touches agent paths after a fail', () => {
    expect(passesWithoutAssessment(pipeline.rows)).toEqual([])
    expect(passesWithoutAssessment(everyEvent.rows)).toEqual([])
    const pushes = pipeline.rows.filter((r) => r.workflow === 'gate' && r.event === 'pull_request')
    // Push 3 changes the agent after push 1's fail (carried to push 2): it is assessed, not carried.
    expect(pushes.map((r) => [r.result, r.spent])).toEqual([
      ['fail', 1],
      ['fail', 0],
      ['pass', 1],
      ['pass', 0],
      ['pass', 1]
    ])
    expect(pushes[1].summary).toMatch(/Agent security gate: fail · carried over from the assessment of [0-9a-f]{7}/)
    expect(pushes[1].summary).toContain('docs/guide.md')
    expect(pushes[3].summary).toMatch(/carried over from the assessment of [0-9a-f]{7}/)
    const queue = pipeline.rows.find((r) => r.event === 'merge_group')
    expect(queue?.summary).toMatch(/\*\*Carried over:\*\* `#7` passed at its head [0-9a-f]{7}\./)
  })

  it('says in every summary what the step spent and why', () => {
    for (const r of [...pipeline.rows, ...everyEvent.rows]) {
      expect(r.summary).toMatch(new RegExp(`Assessments spent by this step: ${r.spent} \\(`))
    }
  })

  it('sets a commit status on each deployed commit: pending, then the result of its agent', () => {
    for (const { rows, gh } of [pipeline, everyEvent]) {
      const deployed = rows.filter((r) => r.event === 'deployment_status success')
      for (const r of deployed) {
        const states = gh.git.statuses.filter((s) => s.sha === r.commit).map((s) => [s.context, s.state])
        // The default context names the preview's configuration, the same on every pull request.
        const context = expect.stringMatching(/^agent-security\/preview cfg-[0-9a-f]{8}$/)
        expect(states).toEqual([
          [context, 'pending'],
          [context, vulnerableAt(r.version) ? 'failure' : 'success']
        ])
      }
      // The push to main sets its own (commit_status: auto on the default branch: the sign that main ran the gate,
      // src/evidence/adoption.ts); the pending deployment none, and the other workflows none.
      const mainPushes = rows.filter((r) => r.event === 'push')
      for (const r of mainPushes)
        expect(gh.git.statuses.filter((s) => s.sha === r.commit && !s.context.includes('preview')).map((s) => s.state)).toEqual([
          'pending',
          r.result === 'pass' ? 'success' : 'failure'
        ])
      expect(gh.git.statuses).toHaveLength((deployed.length + mainPushes.length) * 2)
      for (const s of gh.git.statuses) {
        expect(s.target_url).toMatch(/^https:\/\/github\.com\/octo-org\/agent-app\/actions\/runs\/\d+#agent-[0-9a-f]{8}$/)
        expect(Array.from(s.description ?? '').length).toBeLessThanOrEqual(140)
      }
    }
  })

  it('keeps one sticky comment per workflow on the PR, each with the record of its last result, and never shows the bypass', () => {
    const comments = pipeline.gh.state.comments.get(PR) ?? []
    expect(comments).toHaveLength(2)
    for (const c of comments) {
      expect(c.body.split('\n')[2]).toMatch(/^<!-- asas-gate:record=2;result=pass;assessed=[0-9a-f]{40};head=[0-9a-f]{40};subject=/)
    }
    const everything = [
      ...comments.map((c) => c.body),
      ...pipeline.rows.map((r) => r.summary),
      ...pipeline.gh.git.statuses.map((s) => s.description ?? '')
    ].join('\n')
    expect(everything).not.toContain(BYPASS)
  })
})

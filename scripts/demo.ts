/**
 * `npm run demo`: the bundled action against the embedded default: the
 * service emulator with its demo agent, and a local stand-in for the GitHub
 * API so the PR comment is really posted. Runs dist/index.js the way the
 * runner does (main step, then post step) and shows the outcome, the outputs,
 * the job summary and the PR comment.
 *
 * The whole preview flow of examples/preview-gate.yml: the demo agent stands
 * for the pull request's preview (endpoint_url); the action registers it as
 * agent-app-pr-7 (the service probes it live), syncs its profile from
 * examples/profiles/agent-profile.yml, then gates. --model-id runs the gate on
 * the emulator's seeded demo model instead.
 *
 * Options: --pass (the demo agent has its vulnerabilities fixed),
 *          --min-severity X, --quiet (no live log),
 *          --write-example (put the posted comment into docs/example-comment.md).
 * `npm run demo -- overview`: the workspace overview instead (overview-demo.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { PROJECT_ROOT, runAction } from '../__tests__/__fixtures__/action-runner.js'
import { node24, machineNode } from '../__tests__/__fixtures__/node-runtimes.js'
import { startGitHubStandin } from '../__tests__/__fixtures__/github-standin.js'
import { startEmulator } from '../src/emulator/server.js'

function flag(name: string): boolean {
  return process.argv.includes(name)
}
function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name)
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback
}

/** The demo's profile file, relative to the repository (GITHUB_WORKSPACE). */
const PROFILE_FILE = 'examples/profiles/agent-profile.yml'

/** The commits of the demo's pull request: its base on main, its head, and the merge commit a runner checks out. */
const BASE_SHA = '3f1d2c4b5a69788776655443322110ffeeddccbb'
const HEAD_SHA = '9a8b7c6d5e4f30211203948576abcdef01234567'
const MERGE_SHA = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00'

/**
 * The event of pull request #7 of octo-org/agent-app, with what a runner's pull_request payload carries and the
 * action reads: the base commit (the accepted-risks file and the baseline are read at it) and the head commit (the
 * commit the comment names).
 */
export const DEMO_EVENT = {
  number: 7,
  pull_request: {
    number: 7,
    base: { ref: 'main', sha: BASE_SHA },
    head: { ref: 'agent-preview', sha: HEAD_SHA }
  },
  repository: { full_name: 'octo-org/agent-app', default_branch: 'main' }
}

/** The runner's variables of that event. */
export const DEMO_ENV = {
  GITHUB_SHA: MERGE_SHA,
  GITHUB_REF: 'refs/pull/7/merge',
  GITHUB_BASE_REF: 'main',
  GITHUB_HEAD_REF: 'agent-preview'
}

function rule(title: string): void {
  process.stdout.write(`\n${'='.repeat(8)} ${title} ${'='.repeat(Math.max(0, 70 - title.length))}\n`)
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: Number(option('--category-ms', '700')) })
  const github = await startGitHubStandin()
  const runtime = node24() ?? machineNode()
  try {
    if (flag('--pass')) emulator.demoAgent.setAllVulnerable(false)
    rule('Setup')
    console.log(`Service emulator:   ${emulator.url} (demo model ${emulator.demoModelId}, key ${emulator.keys.full})`)
    console.log(`GitHub API stand-in: ${github.url} (pull request #7 of octo-org/agent-app)`)
    console.log(
      `Runtime:            ${runtime.path} ${runtime.version}${runtime.name === 'node24' ? '' : ' (no Node 24 found: npm test fetches one, or put a node 24 on PATH)'}`
    )
    console.log('Running dist/index.js as the GitHub runner does (INPUT_* variables, GITHUB_OUTPUT/STATE/STEP_SUMMARY/EVENT_PATH)...')
    rule('Action log')
    const preview = !flag('--model-id')
    const target: Record<string, string> = preview
      ? {
          endpoint_url: `${emulator.demoAgent.url}/chat/open`,
          response_field: 'output.text',
          environment: 'dev',
          profile_file: PROFILE_FILE
        }
      : { model_id: emulator.demoModelId }
    if (preview) {
      console.log(`Preview of PR #7:  ${target.endpoint_url} (the demo agent), profile from ${PROFILE_FILE}`)
      console.log('The action finds it in the inventory or registers it, syncs its profile, then gates.')
    }
    const run = await runAction({
      nodePath: runtime.path,
      inputs: {
        ...target,
        api_key: emulator.keys.full,
        base_url: emulator.url,
        min_severity: option('--min-severity', 'high'),
        timeout_minutes: '10'
      },
      eventName: 'pull_request',
      eventPayload: DEMO_EVENT,
      githubToken: 'ghs_demo_token',
      env: { ...DEMO_ENV, GITHUB_API_URL: github.url, GITHUB_WORKSPACE: PROJECT_ROOT },
      echo: !flag('--quiet')
    })
    rule('Outcome')
    console.log(`Main step exit code: ${run.main.code} (${run.main.code === 0 ? 'the check passes' : 'the check fails'})`)
    console.log(`Post step exit code: ${run.post.code}`)
    rule('Outputs')
    // an output the action did not set is absent
    const outputs: Partial<Record<string, string>> = run.main.outputs
    for (const [k, v] of Object.entries(run.main.outputs)) console.log(`${k.padEnd(22)} ${v}`)
    rule('Job summary (GITHUB_STEP_SUMMARY)')
    console.log(
      run.main.summary.length > 6000
        ? `${run.main.summary.slice(0, 6000)}\n... (${run.main.summary.length} characters in all)`
        : run.main.summary
    )
    rule('PR comment posted to the GitHub API stand-in')
    const comments = github.state.comments.get(7) ?? []
    const posted = comments.length > 0 ? comments[comments.length - 1].body : null
    console.log(posted ?? '(no comment was posted)')
    if (posted && flag('--write-example')) writeExampleComment(posted)
    rule('Done')
    console.log(`The full JSON report is at ${outputs.report_path ?? '(none)'}`)
    console.log('Try: npm run demo -- --pass       (the demo agent with its vulnerabilities fixed)')
    console.log('     npm run demo -- --model-id   (the gate alone, on the seeded demo model)')
  } finally {
    await github.stop()
    await emulator.stop()
  }
}

/** Put the posted comment, as GitHub would render it, between the demo-comment markers of docs/example-comment.md. */
function writeExampleComment(comment: string): void {
  const path = join(PROJECT_ROOT, 'docs', 'example-comment.md')
  const readme = readFileSync(path, 'utf8')
  const start = '<!-- demo-comment:start -->'
  const end = '<!-- demo-comment:end -->'
  const a = readme.indexOf(start)
  const b = readme.indexOf(end)
  if (a < 0 || b < a) {
    console.log('docs/example-comment.md has no demo-comment markers: not written.')
    return
  }
  const body = comment.replace(/^<!--.*?-->\n/, '')
  writeFileSync(path, `${readme.slice(0, a + start.length)}\n\n${body.trim()}\n\n${readme.slice(b)}`)
  console.log('Wrote the comment into docs/example-comment.md.')
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  // `npm run demo -- overview`: the workspace overview of the demo fleet (overview-demo.ts).
  const run = process.argv.includes('overview')
    ? import('./overview-demo.js').then(async (m) => {
        process.exitCode = await m.overviewDemo()
      })
    : main()
  run.catch((err: unknown) => {
    console.error(err)
    process.exit(1)
  })
}

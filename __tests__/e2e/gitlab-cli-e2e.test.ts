/**
 * End to end in a GitLab merge-request pipeline: the bundled command line
 * (dist/cli/index.js) spawned with GitLab's predefined variables, against the
 * emulator and the GitLab stand-in over real HTTP. The note is created, the
 * next run updates it (one note), the JUnit and Code Quality files are
 * written, and a fork's code run with this project's variables is refused
 * (exit 3) before any request.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../__fixtures__/action-runner.js'
import { inWorld, type World } from '../__fixtures__/e2e-world.js'
import { startGitLabStandin, type GitLabStandin } from '../__fixtures__/gitlab-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'

const CLI = join(PROJECT_ROOT, 'dist', 'cli', 'index.js')
const TOKEN = 'glpat-e2e-token-0123456789'

let gitlab: GitLabStandin
beforeEach(async () => {
  gitlab = await startGitLabStandin({
    tokens: { [TOKEN]: { id: 41, username: 'project_1_bot', bot: true } },
    projects: { '1': 'acme/shop' }
  })
  gitlab.openMergeRequest('1', 5)
})
afterEach(() => stopStarted(gitlab))

function mrEnv(w: World, over: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    ASAS_API_KEY: w.emu.keys.full,
    ASAS_BASE_URL: w.emu.url,
    GITLAB_CI: 'true',
    GITLAB_TOKEN: TOKEN,
    CI_API_V4_URL: gitlab.apiUrl,
    CI_PROJECT_ID: '1',
    CI_PIPELINE_SOURCE: 'merge_request_event',
    CI_MERGE_REQUEST_IID: '5',
    CI_MERGE_REQUEST_PROJECT_ID: '1',
    CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '1',
    CI_MERGE_REQUEST_PROJECT_URL: 'https://gitlab.example.com/acme/shop',
    CI_COMMIT_SHA: 'a'.repeat(40),
    ...over
  }
}

function runCli(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'gitlab-cli-'))
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...env, HOME: cwd }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const kill = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(kill)
      rmSync(cwd, { recursive: true, force: true })
      resolve({ code, stdout, stderr })
    })
  })
}

describe('agent-security-gate (bundled) in a GitLab merge-request pipeline', () => {
  it('creates the note, updates it on the next run, and writes the JUnit and Code Quality files', () =>
    inWorld(async (w) => {
      const out = mkdtempSync(join(tmpdir(), 'gitlab-out-'))
      try {
        const first = await runCli(mrEnv(w), ['assess', '--model-id', w.emu.demoModelId, '--out', out])
        expect(first.code).toBe(1)
        const notes = () => gitlab.notes.get('1!5') ?? []
        expect(notes()).toHaveLength(1)
        expect(notes()[0].body).toMatch(/^<!-- asas-gate:model=/)
        expect(notes()[0].body).toMatch(/Agent security gate: fail/)
        const files = readdirSync(out)
        const quality = files.find((f) => f.endsWith('.codequality.json'))!
        const junit = files.find((f) => f.endsWith('.junit.xml'))!
        const issues = JSON.parse(readFileSync(join(out, quality), 'utf8')) as { fingerprint: string; severity: string }[]
        expect(issues.length).toBeGreaterThan(0)
        expect(readFileSync(join(out, junit), 'utf8')).toMatch(/<failure /)

        const second = await runCli(mrEnv(w), ['assess', '--model-id', w.emu.demoModelId, '--out', out])
        expect(second.code).toBe(1)
        expect(notes()).toHaveLength(1)
        expect(gitlab.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
        expect(gitlab.requests.filter((r) => r.method === 'PUT')).toHaveLength(1)
        expect(first.stdout + first.stderr + second.stdout + second.stderr).not.toContain(TOKEN)
        // The same weaknesses keep their fingerprints from one run to the next.
        const again = readdirSync(out).filter((f) => f.endsWith('.codequality.json'))
        const fingerprints = again.map((f) =>
          (JSON.parse(readFileSync(join(out, f), 'utf8')) as { fingerprint: string }[]).map((i) => i.fingerprint).sort()
        )
        expect(fingerprints[1]).toEqual(fingerprints[0])
      } finally {
        rmSync(out, { recursive: true, force: true })
      }
    }))

  it("refuses a fork's code run with this project's variables: exit 3, no request to GitLab", () =>
    inWorld(async (w) => {
      const r = await runCli(mrEnv(w, { CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '2' }), ['assess', '--model-id', w.emu.demoModelId])
      expect(r.code).toBe(3)
      expect(r.stdout + r.stderr).toMatch(/api.key.*runs code from outside it/i)
      expect(gitlab.requests).toEqual([])
    }))
})

/**
 * GitLab's words in GitLab: every line the command line prints in a GitLab
 * job (the log, the verdict, errors and hints) and the note it writes use
 * GitLab's terms (CI/CD variables, merge request, pipeline, job, job log),
 * never GitHub's (workflow, secrets.*, job summary, pull request). In-process
 * (runCli) against the emulator and the GitLab stand-in over real HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../../src/cli/program.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { startGitLabStandin, type GitLabStandin } from '../__fixtures__/gitlab-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'

const TOKEN = 'glpat-words-token-0123456789'
/** GitHub's terms, which a GitLab user would have to translate (or that point at what GitLab does not have). */
const GITHUB_WORDS = /workflow|\$\{\{|secrets\.|job summary|pull request|GitHub|github_token|\.github\//i

let gitlab: GitLabStandin
let emu: Emulator
let out: string
beforeEach(async () => {
  gitlab = await startGitLabStandin({
    tokens: { [TOKEN]: { id: 41, username: 'project_1_bot', bot: true } },
    projects: { '1': 'acme/shop', '2': 'mallory/shop' }
  })
  gitlab.openMergeRequest('1', 5)
  emu = await startEmulator({ allowLoopbackTargets: true, categoryDurationMs: 20, attacksPerCategory: 2 })
  out = mkdtempSync(join(tmpdir(), 'gitlab-words-'))
})
afterEach(async () => {
  await stopStarted(gitlab, emu)
  rmSync(out, { recursive: true, force: true })
})

function sink(): { write(s: string): boolean; text: string } {
  const s = { text: '', write: (t: string) => ((s.text += t), true) }
  return s
}

function mrEnv(over: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    ASAS_API_KEY: emu.keys.full,
    ASAS_BASE_URL: emu.url,
    GITLAB_CI: 'true',
    GITLAB_TOKEN: TOKEN,
    CI_API_V4_URL: gitlab.apiUrl,
    CI_PROJECT_ID: '1',
    CI_PIPELINE_SOURCE: 'merge_request_event',
    CI_MERGE_REQUEST_IID: '5',
    CI_MERGE_REQUEST_PROJECT_ID: '1',
    CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '1',
    CI_MERGE_REQUEST_PROJECT_URL: 'https://gitlab.example.com/acme/shop',
    CI_COMMIT_SHA: 'c'.repeat(40),
    CI_JOB_URL: 'https://gitlab.example.com/acme/shop/-/jobs/77',
    ...over
  }
}

async function gate(env: NodeJS.ProcessEnv): Promise<{ code: number; text: string }> {
  const stdout = sink()
  const stderr = sink()
  const code = await runCli(['assess', '--model-id', emu.demoModelId, '--out', out], { env, stdout, stderr })
  return { code, text: stdout.text + stderr.text }
}

describe("a GitLab job's lines and note", () => {
  it('a merge-request pipeline: the log, the verdict and the note', async () => {
    const r = await gate(mrEnv())
    expect(r.code).toBe(1)
    const note = gitlab.notes.get('1!5')?.[0]?.body ?? ''
    expect(note).toContain('[job](https://gitlab.example.com/acme/shop/-/jobs/77)')
    expect(GITHUB_WORDS.exec(r.text)?.[0] ?? null).toBeNull()
    expect(GITHUB_WORDS.exec(note)?.[0] ?? null).toBeNull()
  })

  it('a step that ends without an assessment (the service refuses the key): its note links the job too', async () => {
    const r = await gate(mrEnv({ ASAS_API_KEY: 'asas_unknown_key_0123456789abcdef' }))
    expect(r.code).toBe(3)
    const note = gitlab.notes.get('1!5')?.[0]?.body ?? ''
    expect(note).toContain('[job](https://gitlab.example.com/acme/shop/-/jobs/77)')
    expect(GITHUB_WORDS.exec(note)?.[0] ?? null).toBeNull()
    expect(GITHUB_WORDS.exec(r.text)?.[0] ?? null).toBeNull()
  })

  it("a fork's merge-request pipeline run in the fork, without this project's CI/CD variables: the service key's hint", async () => {
    const r = await gate(
      mrEnv({ ASAS_API_KEY: undefined, GITLAB_TOKEN: undefined, CI_PROJECT_ID: '2', CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '2' })
    )
    expect(r.code).toBe(3)
    expect(r.text).toMatch(/CI\/CD variable/)
    expect(GITHUB_WORDS.exec(r.text)?.[0] ?? null).toBeNull()
  })
})

/**
 * A fork is a fork whatever the pipeline source, through the bundled command
 * line (dist/cli/index.js) with GitLab's predefined variables, against the
 * emulator and the GitLab stand-in. A child pipeline (`parent_pipeline`) of
 * a fork's merge request, run in the target project, carries the merge
 * request's variables (GitLab passes the merge request to child pipelines);
 * registering the preview with the target's credential there would hand it
 * to the fork's code. It is refused before any request: exit 3, the
 * emulator receives nothing (no key, no credential stored), GitLab nothing.
 * The same child pipeline of a merge request from the project itself runs
 * and writes its note on the merge request.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { runBundledCli } from '../__fixtures__/bundled-cli.js'
import { inWorld, type World } from '../__fixtures__/e2e-world.js'
import { startGitLabStandin, type GitLabStandin } from '../__fixtures__/gitlab-standin.js'
import { stopStarted } from '../__fixtures__/teardown.js'

const TOKEN = 'glpat-e2e-token-0123456789'
const CREDENTIAL = 'target-credential-0123456789abcdef'

let gitlab: GitLabStandin
beforeEach(async () => {
  gitlab = await startGitLabStandin({
    tokens: { [TOKEN]: { id: 41, username: 'project_1_bot', bot: true } },
    projects: { '1': 'acme/shop', '2': 'contributor/shop' }
  })
  gitlab.openMergeRequest('1', 5)
})
afterEach(() => stopStarted(gitlab))

/** A job of a child pipeline of merge request !5 of project 1, run in project 1. */
function childPipelineEnv(w: World, sourceProjectId: string): NodeJS.ProcessEnv {
  return {
    ASAS_API_KEY: w.emu.keys.full,
    ASAS_BASE_URL: w.emu.url,
    GITLAB_CI: 'true',
    GITLAB_TOKEN: TOKEN,
    CI_API_V4_URL: gitlab.apiUrl,
    CI_PROJECT_ID: '1',
    CI_PIPELINE_SOURCE: 'parent_pipeline',
    CI_MERGE_REQUEST_ID: '905',
    CI_MERGE_REQUEST_IID: '5',
    CI_MERGE_REQUEST_PROJECT_ID: '1',
    CI_MERGE_REQUEST_SOURCE_PROJECT_ID: sourceProjectId,
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
    CI_MERGE_REQUEST_PROJECT_URL: 'https://gitlab.example.com/acme/shop',
    CI_COMMIT_SHA: 'a'.repeat(40)
  }
}

describe('agent-security-gate (bundled) in a child pipeline of a merge request', () => {
  it("a fork's merge request: refused before any request, the emulator gets no key and no credential, GitLab nothing", () =>
    inWorld(async (w) => {
      const r = await runBundledCli(
        [
          'assess',
          '--endpoint-url',
          `${w.emu.demoAgent.url}/chat`,
          '--response-field',
          'reply',
          '--auth-type',
          'bearer',
          '--target-name',
          'shop-pr-5'
        ],
        { env: { ...childPipelineEnv(w, '2'), ASAS_TARGET_CREDENTIAL: CREDENTIAL } }
      )
      expect(r.code).toBe(3)
      expect(r.stdout + r.stderr).toMatch(
        /runs code from outside it \(the head of merge request !5 is in the fork project 2, not in project 1\)/
      )
      expect(r.stdout + r.stderr).not.toContain(CREDENTIAL)
      expect(w.emu.requestLog).toEqual([])
      expect(w.emu.control.registeredCredentials()).not.toContain(CREDENTIAL)
      expect(w.emu.demoAgent.credentialsSeen()).not.toContain(CREDENTIAL)
      expect(gitlab.requests).toEqual([])
    }))

  it('a merge request whose variables do not say its source project: refused the same way', () =>
    inWorld(async (w) => {
      const env = childPipelineEnv(w, '1')
      delete env.CI_MERGE_REQUEST_SOURCE_PROJECT_ID
      const r = await runBundledCli(['assess', '--model-id', w.emu.demoModelId], { env })
      expect(r.code).toBe(3)
      expect(r.stdout + r.stderr).toMatch(/cannot be told .*CI_MERGE_REQUEST_SOURCE_PROJECT_ID unset/)
      expect(w.emu.requestLog).toEqual([])
      expect(gitlab.requests).toEqual([])
    }))

  it("a merge request from the project itself: the child pipeline runs and writes the merge request's note", () =>
    inWorld(
      async (w) => {
        const r = await runBundledCli(['assess', '--model-id', w.emu.demoModelId], { env: childPipelineEnv(w, '1') })
        expect(r.code).toBe(1)
        expect(gitlab.notes.get('1!5') ?? []).toHaveLength(1)
        expect(w.emu.requestLog.filter((q) => q.method === 'POST' && q.path === '/api/v1/run')).toHaveLength(1)
      },
      { categoryDurationMs: 60, attacksPerCategory: 2 }
    ))
})

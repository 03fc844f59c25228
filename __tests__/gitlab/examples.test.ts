/**
 * The GitLab and generic-CI examples users copy: the GitLab file parses, runs
 * the gate in merge-request pipelines and on a schedule of the default branch,
 * hands GitLab the JUnit and Code Quality files the gate writes, uses only
 * variables GitLab predefines or the user sets, and only options the command
 * has; the generic script exits with the gate's exit code.
 */
import { describe, expect, it } from '@jest/globals'
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { REPORT_FORMATS } from '../../src/report/formats.js'
import { GITLAB_JOB_VARIABLES } from '../../src/gitlab/ci-context.js'

const root = new URL('../../', import.meta.url)
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8')
const GITLAB_FILE = 'examples/gitlab/gitlab-ci.yml'
const SCRIPT = 'examples/other-ci/generic-ci.sh'

/**
 * GitLab's predefined CI/CD variables this repository reads or its examples
 * use, as docs.gitlab.com/ci/variables/predefined_variables lists them.
 */
const GITLAB_PREDEFINED = new Set([
  'GITLAB_CI',
  'CI_API_V4_URL',
  'CI_SERVER_URL',
  'CI_PROJECT_ID',
  'CI_PIPELINE_SOURCE',
  'CI_COMMIT_BRANCH',
  'CI_DEFAULT_BRANCH',
  'CI_COMMIT_SHA',
  'CI_JOB_URL',
  'CI_CONFIG_PATH',
  'CI_MERGE_REQUEST_IID',
  'CI_MERGE_REQUEST_PROJECT_ID',
  'CI_MERGE_REQUEST_SOURCE_PROJECT_ID',
  'CI_MERGE_REQUEST_PROJECT_URL'
])
/** The variables the user sets (the examples' headers say how). */
const USER_SET = new Set(['ASAS_API_KEY', 'ASAS_BASE_URL', 'ASAS_MODEL_ID', 'GITLAB_TOKEN'])

interface GitLabJob {
  extends?: string
  rules?: { if?: string }[]
  script?: string[]
  artifacts?: { when?: string; paths?: string[]; reports?: Record<string, string | string[]> }
}

const config = parse(read(GITLAB_FILE)) as Record<string, unknown>
const job = (name: string): GitLabJob => {
  const own = config[name] as GitLabJob
  const base = own.extends ? (config[own.extends] as GitLabJob) : {}
  return { ...base, ...own }
}

/** A GitLab artifacts path pattern (only `*`) as a regular expression. */
const globRe = (glob: string): RegExp =>
  new RegExp(
    `^${glob
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*')}$`
  )
const written = (ext: string): string => `reports/report-m_demo-run_1.${ext}`
const extOf = (output: string): string => REPORT_FORMATS.find((f) => f.output === output)!.extension

const action = parse(read('action.yml')) as { inputs: Record<string, unknown> }

describe('the GitLab CI example', () => {
  it('runs the gate in merge-request pipelines, and nightly on a schedule of the default branch', () => {
    expect(job('agent-security:merge-request').rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }])
    expect(job('agent-security:nightly').rules).toEqual([
      { if: '$CI_PIPELINE_SOURCE == "schedule" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH' }
    ])
  })

  it('hands GitLab the JUnit and Code Quality files the gate writes, also when the job fails', () => {
    for (const name of ['agent-security:merge-request', 'agent-security:nightly']) {
      const artifacts = job(name).artifacts!
      expect(artifacts.when).toBe('always')
      expect(written(extOf('junit_path'))).toMatch(globRe(artifacts.reports!.junit as string))
      expect(written(extOf('codequality_path'))).toMatch(globRe(artifacts.reports!.codequality as string))
      expect(written(extOf('sarif_path'))).not.toMatch(globRe(artifacts.reports!.codequality as string))
    }
  })

  it('uses only variables GitLab predefines or the user sets', () => {
    const used = [...read(GITLAB_FILE).matchAll(/\$\{?([A-Z][A-Z0-9_]*)/g)].map((m) => m[1])
    expect(used.filter((v) => !GITLAB_PREDEFINED.has(v) && !USER_SET.has(v))).toEqual([])
  })

  it('calls the command with options named like the action inputs', () => {
    const scripts = [
      read(SCRIPT),
      ...Object.keys(config).flatMap((k) => (k.startsWith('.') || k === 'stages' ? [] : (job(k).script ?? [])))
    ]
    const calls = scripts.flatMap((s) => [...s.matchAll(/npx --yes agent-security-gate@1 (\S+)([^\n|]*)/g)])
    expect(calls.length).toBeGreaterThanOrEqual(3)
    for (const [, command, rest] of calls) {
      expect(['assess', 'validate']).toContain(command)
      for (const [, option] of rest.matchAll(/--([a-z-]+)/g))
        if (option !== 'out') expect(action.inputs).toHaveProperty(option.replace(/-/g, '_'))
    }
  })
})

describe('the source reads only predefined GitLab variables', () => {
  it('in the GitLab CI context', () => {
    const read_ = [...read('src/gitlab/ci-context.ts').matchAll(/env\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1])
    expect(read_.length).toBeGreaterThan(5)
    expect(read_.filter((v) => !GITLAB_PREDEFINED.has(v))).toEqual([])
    expect(GITLAB_JOB_VARIABLES.filter((v) => !GITLAB_PREDEFINED.has(v) && !USER_SET.has(v))).toEqual([])
    expect([...new Set(read_)].filter((v) => !(GITLAB_JOB_VARIABLES as readonly string[]).includes(v))).toEqual([])
  })
})

describe('the generic CI script', () => {
  it('is valid bash', () => {
    expect(() => execFileSync('bash', ['-n', new URL(SCRIPT, root).pathname])).not.toThrow()
  })

  it.each([
    [0, /pass/],
    [1, /fail/],
    [2, /incomplete/],
    [3, /error/]
  ])('exits %i, as the gate did, saying %s', (code, said) => {
    const dir = mkdtempSync(join(tmpdir(), 'generic-ci-'))
    try {
      // A stand-in `npx` that records its arguments and exits as the gate would.
      writeFileSync(join(dir, 'npx'), `#!/usr/bin/env bash\necho "$@" > "${dir}/args"\nexit ${code}\n`)
      chmodSync(join(dir, 'npx'), 0o755)
      const env = { PATH: `${dir}:${process.env.PATH ?? ''}`, ASAS_API_KEY: 'k', ASAS_BASE_URL: 'http://x', ASAS_MODEL_ID: 'm_1' }
      const run = spawnSync('bash', [new URL(SCRIPT, root).pathname], { env, cwd: dir, encoding: 'utf8' })
      expect(run.status).toBe(code)
      expect(run.stdout).toMatch(said)
      expect(readFileSync(join(dir, 'args'), 'utf8').trim()).toBe(
        '--yes agent-security-gate@1 assess --model-id m_1 --min-severity high --out reports'
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('stops naming the variable when one is missing', () => {
    const run = spawnSync('bash', [new URL(SCRIPT, root).pathname], { env: { PATH: process.env.PATH }, encoding: 'utf8' })
    expect(run.status).not.toBe(0)
    expect(run.stderr).toMatch(/ASAS_API_KEY/)
  })
})

/**
 * The one rule for the file the report formats point at
 * (src/action/report-location.ts): sarif_location when given; the workflow
 * file in GitHub Actions; outside it the profile file when given, else the
 * CI system's file (GitLab: CI_CONFIG_PATH, default .gitlab-ci.yml), else no
 * file known (README.md, and no JUnit `file`). Never a GitHub path outside
 * GitHub Actions.
 */
import { describe, expect, it } from '@jest/globals'
import { repositoryFile, reportLocation, type ReportLocation } from '../../src/action/report-location.js'

const GITHUB = { GITHUB_ACTIONS: 'true', GITHUB_WORKFLOW_REF: 'acme/shop/.github/workflows/agent.yml@refs/heads/main' }
const GITLAB = { GITLAB_CI: 'true' }

type Case = [string, NodeJS.ProcessEnv, { sarifLocation: string; profilePath: string | null }, ReportLocation]

const none = { sarifLocation: '', profilePath: null }
const profile = { sarifLocation: '', profilePath: './agent/profile.yml' }

const cases: Case[] = [
  ['GitHub Actions: the workflow file', GITHUB, none, { path: '.github/workflows/agent.yml', source: 'workflow', junitOnTestcases: true }],
  [
    'GitHub Actions, a profile: still the workflow file',
    GITHUB,
    profile,
    { path: '.github/workflows/agent.yml', source: 'workflow', junitOnTestcases: true }
  ],
  [
    'GitHub Actions, sarif_location given',
    GITHUB,
    { sarifLocation: 'agent/x.yml', profilePath: null },
    { path: 'agent/x.yml', source: 'input', junitOnTestcases: true }
  ],
  ["GitLab, nothing set: GitLab's default CI file", GITLAB, none, { path: '.gitlab-ci.yml', source: 'ci-config', junitOnTestcases: true }],
  [
    'GitLab, CI_CONFIG_PATH',
    { ...GITLAB, CI_CONFIG_PATH: 'ci/gate.yml' },
    none,
    { path: 'ci/gate.yml', source: 'ci-config', junitOnTestcases: true }
  ],
  [
    'GitLab, a profile: the profile',
    { ...GITLAB, CI_CONFIG_PATH: 'ci/gate.yml' },
    profile,
    { path: 'agent/profile.yml', source: 'profile', junitOnTestcases: true }
  ],
  [
    'GitLab, a CI file of another project',
    { ...GITLAB, CI_CONFIG_PATH: '.gitlab-ci.yml@acme/templates' },
    none,
    { path: 'README.md', source: 'none', junitOnTestcases: false }
  ],
  [
    'GitLab, a CI file at a URL',
    { ...GITLAB, CI_CONFIG_PATH: 'https://example.com/ci.yml' },
    none,
    { path: 'README.md', source: 'none', junitOnTestcases: false }
  ],
  [
    'GitLab variables inside GitHub Actions: GitHub',
    { ...GITHUB, ...GITLAB },
    none,
    { path: '.github/workflows/agent.yml', source: 'workflow', junitOnTestcases: true }
  ],
  ['another CI or a terminal, a profile', {}, profile, { path: 'agent/profile.yml', source: 'profile', junitOnTestcases: false }],
  [
    'another CI or a terminal, nothing known',
    { GITHUB_WORKFLOW: 'Agent security' },
    none,
    { path: 'README.md', source: 'none', junitOnTestcases: false }
  ],
  [
    'another CI, a profile outside the checkout',
    {},
    { sarifLocation: '', profilePath: '/etc/profile.yml' },
    { path: 'README.md', source: 'none', junitOnTestcases: false }
  ],
  [
    'another CI, sarif_location given',
    {},
    { sarifLocation: 'agent/x.yml', profilePath: null },
    { path: 'agent/x.yml', source: 'input', junitOnTestcases: false }
  ]
]

describe('reportLocation', () => {
  it.each(cases)('%s', (_name, env, given, expected) => {
    const location = reportLocation(env, given)
    expect(location).toEqual(expected)
    if (env.GITHUB_ACTIONS !== 'true') expect(location.path).not.toMatch(/^\.github\//)
  })
})

describe('repositoryFile', () => {
  it.each([
    ['agent/profile.yml', 'agent/profile.yml'],
    ['./agent/profile.yml', 'agent/profile.yml'],
    ['../outside.yml', null],
    ['/abs/profile.yml', null],
    ['a//b.yml', null],
    ['C:\\x.yml', null],
    ['file:///x.yml', null],
    ['.gitlab-ci.yml@group/project', null],
    ['', null],
    [null, null]
  ])('%j -> %j', (path, expected) => {
    expect(repositoryFile(path)).toBe(expected)
  })
})

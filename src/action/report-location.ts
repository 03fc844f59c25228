/**
 * The one rule for the repository file the report files point at: every SARIF
 * result, every Code Quality issue and the JUnit test cases sit on it, so a
 * reader can place them on a file of the repository they are read in. Pure:
 * the environment and the inputs in.
 *
 * - `sarif_location` (`--sarif-location`) when given;
 * - in GitHub Actions, the workflow file (GITHUB_WORKFLOW_REF);
 * - in a GitLab job, the profile file when given, else the CI/CD configuration
 *   file (CI_CONFIG_PATH, GitLab's default `.gitlab-ci.yml`; a configuration
 *   kept in another project or at a URL is no file of this repository);
 * - elsewhere, the profile file when given; else no file is known, and the
 *   reports point at `README.md` (a file the repository is expected to have),
 *   while JUnit names none.
 *
 * Never a GitHub path outside GitHub Actions.
 */
import { readGitLabCi } from '../gitlab/ci-context.js'
import { ciHost } from './ci-host.js'

/** Where the report files point. */
export interface ReportLocation {
  /** Repository-relative file. */
  path: string
  /** Where the path comes from; `none`: nothing named a file, `path` is the fallback. */
  source: 'input' | 'workflow' | 'profile' | 'ci-config' | 'none'
  /** The reader of the JUnit file takes `file` on <testcase> (GitHub's and GitLab's do; Jenkins' xunit schema refuses it). */
  junitOnTestcases: boolean
}

/** The file the reports point at when nothing names one. */
export const FALLBACK_LOCATION = 'README.md'

/** GitLab's default CI/CD configuration file. */
export const GITLAB_CI_FILE = '.gitlab-ci.yml'

/**
 * The workflow file, always a file path: from GITHUB_WORKFLOW_REF
 * ("owner/repo/.github/workflows/x.yml@ref"); without it, GITHUB_WORKFLOW when
 * that is the file's path (a workflow without a name), else
 * `.github/workflows/<the workflow's name as a file name>.yml`.
 */
export function workflowFile(env: NodeJS.ProcessEnv): string {
  const m = /^[^/]+\/[^/]+\/(.+)@refs\//.exec(env.GITHUB_WORKFLOW_REF ?? '')
  if (m) return m[1]
  const name = env.GITHUB_WORKFLOW ?? ''
  if (/^\.github\/workflows\/[\w.-]+\.ya?ml$/.test(name) && !name.includes('..')) return name
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return `.github/workflows/${slug || 'workflow'}.yml`
}

/** A path as a file of the checkout (`./a/b.yml` -> `a/b.yml`); null when it is not one (absolute, `..`, a URL, `file@project`). */
export function repositoryFile(path: string | null | undefined): string | null {
  if (path === null || path === undefined) return null
  const p = path.trim().replace(/^(\.\/)+/, '')
  if (p === '' || p.startsWith('/') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(p) || /[\\@%\u0000-\u001f]/.test(p)) return null
  const parts = p.split('/')
  return parts.some((s) => s === '..' || s === '' || s === '.') ? null : p
}

/** The file every report format points at, by the rule above. */
export function reportLocation(env: NodeJS.ProcessEnv, given: { sarifLocation: string; profilePath: string | null }): ReportLocation {
  const host = ciHost(env)
  const github = host === 'github'
  const gitlab = host === 'gitlab'
  const junitOnTestcases = github || gitlab
  if (given.sarifLocation !== '') return { path: given.sarifLocation, source: 'input', junitOnTestcases }
  if (github) return { path: workflowFile(env), source: 'workflow', junitOnTestcases }
  const profile = repositoryFile(given.profilePath)
  if (profile !== null) return { path: profile, source: 'profile', junitOnTestcases }
  if (gitlab) {
    const configured = readGitLabCi(env).configPath
    const file = configured === null ? GITLAB_CI_FILE : repositoryFile(configured)
    if (file !== null) return { path: file, source: 'ci-config', junitOnTestcases }
  }
  return { path: FALLBACK_LOCATION, source: 'none', junitOnTestcases: false }
}

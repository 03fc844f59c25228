/**
 * scripts/release.mjs, dry run, in scratch git repositories: it checks that
 * package.json follows the tag and that CHANGELOG.md has dated release notes,
 * creates the version tag on HEAD (--create-tag, as the release workflow
 * runs it), and moves the major tag (v1) to the release, never backwards and
 * never to a pre-release. Nothing is published or pushed in a dry run (the
 * scratch repositories have no remote, so a push would fail the test). And
 * the release workflow itself: tests, dist/ check and provenance attestation
 * before anything is tagged, each credential held only by the job that uses
 * it (no job that can mint an OIDC token or push runs dependency code), and
 * every workflow of the repository installing without install scripts and
 * pinning its actions by commit.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const script = join(root, 'scripts', 'release.mjs')
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

type Git = ((...args: string[]) => string) & { dir: string }

/** A new repository in a temporary directory, and git run in it. */
function scratch(): Git {
  const dir = mkdtempSync(join(tmpdir(), 'release-'))
  dirs.push(dir)
  const run = (...args: string[]): string =>
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false', ...args],
      { cwd: dir, encoding: 'utf8' }
    ).trim()
  run('init', '-q', '-b', 'main')
  return Object.assign(run, { dir })
}

function commit(git: Git, version: string, changelog: string): string {
  const { dir } = git
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', version }, null, 2))
  writeFileSync(join(dir, 'CHANGELOG.md'), changelog)
  git('add', '.')
  git('commit', '-q', '-m', `release ${version}`)
  return git('rev-parse', 'HEAD')
}

function release(git: Git, ...args: string[]): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [script, ...args], { cwd: git.dir, encoding: 'utf8' })
  return { code: r.status, out: `${r.stdout}${r.stderr}` }
}

const log = (versions: string[]): string =>
  `# Changelog\n\n## [Unreleased]\n\n${versions.map((v) => `## [${v}] - 2026-01-01\n\n- change of ${v}\n`).join('\n')}`

const v1 = (git: Git): string => git('rev-parse', 'refs/tags/v1^{commit}')
const tagged = (git: Git, tag: string): string => git('rev-parse', `refs/tags/${tag}^{commit}`)

describe('release.mjs --dry-run', () => {
  it('moves v1 to each new release and writes its notes from CHANGELOG.md', () => {
    const git = scratch()
    const first = commit(git, '1.0.0', log(['1.0.0']))
    git('tag', 'v1.0.0')
    const notes = join(mkdtempSync(join(tmpdir(), 'notes-')), 'notes.md')
    dirs.push(dirname(notes))
    let r = release(git, 'v1.0.0', '--dry-run', '--notes-out', notes)
    expect(r.code).toBe(0)
    expect(v1(git)).toBe(first)
    expect(readFileSync(notes, 'utf8')).toBe('- change of 1.0.0\n')
    expect(r.out).toContain('not pushed (dry run)')

    const second = commit(git, '1.1.0', log(['1.1.0', '1.0.0']))
    git('tag', 'v1.1.0')
    r = release(git, 'v1.1.0', '--dry-run', '--notes-out', notes)
    expect(r.code).toBe(0)
    expect(v1(git)).toBe(second)
    expect(readFileSync(notes, 'utf8')).toBe('- change of 1.1.0\n')
  })

  it('leaves v1 alone for a fix of an older line and for a pre-release', () => {
    const git = scratch()
    const first = commit(git, '1.0.0', log(['1.0.0']))
    git('tag', 'v1.0.0')
    const second = commit(git, '1.1.0', log(['1.1.0', '1.0.0']))
    git('tag', 'v1.1.0')
    expect(release(git, 'v1.1.0', '--dry-run').code).toBe(0)
    expect(v1(git)).toBe(second)

    git('checkout', '-q', '-b', 'fix-1.0', first)
    commit(git, '1.0.1', log(['1.0.1', '1.0.0']))
    git('tag', 'v1.0.1')
    let r = release(git, 'v1.0.1', '--dry-run')
    expect(r.code).toBe(0)
    expect(r.out).toContain('v1.1.0 is newer than v1.0.1')
    expect(v1(git)).toBe(second)

    git('checkout', '-q', 'main')
    commit(git, '1.2.0-rc.1', log(['1.2.0-rc.1', '1.1.0']))
    git('tag', 'v1.2.0-rc.1')
    r = release(git, 'v1.2.0-rc.1', '--dry-run')
    expect(r.code).toBe(0)
    expect(r.out).toContain('pre-release')
    expect(v1(git)).toBe(second)
  })

  const refusals: [string, string, string, string, string][] = [
    ['package.json behind the tag', '1.0.0', log(['1.0.1']), 'v1.0.1', 'package.json at v1.0.1 says version 1.0.0, not 1.0.1'],
    ['no CHANGELOG section', '1.0.1', log(['1.0.0']), 'v1.0.1', 'has no section "## [1.0.1]"'],
    ['an empty CHANGELOG section', '1.0.1', '## [1.0.1]\n\n## [1.0.0]\n\n- x\n', 'v1.0.1', 'section of 1.0.1 is empty'],
    ['an undated CHANGELOG section', '1.0.1', '## [1.0.1]\n\n- x\n', 'v1.0.1', 'heading of 1.0.1 has no date'],
    ['not a version tag', '1.0.1', log(['1.0.1']), 'latest', "'latest' is not a version tag"]
  ]

  it.each(refusals)('refuses %s, and moves nothing', (_name, version, changelog, tag, message) => {
    const git = scratch()
    commit(git, version, changelog)
    git('tag', tag)
    const r = release(git, tag, '--dry-run')
    expect(r.code).toBe(1)
    expect(r.out).toContain(message)
    expect(git('tag', '--list', 'v1')).toBe('')
  })

  it('refuses a tag that does not exist', () => {
    const git = scratch()
    commit(git, '1.0.0', log(['1.0.0']))
    const r = release(git, 'v1.0.0', '--dry-run')
    expect(r.code).toBe(1)
    expect(r.out).toContain('tag v1.0.0 does not exist')
  })
})

describe('release.mjs --create-tag --dry-run (what the release workflow runs)', () => {
  it('creates v1.0.0 on HEAD and moves v1 to it, pushing nothing', () => {
    const git = scratch()
    commit(git, '0.9.0', log(['0.9.0']))
    git('tag', 'v0.9.0')
    const head = commit(git, '1.0.0', log(['1.0.0', '0.9.0']))
    const r = release(git, 'v1.0.0', '--create-tag', '--dry-run')
    expect(r.code).toBe(0)
    expect(tagged(git, 'v1.0.0')).toBe(head)
    expect(v1(git)).toBe(head)
    expect(r.out).toContain('v1.0.0 created on')
    expect(r.out).toContain('not pushed (dry run)')
  })

  it('takes a tag already on HEAD (a run again after a failure), and never moves one elsewhere', () => {
    const git = scratch()
    const first = commit(git, '1.0.0', log(['1.0.0']))
    git('tag', 'v1.0.0')
    expect(release(git, 'v1.0.0', '--create-tag', '--dry-run').code).toBe(0)
    expect(v1(git)).toBe(first)

    commit(git, '1.0.0', `${log(['1.0.0'])}\n`)
    const r = release(git, 'v1.0.0', '--create-tag', '--dry-run')
    expect(r.code).toBe(1)
    expect(r.out).toContain('a release tag is never moved')
    expect(tagged(git, 'v1.0.0')).toBe(first)
  })

  it('creates no tag when package.json or CHANGELOG.md do not match', () => {
    const git = scratch()
    commit(git, '1.0.0', '# Changelog\n\n## [1.0.0]\n\n- undated\n')
    const r = release(git, 'v1.0.0', '--create-tag', '--dry-run')
    expect(r.code).toBe(1)
    expect(git('tag', '--list')).toBe('')
  })
})

describe('release.mjs --npm-dist-tag (the dist-tag the workflow publishes the npm package under)', () => {
  it('latest for the newest release, next for a pre-release, line-X.Y for a fix of an older line', () => {
    const git = scratch()
    const first = commit(git, '1.0.0', log(['1.0.0']))
    git('tag', 'v1.0.0')
    const distTag = (tag: string): string => {
      const r = release(git, tag, '--npm-dist-tag')
      expect(r.code).toBe(0)
      return r.out.trim()
    }
    expect(distTag('v1.0.0')).toBe('latest')
    commit(git, '1.1.0-rc.1', log(['1.1.0-rc.1', '1.0.0']))
    git('tag', 'v1.1.0-rc.1')
    expect(distTag('v1.1.0-rc.1')).toBe('next')
    expect(distTag('v1.0.0')).toBe('latest')
    commit(git, '2.0.0', log(['2.0.0', '1.0.0']))
    git('tag', 'v2.0.0')
    git('checkout', '-q', '-b', 'fix-1.0', first)
    commit(git, '1.0.1', log(['1.0.1', '1.0.0']))
    git('tag', 'v1.0.1')
    expect(distTag('v1.0.1')).toBe('line-1.0')
    expect(distTag('v2.0.0')).toBe('latest')
  })

  it('refuses a tag that does not match package.json, printing no dist-tag', () => {
    const git = scratch()
    commit(git, '1.0.0', log(['1.0.1']))
    git('tag', 'v1.0.1')
    const r = release(git, 'v1.0.1', '--npm-dist-tag')
    expect(r.code).toBe(1)
    expect(r.out).toMatch(/^release: package.json at v1.0.1 says version 1.0.0/)
  })
})

describe('the project itself', () => {
  it('package.json has a version with a CHANGELOG.md section, so its tag can be released', () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      version: string
      packages: Partial<Record<string, { version?: string }>>
    }
    expect(lock.version).toBe(version)
    expect(lock.packages['']?.version).toBe(version)
    const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8')
    expect(changelog).toMatch(new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\]`, 'm'))
  })

  it('a released section is never edited after its date: 1.0.0 reads as released, later changes go under [Unreleased]', () => {
    const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8')
    const released = changelog.slice(changelog.indexOf('## [1.0.0] - 2026-11-25'))
    // The digest of the 1.0.0 section as it was released (the CHANGELOG of 2026-11-25).
    expect(createHash('sha256').update(released).digest('hex')).toBe('862e14df2fa75749457947b99dc5b2a218989a1d148a5418e4cf95e9797b22f0')
    const unreleased = changelog.slice(changelog.indexOf('## [Unreleased]'), changelog.indexOf('## [1.0.0]'))
    expect(unreleased).toMatch(/^- /m)
  })

  it('releases as its package.json version: the dry run, in a scratch repository with its package.json and CHANGELOG.md, creates the tag and moves the major', () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
    const git = scratch()
    copyFileSync(join(root, 'package.json'), join(git.dir, 'package.json'))
    copyFileSync(join(root, 'CHANGELOG.md'), join(git.dir, 'CHANGELOG.md'))
    git('add', '.')
    git('commit', '-q', '-m', `release ${version}`)
    const head = git('rev-parse', 'HEAD')
    const r = release(git, `v${version}`, '--create-tag', '--dry-run')
    expect(r.out).not.toMatch(/^release: /m)
    expect(r.code).toBe(0)
    expect(tagged(git, `v${version}`)).toBe(head)
    expect(git('rev-parse', `refs/tags/v${version.split('.')[0]}^{commit}`)).toBe(head)
  })
})

interface WfStep {
  id?: string
  uses?: string
  run?: string
  with?: Record<string, string>
  env?: Record<string, string>
}
interface WfJob {
  permissions?: Record<string, string>
  needs?: string | string[]
  steps: WfStep[]
}
const workflowDir = join(root, '.github', 'workflows')
const workflowFiles = readdirSync(workflowDir).filter((f) => /\.ya?ml$/.test(f))
type Jobs = Record<string, WfJob>
const readWorkflow = (file: string): { text: string; jobs: Jobs; permissions?: unknown } => {
  const text = readFileSync(join(workflowDir, file), 'utf8')
  return { text, ...(parse(text) as { jobs: Jobs; permissions?: unknown }) }
}

/** The shell commands of a run: block, one per line (continuations joined). */
const commandsOf = (run: string | undefined): string[] => (run ?? '').replace(/\\\n/g, ' ').split('\n')
const NPM_INSTALL = /\bnpm\s+(ci|install|i|add|update)\b/
/** The packages a global npm install names without an exact version (x.y.z): npm resolves those at run time. */
function unpinnedPackages(command: string): string[] {
  const words = command.trim().split(/\s+/).slice(2)
  return words.filter((w) => !w.startsWith('-')).filter((w) => !/^(@[\w.-]+\/)?[\w.-]+@\d+\.\d+\.\d+$/.test(w))
}
/** An action pinned by its full commit SHA, its version tag in the comment (Dependabot updates both); or this repository's own action. */
const PINNED = /^\.\/?$|^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@[0-9a-f]{40} # v\d+\.\d+\.\d+$/
/** What in a job runs dependency code (a checkout to build, an install with scripts, project tooling), one line each. */
function dependencyCode(job: WfJob): string[] {
  return job.steps.flatMap((s): string[] => [
    ...(s.uses?.startsWith('actions/checkout@') ? ['checks out the repository'] : []),
    ...commandsOf(s.run).flatMap((c) => [
      ...(NPM_INSTALL.test(c) && !c.includes('--ignore-scripts') ? [`installs with install scripts: ${c.trim()}`] : []),
      ...(/\bnpm\s+(test|run|exec|rebuild|pack|start)\b|\bnpx\b|\bnode\s+scripts\/(?!release\.mjs)|\bbash\s+scripts\//.test(c)
        ? [`builds or runs project tooling: ${c.trim()}`]
        : [])
    ])
  ])
}
/** The jobs a job waits for, directly or not. */
function before(jobs: Jobs, name: string): Set<string> {
  const out = new Set<string>()
  const visit = (n: string): void => {
    for (const need of [(jobs[n] as WfJob | undefined)?.needs ?? []].flat()) {
      if (out.has(need)) continue
      out.add(need)
      visit(need)
    }
  }
  visit(name)
  return out
}

describe('the release workflow holds its credentials only where needed', () => {
  const { jobs, permissions, text } = readWorkflow('release.yml')
  const job = (name: string): WfJob => {
    const found = jobs[name] as WfJob | undefined
    if (!found) throw new Error(`release.yml has no job ${name}`)
    return found
  }
  const stepOf = (name: string, p: (s: WfStep) => boolean): WfStep | undefined => job(name).steps.find(p)

  it('splits into build, attest, release and publish, each with its own permissions, read-only by default', () => {
    expect(permissions).toEqual({ contents: 'read' })
    expect(Object.fromEntries(Object.entries(jobs).map(([n, j]) => [n, j.permissions]))).toEqual({
      build: { contents: 'read' },
      attest: { contents: 'read', 'id-token': 'write', attestations: 'write' },
      release: { contents: 'write' },
      publish: { contents: 'read', 'id-token': 'write' }
    })
  })

  it('no job that can mint an OIDC token or push runs dependency code: no checkout and build, no install scripts', () => {
    const privileged = Object.entries(jobs).filter(([, j]) => Object.values(j.permissions ?? {}).includes('write'))
    expect(privileged.map(([n]) => n).sort()).toEqual(['attest', 'publish', 'release'])
    const problems = privileged.flatMap(([n, j]) =>
      dependencyCode(j)
        .filter((why) => n !== 'release' || why !== 'checks out the repository') // release.mjs needs the tags, and runs alone
        .map((why) => `${n}: ${why}`)
    )
    expect(problems).toEqual([])
    expect(
      job('release')
        .steps.flatMap((s) => commandsOf(s.run))
        .filter((c) => NPM_INSTALL.test(c))
    ).toEqual([])
    expect(dependencyCode(job('build')).length).toBeGreaterThan(0) // the check sees the build's own code
  })

  it('scripts/release.mjs, which runs where the tags are pushed, imports only Node builtins', () => {
    const source = readFileSync(script, 'utf8')
    const imports = [...source.matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]|\bimport\(\s*['"]?([^'")]+)/gm)].map(
      (m) => m.at(1) ?? m.at(2) ?? ''
    )
    expect(imports.length).toBeGreaterThan(0)
    expect(imports.filter((m) => !m.startsWith('node:'))).toEqual([])
    expect(source).not.toMatch(/\brequire\(/)
  })

  it('build tests, checks dist/ and stages the package before anything is attested, tagged or published', () => {
    const build = job('build').steps
    const at = (p: RegExp): number => build.findIndex((s) => p.test(s.run ?? ''))
    const [install, tests, dist, stage] = [
      /npm ci /,
      /^npm test$/,
      /scripts\/check-dist\.sh/,
      /scripts\/package-cli\.mjs --out build\/package --repository "\$GITHUB_SERVER_URL\/\$GITHUB_REPOSITORY"/
    ].map(at)
    const upload = build.findIndex((s) => s.uses?.startsWith('actions/upload-artifact@'))
    expect([install, tests, dist, stage, upload]).toEqual([...[install, tests, dist, stage, upload]].sort((a, b) => a - b))
    expect(install).toBeGreaterThan(0)
    expect(build[install]?.run).toContain('chmod u+x node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool')
    expect(build[upload]?.with?.path).toMatch(/dist\/[\s\S]*build\/package\//)
    const artifact = build[upload]?.with?.name
    for (const job of ['attest', 'release', 'publish']) expect(before(jobs, job)).toContain('build')
    expect(before(jobs, 'release')).toContain('attest')
    expect(before(jobs, 'publish')).toContain('release')
    for (const job of ['attest', 'publish'])
      expect(stepOf(job, (s) => s.uses?.startsWith('actions/download-artifact@') ?? false)?.with?.name).toBe(artifact)
    expect(stepOf('attest', (s) => s.uses?.startsWith('actions/attest-build-provenance@') ?? false)?.with?.['subject-path']).toMatch(
      /^dist\//
    )
    expect(stepOf('release', (s) => /scripts\/release\.mjs .*--create-tag/.test(s.run ?? ''))).toBeDefined()
  })

  it('publish puts the artifact on npm by trusted publishing, with provenance, no token, no scripts, the dist-tag release.mjs gave', () => {
    expect(text).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|secrets\./)
    const publish = stepOf('publish', (s) => s.run?.includes('npm publish') ?? false)
    expect(publish?.run).toMatch(/npm publish build\/package --ignore-scripts --provenance --access public --tag "\$DIST_TAG"/)
    expect(Object.keys(publish?.env ?? {}).filter((k) => /TOKEN|SECRET|KEY|AUTH/i.test(k))).toEqual([])
    expect(publish?.env?.DIST_TAG).toBe('${{ needs.release.outputs.npm-dist-tag }}')
    expect(stepOf('release', (s) => s.id === 'tag')?.run).toMatch(
      /npm-dist-tag=\$\(node scripts\/release\.mjs "v\$version" --npm-dist-tag\)/
    )
  })
})

describe('every workflow of this repository', () => {
  const all = workflowFiles.map((f): [string, ReturnType<typeof readWorkflow>] => [f, readWorkflow(f)])

  it.each(all)('%s: every npm ci and npm install runs no install script (--ignore-scripts)', (_f, { jobs }) => {
    const commands = Object.values(jobs).flatMap((j) => j.steps.flatMap((s) => commandsOf(s.run)))
    expect(commands.filter((c) => NPM_INSTALL.test(c) && !c.includes('--ignore-scripts'))).toEqual([])
  })

  it.each(all)(
    '%s: no job that can push or mint a token builds or installs: dependency code runs only in read-only jobs',
    (_f, { jobs }) => {
      // A build (npm run bundle, a bundler's plugins) runs the dependencies' code: in a job with a write token it could push
      // to any branch or move a release tag (and plant a git hook for a later step's push). A bare checkout runs nothing.
      const mayPush = (j: WfJob): boolean => {
        const p = j.permissions ?? {}
        return p.contents === 'write' || p['id-token'] === 'write'
      }
      const problems = Object.entries(jobs)
        .filter(([, j]) => mayPush(j))
        .flatMap(([n, j]) =>
          dependencyCode(j)
            .filter((why) => why !== 'checks out the repository')
            .map((why) => `${n}: ${why}`)
        )
      expect(problems).toEqual([])
    }
  )

  it.each(all)('%s: a package installed outside the lockfile (npm install --global) is named by its exact version', (_f, { jobs }) => {
    const commands = Object.values(jobs).flatMap((j) => j.steps.flatMap((s) => commandsOf(s.run)))
    expect(commands.filter((c) => NPM_INSTALL.test(c) && /\s(-g|--global)\b/.test(c)).flatMap(unpinnedPackages)).toEqual([])
  })

  it('the exact-version check refuses a range, a tag and a bare name', () => {
    expect(unpinnedPackages('npm install --global --ignore-scripts npm@11.21.3')).toEqual([])
    expect(unpinnedPackages('npm i -g --ignore-scripts npm@11 corepack@latest pnpm @scope/tool@^1.2.3 @scope/ok@1.0.0')).toEqual([
      'npm@11',
      'corepack@latest',
      'pnpm',
      '@scope/tool@^1.2.3'
    ])
  })

  it.each(all)('%s: every action is pinned by its full commit SHA, its version tag in a comment', (_f, { text, jobs }) => {
    const lines = [...text.matchAll(/^\s*(?:-\s+)?uses:\s*(.*)$/gm)].map((m) => m[1].trim())
    expect(lines.length).toBe(Object.values(jobs).flatMap((j) => j.steps.filter((s) => s.uses !== undefined)).length)
    expect(lines.filter((u) => !PINNED.test(u))).toEqual([])
  })

  it('the check refuses a tag, a short SHA and a SHA without its version', () => {
    expect(PINNED.test(`actions/checkout@${'a'.repeat(40)} # v7.0.1`)).toBe(true)
    for (const bad of [
      'actions/checkout@v7',
      'actions/checkout@3d3c42e # v7.0.1',
      `actions/checkout@${'a'.repeat(40)}`,
      `a/b@${'a'.repeat(40)} # main`
    ])
      expect([bad, PINNED.test(bad)]).toEqual([bad, false])
  })
})

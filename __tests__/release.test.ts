/**
 * scripts/release.mjs, dry run, in scratch git repositories: it checks that
 * package.json follows the tag and that CHANGELOG.md has dated release notes,
 * creates the version tag on HEAD (--create-tag, as the release workflow
 * runs it), and moves the major tag (v1) to the release, never backwards and
 * never to a pre-release. Nothing is published or pushed in a dry run (the
 * scratch repositories have no remote, so a push would fail the test). And
 * the release workflow itself: tests, dist/ check and provenance attestation
 * before anything is tagged.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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

  it('the release workflow runs the tests, checks dist/ and attests its provenance before it tags', () => {
    const wf = parse(readFileSync(join(root, '.github', 'workflows', 'release.yml'), 'utf8')) as {
      on: Record<string, unknown>
      jobs: Record<
        string,
        { permissions?: Record<string, string>; steps: { uses?: string; run?: string; with?: Record<string, string> }[] }
      >
    }
    expect(Object.keys(wf.on)).toEqual(['workflow_dispatch'])
    const [job] = Object.values(wf.jobs)
    expect(job.permissions).toMatchObject({ contents: 'write', 'id-token': 'write', attestations: 'write' })
    const at = (p: (s: (typeof job.steps)[number]) => boolean): number => job.steps.findIndex(p)
    const tests = at((s) => s.run === 'npm test')
    const dist = at((s) => s.run?.includes('scripts/check-dist.sh') ?? false)
    const attest = at((s) => s.uses?.startsWith('actions/attest-build-provenance@') ?? false)
    const tag = at((s) => s.run?.includes('scripts/release.mjs') ?? false)
    expect([tests, dist, attest, tag].every((i) => i >= 0)).toBe(true)
    expect(tests).toBeLessThan(tag)
    expect(dist).toBeLessThan(tag)
    expect(attest).toBeLessThan(tag)
    expect(job.steps[attest].with?.['subject-path']).toMatch(/^dist\//)
    expect(job.steps[tag].run).toContain('--create-tag')
  })

  it('the release workflow publishes the staged npm package after the tag, by trusted publishing: no token, with provenance', () => {
    const text = readFileSync(join(root, '.github', 'workflows', 'release.yml'), 'utf8')
    const wf = parse(text) as {
      jobs: Record<string, { permissions?: Record<string, string>; steps: { run?: string; env?: Record<string, string> }[] }>
    }
    const [job] = Object.values(wf.jobs)
    expect(job.permissions?.['id-token']).toBe('write')
    expect(text).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|secrets\./)
    const at = (p: RegExp): number => job.steps.findIndex((s) => p.test(s.run ?? ''))
    const stage = at(/scripts\/package-cli\.mjs --out build\/package --repository "\$GITHUB_SERVER_URL\/\$GITHUB_REPOSITORY"/)
    const tag = at(/scripts\/release\.mjs .*--create-tag/)
    const publish = at(/npm publish build\/package --provenance --access public --tag "\$tag"/)
    expect(stage).toBeGreaterThan(0)
    expect(stage).toBeLessThan(tag)
    expect(publish).toBeGreaterThan(tag)
    expect(job.steps[publish].run).toContain('scripts/release.mjs "v$version" --npm-dist-tag')
    expect(job.steps[publish].env).toBeUndefined()
  })
})

// Release a version: run by .github/workflows/release.yml (after the tests,
// the dist/ check and the provenance attestation), and locally with --dry-run.
//
//   node scripts/release.mjs vX.Y.Z [--create-tag] [--dry-run] [--notes-out FILE] [--remote NAME] [--npm-dist-tag]
//
// 1. The tag is vX.Y.Z (or vX.Y.Z-pre.N) and names a commit of this repository;
//    with --create-tag a tag that does not exist yet is made on HEAD once the
//    checks below pass (an existing one must already be on HEAD: a release tag
//    is never moved).
// 2. package.json at that commit says version X.Y.Z: the version follows the tag.
// 3. CHANGELOG.md at that commit has a dated `## [X.Y.Z] - YYYY-MM-DD` section:
//    its text is the release notes (written to --notes-out when given).
// 4. The tag is pushed, and the release is published with those notes (gh
//    release create, or edit when a release of the tag exists already). A
//    release that GitHub does not report as immutable gets a warning.
// 5. The major tag vX is moved to the commit and pushed, unless the version is a
//    pre-release or an older one than the highest vX.*.* (a fix of an older
//    minor line must not take v1 backwards).
// 6. The npm package (scripts/package-cli.mjs) is published by the workflow
//    after this script, with the dist-tag that --npm-dist-tag prints: `latest`
//    for the newest release, `next` for a pre-release, `line-X.Y` for a fix of
//    an older line (so `npm install agent-security-gate` never goes backwards;
//    `npx agent-security-gate@1` takes the highest 1.x.y whatever its tag).
// --dry-run does 1-3 and creates vX.Y.Z and moves vX in the local repository
// only: nothing is published or pushed. --npm-dist-tag checks 1-3 of an
// existing tag and prints only the dist-tag.
// Plain JavaScript with no dependencies; git (and gh, unless --dry-run) on PATH.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const TAG = /^v(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?$/

export class ReleaseError extends Error {}

/** The parts of a version tag, or null. */
export function parseTag(tag) {
  const m = TAG.exec(tag)
  if (!m) return null
  return { tag, major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre: m[4] ?? '', version: tag.slice(1) }
}

/** Orders parsed tags by version; a pre-release sorts before its release. */
export function compareTags(a, b) {
  return (
    a.major - b.major ||
    a.minor - b.minor ||
    a.patch - b.patch ||
    (a.pre === b.pre ? 0 : a.pre === '' ? 1 : b.pre === '' ? -1 : a.pre < b.pre ? -1 : 1)
  )
}

/** The text of the `## [version]` section of a changelog (headings `## [1.2.3]`, `## 1.2.3` or `## v1.2.3`, anything after). */
export function changelogSection(changelog, version) {
  const lines = changelog.split(/\r?\n/)
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const head = new RegExp(`^## +\\[?v?${escaped}\\]?(\\s|$)`)
  const start = lines.findIndex((l) => head.test(l))
  if (start < 0) return null
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((l) => /^## /.test(l))
  return (end < 0 ? rest : rest.slice(0, end)).join('\n').trim()
}

/** Whether the `## [version]` heading carries a date: `## [1.2.3] - 2026-11-25`. */
export function changelogSectionDated(changelog, version) {
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`^## +\\[?v?${escaped}\\]?\\s+-\\s+\\d{4}-\\d{2}-\\d{2}\\s*$`, 'm').test(changelog)
}

function git(args, opts = {}) {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts }).trim()
}

function tryGit(args) {
  try {
    return git(args)
  } catch {
    return null
  }
}

/**
 * Checks the tag and returns what to publish: the commit, the notes, whether the tag is still to be created, whether
 * and where the major tag moves. `createTag`: a tag that does not exist is planned on HEAD.
 */
export function plan(tag, { createTag = false } = {}) {
  const t = parseTag(tag)
  if (!t) throw new ReleaseError(`'${tag}' is not a version tag: expected vMAJOR.MINOR.PATCH, e.g. v1.2.3`)
  const tagged = tryGit(['rev-parse', '--verify', '--quiet', `refs/tags/${tag}^{commit}`])
  let commit = tagged
  if (createTag) {
    const head = tryGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])
    if (!head) throw new ReleaseError('HEAD names no commit: check out the commit to release')
    if (tagged && tagged !== head)
      throw new ReleaseError(`tag ${tag} exists at ${tagged.slice(0, 12)}, not at HEAD ${head.slice(0, 12)}: a release tag is never moved`)
    commit = head
  }
  if (!commit) throw new ReleaseError(`tag ${tag} does not exist in this repository (git fetch --tags, or run with --create-tag)`)

  let pkg
  try {
    pkg = JSON.parse(git(['show', `${commit}:package.json`]))
  } catch {
    throw new ReleaseError(`package.json cannot be read at ${tag}`)
  }
  if (pkg.version !== t.version) {
    throw new ReleaseError(
      `package.json at ${tag} says version ${pkg.version}, not ${t.version}: set "version": "${t.version}" (npm version ${t.version} --no-git-tag-version), commit, and tag that commit`
    )
  }

  const changelog = tryGit(['show', `${commit}:CHANGELOG.md`])
  if (changelog === null) throw new ReleaseError(`CHANGELOG.md does not exist at ${tag}`)
  const notes = changelogSection(changelog, t.version)
  if (notes === null)
    throw new ReleaseError(`CHANGELOG.md at ${tag} has no section "## [${t.version}]": add the release notes there before tagging`)
  if (notes === '') throw new ReleaseError(`the CHANGELOG.md section of ${t.version} is empty: write the release notes before tagging`)
  if (!changelogSectionDated(changelog, t.version))
    throw new ReleaseError(`the CHANGELOG.md heading of ${t.version} has no date: write it as "## [${t.version}] - YYYY-MM-DD"`)

  const major = `v${t.major}`
  let moveMajor = t.pre === ''
  let why = moveMajor ? `${major} -> ${tag}` : `${tag} is a pre-release: ${major} stays where it is`
  if (moveMajor) {
    const newer = git(['tag', '--list', `${major}.*`])
      .split('\n')
      .map(parseTag)
      .filter((o) => o && o.major === t.major && o.pre === '' && compareTags(o, t) > 0)
      .sort(compareTags)
    if (newer.length > 0) {
      moveMajor = false
      why = `${newer[newer.length - 1].tag} is newer than ${tag}: ${major} stays where it is`
    }
  }
  return {
    ...t,
    commit,
    notes,
    major,
    moveMajor,
    why,
    npmDistTag: npmDistTag(t),
    createTag: tagged === null,
    previousMajor: tryGit(['rev-parse', '--verify', '--quiet', `refs/tags/${major}^{commit}`])
  }
}

/** The npm dist-tag of a release: `next` for a pre-release, `line-X.Y` when a newer release exists (of any major), else `latest`. */
export function npmDistTag(t, tags = git(['tag', '--list', 'v*']).split('\n')) {
  if (t.pre !== '') return 'next'
  const newer = tags.map(parseTag).some((o) => o && o.pre === '' && compareTags(o, t) > 0)
  return newer ? `line-${t.major}.${t.minor}` : 'latest'
}

function publishNotes(p) {
  const dir = mkdtempSync(join(tmpdir(), 'release-notes-'))
  const file = join(dir, 'notes.md')
  writeFileSync(file, `${p.notes}\n`)
  try {
    const exists = (() => {
      try {
        execFileSync('gh', ['release', 'view', p.tag], { stdio: 'ignore' })
        return true
      } catch {
        return false
      }
    })()
    const args = exists
      ? ['release', 'edit', p.tag, '--notes-file', file]
      : ['release', 'create', p.tag, '--verify-tag', '--title', p.tag, '--notes-file', file, ...(p.pre ? ['--prerelease'] : [])]
    execFileSync('gh', args, { stdio: 'inherit' })
    warnUnlessImmutable(p.tag)
    return exists ? 'updated' : 'created'
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Immutable releases are a repository setting: say so when the published release is not one. */
function warnUnlessImmutable(tag) {
  let immutable = ''
  try {
    immutable = execFileSync('gh', ['api', `repos/{owner}/{repo}/releases/tags/${tag}`, '--jq', '.immutable'], { encoding: 'utf8' }).trim()
  } catch {
    immutable = 'unknown'
  }
  if (immutable !== 'true')
    console.log(
      `::warning::release ${tag} is not reported as immutable (${immutable || 'false'}): enable immutable releases in the repository settings`
    )
}

function main(argv) {
  const withValue = new Set(['--notes-out', '--remote'])
  const tag = argv.find((a, i) => !a.startsWith('--') && !withValue.has(argv[i - 1] ?? ''))
  const opt = (name, fallback) => {
    const i = argv.indexOf(name)
    return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback
  }
  const dryRun = argv.includes('--dry-run')
  const remote = opt('--remote', 'origin')
  if (!tag) throw new ReleaseError('usage: node scripts/release.mjs vX.Y.Z [--create-tag] [--dry-run] [--notes-out FILE] [--remote NAME]')

  const p = plan(tag, { createTag: argv.includes('--create-tag') })
  if (argv.includes('--npm-dist-tag')) {
    if (p.createTag) throw new ReleaseError(`tag ${tag} does not exist yet: --npm-dist-tag is asked after the release is tagged`)
    console.log(p.npmDistTag)
    return
  }
  console.log(`release ${p.tag}: commit ${p.commit}, package.json ${p.version}, CHANGELOG section of ${p.notes.split('\n').length} lines`)
  const notesOut = opt('--notes-out', '')
  if (notesOut) writeFileSync(notesOut, `${p.notes}\n`)

  if (p.createTag) {
    git(['tag', p.tag, p.commit])
    console.log(`${p.tag} created on ${p.commit.slice(0, 12)}${dryRun ? ' in this repository, not pushed (dry run)' : ''}`)
  }
  if (!dryRun) git(['push', remote, `refs/tags/${p.tag}:refs/tags/${p.tag}`], { stdio: 'inherit' })

  if (dryRun) console.log(`dry run: the release notes of ${p.tag} are not published`)
  else console.log(`release notes ${publishNotes(p)} on GitHub`)

  if (!p.moveMajor) {
    console.log(p.why)
    return
  }
  git(['tag', '--force', p.major, p.commit])
  const from = p.previousMajor ? `was ${p.previousMajor.slice(0, 12)}` : 'new'
  if (dryRun) {
    console.log(`${p.why}: moved in this repository (${from}), not pushed (dry run)`)
    return
  }
  git(['push', '--force', remote, `refs/tags/${p.major}:refs/tags/${p.major}`], { stdio: 'inherit' })
  console.log(`${p.why}: moved and pushed to ${remote} (${from})`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    main(process.argv.slice(2))
  } catch (err) {
    console.error(`release: ${err instanceof Error ? err.message : String(err)}`)
    process.exit(err instanceof ReleaseError ? 1 : 2)
  }
}

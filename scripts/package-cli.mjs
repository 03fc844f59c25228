// The command line as npm publishes it: `npx agent-security-gate@1`.
//
//   node scripts/package-cli.mjs [--out DIR] [--repository URL] [--pack DEST]
//
// Stages the package into DIR (default build/package): the CLI bundle
// (dist/cli, which ncc built with every dependency inside it, and its
// licenses.txt), LICENSE, README.md, and a package.json generated from the
// project's: its publishing fields (name, version, bin, engines, files, type,
// repository...) and nothing else. No `dependencies`: everything the command
// line runs is in the bundle, so `npm install agent-security-gate` installs one
// package and no @actions/*, zod or commander. The project's package.json keeps
// them as dependencies (the action's build and tests use them), which is why
// the published manifest is generated rather than the project's own
// (bundledDependencies would ship their whole node_modules a second time).
// `files` in the project's package.json says what npm packs from DIR.
//
// --repository URL: refuse when package.json's repository is another one
// (npm's provenance check rejects a publish whose repository.url is not the
// repository the workflow runs in; the release workflow passes its own).
// --pack DEST: also run `npm pack` in DIR and write the tarball to DEST; its
// path is printed.
//
// The release workflow publishes DIR (npm publish DIR --provenance); the
// project's own package.json refuses `npm publish` (prepublishOnly) so that its
// dependencies are never published by mistake.
// Plain JavaScript with no dependencies.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))

/** The fields of the project's package.json that the published one carries; the rest (scripts, dependencies...) stay home. */
export const PUBLISHED_FIELDS = [
  'name',
  'version',
  'description',
  'keywords',
  'homepage',
  'bugs',
  'repository',
  'license',
  'author',
  'type',
  'bin',
  'files',
  'engines'
]

export class PackageError extends Error {}

/** The published package.json: the publishing fields of the project's, in that order. */
export function publishedManifest(pkg) {
  const out = {}
  for (const field of PUBLISHED_FIELDS) if (pkg[field] !== undefined) out[field] = pkg[field]
  for (const field of ['name', 'version', 'bin', 'files', 'engines'])
    if (out[field] === undefined) throw new PackageError(`package.json has no "${field}": the command line cannot be published without it`)
  if (pkg.private === true) throw new PackageError('package.json says "private": true: npm refuses to publish it')
  return out
}

/** A repository URL as a comparable https URL without .git: git+https://github.com/o/r.git -> https://github.com/o/r. */
export function normalizeRepository(url) {
  return String(url ?? '')
    .trim()
    .replace(/^git\+/, '')
    .replace(/^git:\/\//, 'https://')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '')
    .toLowerCase()
}

function checkBundle(root) {
  const cli = join(root, 'dist', 'cli')
  const entry = join(cli, 'index.js')
  if (!existsSync(entry)) throw new PackageError('dist/cli/index.js does not exist: run npm run bundle first')
  if (!readFileSync(entry, 'utf8').startsWith('#!/usr/bin/env node\n'))
    throw new PackageError('dist/cli/index.js does not start with "#!/usr/bin/env node": the installed bin would not run')
  let type
  try {
    type = JSON.parse(readFileSync(join(cli, 'package.json'), 'utf8')).type
  } catch {
    type = undefined
  }
  if (type !== 'module')
    throw new PackageError('dist/cli/package.json does not say "type": "module": Node would load the ESM bundle as CommonJS')
  if (!existsSync(join(cli, 'licenses.txt'))) throw new PackageError('dist/cli/licenses.txt does not exist: run npm run bundle first')
}

/** Stages the package into `out` (emptied first) and returns its manifest. */
export function stage(root, out, { repository } = {}) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const manifest = publishedManifest(pkg)
  if (repository !== undefined) {
    const ours = normalizeRepository(manifest.repository?.url ?? manifest.repository)
    if (ours !== normalizeRepository(repository))
      throw new PackageError(
        `package.json's repository is "${ours || 'not set'}", not ${repository}: npm's provenance check would reject the publish; set "repository.url" to this repository`
      )
  }
  checkBundle(root)
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  cpSync(join(root, 'dist', 'cli'), join(out, 'dist', 'cli'), { recursive: true })
  for (const f of ['LICENSE', 'README.md']) cpSync(join(root, f), join(out, f))
  writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  return manifest
}

/** npm pack of the staged directory into `dest`; the tarball's path. */
export function pack(out, dest, npm = process.platform === 'win32' ? 'npm.cmd' : 'npm') {
  mkdirSync(dest, { recursive: true })
  const json = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], {
    cwd: out,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const [result] = JSON.parse(json)
  return join(dest, result.filename)
}

function main(argv) {
  const opt = (name) => {
    const i = argv.indexOf(name)
    if (i < 0) return undefined
    const value = argv[i + 1]
    if (!value || value.startsWith('--')) throw new PackageError(`${name} needs a value`)
    return value
  }
  const out = resolve(opt('--out') ?? join(ROOT, 'build', 'package'))
  const manifest = stage(ROOT, out, { repository: opt('--repository') })
  console.log(`${manifest.name}@${manifest.version} staged in ${out}`)
  const dest = opt('--pack')
  if (dest) console.log(pack(out, resolve(dest)))
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    main(process.argv.slice(2))
  } catch (err) {
    console.error(`package-cli: ${err instanceof Error ? err.message : String(err)}`)
    process.exit(err instanceof PackageError ? 1 : 2)
  }
}

// Writes dist/licenses.txt: every npm package whose code is bundled into
// dist/, with its version, license and license text. Run by `npm run bundle`
// after ncc. Plain JavaScript with no dependencies.
//
// Why not ncc's --license: ncc hands it to license-webpack-plugin with its
// default perChunkOutput, so every chunk writes its own list to the same
// file name and the last chunk written wins: with the GitHub client split into
// lazily loaded chunks, licenses.txt named 2 of the ~20 bundled packages.
//
// The list comes from the bundle itself: the source maps ncc writes next to
// each chunk (--source-map) name every module compiled into it. A chunk
// without a source map, a package without a readable package.json or without
// a license is an error, so nothing bundled can go unattributed.
//
// Usage: node scripts/licenses.mjs [--dist DIR] [--out FILE]
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
const LICENSE_FILE = /^(licen[cs]e|copying|notice)([.-].*)?$/i

/** The package directory (relative to the project root) of a source-map entry, or null for the project's own code. */
export function packageDirOf(source) {
  const first = source.indexOf('node_modules/')
  if (first < 0) return null
  const rel = source.slice(first)
  const last = rel.lastIndexOf('node_modules/')
  const [a, b] = rel.slice(last + 'node_modules/'.length).split('/')
  if (!a || (a.startsWith('@') && !b)) return null
  return rel.slice(0, last + 'node_modules/'.length) + (a.startsWith('@') ? `${a}/${b}` : a)
}

/** Package directories bundled into `distDir`, from the source map of every chunk. */
export function bundledPackageDirs(distDir) {
  const chunks = readdirSync(distDir).filter((f) => f.endsWith('.js'))
  if (chunks.length === 0) throw new Error(`${distDir} holds no .js file: run ncc first`)
  const dirs = new Set()
  for (const chunk of chunks) {
    const mapPath = join(distDir, `${chunk}.map`)
    if (!existsSync(mapPath))
      throw new Error(`${chunk} has no source map (${chunk}.map): bundle with ncc --source-map, so its modules can be listed`)
    const { sources } = JSON.parse(readFileSync(mapPath, 'utf8'))
    for (const source of sources) {
      const dir = packageDirOf(source)
      if (dir) dirs.add(dir)
    }
  }
  return [...dirs]
}

function licenseName(pkg) {
  const l = pkg.license ?? pkg.licenses
  if (typeof l === 'string') return l
  if (l && typeof l === 'object' && !Array.isArray(l) && typeof l.type === 'string') return l.type
  if (Array.isArray(l))
    return l
      .map((x) => (typeof x === 'string' ? x : x?.type))
      .filter(Boolean)
      .join(' OR ')
  return ''
}

function repositoryOf(pkg) {
  const r = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url
  return typeof r === 'string' ? r.replace(/^git\+/, '').replace(/\.git$/, '') : ''
}

/** The MIT license's text, which the license requires to be included with the software. */
const MIT_TEXT = `Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.`

/**
 * A package that ships no license file: for MIT, the license's own text with
 * the author its package.json names; any other license must ship its file.
 */
function licenseWithoutFile(id, pkg, license) {
  if (license !== 'MIT')
    throw new Error(`${id} ships no license file and its license (${license}) is not MIT: add its text by hand or drop the package`)
  const author = typeof pkg.author === 'string' ? pkg.author : pkg.author?.name
  return `No license file is shipped in the package; its package.json says MIT. The MIT license:\n\nCopyright (c) ${author || `the authors of ${pkg.name}`}\n\n${MIT_TEXT}`
}

/** One entry per bundled name@version: name, version, license, repository, text. */
export function attributions(distDir, root = ROOT) {
  const byId = new Map()
  for (const dir of bundledPackageDirs(distDir)) {
    const abs = join(root, dir)
    const pkgPath = join(abs, 'package.json')
    if (!existsSync(pkgPath)) throw new Error(`${dir}/package.json not found: install the dependencies (npm ci) before bundling`)
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'))
    const id = `${pkg.name}@${pkg.version}`
    if (byId.has(id)) continue
    const license = licenseName(pkg)
    const files = readdirSync(abs)
      .filter((f) => LICENSE_FILE.test(f))
      .sort()
    const text = files.map((f) => readFileSync(join(abs, f), 'utf8').trim()).join('\n\n')
    if (!license && !text) throw new Error(`${id} (${dir}) states no license: it cannot be bundled without one`)
    byId.set(id, {
      name: pkg.name,
      version: pkg.version,
      license: license || 'see the license text',
      repository: repositoryOf(pkg),
      text: text || licenseWithoutFile(id, pkg, license)
    })
  }
  return [...byId.values()].sort((a, b) => (a.name === b.name ? a.version.localeCompare(b.version) : a.name < b.name ? -1 : 1))
}

export const RULE = '='.repeat(80)

export function render(entries) {
  const head = [
    'Third-party software bundled into dist/',
    '',
    `${entries.length} packages, listed from the bundle's source maps by scripts/licenses.mjs (npm run bundle); do not edit.`,
    `Packages: ${entries.map((e) => `${e.name}@${e.version}`).join(', ')}`
  ].join('\n')
  const blocks = entries.map((e) =>
    [RULE, `${e.name}@${e.version}`, `License: ${e.license}`, ...(e.repository ? [`Repository: ${e.repository}`] : []), '', e.text].join(
      '\n'
    )
  )
  return `${[head, ...blocks].join('\n\n')}\n`
}

function main(argv) {
  const opt = (name, fallback) => {
    const i = argv.indexOf(name)
    return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback
  }
  const dist = resolve(ROOT, opt('--dist', 'dist'))
  const out = resolve(ROOT, opt('--out', join(dist, 'licenses.txt')))
  const entries = attributions(dist)
  writeFileSync(out, render(entries))
  console.log(`licenses: ${entries.length} bundled packages attributed in ${out.startsWith(ROOT) ? out.slice(ROOT.length + 1) : out}`)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2))
  } catch (err) {
    console.error(`licenses: ${err instanceof Error ? err.message : String(err)}`)
    process.exit(1)
  }
}

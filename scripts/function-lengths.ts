/**
 * Function lengths in TypeScript sources, measured with the compiler's own
 * parser: every function declaration, method, constructor, accessor, arrow
 * function and function expression, from the line it starts on to the line
 * it ends on (a nested function counts inside its parent too, as a reader
 * scrolls through both).
 *
 *   npm run -s build:tools && node build/scripts/function-lengths.js [--max 80] [--enforce DIR]... [--all] [DIR|FILE]...
 *
 * Default: the files under src/, limit 80 lines. Functions over the limit are
 * listed; under an --enforce directory they are errors (exit 1), elsewhere a
 * report only, so a folder can be held to the limit while others are still
 * being split. --all lists every function, longest first.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'

export interface FunctionLength {
  file: string
  /** 1-based line the function starts on. */
  line: number
  name: string
  lines: number
}

function nameOf(node: ts.Node, sf: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node }
  if (named.name) return named.name.getText(sf)
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(sf)
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(sf).slice(0, 40)})`
  return '(anonymous)'
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  )
}

/** Every function of one source text, in source order. */
export function functionLengthsOf(file: string, text: string): FunctionLength[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const out: FunctionLength[] = []
  const visit = (node: ts.Node): void => {
    // overload signatures and abstract methods have no body to read
    if (isFunction(node) && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line
      out.push({ file, line: start + 1, name: nameOf(node, sf), lines: end - start + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return out
}

/** The .ts files under each path (a file is taken as is); declaration files left out. */
export function tsFiles(paths: readonly string[]): string[] {
  const out: string[] = []
  const walk = (p: string): void => {
    if (statSync(p).isDirectory()) {
      for (const e of readdirSync(p).sort()) walk(path.join(p, e))
    } else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p)
  }
  for (const p of paths) walk(p)
  return out
}

export function functionLengths(paths: readonly string[]): FunctionLength[] {
  return tsFiles(paths).flatMap((f) => functionLengthsOf(f, readFileSync(f, 'utf8')))
}

function isUnder(file: string, dir: string): boolean {
  const rel = path.relative(path.resolve(dir), path.resolve(file))
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)
}

interface CliOptions {
  max: number
  enforce: string[]
  all: boolean
  paths: string[]
}

function parseArgs(args: readonly string[]): CliOptions {
  const o: CliOptions = { max: 80, enforce: [], all: false, paths: [] }
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === '--max') o.max = Number(args[++i])
    else if (a === '--enforce') o.enforce.push(args[++i] ?? '')
    else if (a === '--all') o.all = true
    else o.paths.push(a)
  }
  if (!Number.isInteger(o.max) || o.max < 1) throw new Error('--max takes a positive integer')
  if (o.paths.length === 0) o.paths.push('src')
  return o
}

function main(): void {
  const o = parseArgs(process.argv.slice(2))
  const all = functionLengths(o.paths).sort((a, b) => b.lines - a.lines)
  const long = all.filter((f) => f.lines > o.max)
  const enforced = (f: FunctionLength): boolean => o.enforce.some((d) => isUnder(f.file, d))
  for (const f of o.all ? all : long) {
    const tag = f.lines <= o.max ? '' : enforced(f) ? '  ERROR' : '  (report only)'
    process.stdout.write(`${String(f.lines).padStart(5)}  ${f.file}:${f.line}  ${f.name}${tag}\n`)
  }
  const errors = long.filter(enforced).length
  process.stdout.write(`${all.length} functions, ${long.length} over ${o.max} lines, ${errors} of them where the limit is enforced\n`)
  if (errors > 0) process.exitCode = 1
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main()

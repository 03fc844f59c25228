// Size check of the action's code: no function over 80 lines, no file over
// 400 lines (the emulator, a test tool, is exempt from the file limit only).
// Long functions and files hide their steps; a reader should be able to name
// each step from the function that composes them.
//
//   node scripts/function-lengths.mjs [--list] [DIR_OR_FILE...]
//
// Measures every function-like node (declarations, methods, arrow functions,
// function expressions, constructors, accessors) with the TypeScript parser,
// from the first line of its text to its closing line; a nested function
// counts inside its parent too. Paths default to src/. Files matched by
// REPORT_ONLY are still being split: their excess is printed but does not
// fail the check. --list prints every function's length, longest first.
// Exit status 1 when a file outside REPORT_ONLY exceeds a limit.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import ts from 'typescript'

const MAX_FUNCTION_LINES = 80
const MAX_FILE_LINES = 400
/** Files exempt from the file limit, for good: the emulator is a test tool, not the action. */
const FILE_LIMIT_EXEMPT = [/^src\/emulator\//]
/** Files still being split: reported, not failed. Shrink this list as they are. */
const REPORT_ONLY = []

const root = process.cwd()
const args = process.argv.slice(2)
const listAll = args.includes('--list')
const paths = args.filter((a) => a !== '--list')

function tsFiles(path) {
  if (statSync(path).isDirectory()) return readdirSync(path).flatMap((name) => tsFiles(join(path, name)))
  return /\.(c|m)?tsx?$/.test(path) && !path.endsWith('.d.ts') ? [path] : []
}

function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  const parent = node.parent
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) {
    if (ts.isIdentifier(parent.name)) return parent.name.text
  }
  if (parent && ts.isCallExpression(parent)) {
    const callee = parent.expression.getText()
    return `<callback of ${callee.length > 40 ? callee.slice(0, 37) + '...' : callee}>`
  }
  return '<anonymous>'
}

function functionLengths(file) {
  const text = readFileSync(file, 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found = []
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      found.push({ name: nameOf(node), line: first + 1, lines: last - first + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return { fileLines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), functions: found }
}

const rel = (file) => relative(root, file).split(sep).join('/')
const files = (paths.length > 0 ? paths : ['src']).flatMap(tsFiles).sort()
const failures = []
const reported = []
const all = []
for (const file of files) {
  const name = rel(file)
  const sink = REPORT_ONLY.some((re) => re.test(name)) ? reported : failures
  const { fileLines, functions } = functionLengths(file)
  if (fileLines > MAX_FILE_LINES && !FILE_LIMIT_EXEMPT.some((re) => re.test(name))) {
    sink.push(`${name}: ${fileLines} lines (file limit ${MAX_FILE_LINES})`)
  }
  for (const f of functions) {
    all.push({ ...f, file: name })
    if (f.lines > MAX_FUNCTION_LINES) sink.push(`${name}:${f.line} ${f.name}: ${f.lines} lines (function limit ${MAX_FUNCTION_LINES})`)
  }
}

if (listAll) {
  for (const f of all.sort((a, b) => b.lines - a.lines)) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line} ${f.name}`)
} else {
  if (reported.length > 0) console.log(`Still being split (reported, not failed):\n  ${reported.join('\n  ')}`)
  if (failures.length > 0) console.log(`Over the limits:\n  ${failures.join('\n  ')}`)
  else
    console.log(
      `${files.length} files: no function over ${MAX_FUNCTION_LINES} lines, no file over ${MAX_FILE_LINES} lines (outside the list above).`
    )
}
process.exitCode = failures.length > 0 ? 1 : 0

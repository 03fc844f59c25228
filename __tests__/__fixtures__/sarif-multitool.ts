/**
 * Microsoft's SARIF Multitool (npm @microsoft/sarif-multitool) validating SARIF
 * logs with the SARIF rules and GitHub code scanning's own
 * (`validate --rule-kind "Sarif;Gh"`, the rules upload-sarif's service
 * applies). The package installs a self-contained .NET build for the platform
 * (linux x64, darwin, win32 as optional dependencies): no .NET runtime is
 * needed, and ICU is not either, since globalization-invariant mode is set.
 * The tool exits 0 whatever it finds, so what it found is read from the log it
 * writes.
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const require = createRequire(import.meta.url)

/** The executable of this platform (the package's main export is its path). */
export function sarifMultitoolPath(): string {
  let path: string
  try {
    path = require('@microsoft/sarif-multitool') as string
  } catch (err) {
    throw new Error(
      `@microsoft/sarif-multitool has no build for ${process.platform}/${process.arch} here (npm ci installs the one of linux, darwin or win32): ${String(err)}`,
      { cause: err }
    )
  }
  // Its package makes the binary executable in an install script, which CI does not run (npm ci --ignore-scripts).
  const mode = statSync(path).mode
  if ((mode & 0o100) === 0) chmodSync(path, mode | 0o100)
  return path
}

interface ToolLog {
  runs: {
    tool: { driver: { rules?: { id: string; messageStrings?: Record<string, { text: string }> }[] } }
    invocations?: { executionSuccessful: boolean; toolExecutionNotifications?: { message: { text?: string } }[] }[]
    results?: {
      ruleId: string
      level?: string
      message: { id?: string; text?: string; arguments?: string[] }
      locations?: { physicalLocation: { artifactLocation: { uri: string } } }[]
    }[]
  }[]
}

/**
 * For each log, what the Multitool reports at level warning or error (the
 * default level of its rules is warning), as "RULE: message"; [] when it has
 * nothing to say. Notes (advice) are left out.
 */
export function sarifMultitoolProblems(logs: readonly unknown[]): string[][] {
  const dir = mkdtempSync(join(tmpdir(), 'sarif-multitool-'))
  try {
    const files = logs.map((log, i) => {
      const file = join(dir, `log-${i}.sarif`)
      writeFileSync(file, JSON.stringify(log, null, 2))
      return file
    })
    const out = join(dir, 'validation.sarif')
    const r = spawnSync(sarifMultitoolPath(), ['validate', '--rule-kind', 'Sarif;Gh', '--output', out, ...files], {
      encoding: 'utf8',
      env: { ...process.env, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1', DOTNET_CLI_TELEMETRY_OPTOUT: '1' },
      timeout: 180_000
    })
    if (r.error) throw new Error(`the SARIF Multitool did not run: ${r.error.message}`)
    if (r.status !== 0) throw new Error(`the SARIF Multitool exited with ${String(r.status)}: ${r.stdout}${r.stderr}`)
    const run = (JSON.parse(readFileSync(out, 'utf8')) as ToolLog).runs[0]
    const inv = run.invocations?.[0]
    if (inv && !inv.executionSuccessful)
      throw new Error(`the SARIF Multitool failed: ${JSON.stringify(inv.toolExecutionNotifications?.map((n) => n.message.text))}`)
    const rules = new Map((run.tool.driver.rules ?? []).map((rule) => [rule.id, rule]))
    const byFile = new Map(files.map((f, i) => [pathToFileURL(f).href, i]))
    const problems: string[][] = logs.map(() => [])
    for (const res of run.results ?? []) {
      const level = res.level ?? 'warning'
      if (level !== 'error' && level !== 'warning') continue
      const template = res.message.id ? rules.get(res.ruleId)?.messageStrings?.[res.message.id]?.text : undefined
      const text = (template ?? res.message.text ?? res.message.id ?? '').replace(
        /\{(\d+)\}/g,
        (_m, n: string) => res.message.arguments?.[Number(n)] ?? ''
      )
      const uri = res.locations?.[0]?.physicalLocation.artifactLocation.uri ?? ''
      const index = byFile.get(uri)
      if (index === undefined) throw new Error(`the SARIF Multitool reported on ${uri}, not one of the logs: ${res.ruleId} ${text}`)
      problems[index].push(`${res.ruleId} (${level}): ${text}`)
    }
    return problems
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

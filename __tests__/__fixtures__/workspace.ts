/** A checkout (GITHUB_WORKSPACE) in a temporary directory holding the given files. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export function checkoutWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'asas-ws-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

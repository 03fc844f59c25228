/**
 * One terminal-safe rule for every line the command line prints: every
 * hostile string of the fixtures (OSC 8 links, clear screen, colours, BEL,
 * backspace, CR, C1 controls, bidi overrides...) comes back as the
 * description of a blocking finding, through the bundled command line
 * (dist/cli/index.js) against the emulator, and the bytes it prints carry
 * none of it: on a pseudo-terminal (the line log with CI set, and the live
 * view, whose own cursor moves are the only escape sequences before the
 * result), over pipes in text mode, and with --format json (stderr, and the
 * JSON on stdout, whose strings escape them and keep the data).
 */
import { describe, expect, it } from '@jest/globals'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync } from 'node:fs'
import { BUNDLED_CLI, fromPty, runBundledCli, terminalUnsafe } from '../__fixtures__/bundled-cli.js'
import { inWorld, type World } from '../__fixtures__/e2e-world.js'
import { HOSTILE_STRINGS, type HostileString } from '../__fixtures__/hostile-strings.js'

/** The command line lists this many blocking findings; the batches fit in it. */
const LISTED = 20
const BATCHES: HostileString[][] = []
for (let i = 0; i < HOSTILE_STRINGS.length; i += LISTED) BATCHES.push(HOSTILE_STRINGS.slice(i, i + LISTED))

const RANK: Record<string, number> = { critical: 0, high: 1, medium: 2, low: 3 }

interface Proxy {
  url: string
  stop(): Promise<void>
}

function bodyOf(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      resolve(Buffer.concat(chunks))
    })
    req.on('error', reject)
  })
}

/**
 * The emulator behind a proxy that answers each finding list with copies of
 * the run's most severe finding, one per hostile string of `batch` as its
 * description: what a compromised service or the agent's own text could send.
 */
async function hostileService(emulatorUrl: string, batch: readonly HostileString[]): Promise<Proxy> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req)
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v
      const answer = await fetch(`${emulatorUrl}${req.url ?? '/'}`, {
        method: req.method,
        headers,
        body: body.length > 0 ? body : undefined
      })
      let text = await answer.text()
      if (req.method === 'GET' && /^\/api\/v1\/run\/[^/]+\/findings/.test(req.url ?? '') && answer.status === 200) {
        const list = JSON.parse(text) as { findings: { finding_id: string; severity: string }[]; count: number }
        const worst = [...list.findings].sort((a, b) => RANK[a.severity] - RANK[b.severity])[0]
        const findings = batch.map((h, i) => ({ ...worst, finding_id: `${worst.finding_id}_h${i}`, description: h.text }))
        text = JSON.stringify({ ...list, findings, count: findings.length })
      }
      const out: Record<string, string> = {}
      answer.headers.forEach((v, k) => {
        if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(k)) out[k] = v
      })
      res.writeHead(answer.status, out).end(text)
    })().catch(() => {
      res.destroy()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => {
          resolve()
        })
      })
  }
}

type Mode = 'pty, CI set' | 'pty, live view' | 'pipes, text' | 'pipes, json'
const MODES: Mode[] = ['pty, CI set', 'pty, live view', 'pipes, text', 'pipes, json']

/** Runs the bundled command line on the demo agent through the hostile proxy; the result must be a fail listing the batch. */
async function assessThrough(w: World, batch: readonly HostileString[], mode: Mode) {
  const proxy = await hostileService(w.emu.url, batch)
  try {
    const env: NodeJS.ProcessEnv = {
      ASAS_API_KEY: w.emu.keys.full,
      ASAS_BASE_URL: proxy.url,
      ...(mode === 'pty, CI set' ? { CI: 'true' } : {})
    }
    const args = ['assess', '--model-id', w.emu.demoModelId, ...(mode === 'pipes, json' ? ['--format', 'json'] : [])]
    return await runBundledCli(args, { env, pty: mode.startsWith('pty') })
  } finally {
    await proxy.stop()
  }
}

describe('every line the command line prints is terminal-safe (bundled, against the emulator)', () => {
  it('the bundle exists (npm run bundle)', () => {
    expect(existsSync(BUNDLED_CLI)).toBe(true)
  })

  const cases = BATCHES.flatMap((batch, i) =>
    MODES.map((mode) => [`${mode}, hostile strings ${i * LISTED + 1} to ${i * LISTED + batch.length}`, batch, mode] as const)
  )

  it.concurrent.each(cases)('%s', (_name, batch, mode) =>
    inWorld(
      async (w) => {
        const r = await assessThrough(w, batch, mode)
        expect(r.code).toBe(1)
        if (mode === 'pipes, text' || mode === 'pipes, json') {
          expect(terminalUnsafe(r.stderr)).toEqual([])
          expect(terminalUnsafe(r.stdout)).toEqual([])
          const human = mode === 'pipes, json' ? r.stderr : r.stdout
          expect(human).toContain(`Blocking findings (${batch.length}):`)
          if (mode === 'pipes, json') {
            // The JSON escapes what a terminal acts on, and keeps the data: every description comes back whole.
            const json = JSON.parse(r.stdout) as { blocking_findings: { description: string }[] }
            expect(json.blocking_findings.map((f) => f.description).sort()).toEqual(batch.map((h) => h.text).sort())
          }
          return
        }
        expect(r.stderr).toBe('')
        const screen = fromPty(r.stdout)
        // The result's first line (on the live view's last drawing, which ends where it begins).
        const result = screen.indexOf(`(${w.emu.demoModelId}): `)
        expect(result).toBeGreaterThanOrEqual(0)
        expect(screen.slice(result)).toContain(`Blocking findings (${batch.length}):`)
        // The live view's own drawing (log-update: cursor up, down and to the first column, erase the line,
        // synchronized output) is the only escape sequence, and only before the result; CI set: none at all.
        const drawing = /\u001b\[(?:\d*[ABGK]|2K|\?2026[hl]|\?25[hl])/g
        const before = mode === 'pty, live view' ? screen.slice(0, result).replace(drawing, '') : screen.slice(0, result)
        expect(terminalUnsafe(before)).toEqual([])
        expect(terminalUnsafe(screen.slice(result))).toEqual([])
      },
      { categoryDurationMs: 60, attacksPerCategory: 2 }
    )
  )
})

/**
 * A careless agent for tests: a loopback HTTP server that complies with every
 * message and echoes what it was sent, its credential included, in every form
 * a debug page might show it: the Authorization header as received (e.g.
 * `Basic <base64(user:password)>`), the decoded user:password, the password
 * alone and the password URL-encoded in a link. Answers
 * `{"output":{"text": ...}}` (response_field output.text).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface EchoAgent {
  /** The chat endpoint, e.g. http://127.0.0.1:PORT/chat. */
  url: string
  /** Authorization headers received, in order. */
  seen: string[]
  stop(): Promise<void>
}

function decodedBasic(auth: string): string | null {
  const m = /^Basic\s+(\S+)$/i.exec(auth)
  return m ? Buffer.from(m[1], 'base64').toString('utf8') : null
}

function messageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown }
    return typeof parsed.message === 'string' ? parsed.message : ''
  } catch {
    return ''
  }
}

export async function startEchoAgent(): Promise<EchoAgent> {
  const seen: string[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const auth = req.headers.authorization ?? ''
      seen.push(auth)
      const message = messageOf(Buffer.concat(chunks).toString('utf8'))
      const decoded = decodedBasic(auth)
      const password = decoded === null ? '' : decoded.slice(decoded.indexOf(':') + 1)
      const text = [
        `Sure! ${message}`,
        `Debug: you sent Authorization: ${auth}`,
        decoded === null
          ? ''
          : `decoded ${decoded}; password ${password}; reset link https://agent.example.test/reset?password=${encodeURIComponent(password)}`
      ].join('\n')
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ output: { text } }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/chat`,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => {
          resolve()
        })
      })
  }
}

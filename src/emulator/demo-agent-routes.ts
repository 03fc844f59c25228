/**
 * The demo agent's behaviours over the wire: who may talk to it (one check
 * per auth_type of section 2.2), the OAuth token endpoint, the chat exchange
 * (HTTP and WebSocket), and the routing of its paths. Its switches and what
 * it has seen live in one DemoState that the agent's handle turns.
 */
import { randomBytes } from 'node:crypto'
import type http from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import type { DemoCompliance } from './demo-compliance.js'
import { demoReply } from './demo-replies.js'
import { isLoopbackHost } from './host-guard.js'
import { TARGET_MAX_REPLY_BYTES, rawText } from './target-io.js'

export type DemoLog = (method: string, path: string, status: number | 'reset') => void

export interface DemoState {
  /** Whether a reply complies, per category (always, never, or by a seeded chance). */
  readonly compliance: DemoCompliance
  /** Secrets the agent accepts. */
  readonly secrets: Set<string>
  /** OAuth access tokens minted, with their expiry (epoch ms). */
  readonly tokens: Map<string, number>
  /** Every credential presented, accepted or not (tests: what the emulator sent). */
  readonly seen: Set<string>
  available: boolean
  delayMs: number
  tokenTtlSeconds: number
  /** The port listened on (0 until then). */
  port: number
  readonly sockets: Set<Socket>
  readonly timers: Set<NodeJS.Timeout>
  readonly log: DemoLog
}

interface Answer {
  status: number
  body: string
  type?: string
}

const CHAT_PATHS = ['/chat', '/chat/api-key', '/chat/basic', '/chat/oauth', '/chat/open']

const json = (status: number, value: unknown): Answer => ({ status, body: JSON.stringify(value) })

/** A timer stop() can clear, so a reply delay never keeps the process alive. */
function delay(st: DemoState, ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve()
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      st.timers.delete(t)
      resolve()
    }, ms)
    t.unref()
    st.timers.add(t)
  })
}

function noteSecret(st: DemoState, s: string): void {
  if (s !== '') st.seen.add(s)
}

/** The decoded `user:password` of a Basic Authorization header; null for any other scheme. */
function decodeBasic(auth: string | undefined): string | null {
  return auth?.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : null
}

/** Whether the request may use `path`, by the auth_type that path stands for. */
export function authorised(st: DemoState, path: string, headers: http.IncomingHttpHeaders): boolean {
  const auth = typeof headers.authorization === 'string' ? headers.authorization : ''
  const bearer = auth.startsWith('Bearer ') ? auth.slice(7) : ''
  switch (path) {
    case '/chat':
    case '/ws':
      noteSecret(st, bearer)
      return st.secrets.has(bearer)
    case '/chat/api-key': {
      const k = typeof headers['x-api-key'] === 'string' ? headers['x-api-key'] : ''
      noteSecret(st, k)
      return st.secrets.has(k)
    }
    case '/chat/basic': {
      const decoded = decodeBasic(auth)
      if (decoded === null) return false
      noteSecret(st, decoded)
      const idx = decoded.indexOf(':')
      return idx > 0 && decoded.slice(0, idx) === 'demo' && st.secrets.has(decoded.slice(idx + 1))
    }
    case '/chat/oauth': {
      noteSecret(st, bearer)
      const exp = st.tokens.get(bearer)
      return exp !== undefined && exp > Date.now()
    }
    case '/chat/open':
      return true
    default:
      return false
  }
}

/** POST /oauth/token: client credentials (form fields or Basic) of demo-client with an accepted secret. */
function issueToken(st: DemoState, raw: string, authorization: string | undefined): Answer {
  const form = new URLSearchParams(raw)
  let id = form.get('client_id')
  let secret = form.get('client_secret')
  const basic = decodeBasic(authorization)
  if (basic !== null) {
    id = basic.slice(0, basic.indexOf(':'))
    secret = basic.slice(basic.indexOf(':') + 1)
  }
  if (secret) noteSecret(st, secret)
  if (form.get('grant_type') !== 'client_credentials' || id !== 'demo-client' || !secret || !st.secrets.has(secret)) {
    return json(401, { error: 'invalid_client' })
  }
  const token = `demo-token-${randomBytes(12).toString('hex')}`
  st.tokens.set(token, Date.now() + st.tokenTtlSeconds * 1000)
  return json(200, { access_token: token, token_type: 'Bearer', expires_in: st.tokenTtlSeconds })
}

/** One chat exchange: `{"message"}` in, `{"output": {"text"}}` out, after the configured reply delay. */
export async function chat(st: DemoState, raw: string): Promise<Answer> {
  let msg: unknown
  try {
    msg = JSON.parse(raw)
  } catch {
    return json(400, { error: 'expected JSON {"message","session_id"}' })
  }
  const message = (msg as { message?: unknown }).message
  if (typeof message !== 'string') return json(400, { error: 'message must be a string' })
  await delay(st, st.delayMs)
  return json(200, { output: { text: demoReply(message, (key) => st.compliance.complies(key)) } })
}

function misdirectedAnswer(st: DemoState): Answer {
  const p = st.port
  return json(421, { error: `misdirected request: this agent answers only for localhost:${p}, 127.0.0.1:${p} or [::1]:${p}` })
}

/** The answer to an HTTP request whose body has been read. */
async function answer(st: DemoState, req: http.IncomingMessage, path: string, raw: string, tooLarge: boolean): Promise<Answer> {
  if (!isLoopbackHost(req.headers.host, st.port)) return misdirectedAnswer(st)
  if (tooLarge) return json(413, { error: 'request body too large' })
  if (path === '/oauth/token' && req.method === 'POST') return issueToken(st, raw, req.headers.authorization)
  if (path === '/html') return { status: 200, body: '<!doctype html><html><body><h1>Welcome</h1></body></html>', type: 'text/html' }
  if (!CHAT_PATHS.includes(path)) return json(404, { error: 'not found' })
  if (req.method !== 'POST') return json(405, { error: 'method not allowed' })
  if (!authorised(st, path, req.headers)) return json(401, { error: 'unauthorized' })
  return chat(st, raw)
}

/** Reads the body (keeping at most TARGET_MAX_REPLY_BYTES), answers, logs. */
export function handleDemoRequest(st: DemoState, req: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = []
  let size = 0
  req.on('data', (c: Buffer) => {
    size += c.length
    if (size <= TARGET_MAX_REPLY_BYTES) chunks.push(c)
  })
  req.on('end', () => {
    const path = (req.url ?? '/').split('?')[0]
    void answer(st, req, path, Buffer.concat(chunks).toString('utf8'), size > TARGET_MAX_REPLY_BYTES).then((a) => {
      st.log(req.method ?? '', path, a.status)
      if (res.destroyed) return
      res.writeHead(a.status, { 'content-type': a.type ?? 'application/json', 'content-length': String(Buffer.byteLength(a.body)) })
      res.end(a.body)
    })
  })
}

/** The WebSocket side: one JSON text message in, one out, per exchange. */
export function createChatSocketServer(st: DemoState): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: TARGET_MAX_REPLY_BYTES, perMessageDeflate: false })
  wss.on('connection', (ws) => {
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        ws.close(1003, 'text messages only')
        return
      }
      void chat(st, rawText(data)).then(
        (r) => {
          if (ws.readyState === ws.OPEN) ws.send(r.body)
        },
        () => {
          ws.terminate()
        }
      )
    })
    ws.on('error', () => {
      ws.terminate()
    })
  })
  return wss
}

/** An upgrade request: only GET /ws, with the bearer secret, on a loopback Host. */
export function handleDemoUpgrade(st: DemoState, wss: WebSocketServer, req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  const path = (req.url ?? '/').split('?')[0]
  if (!isLoopbackHost(req.headers.host, st.port)) {
    st.log('GET', path, 421)
    socket.end('HTTP/1.1 421 Misdirected Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')
    return
  }
  if (path !== '/ws' || !authorised(st, '/ws', req.headers)) {
    st.log('GET', path, 401)
    socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')
    return
  }
  st.log('GET', path, 101)
  wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
}

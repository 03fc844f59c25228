/**
 * The demo agent: a small chat endpoint served by the emulator process on its
 * own loopback port. It really answers prompts: it recognises the attack
 * categories of the taxonomy and, per category, either complies (vulnerable:
 * it follows the injected instruction and echoes the attack's canary, leaking
 * attacker-shaped text) or refuses (fixed), or complies by a seeded chance
 * (a flaky weakness: demo-compliance.ts). Switchable at run time. What it
 * says is demo-replies.ts; how it is reached, demo-agent-routes.ts; this
 * module starts it and hands out its switches.
 *
 * Wire format (the emulator's choice for targets): POST JSON
 * `{"message": "...", "session_id": "..."}`, answer `{"output": {"text": "..."}}`
 * (so response_field is `output.text`).
 *
 * Paths, one per auth_type of section 2.2:
 *   POST /chat          Authorization: Bearer <secret>
 *   POST /chat/api-key  x-api-key: <secret>
 *   POST /chat/basic    Basic demo:<secret>
 *   POST /chat/oauth    Bearer <token minted at POST /oauth/token, client_id demo-client, client_secret <secret>>
 *   POST /chat/open     no auth
 *   GET  /ws            WebSocket (Bearer <secret>), one JSON message in, one out
 *   GET  /html          an HTML page (not an endpoint that answers JSON)
 * Any other path answers 404. A request whose Host is not a loopback name with
 * the agent's port answers 421 (see host-guard.ts).
 */
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { WebSocketServer } from 'ws'
import { createChatSocketServer, handleDemoRequest, handleDemoUpgrade } from './demo-agent-routes.js'
import type { DemoLog, DemoState } from './demo-agent-routes.js'
import { DemoCompliance } from './demo-compliance.js'
import type { ComplianceView } from './demo-compliance.js'

export { DEMO_SYSTEM_PROMPT, classifyPrompt, demoReply } from './demo-replies.js'

export interface DemoAgentState extends ComplianceView {
  available: boolean
  reply_delay_ms: number
}

export interface DemoAgent {
  url: string
  /** Base URL + path of the bearer chat endpoint. */
  chatUrl: string
  setVulnerable(category: string, on: boolean): void
  setAllVulnerable(on: boolean): void
  /** Complies with attacks of `category` with probability p (1: vulnerable, 0: fixed). */
  setComplyProbability(category: string, p: number): void
  /** Restarts the seeded streams the flaky categories draw from. */
  setSeed(seed: number): void
  setAvailable(up: boolean): void
  setReplyDelayMs(ms: number): void
  credentialsSeen(): string[]
  state(): DemoAgentState
  /** Secrets the agent accepts (the demo models' credentials, plus ones added for tests). */
  acceptSecret(secret: string): void
  tokenTtlSeconds: number
  stop(): Promise<void>
}

function createDemoState(log: DemoLog): DemoState {
  return {
    compliance: new DemoCompliance(),
    secrets: new Set(),
    tokens: new Map(),
    seen: new Set(),
    available: true,
    delayMs: 0,
    tokenTtlSeconds: 60,
    port: 0,
    sockets: new Set(),
    timers: new Set(),
    log
  }
}

function createDemoServer(st: DemoState, wss: WebSocketServer): http.Server {
  const server = http.createServer((req, res) => {
    handleDemoRequest(st, req, res)
  })
  // While unavailable, a connection is dropped at once, as by an agent that is down.
  server.on('connection', (socket: Socket) => {
    if (!st.available) {
      socket.destroy()
      st.log('-', '-', 'reset')
      return
    }
    st.sockets.add(socket)
    socket.on('close', () => st.sockets.delete(socket))
  })
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    handleDemoUpgrade(st, wss, req, socket, head)
  })
  return server
}

async function stopDemo(st: DemoState, server: http.Server, wss: WebSocketServer): Promise<void> {
  for (const t of st.timers) clearTimeout(t)
  for (const s of st.sockets) s.destroy()
  for (const ws of wss.clients) ws.terminate()
  await new Promise<void>((resolve) => {
    wss.close(() => {
      resolve()
    })
  })
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve()
    })
  )
}

function demoAgentHandle(st: DemoState, url: string, stop: () => Promise<void>): DemoAgent {
  return {
    url,
    chatUrl: `${url}/chat`,
    get tokenTtlSeconds() {
      return st.tokenTtlSeconds
    },
    set tokenTtlSeconds(s: number) {
      st.tokenTtlSeconds = s
    },
    setVulnerable(category, on) {
      st.compliance.setVulnerable(category, on)
    },
    setAllVulnerable(on) {
      st.compliance.setAllVulnerable(on)
    },
    setComplyProbability(category, p) {
      st.compliance.setProbability(category, p)
    },
    setSeed(seed) {
      st.compliance.setSeed(seed)
    },
    setAvailable(up) {
      st.available = up
      if (!up) for (const s of st.sockets) s.destroy()
    },
    setReplyDelayMs(ms) {
      st.delayMs = Math.max(0, ms)
    },
    credentialsSeen: () => [...st.seen],
    state: () => ({ ...st.compliance.view(), available: st.available, reply_delay_ms: st.delayMs }),
    acceptSecret(secret) {
      st.secrets.add(secret)
    },
    stop
  }
}

export async function startDemoAgent(opts: { log?: DemoLog } = {}): Promise<DemoAgent> {
  const st = createDemoState(opts.log ?? (() => undefined))
  const wss = createChatSocketServer(st)
  const server = createDemoServer(st, wss)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  st.port = (server.address() as AddressInfo).port
  let stopped = false
  return demoAgentHandle(st, `http://127.0.0.1:${st.port}`, async () => {
    if (stopped) return
    stopped = true
    await stopDemo(st, server, wss)
  })
}

/**
 * Bounded round trips to a registered target, over HTTP or WebSocket. Every
 * answer is read under two limits: at most `maxBytes` (a body or a WebSocket
 * message; the connection is dropped the moment it is crossed, so nothing
 * beyond it is held) and at most `timeoutMs` for the whole exchange (connect,
 * headers, body or handshake and reply). Redirects are never followed (a 3xx is
 * an answer like any other), so a target cannot bounce the emulator to an
 * address the SSRF rules refuse. WebSocket framing (continuation frames,
 * ping/pong, close) is the `ws` package's, without compression.
 */
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import WebSocket from 'ws'

/** Largest answer read from a target: a body, or one WebSocket message. */
export const TARGET_MAX_REPLY_BYTES = 1024 * 1024

export interface ReadLimits {
  maxBytes: number
  timeoutMs: number
}

export interface RawResponse {
  status: number
  body: string
}

export type TargetIoFailure = 'timeout' | 'too_large' | 'closed' | 'binary' | 'network'

/** Why an exchange failed; the caller maps it to a probe error category. */
export class TargetIoError extends Error {
  constructor(
    readonly kind: TargetIoFailure,
    message: string
  ) {
    super(message)
  }
}

const mib = (n: number): string => (n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`)

export function tooLarge(limits: ReadLimits): TargetIoError {
  return new TargetIoError('too_large', `the answer is larger than ${mib(limits.maxBytes)}`)
}

export function timedOut(limits: ReadLimits): TargetIoError {
  return new TargetIoError('timeout', `no complete answer within ${limits.timeoutMs} ms`)
}

/**
 * Reads a response body up to `limits.maxBytes`. Resolves with the text, or
 * rejects with `too_large` as soon as the declared length or the bytes read
 * cross the limit (the caller then destroys the connection).
 */
function readBounded(res: http.IncomingMessage, limits: ReadLimits): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(res.headers['content-length'])
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      reject(tooLarge(limits))
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    res.on('data', (c: Buffer) => {
      size += c.length
      if (size > limits.maxBytes) {
        chunks.length = 0
        res.removeAllListeners('data')
        res.pause()
        reject(tooLarge(limits))
        return
      }
      chunks.push(c)
    })
    res.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'))
    })
    res.on('error', (e) => {
      reject(new TargetIoError('network', e.message))
    })
    res.on('aborted', () => {
      reject(new TargetIoError('network', 'the target closed the connection mid-answer'))
    })
  })
}

/** Runs `body` with a deadline; `cleanup` (drop the connection) runs once, whatever the outcome. */
function withDeadline<T>(limits: ReadLimits, cleanup: () => void, body: (settle: Settle<T>) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false
    const finish = (): boolean => {
      if (done) return false
      done = true
      clearTimeout(timer)
      cleanup()
      return true
    }
    const timer = setTimeout(() => {
      if (finish()) reject(timedOut(limits))
    }, limits.timeoutMs)
    timer.unref()
    body({
      resolve: (v) => {
        if (finish()) resolve(v)
      },
      reject: (e) => {
        if (finish()) reject(e instanceof TargetIoError ? e : new TargetIoError('network', (e as Error).message))
      }
    })
  })
}

/** Plain functions (no `this`): they are handed on as callbacks. */
interface Settle<T> {
  resolve: (v: T) => void
  reject: (e: unknown) => void
}

/** One HTTP request; the whole answer under `limits`. */
export function httpExchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string,
  limits: ReadLimits,
  lookup: LookupFunction
): Promise<RawResponse> {
  const mod = url.protocol === 'https:' || url.protocol === 'wss:' ? https : http
  let req: http.ClientRequest | null = null
  return withDeadline<RawResponse>(
    limits,
    () => req?.destroy(),
    (settle) => {
      req = mod.request(
        url,
        { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup, agent: false },
        (res) => {
          readBounded(res, limits).then((text) => {
            settle.resolve({ status: res.statusCode ?? 0, body: text })
          }, settle.reject)
        }
      )
      req.on('error', settle.reject)
      req.end(body)
    }
  )
}

/**
 * One WebSocket exchange: open, send `body` as one text message, resolve with
 * the first message back (however it was fragmented), then close. A handshake
 * answered with plain HTTP resolves with that status and body (a 401 is an
 * auth failure, not a WebSocket error).
 */
export function wsExchange(
  url: URL,
  headers: Record<string, string>,
  body: string,
  limits: ReadLimits,
  lookup: LookupFunction
): Promise<RawResponse> {
  let socket: WebSocket | null = null
  return withDeadline<RawResponse>(
    limits,
    () => {
      if (!socket) return
      const ws = socket
      ws.removeAllListeners('message')
      if (ws.readyState === WebSocket.OPEN) {
        // Say goodbye, but do not wait on a target that never answers the close.
        ws.close(1000)
        setTimeout(() => {
          ws.terminate()
        }, 1000).unref()
      } else {
        ws.terminate()
      }
    },
    (settle) => {
      const options: WebSocket.ClientOptions & { lookup: LookupFunction } = {
        headers,
        lookup,
        maxPayload: limits.maxBytes,
        perMessageDeflate: false,
        followRedirects: false
      }
      const ws = new WebSocket(url, options)
      socket = ws
      ws.on('error', (e: Error & { code?: string }) => {
        settle.reject(e.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? tooLarge(limits) : new TargetIoError('network', e.message))
      })
      ws.on('unexpected-response', (req, res) => {
        readBounded(res, limits).then(
          (text) => {
            settle.resolve({ status: res.statusCode ?? 0, body: text })
          },
          (e: unknown) => {
            settle.reject(e)
          }
        )
        req.on('error', settle.reject)
      })
      ws.on('open', () => {
        ws.send(body)
      })
      ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
        if (isBinary) {
          settle.reject(new TargetIoError('binary', 'the target answered with a binary message, not text'))
          return
        }
        settle.resolve({ status: 200, body: rawText(data) })
      })
      ws.on('close', (code: number) => {
        if (code === 1009) settle.reject(tooLarge(limits))
        else settle.reject(new TargetIoError('closed', `the target closed the WebSocket (code ${code}) without a reply`))
      })
    }
  )
}

export function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8')
  return data.toString('utf8')
}

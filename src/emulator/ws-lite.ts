/**
 * The smallest WebSocket (RFC 6455) needed by the emulator: one text message
 * out, one text message back. Used for targets registered with transport
 * `websocket` (client side) and by the demo agent's /ws endpoint (server
 * side). No extensions, no fragmentation, text frames only.
 */
import { createHash, randomBytes } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import type { IncomingMessage } from 'node:http'
import type { LookupFunction } from 'node:net'
import type { Duplex } from 'node:stream'

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'

export function encodeFrame(text: string, mask: boolean, opcode = 0x1): Buffer {
  const payload = Buffer.from(text, 'utf8')
  const len = payload.length
  const header: number[] = [0x80 | opcode]
  const maskBit = mask ? 0x80 : 0
  if (len < 126) header.push(maskBit | len)
  else if (len < 65536) header.push(maskBit | 126, len >> 8, len & 0xff)
  else {
    header.push(maskBit | 127, 0, 0, 0, 0)
    header.push((len >>> 24) & 0xff, (len >>> 16) & 0xff, (len >>> 8) & 0xff, len & 0xff)
  }
  if (!mask) return Buffer.concat([Buffer.from(header), payload])
  const key = randomBytes(4)
  const masked = Buffer.alloc(len)
  for (let i = 0; i < len; i++) masked[i] = payload[i]! ^ key[i % 4]!
  return Buffer.concat([Buffer.from(header), key, masked])
}

/** Decodes the frames in `buf`; returns them and what is left over. */
export function decodeFrames(buf: Buffer): { frames: Array<{ opcode: number; text: string }>; rest: Buffer } {
  const frames: Array<{ opcode: number; text: string }> = []
  let off = 0
  for (;;) {
    if (buf.length - off < 2) break
    const b0 = buf[off]!
    const b1 = buf[off + 1]!
    const masked = (b1 & 0x80) !== 0
    let len = b1 & 0x7f
    let p = off + 2
    if (len === 126) {
      if (buf.length - p < 2) break
      len = buf.readUInt16BE(p)
      p += 2
    } else if (len === 127) {
      if (buf.length - p < 8) break
      len = Number(buf.readBigUInt64BE(p))
      p += 8
    }
    let key: Buffer | null = null
    if (masked) {
      if (buf.length - p < 4) break
      key = buf.subarray(p, p + 4)
      p += 4
    }
    if (buf.length - p < len) break
    const payload = Buffer.from(buf.subarray(p, p + len))
    if (key) for (let i = 0; i < len; i++) payload[i] = payload[i]! ^ key[i % 4]!
    frames.push({ opcode: b0 & 0x0f, text: payload.toString('utf8') })
    off = p + len
  }
  return { frames, rest: buf.subarray(off) }
}

/** Client: connect, send `body` as one text frame, resolve with the first text frame received. */
export function wsExchange(
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  lookup: LookupFunction
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'wss:' || url.protocol === 'https:'
    const target = new URL(url.toString())
    target.protocol = secure ? 'https:' : 'http:'
    const key = randomBytes(16).toString('base64')
    const mod = secure ? https : http
    let socket: Duplex | null = null
    const timer = setTimeout(() => {
      req.destroy()
      socket?.destroy()
      reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }))
    }, timeoutMs)
    timer.unref()
    const req = mod.request(target, {
      method: 'GET',
      lookup,
      agent: false,
      headers: {
        ...headers,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': key
      }
    })
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        clearTimeout(timer)
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') })
      })
    })
    req.on('upgrade', (_res, sock, head) => {
      socket = sock
      let buf: Buffer = Buffer.from(head)
      sock.on('data', (c: Buffer) => {
        buf = Buffer.concat([buf, c])
        const { frames, rest } = decodeFrames(buf)
        buf = rest
        for (const f of frames) {
          if (f.opcode === 0x1) {
            clearTimeout(timer)
            sock.end(encodeFrame('', true, 0x8))
            resolve({ status: 200, body: f.text })
            return
          }
          if (f.opcode === 0x8) {
            clearTimeout(timer)
            sock.destroy()
            reject(Object.assign(new Error('closed without a reply'), { code: 'ETIMEDOUT' }))
            return
          }
        }
      })
      sock.on('error', (e) => {
        clearTimeout(timer)
        reject(e)
      })
      sock.write(encodeFrame(body, true))
    })
    req.on('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
    req.end()
  })
}

/** Server: completes the handshake and answers each text message with `onMessage`. */
export function acceptWebSocket(req: IncomingMessage, socket: Duplex, onMessage: (text: string) => Promise<string>): void {
  const key = req.headers['sec-websocket-key']
  if (typeof key !== 'string') {
    socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n')
    return
  }
  const accept = createHash('sha1').update(key + GUID).digest('base64')
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n\r\n`)
  let buf: Buffer = Buffer.alloc(0)
  socket.on('data', (c: Buffer) => {
    buf = Buffer.concat([buf, c])
    const { frames, rest } = decodeFrames(buf)
    buf = rest
    for (const f of frames) {
      if (f.opcode === 0x8) {
        socket.end(encodeFrame('', false, 0x8))
        return
      }
      if (f.opcode === 0x1) {
        void onMessage(f.text).then(
          (reply) => {
            if (!socket.destroyed) socket.write(encodeFrame(reply, false))
          },
          () => socket.destroy()
        )
      }
    }
  })
  socket.on('error', () => socket.destroy())
}

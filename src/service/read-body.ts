/**
 * Reading a whole response body, bounded: by the attempt's signal (abort or
 * timeout), by a connection cut before the end, and by a size cap.
 */
import type * as http from 'node:http'

/** The body passed the size cap: refused, as the same answer would be as large next time. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`response body larger than ${limit} bytes`)
  }
}

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code })
}

/** Read the whole body; rejects on abort, on a connection cut before the end, or past `maxBytes`. */
export function readBody(msg: http.IncomingMessage, signal: AbortSignal, maxBytes: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const finish = (err: Error | undefined, text?: string): void => {
      if (done) return
      done = true
      signal.removeEventListener('abort', onAbort)
      if (err === undefined) resolve(text ?? '')
      else {
        reject(err)
        msg.destroy()
      }
    }
    // The reason only has to be an Error: the caller tells an abort by its signals, not by this error.
    const onAbort = (): void => {
      const reason: unknown = signal.reason
      finish(reason instanceof Error ? reason : withCode('aborted', 'ABORT_ERR'))
    }
    if (signal.aborted) {
      onAbort()
      return
    }
    signal.addEventListener('abort', onAbort, { once: true })
    msg.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) finish(new BodyTooLarge(maxBytes))
      else chunks.push(chunk)
    })
    msg.on('end', () => {
      finish(undefined, Buffer.concat(chunks).toString('utf8'))
    })
    msg.on('aborted', () => {
      finish(withCode('connection closed before the response was complete', 'ECONNRESET'))
    })
    msg.on('error', (e) => {
      finish(e)
    })
    msg.on('close', () => {
      if (!msg.complete) finish(withCode('connection closed before the response was complete', 'ECONNRESET'))
    })
  })
}

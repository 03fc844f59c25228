/**
 * A local stand-in for the runner's Actions cache service, the protocol
 * @actions/cache speaks when ACTIONS_CACHE_URL is set and ACTIONS_CACHE_SERVICE_V2
 * is not (the "v1" REST protocol under _apis/artifactcache):
 *   GET  cache?keys=k1,k2&version=v   200 {cacheKey, archiveLocation, scope} or 204
 *   POST caches {key, version}         201 {cacheId} (409 when the key exists in the scope)
 *   PATCH caches/{id}  Content-Range   204 (a chunk of the archive)
 *   POST caches/{id} {size}            204 (commit)
 *   GET  archive/{id}                  the archive bytes
 *
 * Scoping as GitHub documents it: the runtime token names the run's ref and,
 * for a pull request, its base branch (`ref=refs/pull/7/merge;base=refs/heads/main`).
 * A save goes to the run's ref; a restore looks in the run's ref, then the base
 * branch: never in another pull request's scope. Keys match exactly, then by
 * prefix (newest first), for each key in order.
 *
 * Every entry carries its ref (the scope it was saved to), and `listCaches`
 * answers as GitHub's REST API does (GET /repos/{o}/{r}/actions/caches with
 * `key` as a prefix and `ref`), newest first: the list a GitHub stand-in
 * serves from the same entries.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface CacheEntry {
  id: number
  key: string
  version: string
  scope: string
  committed: boolean
  chunks: { start: number; data: Buffer }[]
  size: number
  createdAt: number
}

export interface CacheStandin {
  /** ACTIONS_CACHE_URL (with the trailing slash @actions/cache expects). */
  url: string
  entries: CacheEntry[]
  requests: { method: string; path: string; token: string }[]
  /** The entries as GET /repos/{o}/{r}/actions/caches lists them (key: a prefix; ref: exact), newest first. */
  listCaches(query: { key?: string; ref?: string }): { key: string; ref: string; created_at: string; id: number }[]
  /** The ACTIONS_RUNTIME_TOKEN of a run on `ref` (and, for a pull request, its base branch). */
  token(ref: string, base?: string): string
  stop(): Promise<void>
}

function scopesOf(auth: string | undefined): { write: string; read: string[] } | null {
  const m = /^Bearer (.+)$/.exec(auth ?? '')
  if (!m) return null
  const fields = Object.fromEntries(m[1].split(';').map((kv) => kv.split('=') as [string, string]))
  if (!fields.ref) return null
  return { write: fields.ref, read: [fields.ref, ...(fields.base ? [fields.base] : [])] }
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  return Buffer.concat(chunks)
}

export async function startCacheStandin(): Promise<CacheStandin> {
  const entries: CacheEntry[] = []
  const requests: CacheStandin['requests'] = []
  let nextId = 1
  let url = ''
  const server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? '/', 'http://standin')
      const data = await body(req)
      const send = (status: number, json?: unknown): void => {
        res.statusCode = status
        if (json !== undefined) res.setHeader('content-type', 'application/json')
        res.end(json === undefined ? '' : JSON.stringify(json))
      }
      const path = u.pathname.replace(/^\/_apis\/artifactcache\//, '')
      requests.push({ method: req.method ?? '', path, token: req.headers.authorization ?? '' })
      const archive = /^\/archive\/(\d+)$/.exec(u.pathname)
      if (req.method === 'GET' && archive) {
        const e = entries.find((x) => x.id === Number(archive[1]) && x.committed)
        if (!e) {
          send(404)
          return
        }
        const buf = Buffer.alloc(e.size)
        for (const c of e.chunks) c.data.copy(buf, c.start)
        res.setHeader('content-length', String(buf.length))
        res.end(buf)
        return
      }
      const scopes = scopesOf(req.headers.authorization)
      if (!scopes) {
        send(401, { message: 'no runtime token' })
        return
      }
      if (req.method === 'GET' && path === 'cache') {
        const keys = (u.searchParams.get('keys') ?? '').split(',')
        const version = u.searchParams.get('version') ?? ''
        for (const scope of scopes.read) {
          const inScope = entries
            .filter((e) => e.committed && e.scope === scope && e.version === version)
            .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
          for (const key of keys) {
            const hit = inScope.find((e) => e.key === key) ?? inScope.find((e) => e.key.startsWith(key))
            if (hit) {
              send(200, {
                cacheKey: hit.key,
                scope,
                archiveLocation: `${url}/archive/${hit.id}`,
                creationTime: new Date(hit.createdAt).toISOString()
              })
              return
            }
          }
        }
        send(204)
        return
      }
      if (req.method === 'GET' && path === 'caches') {
        send(200, { totalCount: 0, artifactCaches: [] })
        return
      }
      if (req.method === 'POST' && path === 'caches') {
        const b = JSON.parse(data.toString('utf8')) as { key: string; version: string }
        if (entries.some((e) => e.key === b.key && e.version === b.version && e.scope === scopes.write)) {
          send(409, { message: `Cache already exists. Scope: ${scopes.write}, Key: ${b.key}` })
          return
        }
        const e: CacheEntry = {
          id: nextId++,
          key: b.key,
          version: b.version,
          scope: scopes.write,
          committed: false,
          chunks: [],
          size: 0,
          createdAt: Date.now()
        }
        entries.push(e)
        send(201, { cacheId: e.id })
        return
      }
      const one = /^caches\/(\d+)$/.exec(path)
      if (one) {
        const e = entries.find((x) => x.id === Number(one[1]) && x.scope === scopes.write)
        if (!e) {
          send(404, { message: 'no such cache' })
          return
        }
        if (req.method === 'PATCH') {
          const range = /^bytes (\d+)-(\d+)\//.exec(req.headers['content-range'] ?? '')
          if (!range) {
            send(400, { message: 'Content-Range required' })
            return
          }
          e.chunks.push({ start: Number(range[1]), data })
          send(204)
          return
        }
        if (req.method === 'POST') {
          e.size = (JSON.parse(data.toString('utf8')) as { size: number }).size
          e.committed = true
          send(204)
          return
        }
      }
      send(404, { message: `no route ${req.method} ${u.pathname}` })
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: `${url}/`,
    entries,
    requests,
    listCaches: (q) =>
      entries
        .filter((e) => e.committed && (q.key === undefined || e.key.startsWith(q.key)) && (q.ref === undefined || e.scope === q.ref))
        .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
        .map((e) => ({ key: e.key, ref: e.scope, created_at: new Date(e.createdAt).toISOString(), id: e.id })),
    token: (ref, base) => `ref=${ref}${base ? `;base=${base}` : ''}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve()
        })
        server.closeAllConnections()
      })
  }
}

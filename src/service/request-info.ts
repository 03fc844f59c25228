/**
 * What @actions/http-client sends for one JSON exchange: the method, the
 * headers given (plus accept and, with a body, content-type), the client's
 * agent for the URL and the attempt's signal. Shared by every transport on
 * http-client (the service's, GitLab's), so the URL is split one way.
 */
import * as http from 'node:http'
import * as https from 'node:https'
import type { HttpClient } from '@actions/http-client'
import type { RequestInfo } from '@actions/http-client/lib/interfaces'

export function jsonRequestInfo(
  client: HttpClient,
  url: URL,
  method: string,
  headers: http.OutgoingHttpHeaders,
  hasBody: boolean,
  signal: AbortSignal
): RequestInfo {
  const all: http.OutgoingHttpHeaders = { accept: 'application/json', ...headers }
  if (hasBody) all['content-type'] = 'application/json'
  const isHttps = url.protocol === 'https:'
  return {
    parsedUrl: url,
    httpModule: isHttps ? https : http,
    options: {
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port ? Number(url.port) : isHttps ? 443 : 80,
      path: `${url.pathname}${url.search}`,
      method,
      headers: all,
      agent: client.getAgent(url.toString()),
      signal
    }
  }
}

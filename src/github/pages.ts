/**
 * Reading GitHub's answers that are lists: one page of `PER_PAGE` items and
 * whether the Link header announced another. Shared by every list call.
 */
import { GitHubError } from '../util/errors.js'
import { headerValue } from './github-error.js'
import type { ReadResponse } from './transport.js'

export const PER_PAGE = 100

export interface Page<T> {
  items: T[]
  /** Whether the Link header announced a next page. */
  hasNext: boolean
}

/** Whether a Link header holds rel="next". */
export function hasNextLink(link: string | undefined | null): boolean {
  if (!link) return false
  return link.split(',').some((part) => {
    const rel = /;\s*rel="?([^";]*)"?/.exec(part)?.[1] ?? ''
    return rel.trim().split(/\s+/).includes('next')
  })
}

/** The answer as a list, each item read by `one`; anything else is a (transient) GitHubError. */
export function asList<T>(data: unknown, endpoint: string, one: (item: unknown, endpoint: string) => T): T[] {
  if (!Array.isArray(data))
    throw new GitHubError({ endpoint, message: 'GitHub answered with something other than a list', transient: true })
  return data.map((item) => one(item, endpoint))
}

/** A reader of one page whose items are read by `one`. */
export const readPage =
  <T>(one: (item: unknown, endpoint: string) => T): ReadResponse<Page<T>> =>
  (res, endpoint) => ({
    items: asList(res.data, endpoint, one),
    hasNext: hasNextLink(headerValue(res.headers, 'link'))
  })

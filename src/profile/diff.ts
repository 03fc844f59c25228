/**
 * The change a profile file asks of the profile read back (4.12, 4.13). Pure.
 *
 * - Only fields that differ go into the change; a list is sent whole.
 * - Read values are compared through the fence (fence.ts); the change holds
 *   only the file's values, so a fenced value is never written back.
 * - null where the file says null (emptied text, unknown flag); a read null
 *   or '' equals a file null.
 *
 * ASSUMPTION (the structure of answers and list items is not shown): an entry
 * is either the value itself or an object {value, source, ...}; `source`
 * `customer` means the value is already the customer's (nothing to confirm).
 */
import type { ProfileChanges, ProfileResponse } from '../service/contract/index.js'
import { PROFILE_ANSWER_FIELDS, PROFILE_LIST_FIELDS } from '../service/contract/index.js'
import { UNREADABLE_FENCE, unfenceDeep } from './fence.js'
import type { AnswerField, ListField, ProfileConfirm, ProfileFile } from './profile-file.js'

interface Entry {
  value: unknown
  source: string | null
}

function entryOf(raw: unknown): Entry {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'value' in raw) {
    const r = raw as { value: unknown; source?: unknown }
    return { value: unfenceDeep(r.value), source: typeof r.source === 'string' ? r.source : null }
  }
  return { value: unfenceDeep(raw), source: null }
}

/** What the profile read back holds, unfenced: answers and list items by field. */
export interface CurrentProfile {
  answers: Partial<Record<AnswerField, Entry>>
  lists: Partial<Record<ListField, Entry[]>>
}

export function readCurrent(profile: ProfileResponse): CurrentProfile {
  const answers: CurrentProfile['answers'] = {}
  for (const f of PROFILE_ANSWER_FIELDS) if (f in profile.answers) answers[f] = entryOf(profile.answers[f])
  const lists: CurrentProfile['lists'] = {}
  for (const f of PROFILE_LIST_FIELDS) {
    const raw = profile.lists[f]
    if (Array.isArray(raw)) lists[f] = raw.map(entryOf)
  }
  return { answers, lists }
}

function hasUnreadable(v: unknown): boolean {
  if (v === UNREADABLE_FENCE) return true
  if (Array.isArray(v)) return v.some(hasUnreadable)
  if (v !== null && typeof v === 'object') return Object.values(v).some(hasUnreadable)
  return false
}

/** JSON with sorted keys (an unreadable fenced text shows as a marker no file value equals; see hasUnreadable). */
function canonical(v: unknown): string {
  if (v === UNREADABLE_FENCE) return '"[unreadable fenced text]"'
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(v ?? null)
}

/** The writable part of a list item as read (extra keys of a read item are not the file's business). */
function writable(field: ListField, item: unknown): unknown {
  if (field === 'tools' && item !== null && typeof item === 'object') {
    const t = item as Record<string, unknown>
    return { name: t.name, description: t.description ?? '', parameters: t.parameters ?? {} }
  }
  if (field === 'user_types' && item !== null && typeof item === 'object') {
    const u = item as Record<string, unknown>
    return { name: u.name, auth_level: u.auth_level ?? '', description: u.description ?? '' }
  }
  return item
}

function sameAnswer(fileValue: unknown, read: Entry | undefined): boolean {
  const current = read?.value
  if (fileValue === null) return current === null || current === ''
  return read !== undefined && !hasUnreadable(current) && canonical(fileValue) === canonical(current)
}

function sameList(field: ListField, fileItems: unknown[], read: Entry[] | undefined): boolean {
  if (read === undefined || read.some((e) => hasUnreadable(e.value))) return false
  return canonical(fileItems) === canonical(read.map((e) => writable(field, e.value)))
}

function nameOf(item: unknown): string {
  if (typeof item === 'string') return item
  if (item !== null && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string')
    return (item as { name: string }).name
  return canonical(item)
}

function clipName(s: string): string {
  const flat = s.replace(/\s+/g, ' ')
  return flat.length > 40 ? `${flat.slice(0, 37)}...` : flat
}

function namesText(names: string[]): string {
  const shown = names.slice(0, 3).map(clipName)
  return `(${shown.join(', ')}${names.length > 3 ? `, +${names.length - 3} more` : ''})`
}

/** "tools +1 (refund_order), -1 (issue_refund), ~1 (lookup_order)"; "forbidden_topics reordered". */
export function describeListChange(field: ListField, fileItems: unknown[], read: Entry[] | undefined): string {
  const before = (read ?? []).map((e) => writable(field, e.value))
  const beforeByName = new Map(before.map((i) => [nameOf(i), canonical(i)]))
  const afterNames = new Set(fileItems.map(nameOf))
  const added = fileItems.map(nameOf).filter((n) => !beforeByName.has(n))
  const removed = [...beforeByName.keys()].filter((n) => !afterNames.has(n))
  const changed = fileItems.filter((i) => beforeByName.has(nameOf(i)) && beforeByName.get(nameOf(i)) !== canonical(i)).map(nameOf)
  const parts: string[] = []
  if (added.length > 0) parts.push(`+${added.length} ${namesText(added)}`)
  if (removed.length > 0) parts.push(`-${removed.length} ${namesText(removed)}`)
  if (changed.length > 0) parts.push(`~${changed.length} ${namesText(changed)}`)
  if (parts.length === 0) parts.push(read === undefined ? 'set' : 'reordered')
  return `${field} ${parts.join(', ')}`
}

function describeAnswerChange(field: AnswerField, value: unknown, before: Entry | undefined): string {
  if (value === null) return field === 'multi_agent' || field === 'has_persistent_memory' ? `${field} unknown` : `${field} emptied`
  if (typeof value === 'boolean') return `${field} ${value}`
  return `${field} ${before === undefined || before.value === null || before.value === '' ? 'set' : 'changed'}`
}

export interface ProfileDiff {
  /** The body's `changes`: only the fields that differ, the file's values. */
  changes: ProfileChanges
  /** One phrase per changed field, in the description's field order. */
  summary: string[]
}

/** The change that makes `current` (null: the target has no profile) say what the file says. */
export function diffProfile(file: ProfileFile, current: CurrentProfile | null): ProfileDiff {
  const changes: Record<string, unknown> = {}
  const summary: string[] = []
  const content = file.content as Record<string, unknown>
  for (const field of PROFILE_ANSWER_FIELDS) {
    if (!(field in content)) continue
    const value = content[field]
    if (current !== null && sameAnswer(value, current.answers[field])) continue
    changes[field] = value
    summary.push(describeAnswerChange(field, value, current?.answers[field]))
  }
  for (const field of PROFILE_LIST_FIELDS) {
    if (!(field in content)) continue
    const items = content[field] as unknown[]
    if (current !== null && sameList(field, items, current.lists[field])) continue
    changes[field] = items
    summary.push(describeListChange(field, items, current?.lists[field]))
  }
  return { changes: changes, summary }
}

/** What the file asks to confirm that is not already the customer's (by the read `source`). */
export function pendingConfirm(confirm: ProfileConfirm, current: CurrentProfile | null): ProfileConfirm {
  const isCustomer = (e: Entry | undefined): boolean => e?.source === 'customer'
  const answers = confirm.answers.filter((a) => !isCustomer(current?.answers[a]))
  const items: ProfileConfirm['items'] = {}
  for (const [field, names] of Object.entries(confirm.items) as [ListField, string[]][]) {
    const read = current?.lists[field] ?? []
    const left = names.filter((n) => !isCustomer(read.find((e) => nameOf(e.value) === n)))
    if (left.length > 0) items[field] = left
  }
  return { answers, items }
}

export function isEmptyConfirm(c: ProfileConfirm): boolean {
  return c.answers.length === 0 && Object.keys(c.items).length === 0
}

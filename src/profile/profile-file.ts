/**
 * The profile file (profile_file): the writable content fields of section 2.7
 * in YAML or JSON, and what to confirm (4.14). Pure: the text in, the
 * validated profile out, or one ConfigError naming the file, the field and
 * the problem, before any request is made.
 *
 *   purpose: Customer support for Acme orders
 *   system_prompt: You are Acme Support...
 *   tools:
 *     - name: lookup_order            # required
 *       description: Looks up an order  # default ''
 *       parameters: {order_id: string}  # default {}
 *   forbidden_topics: [competitor pricing]
 *   has_guardrails: true
 *   confirm:
 *     answers: [industry]
 *     items: {compliance_requirements: [PCI DSS]}
 */
import { parseYamlFile, type YamlModule } from '../util/yaml.js'
import { parseJsonFile } from '../util/parse-file.js'
import { z } from 'zod'
import { PROFILE_ANSWER_FIELDS, PROFILE_LIST_FIELDS, ProfileChanges } from '../service/contract/index.js'
import { ConfigError } from '../util/errors.js'
import { oneLine } from '../util/text.js'
import { fencedPaths } from './fence.js'

export type AnswerField = (typeof PROFILE_ANSWER_FIELDS)[number]
export type ListField = (typeof PROFILE_LIST_FIELDS)[number]

export interface ProfileConfirm {
  answers: AnswerField[]
  items: Partial<Record<ListField, string[]>>
}

export interface ProfileFile {
  /** Every content field the file sets (tools and user types completed with their defaults). */
  content: ProfileChanges
  confirm: ProfileConfirm
}

/** The largest profile file read (a profile is a page of text, not megabytes). */
export const PROFILE_FILE_MAX_BYTES = 1024 * 1024

const text = z.string()
const name = z.string().trim().min(1, 'a name is required')

const FileTool = z.strictObject({ name, description: text.default(''), parameters: z.record(z.string(), z.unknown()).default({}) })
const FileUserType = z.strictObject({ name, auth_level: text.default(''), description: text.default('') })

const FileConfirm = z.strictObject({
  answers: z.array(z.enum(PROFILE_ANSWER_FIELDS)).default([]),
  items: z.partialRecord(z.enum(PROFILE_LIST_FIELDS), z.array(z.string().min(1))).default({})
})

const FileSchema = ProfileChanges.extend({
  tools: z.array(FileTool).optional(),
  user_types: z.array(FileUserType).optional(),
  confirm: FileConfirm.optional()
})

function problem(path: string, field: string, what: string): ConfigError {
  return new ConfigError('profile_file', `${path}: ${field === '' ? '' : `field ${field}: `}${oneLine(what, 300)}`)
}

function fieldOf(loc: readonly PropertyKey[]): string {
  return loc.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc === '' ? String(k) : `${acc}.${String(k)}`), '')
}

function parseText(yaml: YamlModule, path: string, raw: string): unknown {
  const parsed = /\.json$/i.test(path) ? parseJsonFile(raw) : parseYamlFile(yaml, raw)
  if (!parsed.ok) throw problem(path, '', parsed.why)
  return parsed.value
}

function duplicateNames(items: readonly { name: string }[] | undefined): string | null {
  const seen = new Set<string>()
  for (const i of items ?? []) {
    if (seen.has(i.name)) return i.name
    seen.add(i.name)
  }
  return null
}

function itemName(item: unknown): string {
  return typeof item === 'string' ? item : (item as { name: string }).name
}

/** Parse and validate a profile file's text (`path` only names it in messages and picks JSON for .json). */
export function parseProfileFile(yaml: YamlModule, path: string, raw: string): ProfileFile {
  if (Buffer.byteLength(raw, 'utf8') > PROFILE_FILE_MAX_BYTES) throw problem(path, '', `is larger than ${PROFILE_FILE_MAX_BYTES} bytes`)
  const doc = parseText(yaml, path, raw)
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw problem(path, '', 'must be a mapping of profile fields (purpose, system_prompt, tools, ...)')
  }
  const fenced = fencedPaths(doc)
  if (fenced.length > 0) {
    throw problem(
      path,
      fenced[0],
      'still holds an [UNTRUSTED:...] fence: copy the text between the fence tags, not the tags (the service refuses fenced values)'
    )
  }
  const parsed = FileSchema.safeParse(doc)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    if (issue.code === 'unrecognized_keys') {
      const where = fieldOf(issue.path)
      const allowed = where === '' ? ' (allowed: the writable fields of a profile and confirm)' : ''
      throw problem(path, where, `unknown field ${issue.keys.map((k) => `'${k}'`).join(', ')}${allowed}`)
    }
    throw problem(path, fieldOf(issue.path), issue.message)
  }
  const { confirm: rawConfirm, ...content } = parsed.data
  if (Object.keys(content).length === 0) throw problem(path, '', 'sets no profile field (purpose, system_prompt, tools, ...)')
  for (const field of ['tools', 'user_types'] as const) {
    const dup = duplicateNames(content[field])
    if (dup !== null) throw problem(path, field, `two items are named '${dup}' (items are confirmed by name: names must differ)`)
  }
  const confirm: ProfileConfirm = { answers: rawConfirm?.answers ?? [], items: rawConfirm?.items ?? {} }
  for (const answer of confirm.answers) {
    if ((content as Record<string, unknown>)[answer] === null) {
      throw problem(
        path,
        `confirm.answers`,
        `'${answer}' is set to null in this file: an empty answer or unknown flag cannot be confirmed, only set`
      )
    }
  }
  for (const [field, names] of Object.entries(confirm.items) as [ListField, string[]][]) {
    const listed = content[field] as unknown[] | undefined
    if (listed === undefined) continue
    const missing = names.find((n) => !listed.some((item) => itemName(item) === n))
    if (missing !== undefined) throw problem(path, `confirm.items.${field}`, `'${missing}' is not among the ${field} this file sets`)
  }
  return { content: content, confirm }
}

/**
 * Whether the demo agent complies with an attack of a category: always (a
 * vulnerable category), never (a fixed one: the default for every category
 * but DEFAULT_VULNERABLE), or with a probability strictly between 0 and 1 (a
 * flaky weakness, as a sampling model answers the same attack differently
 * from one reply to the next).
 *
 * Each reply to an attack of a flaky category draws once from that
 * category's own seeded stream (mulberry32 seeded with the agent's seed and
 * the category key), so a given seed gives the same sequence of replies per
 * category, in the order the attacks of that category arrive, whatever the
 * other categories do. A run that sends n probes of a category with
 * probability p finds it with probability 1 - (1 - p)^n; with one probe per
 * category (the emulator's attacksPerCategory: 1), with probability p.
 * Setting the seed restarts every stream.
 */
import { z } from 'zod'
import { seededRandom } from '../util/seeded-random.js'
import { DEFAULT_VULNERABLE, SECURITY_CATEGORIES, SECURITY_KEYS } from './taxonomy.js'

/** The seed of a fresh agent (the streams are seeded even when nobody sets one). */
export const DEFAULT_AGENT_SEED = 1

/** A security category key of the taxonomy. */
export const SecurityCategoryKey = z.enum(SECURITY_KEYS as [string, ...string[]])

/** Per category, a probability of complying in [0, 1] (1: vulnerable, 0: fixed). */
export const ComplyProbabilities = z.partialRecord(SecurityCategoryKey, z.number().min(0).max(1))

/** A seed of the agent's streams: a 32-bit unsigned integer. */
export const AgentSeed = z.number().int().min(0).max(0xffffffff)

export interface ComplianceView {
  /** Categories answered by complying every time. */
  vulnerable: string[]
  /** Categories answered by complying with this probability (0 < p < 1). */
  comply_probability: Record<string, number>
  seed: number
}

/** FNV-1a of the seed and the key: a category's own stream seed. */
function streamSeed(seed: number, key: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0
  for (const ch of key) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0
  return h
}

export class DemoCompliance {
  private readonly always = new Set<string>(DEFAULT_VULNERABLE)
  private readonly chance = new Map<string, number>()
  private readonly streams = new Map<string, () => number>()
  private seedValue = DEFAULT_AGENT_SEED

  /** Whether this reply to an attack of `key` complies (draws from the category's stream when it is flaky). */
  complies(key: string): boolean {
    if (this.always.has(key)) return true
    const p = this.chance.get(key)
    if (p === undefined) return false
    let next = this.streams.get(key)
    if (!next) {
      next = seededRandom(streamSeed(this.seedValue, key))
      this.streams.set(key, next)
    }
    return next() < p
  }

  /** Complies always (on) or never (off). */
  setVulnerable(key: string, on: boolean): void {
    this.setProbability(key, on ? 1 : 0)
  }

  setAllVulnerable(on: boolean): void {
    this.always.clear()
    this.chance.clear()
    if (on) for (const c of SECURITY_CATEGORIES) this.always.add(c.key)
  }

  /** 1 is vulnerable, 0 fixed, anything between a flaky weakness. */
  setProbability(key: string, p: number): void {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`a probability of complying is in [0, 1], not ${p}`)
    this.always.delete(key)
    this.chance.delete(key)
    if (p === 1) this.always.add(key)
    else if (p > 0) this.chance.set(key, p)
  }

  /** A new seed: every category's stream starts again from it. */
  setSeed(seed: number): void {
    this.seedValue = AgentSeed.parse(seed)
    this.streams.clear()
  }

  view(): ComplianceView {
    return {
      vulnerable: [...this.always].sort(),
      comply_probability: Object.fromEntries([...this.chance].sort(([a], [b]) => a.localeCompare(b))),
      seed: this.seedValue
    }
  }
}

/** One line per problem, naming the option's field. */
function optionProblems(option: string, issue: z.core.$ZodIssue): string[] {
  const at = [option, ...issue.path.map(String)].join('.')
  if (issue.code === 'unrecognized_keys')
    return issue.keys.map((k) => `${at}.${k}: not a security category of the taxonomy (${SECURITY_KEYS.join(', ')})`)
  return [`${at}: ${issue.message}`]
}

/** The emulator's agentComply and agentSeed options, checked: an Error naming the option and what is wrong. */
export function checkAgentOptions(opts: { agentComply?: unknown; agentSeed?: unknown }): {
  comply: [string, number][]
  seed: number | undefined
} {
  const problems: string[] = []
  const comply = ComplyProbabilities.optional().safeParse(opts.agentComply)
  if (!comply.success) problems.push(...comply.error.issues.flatMap((i) => optionProblems('agentComply', i)))
  const seed = AgentSeed.optional().safeParse(opts.agentSeed)
  if (!seed.success) problems.push(...seed.error.issues.flatMap((i) => optionProblems('agentSeed', i)))
  if (!comply.success || !seed.success) throw new Error(`invalid emulator option ${problems.join('; ')}`)
  const entries = Object.entries(comply.data ?? {}).filter((e): e is [string, number] => e[1] !== undefined)
  return { comply: entries, seed: seed.data }
}

/**
 * `prompt_injection=0.3,jailbreak=1` (the CLI's --agent-comply) as a record;
 * the categories and ranges are checked by checkAgentOptions.
 */
export function parseComplySpec(spec: string): Record<string, number> {
  const out: Record<string, number> = {}
  for (const part of spec.split(',').filter((p) => p.trim() !== '')) {
    const m = /^\s*([a-z_]+)\s*=\s*([0-9.]+)\s*$/.exec(part)
    if (!m || !Number.isFinite(Number(m[2])))
      throw new Error(`'${part}' is not category=probability (e.g. prompt_injection=0.3; categories: ${SECURITY_KEYS.join(', ')})`)
    out[m[1]] = Number(m[2])
  }
  if (Object.keys(out).length === 0) throw new Error('expected category=probability[,category=probability...]')
  return out
}

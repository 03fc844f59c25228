/**
 * Fault mode of the emulator: seeded, deterministic injection of the
 * failures a real service and the network in front of it produce.
 *
 * Per request to an /api/v1 endpoint (never the demo agent or the admin
 * endpoints), with probability `endpoints[name] ?? rate`, one kind is drawn
 * from `kinds` (default: all). The PRNG is seeded, so the same seed and the
 * same sequence of requests give the same sequence of faults.
 */
import type { EndpointName } from '../service/contract/index.js'
import { ENDPOINTS } from '../service/contract/index.js'
import { seededRandom } from '../util/seeded-random.js'
export { seededRandom } from '../util/seeded-random.js'

export const FAULT_KINDS = [
  'status500',
  'status502',
  'status503',
  'status504',
  'reset_before',
  'reset_after',
  'hang',
  'truncated',
  'non_json',
  'burst429'
] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export interface FaultConfig {
  seed: number
  /** Probability in [0, 1] that a request gets a fault. */
  rate: number
  /** Per-endpoint probability overriding `rate`. */
  endpoints?: Partial<Record<EndpointName, number>>
  /** Kinds to draw from (default: every kind). */
  kinds?: FaultKind[]
  /** How long a `hang` delays the answer (default 30000 ms). */
  hangMs?: number
  /** Retry-After (seconds) of a burst429 answer (default 1). */
  retryAfterSeconds?: number
  /** Number of consecutive 429s of a burst, including the first (default 3). */
  burstLength?: number
  /** Stop injecting after this many faulted requests (default: no limit). */
  maxFaults?: number
}

export const DEFAULT_HANG_MS = 30_000
export const DEFAULT_RETRY_AFTER_SECONDS = 1
export const DEFAULT_BURST_LENGTH = 3

function isEndpointName(s: string): s is EndpointName {
  return Object.prototype.hasOwnProperty.call(ENDPOINTS, s)
}

function parseProbability(key: string, raw: string): number {
  const n = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new Error(`fault spec: ${key} must be a number between 0 and 1, got '${raw}'`)
  }
  return n
}

function parseNonNegativeInt(key: string, raw: string): number {
  const n = Number(raw)
  if (raw.trim() === '' || !Number.isInteger(n) || n < 0) {
    throw new Error(`fault spec: ${key} must be a non-negative integer, got '${raw}'`)
  }
  return n
}

/**
 * Parses `seed=42,rate=0.2` or
 * `seed=1,rate=0.1,kinds=status503+reset_after,getRun=0.5,hangMs=20000`.
 * Keys: seed, rate, kinds (joined with +), hangMs, retryAfterSeconds,
 * burstLength, and any endpoint name of the contract (its probability).
 */
export function parseFaultSpec(spec: string): FaultConfig {
  const config: FaultConfig = { seed: 1, rate: 0 }
  let seenSeed = false
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const eq = part.indexOf('=')
    if (eq <= 0) throw new Error(`fault spec: expected key=value, got '${part}'`)
    const key = part.slice(0, eq).trim()
    const value = part.slice(eq + 1).trim()
    if (key === 'seed') {
      config.seed = parseNonNegativeInt(key, value)
      seenSeed = true
    } else if (key === 'rate') config.rate = parseProbability(key, value)
    else if (key === 'hangMs') config.hangMs = parseNonNegativeInt(key, value)
    else if (key === 'retryAfterSeconds') config.retryAfterSeconds = parseNonNegativeInt(key, value)
    else if (key === 'maxFaults') config.maxFaults = parseNonNegativeInt(key, value)
    else if (key === 'burstLength') {
      const n = parseNonNegativeInt(key, value)
      if (n < 1) throw new Error('fault spec: burstLength must be at least 1')
      config.burstLength = n
    } else if (key === 'kinds') {
      const kinds = value.split('+').map((k) => k.trim())
      for (const k of kinds) {
        if (!(FAULT_KINDS as readonly string[]).includes(k)) {
          throw new Error(`fault spec: unknown fault kind '${k}' (known: ${FAULT_KINDS.join(', ')})`)
        }
      }
      if (kinds.length === 0) throw new Error('fault spec: kinds must not be empty')
      config.kinds = kinds as FaultKind[]
    } else if (isEndpointName(key)) {
      config.endpoints = { ...(config.endpoints ?? {}), [key]: parseProbability(key, value) }
    } else {
      throw new Error(`fault spec: unknown key '${key}'`)
    }
  }
  if (!seenSeed) throw new Error('fault spec: seed is required (e.g. seed=42,rate=0.2)')
  return config
}

/** Decides, request by request, which fault (if any) to inject. */
export class FaultInjector {
  private readonly random: () => number
  private readonly bursts = new Map<EndpointName, number>()
  /** Number of requests that got a fault so far. */
  injected = 0
  constructor(readonly config: FaultConfig) {
    this.random = seededRandom(config.seed)
  }

  get hangMs(): number {
    return this.config.hangMs ?? DEFAULT_HANG_MS
  }
  get retryAfterSeconds(): number {
    return this.config.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS
  }

  /** The fault for the next request to `endpoint`, or null. */
  next(endpoint: EndpointName): FaultKind | null {
    if (this.config.maxFaults !== undefined && this.injected >= this.config.maxFaults) return null
    const kind = this.draw(endpoint)
    if (kind) this.injected++
    return kind
  }

  private draw(endpoint: EndpointName): FaultKind | null {
    const remaining = this.bursts.get(endpoint) ?? 0
    if (remaining > 0) {
      this.bursts.set(endpoint, remaining - 1)
      return 'burst429'
    }
    const p = this.config.endpoints?.[endpoint] ?? this.config.rate
    if (!(this.random() < p)) return null
    const kinds = this.config.kinds && this.config.kinds.length > 0 ? this.config.kinds : FAULT_KINDS
    const kind = kinds[Math.floor(this.random() * kinds.length)] ?? kinds[0]
    if (kind === 'burst429') {
      this.bursts.set(endpoint, Math.max(1, this.config.burstLength ?? DEFAULT_BURST_LENGTH) - 1)
    }
    return kind
  }
}

/** Limits the description publishes (section 8), and the untrusted-content fence of profile text (section 2.7). */
export const LIMITS = {
  runListLimitMin: 1,
  runListLimitMax: 100,
  runListLimitDefault: 20,
  targetNameMin: 1,
  targetNameMax: 200,
  credentialMin: 5,
  requestTimeoutMax: 180,
  explanationMin: 1,
  explanationMax: 4000,
  cancelTakesEffectMs: 5000,
  categoryCacheMs: 60 * 60 * 1000
} as const

/** The tag every fenced (untrusted) profile text value begins with. */
export const UNTRUSTED_FENCE_PREFIX = '[UNTRUSTED:'

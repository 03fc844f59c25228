/**
 * The wire contract of the Agent Security Assessment Service (API description
 * 0.1.0, docs/api-description.md), split by resource.
 *
 * One module, used by both sides: the client parses every response with these
 * schemas, and the emulator validates every request and builds every response
 * with them, so the two cannot drift apart.
 *
 * Responses are parsed with loose objects: unknown extra fields are kept and
 * ignored; a missing or mistyped known field is an error naming its path.
 * Request bodies are strict objects: the emulator refuses unknown fields.
 *
 * Where the description says "not shown", the decision taken is marked
 * `ASSUMPTION` and listed in assumptions.ts.
 */
export * from './enums.js'
export * from './limits.js'
export * from './model.js'
export * from './run.js'
export * from './finding.js'
export * from './category.js'
export * from './profile.js'
export * from './error-bodies.js'
export * from './endpoints.js'
export * from './assumptions.js'

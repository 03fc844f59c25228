// Property tests run on a fixed seed so CI is deterministic; FC_SEED=<n> (or
// FC_SEED=random) explores other inputs locally.
import fc from 'fast-check'

const raw = process.env.FC_SEED
if (raw !== 'random') fc.configureGlobal({ seed: raw ? Number(raw) : 20261121 })

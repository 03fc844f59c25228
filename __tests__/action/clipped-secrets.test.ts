/**
 * A secret is scrubbed before any text is clipped: a service message quoting
 * the target's credential, cut at 500 (the error) and 300 (the registration's
 * explanation) characters, never shows a prefix of it, wherever the cut
 * falls. And the scrubber masks a clipped tail that begins a secret, for text
 * clipped before it reached the edge.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { runMain } from '../../src/action/main.js'
import { stepSecrets } from '../../src/action/scrubbed-io.js'
import { createClient } from '../../src/service/client.js'
import { explainRegistrationFailure } from '../../src/target/explain-registration.js'
import { makeScrubber, MIN_CLIPPED_PREFIX, SECRET_MASK } from '../../src/util/redact.js'
import { oneLine } from '../../src/util/text.js'
import { fakeApi } from '../__fixtures__/fake-api.js'
import { fakeClock } from '../__fixtures__/fake-clock.js'
import { fakeActionIO } from '../__fixtures__/fake-io.js'
import { startScriptedServer, type ScriptedServer } from '../__fixtures__/scripted-server.js'

const KEY = 'asas_key_clip_0123456789'
/** 30 characters; 'Zq' appears in no other text of these tests. */
const CRED = 'Zq9xK2vB7mW4pL8nR3tY6uH1jD5gF0'
const ENDPOINT = 'https://agent.example.test/chat'

/** The step's secrets as the main step computes them (the one definition: secretWireForms). */
const secrets = stepSecrets(fakeActionIO({ api_key: KEY, target_credential: CRED, auth_type: 'bearer', endpoint_url: ENDPOINT }))

describe('a service message quoting the credential, cut at every position', () => {
  let server: ScriptedServer
  beforeAll(async () => {
    server = await startScriptedServer({ status: 500, body: {} })
  })
  afterAll(async () => {
    await server.stop()
  })

  // The service's message is cut at 500 characters (497 and '...'), its explanation at 300 (297 and '...').
  const offsets = [
    ...Array.from({ length: CRED.length + 1 }, (_, k) => 497 - k),
    ...Array.from({ length: CRED.length + 1 }, (_, k) => 297 - k)
  ]
  it.each(offsets)('the credential at offset %i: no character of it in the error or its explanation', async (offset) => {
    const message = `${'x'.repeat(offset)}${CRED} was refused by the agent`
    server.script({ status: 400, body: { detail: { code: 'invalid_request', message } } })
    const api = createClient({ baseUrl: server.url, apiKey: KEY, secrets, clock: fakeClock() })
    const err = await api
      .registerModel({ name: 'agent', endpoint_url: ENDPOINT, auth: { type: 'bearer', credential: CRED } } as never)
      .catch((e: unknown) => e)
    const explained = explainRegistrationFailure(err, ENDPOINT)
    const shown = makeScrubber(secrets)([(err as Error).message, explained?.message ?? ''].join('\n'))
    expect(shown).not.toMatch(/Zq/)
  })
})

describe('the main step gives the service client every secret of the step', () => {
  it('the target credential and the query secrets, not the api key alone', async () => {
    const given: (readonly string[] | undefined)[] = []
    const io = fakeActionIO({
      api_key: KEY,
      target_credential: CRED,
      auth_type: 'bearer',
      endpoint_url: `${ENDPOINT}?bypass=Bq7wE3rT9yU1iO5pA2sD`
    })
    await runMain({
      io,
      clock: fakeClock(),
      signal: new AbortController().signal,
      makeApi: (_inputs, _deadline, opts) => {
        given.push(opts?.secrets)
        return fakeApi({})
      }
    })

    for (const s of given) expect(s).toEqual(expect.arrayContaining([KEY, CRED, 'Bq7wE3rT9yU1iO5pA2sD']))
  })
})

describe('the scrubber masks a clipped tail that begins a secret', () => {
  const scrub = makeScrubber(secrets)
  const cuts = Array.from({ length: CRED.length - 1 }, (_, k) => k + 1)
  it.each(cuts)('%i characters of the credential before the cut', (k) => {
    for (const mark of ['...', '…', ' …']) {
      const clipped = mark === '...' ? oneLine(`said: ${CRED} more`, 6 + k + 3) : `said: ${CRED.slice(0, k)}${mark} (then more)`
      const out = scrub(clipped)
      if (k >= MIN_CLIPPED_PREFIX) {
        expect([mark, out]).toEqual([mark, expect.not.stringContaining(CRED.slice(0, k))])
        expect(out).toContain(SECRET_MASK)
      }
      // Text before the secret is kept.
      expect(out.startsWith('said: ')).toBe(true)
    }
  })

  it('a clip that ends in ordinary text is left alone', () => {
    expect(scrub('the agent answered slowly...')).toBe('the agent answered slowly...')
    expect(scrub('Zq9 alone, not cut')).toBe('Zq9 alone, not cut')
  })
})

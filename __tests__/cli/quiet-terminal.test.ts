/**
 * A quiet terminal in CI: with CI set (not empty, not `false` or `0`), the
 * bundled command line on a pseudo-terminal prints one line per change, as in
 * a CI log, and draws no live view; --live draws it anyway. Outside CI the
 * live view is drawn on a terminal.
 */
import { describe, expect, it } from '@jest/globals'
import { inCi } from '../../src/cli/live-view.js'
import { fromPty, runBundledCli } from '../__fixtures__/bundled-cli.js'
import { inWorld } from '../__fixtures__/e2e-world.js'

/** The live view's redraw: log-update erases its lines (ESC [2K) and the bar of categories done. */
const LIVE_VIEW = /\u001b\[2K[\s\S]*\[[#-]{24}\] \d+\/\d+ categories done/
/** The line log's progress line (the gate logs it when no live view takes it). */
const PROGRESS_LINE = /^Run \S+: running, \d+\/\d+ categories done/m

describe('CI read from the environment', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['  ', false],
    ['false', false],
    ['FALSE', false],
    ['0', false],
    ['true', true],
    ['1', true],
    ['yes', true],
    ['woodpecker', true]
  ])('CI=%j: in CI %s', (value, expected) => {
    expect(inCi(value === undefined ? {} : { CI: value })).toBe(expected)
  })
})

describe('the bundled command line on a pseudo-terminal', () => {
  it.concurrent.each([
    ['CI=true', { CI: 'true' }, [], false],
    ['CI=true with --live', { CI: 'true' }, ['--live'], true],
    ['CI=false', { CI: 'false' }, [], true],
    ['no CI', {}, [], true]
  ])('%s: live view %s', (_name, ci, flags, live) =>
    inWorld(
      async (w) => {
        const env = { ASAS_API_KEY: w.emu.keys.full, ASAS_BASE_URL: w.emu.url, ...ci }
        const r = await runBundledCli(['assess', '--model-id', w.emu.demoModelId, ...flags], { env, pty: true })
        expect(r.code).toBe(1)
        const screen = fromPty(r.stdout)
        expect(screen).toContain(`(${w.emu.demoModelId}): `)
        if (live) {
          expect(screen).toMatch(LIVE_VIEW)
        } else {
          expect(screen).not.toContain('\u001b')
          expect(screen).toMatch(PROGRESS_LINE)
        }
      },
      { categoryDurationMs: 200, attacksPerCategory: 2 }
    )
  )
})

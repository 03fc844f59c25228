/**
 * Only the default branch's own runs make a weakness known, end to end
 * through the bundle (dist/index.js, run as the runner does) against the
 * emulator, the GitHub stand-in and the runner's cache service: a run the
 * service lists for the model (a feature branch's, a pull request's own) is
 * read by main when its records are gone, and may hold main's confirmation to
 * account, but never lets the same weakness through a pull request under
 * `fail_on: new`. Each case has its own world, so they run concurrently.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { removeActionWorkDirs } from '../__fixtures__/action-runner.js'
import {
  BASE_SHA,
  defaultBranchRun,
  inCachedWorld,
  prRun,
  pushRun,
  reportOf,
  states,
  type CachedWorld
} from '../__fixtures__/cached-world.js'

afterAll(removeActionWorkDirs)

const WEAKNESS = 'jailbreak'

/**
 * Main's push with no record of its own listed: it reads the service's list, holds the weakness a listed run saw
 * (its own run misses it) and records, its record naming that run.
 */
async function mainPushReadingTheList(w: CachedWorld, at = { sha: BASE_SHA, runId: '100' }): Promise<void> {
  w.emu.demoAgent.setVulnerable(WEAKNESS, false)
  const r = await defaultBranchRun(w, {}, {}, at)
  expect(r.main.stdout).toMatch(/No record of main is listed .* read from the service instead/)
  expect(r.main.stdout).toMatch(new RegExp(`high ${WEAKNESS} weakness \\w+%3A not reproduced in this run`))
  expect(reportOf(r).baseline.saved).not.toBeNull()
}

/** The pull request's run seeing the weakness under fail_on new: new, never known. */
async function prSeesItAsNew(w: CachedWorld): Promise<void> {
  w.emu.demoAgent.setVulnerable(WEAKNESS, true)
  const r = await prRun(w)
  const rep = reportOf(r)
  expect(states(rep)[WEAKNESS]).toBe('new')
  // main's own run saw the demo agent's two other weaknesses: those are known.
  expect(r.main.outputs).toMatchObject({ result: 'fail', new_count: '1', known_count: '2' })
  expect(r.main.code).not.toBe(0)
}

describe('a weakness only a run outside the default branch saw is new to a pull request, through the bundle', () => {
  it.concurrent(
    "a feature branch's run listed by the service, read by main's first push: the pull request's sighting is new",
    () =>
      inCachedWorld(
        async (w) => {
          w.emu.demoAgent.setVulnerable(WEAKNESS, true)
          const feature = await pushRun(w, 'refs/heads/feature', { sha: 'fea7fea7fea7fea7fea7fea7fea7fea7fea7fea7', runId: '150' })
          expect(states(reportOf(feature))).toHaveProperty(WEAKNESS)
          await mainPushReadingTheList(w)
          await prSeesItAsNew(w)
        },
        { baseline: false }
      ),
    300_000
  )

  it.concurrent(
    "the pull request's own earlier run listed by the service, read by main's first push: its re-run's sighting is new",
    () =>
      inCachedWorld(
        async (w) => {
          w.emu.demoAgent.setVulnerable(WEAKNESS, true)
          const first = await prRun(w)
          expect(states(reportOf(first))).toHaveProperty(WEAKNESS)
          await mainPushReadingTheList(w)
          await prSeesItAsNew(w)
        },
        { baseline: false }
      ),
    300_000
  )

  it.concurrent(
    "cache flood: main's records evicted after the pull request's run, main pushes again, the pull request re-runs: still new",
    () =>
      inCachedWorld(
        async (w) => {
          await prSeesItAsNew(w)
          // GitHub evicts the least recently used entries beyond the repository's limit: main's go first here.
          const mains = w.cache.entries.filter((e) => e.scope === 'refs/heads/main')
          expect(mains.length).toBeGreaterThan(0)
          for (const e of mains) w.cache.entries.splice(w.cache.entries.indexOf(e), 1)
          await mainPushReadingTheList(w, { sha: BASE_SHA, runId: '101' })
          await prSeesItAsNew(w)
        },
        { baseline: true }
      ),
    300_000
  )
})

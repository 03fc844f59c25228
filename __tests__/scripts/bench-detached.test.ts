/**
 * The detached bench's measurements behave: on virtual time (a fake clock), the
 * attached step is held for the assessment's length, the detached step for
 * none of it, and the collector's first tick after the run's end sets the
 * verdict. No wall-clock asserts: this machine's times are only reported.
 */
import { describe, expect, it } from '@jest/globals'
import { detachedMarkdown, lifecycleMarkdown, measureLength } from '../../scripts/bench-detached.js'
import { DETACHED_MARKERS, replaceBetweenMarkers } from '../../scripts/bench.js'

describe('bench: detached waiting', () => {
  it.each([1, 20])(
    'a %d-minute assessment: attached holds the runner for it, detached for none of it',
    async (minutes) => {
      const row = await measureLength(minutes, 5)
      expect(row.attached.virtualMs).toBeGreaterThanOrEqual(minutes * 60_000)
      expect(row.detached.virtualMs).toBeLessThan(30_000)
      // The verdict arrives with the first tick after the end: within the interval.
      expect(row.detached.ticks).toBe(Math.ceil(minutes / 5))
      const last = row.detached.tickWallMs.at(-1) ?? 0
      expect(row.latencyMs - last).toBeGreaterThanOrEqual(0)
      expect(row.latencyMs - last).toBeLessThanOrEqual(5 * 60_000)
      const md = detachedMarkdown([row], [{ pending: 1, wallMs: last }], { lengths: [minutes], intervalMinutes: 5 })
      expect(md).toContain(`| ${minutes} min |`)
    },
    60_000
  )

  it('renders a lifecycle row per pipeline', () => {
    const md = lifecycleMarkdown([{ label: 'a host per deployment', deployments: 3, registered: 3, gate: 4, total: 7 }])
    expect(md).toContain('| a host per deployment | 3 | 3 | 4 | 7 |')
  })

  it('has its own markers in docs/performance.md', () => {
    expect(replaceBetweenMarkers(`a\n${DETACHED_MARKERS.start}\nold\n${DETACHED_MARKERS.end}\nb`, 'new', DETACHED_MARKERS)).toBe(
      `a\n${DETACHED_MARKERS.start}\nnew\n${DETACHED_MARKERS.end}\nb`
    )
  })
})

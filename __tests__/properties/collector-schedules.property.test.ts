/**
 * A model of detached waiting: random schedules of pushes,
 * collectors (two at once, killed at any point) and run ends, one GitHub call
 * or service call per step, against an oracle. The collector's decisions are
 * the real ones (collect-decision.ts judgeRecord and pending.ts samePending); the driver
 * follows src/action/stages/collect.ts's order of calls: read, status first, comment
 * last and only while it still holds the record it read; a queued record's
 * run triggered while the model is free, handed over once its record is
 * written (a killed collector's post step cancels one it had not handed over).
 */
import { describe, expect, it } from '@jest/globals'
import { judgeRecord } from '../../src/action/stages/collect-decision.js'
import { samePending } from '../../src/report/pending.js'
import type { PendingRecord } from '../../src/report/pending.js'
import { seededRandom } from '../../src/util/seeded-random.js'

type Result = 'success' | 'failure'
interface Run {
  id: string
  commit: string
  state: 'running' | 'ended' | 'cancelled'
  result: Result
}
interface World {
  head: string
  comment: PendingRecord | { final: string } | null
  runs: Run[]
  statuses: { commit: string; state: string; run: string | null }[]
  nextId: number
}

const pendingOf = (w: World): PendingRecord | null => (w.comment !== null && 'commit' in w.comment ? w.comment : null)
const record = (commit: string, runId: string | null): PendingRecord => ({
  runId,
  commit,
  at: null,
  categories: [],
  deadline: null,
  mac: 'm'
})
const busy = (w: World): boolean => w.runs.some((r) => r.state === 'running')
const trigger = (w: World, commit: string, random: () => number): Run => {
  const run: Run = { id: `r${w.nextId++}`, commit, state: 'running', result: random() < 0.5 ? 'success' : 'failure' }
  w.runs.push(run)
  return run
}
const cancel = (w: World, id: string | null): void => {
  const run = w.runs.find((r) => r.id === id)
  if (run?.state === 'running') run.state = 'cancelled'
}

/** A push's detached step: supersede the pending run, trigger or queue, write the record, set pending. */
function* push(w: World, random: () => number): Generator<void, void> {
  const commit = `c${w.nextId++}`
  w.head = commit
  yield
  cancel(w, pendingOf(w)?.runId ?? null)
  yield
  const run = busy(w) ? null : trigger(w, commit, random)
  yield
  // writePending: the status pending first, then the record (the other order let a collector finish before it).
  w.statuses.push({ commit, state: 'pending', run: run?.id ?? null })
  yield
  w.comment = record(commit, run?.id ?? null)
}

/** A collector: collect.ts's calls, one per step. `owed` is the run its post step would cancel (triggered, not handed over). */
function* collector(w: World, random: () => number, post: { owed: string | null }): Generator<void, void> {
  const read = pendingOf(w)
  const head = w.head
  yield
  if (read === null) return
  const verdict = judgeRecord(read, head, true)
  if (verdict.kind === 'superseded' || verdict.kind === 'refuse') return
  if (verdict.kind === 'trigger') {
    if (busy(w)) return
    yield
    const run = trigger(w, read.commit, random)
    post.owed = run.id
    yield
    w.statuses.push({ commit: read.commit, state: 'pending', run: run.id })
    yield
    if (!samePending(read, pendingOf(w))) {
      cancel(w, run.id)
      post.owed = null
      return
    }
    w.comment = record(read.commit, run.id)
    post.owed = null
    return
  }
  const run = w.runs.find((r) => r.id === verdict.runId)
  yield
  if (run === undefined || run.state === 'running') return
  w.statuses.push({ commit: read.commit, state: run.state === 'ended' ? run.result : 'error', run: run.id })
  yield
  if (samePending(read, pendingOf(w))) w.comment = { final: read.commit }
}

function schedule(seed: number): World {
  const random = seededRandom(seed)
  const w: World = { head: 'c0', comment: null, runs: [], statuses: [], nextId: 1 }
  interface Actor {
    it: Generator<void, void>
    post?: { owed: string | null }
    push?: true
  }
  const actors: Actor[] = [{ it: push(w, random), push: true }]
  for (let step = 0; step < 60; step++) {
    const roll = random()
    // The example's concurrency group serializes a pull request's own steps: one push's step at a time.
    if (roll < 0.1) {
      if (!actors.some((a) => a.push)) actors.push({ it: push(w, random), push: true })
    } else if (roll < 0.3 && actors.filter((a) => a.post).length < 2) {
      const post = { owed: null }
      actors.push({ it: collector(w, random, post), post })
    } else if (roll < 0.4) {
      const running = w.runs.filter((r) => r.state === 'running')
      if (running.length > 0) running[Math.floor(random() * running.length)].state = 'ended'
    } else if (roll < 0.45 && actors.some((a) => a.post)) {
      // A collector killed: its post step cancels the run it had not handed over.
      const i = actors.findIndex((a) => a.post)
      cancel(w, actors[i].post?.owed ?? null)
      actors.splice(i, 1)
    } else if (actors.length > 0) {
      const i = Math.floor(random() * actors.length)
      if (actors[i].it.next().done) actors.splice(i, 1)
    }
  }
  // Quiescence: every started step finishes, runs end, collectors run until nothing is pending.
  for (const a of actors) while (!a.it.next().done);
  for (let round = 0; round < 6; round++) {
    for (const r of w.runs) if (r.state === 'running') r.state = 'ended'
    const it = collector(w, random, { owed: null })
    while (!it.next().done);
  }
  return w
}

describe('detached waiting under random schedules', () => {
  it('500 schedules: one final status per commit, only from its own run; the head never stays pending; no run left going', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const w = schedule(seed)
      const why = `seed ${seed}`
      const finals = w.statuses.filter((s) => s.state !== 'pending')
      for (const commit of new Set(finals.map((s) => s.commit))) {
        const of = finals.filter((s) => s.commit === commit)
        expect([why, new Set(of.map((s) => s.state)).size]).toEqual([why, 1])
        for (const s of of) expect([why, w.runs.find((r) => r.id === s.run)?.commit]).toEqual([why, commit])
      }
      const last = w.statuses.filter((s) => s.commit === w.head).at(-1)
      expect([why, last?.state]).not.toEqual([why, 'pending'])
      expect([why, pendingOf(w)]).toEqual([why, null])
      expect([why, w.runs.filter((r) => r.state === 'running')]).toEqual([why, []])
    }
  })
})

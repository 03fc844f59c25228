/** How the stochastic bench counts sequences of verdicts and lists of runs. Pure. */

/** Share of verdicts that differ from the previous one (n verdicts give n - 1 pairs). */
export function flipShare(verdicts: readonly string[]): number {
  if (verdicts.length < 2) return 0
  let flips = 0
  for (let i = 1; i < verdicts.length; i++) if (verdicts[i] !== verdicts[i - 1]) flips++
  return flips / (verdicts.length - 1)
}

/** Passing verdicts after the first fail (the weakness seen, and still open). */
export function passesAfterSeen(verdicts: readonly string[]): number {
  const first = verdicts.indexOf('fail')
  return first < 0 ? 0 : verdicts.slice(first + 1).filter((v) => v === 'pass').length
}

/** Verdict changes other than the first detection (the first change into a fail): what re-runs of a seen weakness must not do. */
export function flipsOtherThanFirstDetection(verdicts: readonly string[]): number {
  const first = verdicts.indexOf('fail')
  let flips = 0
  for (let i = 1; i < verdicts.length; i++) if (verdicts[i] !== verdicts[i - 1] && i !== first) flips++
  return flips
}

/** The most runs in a row that missed the weakness after one first found it (what a window of K runs alone forgets past K). */
export function longestMissAfterSeen(found: readonly boolean[]): number {
  const first = found.indexOf(true)
  if (first < 0) return 0
  let longest = 0
  let run = 0
  for (const f of found.slice(first + 1)) {
    run = f ? 0 : run + 1
    longest = Math.max(longest, run)
  }
  return longest
}

/** The median and the largest of a list (0 for none). */
export function medianAndWorst(xs: readonly number[]): { median: number; worst: number } {
  if (xs.length === 0) return { median: 0, worst: 0 }
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return { median: s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2, worst: s[s.length - 1] }
}

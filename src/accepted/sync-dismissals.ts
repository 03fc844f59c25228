/**
 * Writing acceptances to the service as dismissals (PATCH close, status
 * dismissed, the entry's reason_code and explanation), when asked
 * (sync_dismissals) and where the write rule lets this run write them (the
 * default branch only: src/github/write-rule.ts); elsewhere nothing is written
 * and a note says why. Proof withheld (403) is a note; any other failure is a
 * warning: the gate's result stands.
 */
import type { ServiceApi } from '../service/service-api.js'
import { ServiceError, describeFailure } from '../util/errors.js'
import type { Finding } from '../service/contract/index.js'
import { writeRefusal, type WriteStanding } from '../github/write-rule.js'
import type { AcceptedEntry } from './accepted-file.js'

export async function syncDismissals(
  standing: WriteStanding,
  api: () => ServiceApi,
  findings: readonly Finding[],
  acceptedBy: ReadonlyMap<string, AcceptedEntry>
): Promise<{ dismissed: number; notes: string[] }> {
  const refused = writeRefusal(standing, { kind: 'dismissals' })
  if (refused !== null) return { dismissed: 0, notes: [`sync_dismissals is on, but ${refused}: nothing dismissed.`] }
  const client = api()
  const notes: string[] = []
  let dismissed = 0
  for (const f of findings) {
    const e = acceptedBy.get(f.finding_id)
    if (!e || f.status !== 'open') continue
    const explanation = `${e.explanation} (accepted risk, owner ${e.owner}, expires ${e.expires})`.slice(0, 4000)
    try {
      await client.closeFinding(f.finding_id, { status: 'dismissed', reason_code: e.reasonCode, explanation })
      dismissed += 1
    } catch (err) {
      if (err instanceof ServiceError && err.status === 403) {
        notes.push(`Finding ${f.finding_id} was not dismissed on the service: the plan withholds proof (403); it stays accepted here.`)
      } else {
        notes.push(`Warning: finding ${f.finding_id} could not be dismissed on the service: ${describeFailure(err)}`)
      }
    }
  }
  if (dismissed > 0)
    notes.push(`Dismissed ${dismissed === 1 ? '1 accepted finding' : `${dismissed} accepted findings`} on the service (sync_dismissals).`)
  return { dismissed, notes }
}

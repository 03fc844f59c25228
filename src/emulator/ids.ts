/** Ids of the emulator's resources: a prefix and 16 random hex digits, as the service's look. */
import { randomBytes } from 'node:crypto'

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`
}

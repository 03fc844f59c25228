/** Stopping what a test's setup started. */

/** A server or stand-in a test starts and must stop. */
export interface Stoppable {
  stop(): Promise<void>
}

/**
 * Stops each of `started` that was started. A `let` assigned in beforeAll or
 * beforeEach is typed as set, yet is still undefined when the setup failed
 * before it: skipping it keeps the setup's own error the one reported.
 */
export async function stopStarted(...started: (Stoppable | undefined)[]): Promise<void> {
  for (const s of started) await s?.stop()
}

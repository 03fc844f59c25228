/** Entry point of the post step (`node dist/post/index.js`, action.yml runs.post); the main step's is src/index.ts. */
import { runPostAction } from './action/post-entry.js'

// Exit promptly when done: a lingering socket must not hold the step open.
void runPostAction().finally(() => process.exit(process.exitCode ?? 0))

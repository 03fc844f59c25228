/** Entry point of the bundle (`node dist/index.js`), for the main and the post step. */
import { run } from './action/run.js'

// Exit promptly when done: a lingering socket must not hold the step open.
void run().finally(() => process.exit(process.exitCode ?? 0))

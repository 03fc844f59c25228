/** Entry point of the main step (`node dist/index.js`); the post step has its own (src/post.ts). */
import { runMainAction } from './action/main-entry.js'

// Exit promptly when done: a lingering socket must not hold the step open.
void runMainAction().finally(() => process.exit(process.exitCode ?? 0))

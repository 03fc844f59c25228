// The jest run StrykerJS uses (npm run mutate; stryker.config.mjs). The unit
// tests only: the end-to-end and soak suites run the bundle in dist/ or a
// whole world of servers, so they cannot kill a mutant of src/ and only slow
// each mutant down. Everything else is jest.config.js's.
import base from './jest.config.js'

export default {
  ...base,
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/__tests__/e2e/',
    '<rootDir>/__tests__/soak/',
    '<rootDir>/__tests__/emulator/',
    '<rootDir>/__tests__/scripts/',
    '<rootDir>/__tests__/[^/]+\\.test\\.ts$'
  ]
}

import { defineConfig } from 'vitest/config'

/** `npm run test:examples`: the examples and the other runtimes, each a real process on 127.0.0.1. */
export default defineConfig({
  test: {
    include: ['test/examples/**/*.test.ts', 'test/runtimes/**/*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-examples.json' },
    testTimeout: 60_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
})

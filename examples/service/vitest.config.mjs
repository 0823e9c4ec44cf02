import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs'],
    globalSetup: ['test/global-setup.mjs'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    // Two files at a time: they mostly wait (for service processes, the browser, PostgreSQL, flush intervals), each on
    // its own database and ports.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})

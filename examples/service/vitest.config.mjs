import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.mjs'],
    globalSetup: ['test/global-setup.mjs'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})

/** `npm run docs:conformance`: rewrites the generated part of docs/conformance.md (between its markers) in place. */
import { readFileSync, writeFileSync } from 'node:fs'
import { formatMarkdown, spliceMarkdown } from '../src/node/check/run.js'

const file = new URL('../docs/conformance.md', import.meta.url)
let page = ''
try {
  page = readFileSync(file, 'utf8')
} catch {}
writeFileSync(file, spliceMarkdown(page, formatMarkdown()))

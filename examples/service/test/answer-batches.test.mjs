/**
 * The service gateway's bookkeeping in batches (src/gateway.mjs): usage, request log, metrics and log lines are done
 * `settleMs` after the first answer of a batch, or at `settle()`, each with the time its answer ended; a key's tokens
 * are taken from its rate-limit block at once. Through the library's real gateway on the mock model.
 */
import { describe, expect, it } from 'vitest'
import { createServiceGateway } from '../src/gateway.mjs'

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const key = 'il-test-key-0123456789'
const caller = { id: 'key-1', accountId: 'account-1' }

function parts({ settleMs, failFirst = false } = {}) {
  const recorded = []
  const observed = []
  const spent = []
  let batches = 0
  let failed = false
  const { gateway, settle } = createServiceGateway({
    gatewayOptions: {},
    keys: { lookup: (presented) => (presented === key ? { id: caller.id, caller } : undefined) },
    limiter: { take: () => 0, spend: (who, tokens) => spent.push([who.id, tokens]) },
    usage: {
      record(who, event, end) {
        if (failFirst && recorded.length === 0 && !failed) {
          failed = true
          throw new Error('a broken handler')
        }
        recorded.push({ key: who.id, requestId: event.requestId, end })
      },
    },
    observe: { response: (event, end) => observed.push({ requestId: event.requestId, end }), settled: () => batches++ },
    ...(settleMs === undefined ? {} : { settleMs }),
  })
  const ask = async () => {
    const before = Date.now()
    const response = await gateway.fetch(
      new Request('http://127.0.0.1/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'interlingua-mock', messages: [{ role: 'user', content: 'Say hello' }] }),
      }),
    )
    await response.text()
    return { before, after: Date.now(), requestId: response.headers.get('x-request-id') }
  }
  return { settle, ask, recorded, observed, spent, batches: () => batches }
}

describe('bookkeeping of answers in batches', () => {
  it('is done after settleMs, for every answer of the batch in order, each with its own end time', async () => {
    const service = parts({ settleMs: 1000 })
    const first = await service.ask()
    await sleep(30)
    const second = await service.ask()
    // The tokens are taken at once; the rest waits for the batch.
    expect(service.spent).toEqual([
      ['key-1', 18],
      ['key-1', 18],
    ])
    expect(service.recorded).toEqual([])
    expect(service.observed).toEqual([])
    await sleep(1200)
    expect(service.recorded.map((entry) => entry.requestId)).toEqual([first.requestId, second.requestId])
    expect(service.observed.map((entry) => entry.requestId)).toEqual([first.requestId, second.requestId])
    expect(service.batches()).toBe(1)
    // The answer's end, not the time the batch ran (a second later).
    for (const [entry, asked] of [
      [service.recorded[0], first],
      [service.recorded[1], second],
    ]) {
      expect(entry.end).toBeGreaterThanOrEqual(asked.before)
      expect(entry.end).toBeLessThanOrEqual(asked.after)
    }
    expect(service.observed.map((entry) => entry.end)).toEqual(service.recorded.map((entry) => entry.end))
  })

  it('settle() does the waiting answers at once (a usage page, a scrape, a shutdown); nothing runs twice', async () => {
    const service = parts({ settleMs: 10_000 })
    const asked = await service.ask()
    service.settle()
    expect(service.recorded.map((entry) => entry.requestId)).toEqual([asked.requestId])
    expect(service.batches()).toBe(1)
    service.settle()
    expect(service.recorded).toHaveLength(1)
  })

  it("a handler's error is logged and the batch goes on", async () => {
    const errors = []
    const original = console.error
    console.error = (...args) => errors.push(args.join(' '))
    try {
      const service = parts({ settleMs: 10_000, failFirst: true })
      await service.ask()
      const second = await service.ask()
      service.settle()
      expect(service.recorded.map((entry) => entry.requestId)).toEqual([second.requestId])
      expect(service.observed.map((entry) => entry.requestId)).toEqual([second.requestId])
      expect(service.batches()).toBe(1)
      expect(errors.join('\n')).toContain('bookkeeping of an answer failed')
    } finally {
      console.error = original
    }
  })
})

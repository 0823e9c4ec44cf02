/**
 * Misbehaving upstreams on 127.0.0.1 for the reliability suites: one strict stand-in of `interlingua/testing` per
 * fault (its script's `fault` or `error`: one implementation of the faults, ../../src/node/testing/faults.ts), each
 * answering every format (the path says which) with `answerText`, or that answer distorted. `refused` is a port on
 * which nothing listens. What each sent whole is kept (`sent`), and what they received and still hold open (`stats`).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FormatId } from '../../src/ir/index.js'
import type { ScriptTurn } from '../../src/node/testing/strict-upstream.js'
import { type StrictUpstream as StandIn, startStrictUpstream } from '../sdk/strict-upstreams.js'

export const faults = [
  'refused',
  'reset-before-headers',
  'reset-mid-body',
  'reset-mid-event',
  'reset-between-events',
  'trickle',
  'hang',
  'stall-after-headers',
  'stall-mid-stream',
  'malformed-json',
  'malformed-sse',
  'wrong-content-type',
  'error-200',
  '429-retry-after',
  '500',
  '529',
  'html-error',
  'huge-body',
  'ok',
] as const
export type Fault = (typeof faults)[number]

/** The answer every stand-in gives (streamed in several deltas), before its fault distorts it. */
export const answerText = 'This is the strict stand-in answering, in several deltas, as a model streams its text.'

/** The script of each fault's stand-in: the suite's names for the stand-ins' faults and scripted errors. */
const turns: Record<Exclude<Fault, 'refused'>, ScriptTurn> = {
  ok: {},
  'reset-before-headers': { fault: 'drop' },
  'reset-mid-body': { fault: 'break' },
  'stall-mid-stream': { fault: 'stall' },
  '429-retry-after': { error: { status: 429, retryAfter: 7 } },
  '500': { error: { status: 500 } },
  '529': { error: { status: 529 } },
  'reset-mid-event': { fault: 'reset-mid-event' },
  'reset-between-events': { fault: 'reset-between-events' },
  trickle: { fault: 'trickle' },
  hang: { fault: 'hang' },
  'stall-after-headers': { fault: 'stall-after-headers' },
  'malformed-json': { fault: 'malformed-json' },
  'malformed-sse': { fault: 'malformed-sse' },
  'wrong-content-type': { fault: 'wrong-content-type' },
  'error-200': { fault: 'error-200' },
  'html-error': { fault: 'html-error' },
  'huge-body': { fault: 'huge-body' },
}

export interface FaultUpstream {
  /** The base URL of each fault's stand-in. */
  bases: Record<Fault, string>
  /** What a fault's stand-in sent whole, by `${fault}/${format}/${stream}`: status and every body. */
  sent: { get(key: string): { status: number; bodies: Set<string> } | undefined }
  /** Requests received, and those still open (neither finished nor closed), over every stand-in. */
  stats: { received: number; open: number }
  close(): Promise<void>
}

export async function startFaultUpstream(): Promise<FaultUpstream> {
  const standIns = new Map<Fault, StandIn>()
  await Promise.all(
    Object.entries(turns).map(async ([fault, turn]) => {
      standIns.set(fault as Fault, await startStrictUpstream({ script: [{ text: answerText, ...turn }] }))
    }),
  )
  // A port that was just free: nothing listens on it.
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const refused = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`
  await new Promise((resolve) => probe.close(resolve))
  const bases = Object.fromEntries(faults.map((fault) => [fault, standIns.get(fault)?.url ?? refused])) as Record<
    Fault,
    string
  >
  const all = () => [...standIns.values()]
  return {
    bases,
    sent: {
      get(key) {
        const [fault, format, stream] = key.split('/') as [Fault, FormatId, string]
        const answers = (standIns.get(fault)?.answers ?? []).filter(
          (a) => a.format === format && String(a.stream) === stream,
        )
        if (answers.length === 0) return undefined
        return { status: answers[0]?.status ?? 0, bodies: new Set(answers.map((a) => a.text)) }
      },
    },
    stats: {
      get received() {
        return all().reduce((sum, s) => sum + s.stats.received, 0)
      },
      get open() {
        return all().reduce((sum, s) => sum + s.stats.open, 0)
      },
    },
    close: async () => {
      await Promise.all(all().map((s) => s.close()))
    },
  }
}

/** The base URL of an upstream of `format` behind `fault` (chat-completions and responses bases end in `/v1`). */
export function faultBase(upstream: FaultUpstream, fault: Fault, format: FormatId): string {
  const v1 = format === 'chat-completions' || format === 'responses' ? '/v1' : ''
  return `${upstream.bases[fault]}${v1}`
}

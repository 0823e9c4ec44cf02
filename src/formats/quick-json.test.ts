/**
 * The decoders' quick paths (text deltas read without JSON.parse) against their general paths: each data string is
 * decoded as is and with a space after its first colon (which no quick pattern accepts), after the same prefix of
 * events, and both must give the same IR events (and, for Responses, the same last sequence number).
 */
import { describe, expect, it } from 'vitest'
import type * as ir from '../ir/index.js'
import type { StreamStep } from '../stream/step.js'
import * as cc from './chat-completions/decode-stream.js'
import * as gen from './content-generation/decode-stream.js'
import type { SseMessage } from './format.js'
import { ResponsesDecoder } from './responses/decode-stream.js'

const spaced = (data: string) => data.replace('":', '": ')

function run(step: StreamStep<SseMessage, ir.StreamEvent>, data: readonly string[]): ir.StreamEvent[] {
  const out: ir.StreamEvent[] = []
  for (const line of data) step.push({ data: line, event: undefined, id: undefined }, out)
  step.end(out)
  return out
}

const ccHead = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o",'
const ccChunk = (delta: string, finish = 'null', tail = '') =>
  `${ccHead}"choices":[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish}}]${tail}}`
const ccContent = (text: string, tail = '') => ccChunk(`{"content":${text}}`, 'null', tail)

describe('chat-completions: the compact content chunk read without JSON.parse', () => {
  const role = ccChunk('{"role":"assistant","content":""}')
  const tool = ccChunk(
    '{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]}',
  )
  const finish = ccChunk('{}', '"stop"')
  const cases: [string, string[], string][] = [
    ['plain content', [role], ccContent('"Hello"')],
    ['unicode', [role], ccContent('"wörld 🎉"')],
    ['an escape', [role], ccContent('"a \\"quote\\" \\n \\u00e9"')],
    ['empty content', [role], ccContent('""')],
    ['the first chunk (not started)', [], ccContent('"Hi"')],
    ['after a tool call (a new text block)', [role, tool], ccContent('"after"')],
    ['after the finish', [role, finish], ccContent('"late"')],
    ['usage null and obfuscation', [role], ccContent('"x"', ',"usage":null,"obfuscation":"aB3"')],
    [
      'service tier and fingerprint',
      [role],
      ccContent('"x"').replace(',"choices"', ',"service_tier":"default","system_fingerprint":"fp_1","choices"'),
    ],
    ['a usage object (general path)', [role], ccContent('"x"', ',"usage":{"prompt_tokens":1,"completion_tokens":2}')],
    ['an error key', [role], ccContent('"x"', ',"error":{"message":"boom"}')],
    ['a raw tab', [role], ccContent('"a\tb"')],
  ]
  it.each(cases)('%s: the same events as the general path', (_, before, data) => {
    const tail = ['data: [DONE]'.slice(6)]
    const quick = run(cc.decodeStreamStep(), [...before, data, ...tail])
    const general = run(cc.decodeStreamStep(), [...before, spaced(data), ...tail])
    expect(spaced(data)).not.toBe(data)
    expect(quick).toEqual(general)
  })

  it('takes the text as it is on the quick path', () => {
    const events = run(cc.decodeStreamStep(), [role, ccContent('"wörld 🎉"'), finish, '[DONE]'])
    expect(events).toContainEqual({ type: 'text-delta', index: 0, text: 'wörld 🎉' })
  })
})

const created =
  '{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","created_at":1,"model":"gpt-x","status":"in_progress","output":[]}}'
const added = (outputIndex: number, type = 'message') =>
  `{"type":"response.output_item.added","sequence_number":1,"output_index":${outputIndex},"item":{"id":"it_${outputIndex}","type":"${type}","status":"in_progress","content":[],"summary":[]}}`
const delta = (sequence: string, outputIndex: string, contentIndex: string, text: string, tail = '') =>
  `{"type":"response.output_text.delta","sequence_number":${sequence},"item_id":"msg_1","output_index":${outputIndex},"content_index":${contentIndex},"delta":${text},"logprobs":[]${tail}}`

describe('responses: the compact output_text.delta read without JSON.parse', () => {
  const cases: [string, string[], string][] = [
    ['plain delta', [created, added(0)], delta('5', '0', '0', '"Hello"')],
    ['unicode', [created, added(0)], delta('5', '0', '0', '"wörld 🎉"')],
    ['an escape', [created, added(0)], delta('5', '0', '0', '"a \\"q\\" \\n"')],
    ['empty delta', [created, added(0)], delta('5', '0', '0', '""')],
    ['content index 1 (a new block)', [created, added(0)], delta('5', '0', '1', '"two"')],
    ['an unknown output index', [created, added(0)], delta('5', '3', '0', '"lost"')],
    ['a reasoning item', [created, added(0, 'reasoning')], delta('5', '0', '0', '"r"')],
    ['before response.created', [], delta('5', '0', '0', '"early"')],
    ['obfuscation', [created, added(0)], delta('5', '0', '0', '"x"', ',"obfuscation":"aB3"')],
    ['a big sequence number', [created, added(0)], delta('1234567890123456', '0', '0', '"x"')],
    ['a leading zero', [created, added(0)], delta('05', '0', '0', '"x"')],
    ['a raw tab', [created, added(0)], delta('5', '0', '0', '"a\tb"')],
  ]
  it.each(cases)('%s: the same events and last sequence number as the general path', (_, before, data) => {
    const quick = new ResponsesDecoder()
    const general = new ResponsesDecoder()
    expect(spaced(data)).not.toBe(data)
    expect(run(quick, [...before, data])).toEqual(run(general, [...before, spaced(data)]))
    expect(quick.lastSequence).toBe(general.lastSequence)
    expect(quick.startEvent).toEqual(general.startEvent)
  })

  it('takes the text as it is on the quick path', () => {
    const events = run(new ResponsesDecoder(), [created, added(0), delta('2', '0', '0', '"wörld 🎉"')])
    expect(events).toContainEqual({ type: 'text-delta', index: 0, text: 'wörld 🎉' })
  })
})

const genChunk = (parts: string, tail = ',"usageMetadata":{"promptTokenCount":9,"totalTokenCount":9}', extra = '') =>
  `{"candidates":[{"content":{"parts":${parts},"role":"model"},"index":0${extra}}]${tail},"modelVersion":"gemini-x","responseId":"r1"}`
const genText = (text: string, tail?: string) => genChunk(`[{"text":${text}}]`, tail)

describe('content-generation: the compact text chunk read without parsing it whole', () => {
  const first = genText('"Hi"')
  const thought = genChunk('[{"text":"hmm","thought":true}]')
  const cases: [string, string[]][] = [
    ['text chunks', [first, genText('"Hello"'), genText('" wörld 🎉"')]],
    [
      'role before parts',
      [
        first,
        genText('"x"').replace('{"parts":[{"text":"x"}],"role":"model"}', '{"role":"model","parts":[{"text":"x"}]}'),
      ],
    ],
    ['no usage, no response id', [first, genText('"x"', '').replace(',"responseId":"r1"', '')]],
    [
      'usage changing and coming back',
      [
        first,
        genText('"a"', ',"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":1}'),
        genText('"b"'),
        genText('"c"'),
      ],
    ],
    [
      'a usage with details (general path)',
      [
        first,
        genText(
          '"x"',
          ',"usageMetadata":{"promptTokenCount":9,"promptTokensDetails":[{"modality":"TEXT","tokenCount":9}]}',
        ),
      ],
    ],
    ['a malformed usage', [first, genText('"x"', ',"usageMetadata":{"promptTokenCount":}')]],
    ['an escape', [first, genText('"a \\"q\\" \\n"')]],
    ['an empty text after a thought (ends the thought block)', [thought, genText('""'), genText('"after"')]],
    ['text after a thought', [thought, genText('"answer"')]],
    ['the first chunk', [genText('"first"')]],
    ['a finish', [first, genChunk('[{"text":"."}]', undefined, ',"finishReason":"STOP"')]],
    ['a raw tab', [first, genText('"a\tb"')]],
  ]
  it.each(cases)('%s: the same events as the general path', (_, data) => {
    expect(run(gen.decodeStreamStep(), data)).toEqual(run(gen.decodeStreamStep(), data.map(spaced)))
  })

  it('takes the text as it is on the quick path', () => {
    const events = run(gen.decodeStreamStep(), [first, genText('"wörld 🎉"')])
    expect(events).toContainEqual({ type: 'text-delta', index: 0, text: 'wörld 🎉' })
  })
})

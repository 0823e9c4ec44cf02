import { describe, expect, it } from 'vitest'
import { checkMessagesRequest } from '../../../test/helpers/acceptance.js'
import type * as ir from '../../ir/index.js'
import { encodeRequest } from './encode-request.js'

const text = (value: string): ir.TextPart => ({ type: 'text', text: value })
const call = (id: string): ir.ToolCallPart => ({ type: 'tool-call', id, name: 'f', arguments: '{}' })

describe('encodeRequest repairs histories the service would reject', () => {
  it('adds a user turn before a leading assistant turn and error results for unanswered calls', () => {
    const { value, warnings } = encodeRequest({
      model: 'm',
      messages: [
        { role: 'assistant', content: [text('hello'), call('a'), call('b')] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'a', content: [text('ok')] }] },
        { role: 'assistant', content: [text('done')] },
        { role: 'user', content: [text('next')] },
      ],
    })
    expect((value as { messages: unknown }).messages).toEqual([
      { role: 'user', content: '.' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'hello' },
          { type: 'tool_use', id: 'a', name: 'f', input: {} },
          { type: 'tool_use', id: 'b', name: 'f', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: 'ok' },
          { type: 'tool_result', tool_use_id: 'b', content: 'No result was provided.', is_error: true },
        ],
      },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'next' },
    ])
    expect(warnings).toEqual([
      {
        type: 'changed',
        path: 'messages[0]',
        message: 'a placeholder user turn was added: messages must start with a user turn',
      },
      { type: 'changed', path: 'messages', message: 'tool call b had no result; an error result was added' },
    ])
    expect(checkMessagesRequest(value)).toEqual([])
  })

  it('sends a tool result that answers no call as text', () => {
    const { value, warnings } = encodeRequest({
      model: 'm',
      messages: [
        { role: 'user', content: [text('hi')] },
        { role: 'assistant', content: [text('hello')] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'zzz', content: [text('42')] }] },
      ],
    })
    expect((value as { messages: unknown }).messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: [{ type: 'text', text: 'Tool result (zzz): 42' }] },
    ])
    expect(warnings).toEqual([
      { type: 'changed', path: 'messages', message: 'tool result zzz answers no tool call; sent as text' },
    ])
    expect(checkMessagesRequest(value)).toEqual([])
  })
})

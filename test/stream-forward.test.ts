import { describe, expect, it } from 'vitest'
import { convertStream } from '../src/convert-stream.js'
import { readBytes } from './helpers/fixtures.js'
import { collectText, streamOf } from './helpers/rechunk.js'

const bytes = (text: string) => new TextEncoder().encode(text)
const frames = (text: string) =>
  text
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => frame.slice(frame.indexOf('data: ') + 6))

describe('same-format convertStream (validated, forwarded as it came)', () => {
  const source = Buffer.from(readBytes('responses', 'text.sse')).toString()
  const sent = frames(source)

  it('responses cut short: the frames so far, then error, response.failed (same id, next sequence numbers), [DONE]', async () => {
    const cut = `${source.split('\n\n').slice(0, 5).join('\n\n')}\n\n`
    const out = frames(await collectText(convertStream(streamOf([bytes(cut)]), { from: 'responses', to: 'responses' })))
    expect(out.slice(0, 5)).toEqual(sent.slice(0, 5))
    const last = JSON.parse(sent[4] as string) as { sequence_number: number }
    const created = JSON.parse(sent[0] as string) as { response: { id: string } }
    const error = JSON.parse(out[5] as string)
    expect(error).toMatchObject({ type: 'error', sequence_number: last.sequence_number + 1 })
    const failed = JSON.parse(out[6] as string)
    expect(failed).toMatchObject({
      type: 'response.failed',
      sequence_number: last.sequence_number + 2,
      response: { id: created.response.id, status: 'failed' },
    })
    expect(out.slice(7)).toEqual(['[DONE]'])
  })

  it('a malformed event: nothing from it on, the format error instead', async () => {
    const messagesSource = Buffer.from(readBytes('messages', 'text.sse')).toString()
    const m = `${messagesSource.split('\n\n').slice(0, 2).join('\n\n')}\n\ndata: {not json\n\n${messagesSource}`
    const forwarded = frames(
      await collectText(convertStream(streamOf([bytes(m)]), { from: 'messages', to: 'messages' })),
    )
    expect(forwarded.slice(0, 2)).toEqual(frames(messagesSource).slice(0, 2))
    expect(forwarded).toHaveLength(3)
    expect(JSON.parse(forwarded[2] as string)).toMatchObject({ type: 'error' })
  })

  it('chat-completions without includeUsage and any model override are re-encoded (usage dropped, model set)', async () => {
    const cc = Buffer.from(readBytes('chat-completions', 'usage-cache.sse')).toString()
    const plain = await collectText(
      convertStream(streamOf([bytes(cc)]), { from: 'chat-completions', to: 'chat-completions' }),
    )
    expect(plain).not.toContain('"usage":{')
    const renamed = await collectText(
      convertStream(streamOf([bytes(source)]), { from: 'responses', to: 'responses', model: 'other-model' }),
    )
    expect(renamed).toContain('"model":"other-model"')
  })
})

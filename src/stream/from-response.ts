import type * as ir from '../ir/index.js'

type CarrierEvent = ir.TextStartEvent | ir.ReasoningStartEvent | ir.ReasoningEndEvent | ir.ToolCallStartEvent

function withData(event: CarrierEvent, data: ir.ProviderData | undefined): ir.StreamEvent {
  if (data !== undefined) event.providerData = data
  return event
}

/**
 * An IR response as the IR event sequence a stream of it would carry: `message-start` (with the input
 * usage when known), one block per part (text in one delta; reasoning with its provider data on the end
 * event; redacted reasoning via `reasoning-start.redactedData`; a tool call as start, one delta, end; a
 * refusal as a text block flagged `providerData['chat-completions'].refusal`), then `finish` with usage.
 * Serves a streaming client from a non-streaming upstream. Only the first choice is streamed.
 */
export function responseToEvents(response: ir.Response): ir.StreamEvent[] {
  const start: ir.MessageStartEvent = { type: 'message-start', id: response.id, model: response.model }
  if (response.created !== undefined) start.created = response.created
  if (response.usage !== undefined) start.usage = { inputTokens: response.usage.inputTokens }
  const events: ir.StreamEvent[] = [start]
  response.content.forEach((part, index) => {
    switch (part.type) {
      case 'text': {
        events.push(withData({ type: 'text-start', index }, part.providerData))
        const end: ir.TextEndEvent = { type: 'text-end', index }
        if (part.citations) end.citations = part.citations
        events.push({ type: 'text-delta', index, text: part.text }, end)
        return
      }
      case 'web-search':
        events.push({ type: 'web-search', part })
        return
      case 'refusal':
        events.push({
          type: 'text-start',
          index,
          providerData: {
            ...part.providerData,
            'chat-completions': { ...part.providerData?.['chat-completions'], refusal: true },
          },
        })
        events.push({ type: 'text-delta', index, text: part.text }, { type: 'text-end', index })
        return
      case 'reasoning':
        events.push({ type: 'reasoning-start', index }, { type: 'reasoning-delta', index, text: part.text })
        events.push(withData({ type: 'reasoning-end', index }, part.providerData))
        return
      case 'redacted-reasoning':
        events.push(withData({ type: 'reasoning-start', index, redactedData: part.data }, part.providerData))
        events.push({ type: 'reasoning-end', index })
        return
      case 'tool-call':
        events.push(withData({ type: 'tool-call-start', index, id: part.id, name: part.name }, part.providerData))
        events.push(
          { type: 'tool-call-delta', index, argumentsDelta: part.arguments },
          { type: 'tool-call-end', index },
        )
        return
    }
  })
  const finish: ir.FinishEvent = { type: 'finish', finishReason: response.finishReason }
  if (response.stopSequence !== undefined) finish.stopSequence = response.stopSequence
  if (response.usage !== undefined) finish.usage = response.usage
  events.push(finish)
  return events
}

/** `responseToEvents` as a pull-based stream (one event per pull). */
export function createResponseEventStream(response: ir.Response): ReadableStream<ir.StreamEvent> {
  const events = responseToEvents(response)
  let next = 0
  return new ReadableStream<ir.StreamEvent>(
    {
      pull(controller) {
        const event = events[next++]
        if (event !== undefined) controller.enqueue(event)
        if (next >= events.length) controller.close()
      },
    },
    { highWaterMark: 0 },
  )
}

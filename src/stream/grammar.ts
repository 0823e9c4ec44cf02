import type * as ir from '../ir/index.js'

/** Checks the IR stream grammar (src/ir/stream-event.ts); returns the list of violations (empty = valid). */
export function grammarViolations(events: ir.StreamEvent[]): string[] {
  const problems: string[] = []
  const content = events.filter((event) => event.type !== 'ping')
  if (content[0]?.type !== 'message-start') problems.push(`first event is ${content[0]?.type}, not message-start`)
  const open = new Set<number>()
  const ended = new Set<number>()
  let nextIndex = 0
  content.forEach((event, position) => {
    const last = position === content.length - 1
    if (event.type === 'message-start' && position !== 0) problems.push(`message-start again at ${position}`)
    if ((event.type === 'finish' || event.type === 'error') && !last)
      problems.push(`${event.type} at ${position} is not last`)
    if (event.type === 'finish' && open.size > 0) problems.push(`finish while blocks ${[...open].join(',')} are open`)
    if (!('index' in event)) return
    const kind = event.type.replace(/-(start|delta|end)$/, '')
    if (event.type.endsWith('-start')) {
      if (event.index !== nextIndex) problems.push(`${event.type} index ${event.index}, expected ${nextIndex}`)
      nextIndex = Math.max(nextIndex, event.index + 1)
      open.add(event.index)
      return
    }
    if (!open.has(event.index)) {
      problems.push(
        `${event.type} for ${ended.has(event.index) ? 'ended' : 'unstarted'} block ${event.index} (${kind})`,
      )
      return
    }
    if (event.type.endsWith('-end')) {
      open.delete(event.index)
      ended.add(event.index)
    }
  })
  const final = content[content.length - 1]
  if (final?.type !== 'finish' && final?.type !== 'error') problems.push(`last event is ${final?.type}`)
  return problems
}

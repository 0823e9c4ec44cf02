/** Request bodies with a size limit, and response bodies that report their end and cancellation. */

/** Reads the body as text; `undefined` when it is larger than `maxBytes` (→ 413). */
export async function readBodyText(request: Request, maxBytes: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > maxBytes) return undefined
  if (!request.body) return ''
  const reader = request.body.getReader()
  const decoder = new TextDecoder()
  let size = 0
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    text += decoder.decode(value, { stream: true })
  }
  return text + decoder.decode()
}

export interface BodyHooks {
  /** Called once when the body ends, fails or is cancelled. */
  onEnd: (outcome: 'done' | 'error' | 'cancel') => void
  /** Called when the client cancels (disconnects). */
  onCancel: () => void
  /** Bytes to write, then end cleanly, when the source fails (passthrough: the format's in-stream error frame). */
  onErrorBytes?: () => Uint8Array
}

/** Wraps a response body: pull-based (no buffering), reports its end, and turns cancellation into `onCancel`. */
export function wrapBody(body: ReadableStream<Uint8Array>, hooks: BodyHooks): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  let ended = false
  const end = (outcome: 'done' | 'error' | 'cancel') => {
    if (ended) return
    ended = true
    hooks.onEnd(outcome)
  }
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const result = await reader.read()
          if (result.done) {
            controller.close()
            end('done')
          } else controller.enqueue(result.value)
        } catch (error) {
          if (hooks.onErrorBytes) {
            controller.enqueue(hooks.onErrorBytes())
            controller.close()
          } else controller.error(error)
          end('error')
        }
      },
      cancel(reason) {
        end('cancel')
        hooks.onCancel()
        return reader.cancel(reason).catch(() => {})
      },
    },
    { highWaterMark: 0 },
  )
}

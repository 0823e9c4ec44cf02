/**
 * A synchronous push transducer: state inside, outputs appended to `out`. Never throws for bad data (decoders turn
 * it into an `error` event). Every stream transducer of the library is one of these; the `TransformStream`s of the
 * public Web API are derived from them with {@link stepToTransformStream}, and the gateway's Node path drives them
 * straight from the upstream socket to the client socket (no promise per event).
 */
export interface StreamStep<I, O> {
  push(input: I, out: O[]): void
  end(out: O[]): void
}

/**
 * Empties a buffer that is refilled right after. `buffer.length = 0` frees the backing store, so the next push
 * allocates a new one (in V8): popping keeps it, which is what a buffer reused once per event or chunk wants.
 */
export function clearBuffer(buffer: unknown[]): void {
  while (buffer.length > 0) buffer.pop()
}

/**
 * The most characters joined into one written string. What one push produces is usually far below (one upstream
 * chunk's frames); a frame that repeats a long answer (the Responses done events) comes in pieces, and joining them
 * past this size would hold one more copy of the answer per written string (and V8 refuses strings past ~2^29
 * characters). 1 Mi: a 150 MB answer to a Responses client grew the gateway's RSS by ~890 MB with 64 Mi strings,
 * ~220 MB with these (bench/big-stream.ts, store off).
 */
export const MAX_JOINED_TEXT = 2 ** 20

/**
 * Removes the strings at the start of `texts` and returns them joined: all of them, or as many as stay under
 * {@link MAX_JOINED_TEXT} (at least one) — the rest stay in `texts` for the next call.
 */
export function takeJoined(texts: string[]): string {
  if (texts.length === 1) return texts.pop() as string
  let length = 0
  let n = 0
  while (n < texts.length) {
    const next = (texts[n] as string).length
    if (n > 0 && length + next > MAX_JOINED_TEXT) break
    length += next
    n++
  }
  if (n === texts.length) {
    const text = texts.join('')
    clearBuffer(texts)
    return text
  }
  return texts.splice(0, n).join('')
}

/** A `TransformStream` that runs `step`: each chunk is pushed, what it produced is enqueued; `end` runs on flush. */
export function stepToTransformStream<I, O>(step: StreamStep<I, O>): TransformStream<I, O> {
  const out: O[] = []
  const drain = (controller: TransformStreamDefaultController<O>) => {
    for (let i = 0; i < out.length; i++) controller.enqueue(out[i] as O)
    clearBuffer(out)
  }
  return new TransformStream<I, O>({
    transform(input, controller) {
      step.push(input, out)
      drain(controller)
    },
    flush(controller) {
      step.end(out)
      drain(controller)
    },
  })
}

/** `first` then `second` as one step (one intermediate buffer, reused). */
export function chainSteps<A, B, C>(first: StreamStep<A, B>, second: StreamStep<B, C>): StreamStep<A, C> {
  const middle: B[] = []
  const feed = (out: C[]) => {
    for (let i = 0; i < middle.length; i++) second.push(middle[i] as B, out)
    clearBuffer(middle)
  }
  return {
    push(input, out) {
      first.push(input, middle)
      feed(out)
    },
    end(out) {
      first.end(middle)
      feed(out)
      second.end(out)
    },
  }
}

/** A stateless step that maps each input to one output. */
export function mapStep<I, O>(map: (input: I) => O): StreamStep<I, O> {
  return {
    push(input, out) {
      out.push(map(input))
    },
    end() {},
  }
}

/** A step from an emitter-style transducer (one `emit` callback, made once per stream, appends to the current `out`). */
export function emitterStep<I, O>(
  push: (input: I, emit: (output: O) => void) => void,
  end: (emit: (output: O) => void) => void,
): StreamStep<I, O> {
  let sink: O[] = []
  const emit = (output: O) => {
    sink.push(output)
  }
  return {
    push(input, out) {
      sink = out
      push(input, emit)
    },
    end(out) {
      sink = out
      end(emit)
    },
  }
}

/**
 * The push-step shape of the "Stream steps" interface (COMMON.md; `src/stream/step.ts` once it lands): state inside,
 * outputs appended to `out`, never throws for bad data.
 */
export interface StreamStep<I, O> {
  push(input: I, out: O[]): void
  end(out: O[]): void
}

export function stepToTransformStream<I, O>(step: StreamStep<I, O>): TransformStream<I, O> {
  const out: O[] = []
  const drain = (controller: TransformStreamDefaultController<O>) => {
    for (const item of out) controller.enqueue(item)
    out.length = 0
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

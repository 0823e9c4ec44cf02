/**
 * OpenTelemetry traces, only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: the SDK is imported then and not before (an
 * instance without it loads none of it). One span per API request, made when its answer ends (a stream included)
 * from the gateway's `onResponse` — kind SERVER, started `latencyMs` before — with the GenAI semantic-convention
 * attributes (`gen_ai.operation.name`, `gen_ai.request.model`, `gen_ai.provider.name`, `gen_ai.usage.input_tokens`,
 * `gen_ai.usage.output_tokens`, …) and HTTP ones; never a key, a prompt or an answer. Exported over OTLP/HTTP (JSON) in
 * batches by the SDK's BatchSpanProcessor (every 5 s, or `OTEL_BSP_SCHEDULE_DELAY` ms); the exporter reads the standard
 * `OTEL_EXPORTER_OTLP_*` variables (endpoint, headers); `OTEL_SERVICE_NAME` names the service (default
 * `interlingua-service`).
 */
const operations = {
  generate: 'chat',
  'count-tokens': 'count_tokens',
  'list-models': 'list_models',
  'get-model': 'get_model',
  'get-response': 'get_response',
}

/** @returns {Promise<undefined | { response: (event: object) => void, shutdown: () => Promise<void> }>} */
export async function startTracing(env = process.env) {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined
  const [
    { SpanKind, SpanStatusCode },
    { TracerProvider, BatchSpanProcessor },
    { resourceFromAttributes },
    { OTLPTraceExporter },
  ] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ])
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'interlingua-service' }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        ...(Number(env.OTEL_BSP_SCHEDULE_DELAY) > 0
          ? { scheduledDelayMillis: Number(env.OTEL_BSP_SCHEDULE_DELAY) }
          : {}),
      }),
    ],
  })
  const tracer = provider.getTracer('interlingua-service')
  return {
    /** The span of a request whose answer ended at `end` (epoch ms). */
    response(event, end = Date.now()) {
      const operation = operations[event.kind] ?? event.kind
      const attributes = {
        'gen_ai.operation.name': operation,
        'interlingua.client.format': event.format,
        'http.response.status_code': event.status,
        'interlingua.request_id': event.requestId,
      }
      if (event.model) attributes['gen_ai.request.model'] = event.model
      if (event.upstreamModel) attributes['gen_ai.response.model'] = event.upstreamModel
      if (event.upstream) attributes['gen_ai.provider.name'] = event.upstream
      if (event.stream !== undefined) attributes['interlingua.stream'] = event.stream
      const usage = event.usage
      if (usage?.inputTokens !== undefined) attributes['gen_ai.usage.input_tokens'] = usage.inputTokens
      if (usage?.outputTokens !== undefined) attributes['gen_ai.usage.output_tokens'] = usage.outputTokens
      if (event.caller?.id) attributes['interlingua.key_id'] = event.caller.id
      if (event.error) attributes['error.type'] = event.error
      const span = tracer.startSpan(event.model ? `${operation} ${event.model}` : operation, {
        kind: SpanKind.SERVER,
        startTime: end - event.latencyMs,
        attributes,
      })
      if (event.status >= 500 || (event.error && event.status < 400))
        span.setStatus({ code: SpanStatusCode.ERROR, message: event.error })
      span.end(end)
    },
    /** Exports what is pending and stops. */
    shutdown: () => provider.shutdown(),
  }
}

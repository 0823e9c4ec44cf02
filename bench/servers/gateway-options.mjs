// The gateway configuration every bench server and the core bench use: three upstreams at one base, a model each.
export function benchGatewayOptions(upstream) {
  return {
    upstreams: {
      openai: { format: 'chat-completions', baseURL: `${upstream}/v1`, apiKey: 'sk-bench-openai' },
      anthropic: { format: 'messages', baseURL: upstream, apiKey: 'sk-bench-anthropic' },
      gemini: { format: 'content-generation', baseURL: upstream, apiKey: 'bench-gemini' },
    },
    models: {
      'bench-cc': { upstream: 'openai', model: 'gpt-4o-mini' },
      'bench-msg': { upstream: 'anthropic', model: 'claude-sonnet-4-5' },
      'bench-gen': { upstream: 'gemini', model: 'gemini-2.5-flash' },
    },
  }
}

/**
 * The hooks a service uses (issue 22): `authenticate` returning a caller, `onRequest`, `onResponse` reading the usage —
 * each doing next to nothing, so what a bench measures with them is what the gateway spends to call them. `tokens()`
 * is what `onResponse` saw (a bench checks it is not 0: the usage reached the hook).
 */
export function benchHooks() {
  let tokens = 0
  return {
    hooks: {
      authenticate: (key) => (key === 'sk-bench-client' ? { id: 'bench-caller' } : false),
      onRequest: () => {},
      onResponse: (event) => {
        tokens += (event.usage?.inputTokens ?? 0) + (event.usage?.outputTokens ?? 0)
      },
    },
    tokens: () => tokens,
  }
}

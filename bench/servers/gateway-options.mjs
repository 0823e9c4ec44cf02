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

/**
 * One OpenAI Chat Completions request — a system prompt, an image, a tool and a tool round trip — converted into
 * the other two formats, and an Anthropic response converted back. Run: `npm run demo`.
 */
import { convertRequest, convertResponse } from '../src/index.js'

const request = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a concise weather assistant.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is the weather where this photo was taken?' },
        {
          type: 'image_url',
          image_url: {
            url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==',
          },
        },
      ],
    },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '{"temperature_c":18,"sky":"clear"}' },
  ],
  tools: [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Current weather for a city',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
          additionalProperties: false,
        },
      },
    },
  ],
  max_completion_tokens: 300,
  temperature: 0.4,
}

const show = (title: string, value: unknown) => console.log(`\n── ${title} ──\n${JSON.stringify(value, null, 2)}`)

show('chat-completions request (input)', request)
for (const to of ['messages', 'content-generation'] as const) {
  show(
    `→ ${to}`,
    convertRequest(request, {
      from: 'chat-completions',
      to,
      onWarning: (w) => console.warn(`warning: ${w.path}: ${w.message}`),
    }),
  )
}

const anthropicResponse = {
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content: [{ type: 'text', text: 'It is 18 °C and clear in Paris.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 120, output_tokens: 14, cache_read_input_tokens: 30, cache_creation_input_tokens: 0 },
}
show(
  'messages response → chat-completions',
  convertResponse(anthropicResponse, { from: 'messages', to: 'chat-completions' }),
)
show(
  'messages response → content-generation',
  convertResponse(anthropicResponse, { from: 'messages', to: 'content-generation' }),
)

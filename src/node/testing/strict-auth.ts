/**
 * How each service answers a request without its key, or with a wrong one (their documented answers, as their SDKs
 * see them): OpenAI 401 `invalid_api_key`; Anthropic 401 `authentication_error`; Gemini 403 `PERMISSION_DENIED`
 * without a key and 400 `INVALID_ARGUMENT` (reason `API_KEY_INVALID`) with a wrong one.
 */
import type { StrictFormat } from './json.js'

function keyOf(format: StrictFormat, request: Request, url: URL): string | undefined {
  const bearer = request.headers.get('authorization')?.replace(/^Bearer\s+/i, '')
  if (format === 'messages') return request.headers.get('x-api-key') ?? bearer
  if (format === 'content-generation')
    return request.headers.get('x-goog-api-key') ?? url.searchParams.get('key') ?? undefined
  return bearer
}

/** The service's answer when `request` does not carry `apiKey`; undefined when it does. */
export function authProblem(format: StrictFormat, request: Request, url: URL, apiKey: string): Response | undefined {
  const key = keyOf(format, request, url)
  if (key === apiKey) return undefined
  if (format === 'messages') {
    const message = key ? 'invalid x-api-key' : 'x-api-key header is required'
    return Response.json({ type: 'error', error: { type: 'authentication_error', message } }, { status: 401 })
  }
  if (format === 'content-generation') {
    if (!key)
      return Response.json(
        {
          error: {
            code: 403,
            message:
              "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
            status: 'PERMISSION_DENIED',
          },
        },
        { status: 403 },
      )
    const details = [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
    ]
    return Response.json(
      {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details,
        },
      },
      { status: 400 },
    )
  }
  const message = key
    ? 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.'
    : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
  return Response.json(
    { error: { message, type: 'invalid_request_error', param: null, code: key ? 'invalid_api_key' : null } },
    { status: 401 },
  )
}

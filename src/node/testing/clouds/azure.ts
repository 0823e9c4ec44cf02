/**
 * A strict Azure OpenAI stand-in on 127.0.0.1: it checks what Azure checks before a model runs — the `api-key` header
 * (or an Entra ID bearer token it issued), the path (the v1 API, or the classic deployments API), the `api-version`
 * of the classic API and the deployment's existence — and answers in Azure's own error shapes. Accepted requests are
 * answered by the backend (the model behind the deployment), in the request's format (chat-completions or responses).
 */
import { type Backend, type CloudCall, type CloudReceived, type CloudServer, serveCloud } from './front.js'

export type AzureReceived = CloudReceived

export interface AzureStandIn extends CloudServer {
  /** Why each refused call was refused. */
  rejections: string[]
  /** The next call answers 429 (Azure's throttling body, `retry-after`). */
  throttleOnce(): void
}

export const azureKey = 'azure-test-key-0123456789abcdef'
export const entraToken = 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.entra-test-token'
/** The api-versions the classic API accepts. */
const apiVersions = new Set(['2024-10-21', '2025-04-01-preview'])

function azureError(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: { code, message } }, { status, headers })
}

export interface AzureStandInOptions {
  /** The model behind the deployments (chat-completions and responses paths). */
  backend: Backend
  /** The resource's deployments. @defaultValue `['gpt-4o-deploy']` */
  deployments?: string[]
  port?: number
}

export async function startAzureStandIn(options: AzureStandInOptions): Promise<AzureStandIn> {
  const deployments = options.deployments ?? ['gpt-4o-deploy']
  const rejections: string[] = []
  let throttle = false
  function refuse(status: number, code: string, message: string): Response {
    rejections.push(message)
    return azureError(status, code, message)
  }
  async function handle({ url, request, text, body }: CloudCall): Promise<Response> {
    const key = request.headers.get('api-key')
    const bearer = request.headers.get('authorization')
    const authorized =
      key !== null ? key === azureKey : bearer === `Bearer ${entraToken}` || bearer === `Bearer ${azureKey}`
    if (!authorized)
      return refuse(
        401,
        '401',
        'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
      )
    let resource: 'chat/completions' | 'responses'
    const path = url.pathname
    const version = url.searchParams.get('api-version')
    const classic = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/.exec(path)
    if (path === '/openai/v1/chat/completions' || path === '/openai/v1/responses') {
      resource = path.endsWith('responses') ? 'responses' : 'chat/completions'
      if (version !== null && version !== 'v1' && version !== 'preview')
        return refuse(400, 'BadRequest', `API version not supported: ${version}`)
      if (typeof body?.model !== 'string' || !deployments.includes(body.model))
        return refuse(404, 'DeploymentNotFound', 'The API deployment for this resource does not exist.')
    } else if (classic || path === '/openai/responses') {
      if (version === null) return refuse(404, '404', 'Resource not found')
      if (!apiVersions.has(version)) return refuse(400, 'BadRequest', `API version not supported: ${version}`)
      resource = classic ? 'chat/completions' : 'responses'
      const deployment = classic ? decodeURIComponent(classic[1] as string) : body?.model
      if (!deployments.includes(deployment))
        return refuse(404, 'DeploymentNotFound', 'The API deployment for this resource does not exist.')
    } else return refuse(404, '404', 'Resource not found')
    if (throttle) {
      throttle = false
      return azureError(
        429,
        '429',
        'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current tier. Please retry after 7 seconds.',
        { 'retry-after': '7', 'x-ratelimit-remaining-requests': '0' },
      )
    }
    return options.backend(`/v1/${resource}`, text)
  }
  const running = await serveCloud(handle, options.port)
  return {
    ...running,
    rejections,
    throttleOnce() {
      throttle = true
    },
  }
}

/**
 * Bedrock errors ⇄ IR. Bedrock answers an HTTP error with `{"message": "…"}` and names the exception in the
 * `x-amzn-errortype` header (`ThrottlingException:http://internal.amazon.com/…`); a JSON protocol error may carry it
 * as `__type` (`com.amazon.coral…#ThrottlingException`). In a stream, an exception is a frame whose
 * `:exception-type` is the lower-camel name (`throttlingException`) and whose payload is `{"message": "…"}`.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors
 */
import { errorCodeForStatus } from '../../ir/error.js'
import type * as ir from '../../ir/index.js'
import { finiteNumber } from '../../shared/finite-number.js'
import { isRecord } from '../../shared/is-record.js'

/** Bedrock's exceptions (lower-camel, as in a stream): the IR code and the status a client sees. */
const exceptions: Record<string, [ir.ErrorCode, number]> = {
  throttlingException: ['rate-limit', 429],
  modelNotReadyException: ['rate-limit', 429],
  validationException: ['invalid-request', 400],
  serviceQuotaExceededException: ['invalid-request', 400],
  accessDeniedException: ['permission', 403],
  // The credentials: a bad or expired signature or token (Bedrock answers 403 for all of them).
  unrecognizedClientException: ['authentication', 403],
  invalidSignatureException: ['authentication', 403],
  expiredTokenException: ['authentication', 403],
  missingAuthenticationTokenException: ['authentication', 403],
  incompleteSignatureException: ['authentication', 403],
  resourceNotFoundException: ['not-found', 404],
  conflictException: ['conflict', 409],
  modelTimeoutException: ['timeout', 408],
  internalServerException: ['internal', 500],
  // The model failed (424 on Bedrock): an upstream failure to the client.
  modelErrorException: ['upstream', 502],
  modelStreamErrorException: ['upstream', 502],
  serviceUnavailableException: ['overloaded', 503],
}

/** `ThrottlingException:http://…`, `com.amazon…#ThrottlingException`, `throttlingException` → `throttlingException`. */
export function exceptionName(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw === '') return undefined
  let name = raw
  const colon = name.indexOf(':')
  if (colon > 0) name = name.slice(0, colon)
  const hash = name.lastIndexOf('#')
  if (hash >= 0) name = name.slice(hash + 1)
  return name === '' ? undefined : name.charAt(0).toLowerCase() + name.slice(1)
}

/** Whether `event` (a stream frame's type) is an exception Converse streams can carry. */
export function isException(event: string | undefined): boolean {
  return event?.endsWith('Exception') === true
}

/**
 * The IR error of a Bedrock exception (HTTP or in-stream). Total. `status` is the HTTP status when there was one: it
 * is kept unless the exception says more (an in-stream exception comes with the stream's 200).
 */
export function exceptionError(name: string | undefined, status: number | undefined, message: string): ir.ErrorInfo {
  // 424 is Bedrock's status for a model that failed (ModelErrorException), whatever names it.
  const known = (name ? exceptions[name] : undefined) ?? (status === 424 ? exceptions.modelErrorException : undefined)
  const httpError = status !== undefined && status >= 400 && status <= 599
  const code = known?.[0] ?? (httpError ? errorCodeForStatus(status) : 'upstream')
  const realStatus = known && (!httpError || status === 424) ? known[1] : httpError ? status : 502
  const info: ir.ErrorInfo = { code, status: realStatus, message, rawFormat: 'converse' }
  if (name) info.vendorType = name
  // Bedrock names no delay; 1 s is where the AWS SDKs' backoff for throttling starts (500 ms base, rounded up).
  if (code === 'rate-limit') info.retryAfter = 1
  return info
}

function messageOf(body: unknown, status: number): string {
  if (isRecord(body)) {
    const message = body.message ?? body.Message
    if (typeof message === 'string' && message !== '') return message
  }
  return typeof body === 'string' && body !== '' ? body.slice(0, 500) : `HTTP ${status}`
}

/** Total: any status and any body give an ErrorInfo. The exception name is read from `__type` (or `code`). */
export function decodeError(status: number, body: unknown): ir.ErrorInfo {
  const name = isRecord(body) ? exceptionName(body.__type ?? body.code) : undefined
  const info = exceptionError(name, status, messageOf(body, status))
  const retryAfter = isRecord(body) ? finiteNumber(body.retryAfterSeconds) : undefined
  if (retryAfter !== undefined) info.retryAfter = retryAfter
  return info
}

/** The exception name (upper-camel, as `x-amzn-errortype` has it) for an IR error. */
function typeFor(error: ir.ErrorInfo): string {
  if (error.rawFormat === 'converse' && error.vendorType) return upperFirst(error.vendorType)
  for (const name in exceptions) {
    const [code, status] = exceptions[name] as [ir.ErrorCode, number]
    if (code === error.code && status === error.status) return upperFirst(name)
  }
  for (const name in exceptions)
    if ((exceptions[name] as [ir.ErrorCode, number])[0] === error.code) return upperFirst(name)
  return 'InternalServerException'
}

const upperFirst = (name: string) => name.charAt(0).toUpperCase() + name.slice(1)

/** IR → Bedrock's error body (`{message, __type}`) and status. */
export function encodeError(error: ir.ErrorInfo): { status: number; body: unknown } {
  return { status: error.status, body: { message: error.message, __type: typeFor(error) } }
}

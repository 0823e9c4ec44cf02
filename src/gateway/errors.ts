/** Error and warning responses of the gateway, always in the client's format (policy 9). */
import { InterlinguaError } from '../errors.js'
import type * as ir from '../ir/index.js'
import { errorStatus } from '../ir/index.js'

/** An ErrorInfo from a code and message (status from the code). */
export function errorInfo(code: ir.ErrorCode, message: string, param?: string): ir.ErrorInfo {
  const info: ir.ErrorInfo = { code, status: errorStatus[code], message }
  if (param !== undefined) info.param = param
  return info
}

/** Any thrown value as an ErrorInfo; an InterlinguaError keeps its code, status and path, anything else is 500. */
export function toErrorInfo(error: unknown): ir.ErrorInfo {
  if (InterlinguaError.isInstance(error)) return error.toErrorInfo()
  return errorInfo('internal', 'Internal gateway error')
}

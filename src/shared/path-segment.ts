/**
 * Model ids in URL paths, both ways. Inbound: a malformed percent-escape (`/v1/models/%E0%A4%A`) is a native 400
 * naming `model`, never a `URIError` (a 500). Outbound: the client's model id becomes exactly one path segment of the
 * upstream URL — `/` encoded, `.`/`..` refused — so `../../admin` cannot climb out of the upstream's base path.
 */
import { invalidRequest } from '../errors.js'
import type { FormatId } from '../ir/format-id.js'

/** Decodes one percent-encoded path segment holding a model id; throws `invalid-request` (400, `model`) when malformed. */
export function decodeModelSegment(segment: string, format: FormatId): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return invalidRequest('model', 'the model id in the URL path is not valid percent-encoding', format)
  }
}

/** A model id as one encoded path segment; throws `invalid-request` (400, `model`) for ids that are dot segments. */
export function modelPathSegment(model: string, format: FormatId): string {
  if (model === '' || model === '.' || model === '..')
    invalidRequest('model', `"${model}" is not a model id that can be sent in a URL path`, format)
  return encodeURIComponent(model)
}

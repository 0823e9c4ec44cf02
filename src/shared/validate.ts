import { formatPath, InterlinguaError } from '../errors.js'
import type { FormatId } from '../ir/format-id.js'
import type { Issue, Schema } from './schema.js'
import { describe, typeMessage } from './wire-problem.js'

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current: unknown = root
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}

function expectedOf(issue: Issue): string[] {
  if (issue.code === 'invalid_type') return [String(issue.expected)]
  if (issue.code === 'invalid_value') return issue.values.map((v) => JSON.stringify(v))
  if (issue.code === 'invalid_union') return issue.errors.flatMap((branch) => branch.flatMap(expectedOf))
  return []
}

/** An issue as one human sentence, zod-locale style: "expected string, received number". */
function explain(issue: Issue, root: unknown): string {
  const received = valueAt(root, issue.path)
  switch (issue.code) {
    case 'invalid_type':
      return typeMessage(String(issue.expected), received)
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, received ${JSON.stringify(received)}`
    case 'invalid_union': {
      const expected = [...new Set(expectedOf(issue))]
      return expected.length > 0
        ? `expected ${expected.join(' or ')}, received ${describe(received)}`
        : `invalid value (${describe(received)})`
    }
    case 'too_small':
      return `must be at least ${issue.minimum}`
    case 'too_big':
      return `must be at most ${issue.maximum}`
    default:
      return issue.message || 'invalid value'
  }
}

/** The deepest issue is the most useful: a union failing on its best branch names the inner field. */
function pickIssue(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue
  // Prefer the branch that got furthest (longest path) when every branch failed on a nested field.
  let best: Issue | undefined
  for (const branch of issue.errors) {
    for (const inner of branch) {
      if (inner.path.length > 0 && (!best || inner.path.length > best.path.length)) best = inner
    }
  }
  if (!best) return issue
  return { ...best, path: [...issue.path, ...best.path] }
}

/**
 * Validates wire input against a wire schema (schema.ts) in place: a valid body is returned as it is, uncopied. On
 * failure throws `InterlinguaError('invalid-request')` whose message starts with the JSON path of the first bad field,
 * e.g.
 * "`messages[0].content`: expected string or array, received number".
 */
export function parseWire<T>(schema: Schema<T>, body: unknown, format: FormatId, what = 'request'): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InterlinguaError(
      'invalid-request',
      `The ${what} body must be a JSON object, received ${describe(body)}`,
      {
        format,
        issues: [{ path: '', message: `expected object, received ${describe(body)}` }],
      },
    )
  }
  const found: Issue[] = []
  schema.run(body, found)
  if (found.length === 0) return body as T
  const issues = found.map((raw) => {
    const issue = pickIssue(raw)
    return { path: formatPath(issue.path), message: explain(issue, body) }
  })
  const first = issues[0] ?? { path: '', message: 'invalid body' }
  throw new InterlinguaError('invalid-request', first.path ? `${first.path}: ${first.message}` : first.message, {
    format,
    param: first.path,
    issues,
  })
}

/**
 * The walk both same-format passthrough cleaners share (policy 1's exception, issue 21 §4): the parts of one role's
 * turns, each kept, replaced or dropped by the format's rule, with a `dropped` warning per part dropped. A turn left
 * with no parts is dropped too (the services reject an empty turn).
 */
import type * as ir from '../ir/index.js'
import { isRecord } from './is-record.js'

export interface OwnReasoningWalk {
  /** The body's key of the turn list (`messages`, `contents`) and of a turn's parts (`content`, `parts`). */
  list: string
  parts: string
  /** The role whose turns are walked (`assistant`, `model`). */
  role: string
  /** A part as the upstream may receive it (the same object when unchanged), or undefined to drop it. */
  part(part: unknown): unknown
  /** Sees the parts of a changed turn before it is kept (in place). */
  changed?(parts: unknown[]): void
  /** The warning message of a dropped part. */
  message: string
}

/** The body with its turns walked, or undefined when no part changed. */
export function walkOwnReasoning(
  body: unknown,
  walk: OwnReasoningWalk,
): { value: Record<string, unknown>; warnings: ir.Warning[] } | undefined {
  if (!isRecord(body)) return undefined
  const turns = body[walk.list]
  if (!Array.isArray(turns)) return undefined
  const warnings: ir.Warning[] = []
  let changed = false
  const out: unknown[] = []
  turns.forEach((turn: unknown, i) => {
    const parts = isRecord(turn) && turn.role === walk.role ? turn[walk.parts] : undefined
    if (!Array.isArray(parts)) {
      out.push(turn)
      return
    }
    const kept: unknown[] = []
    let touched = false
    parts.forEach((part: unknown, j) => {
      const own = walk.part(part)
      if (own === undefined) {
        warnings.push({ type: 'dropped', path: `${walk.list}[${i}].${walk.parts}[${j}]`, message: walk.message })
      } else kept.push(own)
      if (own !== part) touched = true
    })
    changed ||= touched
    if (!touched) out.push(turn)
    else if (kept.length > 0) {
      walk.changed?.(kept)
      out.push({ ...(turn as Record<string, unknown>), [walk.parts]: kept })
    } else warnings.push({ type: 'dropped', path: `${walk.list}[${i}]`, message: `a ${walk.role} turn left empty` })
  })
  return changed ? { value: { ...body, [walk.list]: out }, warnings } : undefined
}

/**
 * Policy 1's exception for a content-generation passthrough (issue 21 §4): a Gemini client whose earlier turn came
 * from another provider sends back what the gateway gave it — a part whose `thoughtSignature` is an envelope (`il1.…`,
 * an Anthropic signature or redacted thinking) — and Gemini rejects it (*thought signature must be base64 bytes*),
 * while that turn's function call has no signature of Gemini's own. The body is cleaned as the translated path would
 * encode it:
 * - an envelope that wraps a Gemini signature is unwrapped (the part is Gemini's own);
 * - a thought part with any other envelope is dropped (`dropped` warning); another part loses the envelope;
 * - a model turn touched so has its first function call signed with Gemini's documented stand-in
 *   (`skip_thought_signature_validator`) when none of its calls carries a signature, as the encoder does.
 * Only called when the body's text holds the envelope marker, so other passthroughs keep their cost.
 */
import { isRecord } from '../../shared/is-record.js'
import { walkOwnReasoning } from '../../shared/own-reasoning.js'
import { isEnvelope, unwrapEnvelope } from '../../shared/reasoning-envelope.js'
import type { Converted } from '../format.js'
import { signFunctionCalls } from './encode-request.js'

type Json = Record<string, unknown>

/** A part as Gemini may receive it: itself, its own signature unwrapped, without the envelope, or undefined. */
function ownPart(part: unknown): unknown {
  if (!isRecord(part) || !isEnvelope(part.thoughtSignature)) return part
  const own = unwrapEnvelope(part.thoughtSignature)?.providerData['content-generation']?.thoughtSignature
  if (typeof own === 'string' && own !== '') return { ...part, thoughtSignature: own }
  if (part.thought === true) return undefined
  const { thoughtSignature: _, ...rest } = part
  return rest
}

/** The body with only Gemini's own signatures, or undefined when nothing had to change. */
export function ownReasoningOnly(body: unknown): Converted<unknown> | undefined {
  return walkOwnReasoning(body, {
    list: 'contents',
    parts: 'parts',
    role: 'model',
    part: ownPart,
    changed: (parts) => signFunctionCalls(parts as Json[]),
    message: 'reasoning from another provider cannot be sent to content-generation',
  })
}

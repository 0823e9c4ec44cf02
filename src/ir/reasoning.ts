import type { ReasoningEffort } from './request.js'

/**
 * Effort ⇄ token budget, shared by every encoder whose format speaks the other one.
 * Budgets follow the common practice of Gemini 2.5 and Anthropic extended thinking; Gemini's
 * `thinkingBudget` tops out at 24576 (encoders clamp with a warning).
 */
const budgets: Record<ReasoningEffort, number> = {
  none: 0,
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
  max: 65536,
}

export function budgetForEffort(effort: ReasoningEffort): number {
  return budgets[effort]
}

/** The closest effort for a budget (0 = none, -1 = automatic → medium). */
export function effortForBudget(budget: number): ReasoningEffort {
  if (budget < 0) return 'medium'
  if (budget === 0) return 'none'
  if (budget <= 512) return 'minimal'
  if (budget <= 2048) return 'low'
  if (budget <= 12288) return 'medium'
  if (budget <= 24576) return 'high'
  if (budget <= 32768) return 'xhigh'
  return 'max'
}

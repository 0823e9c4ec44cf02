/**
 * Schemas (shared/schema.ts) for the content-generation wire (wire-formats.md §3.2–3.9). Loose: unknown keys pass,
 * wrong types of known fields fail with their JSON path (e.g. `contents[1].parts[0].inlineData.data`).
 */
import * as z from '../../shared/schema.js'
import { checkContent, checkContents } from './validate-parts.js'

const str = z.optional(z.string())
const num = z.optional(z.number())
const int = z.optional(z.number({ int: true }))
const bool = z.optional(z.boolean())
const object = z.record(z.unknown())

/**
 * The Content and Part shapes, for their types only: contents are checked by validate-parts.ts (in place, one pass),
 * which accepts exactly these. Never called, so a bundle leaves it out.
 */
function contentSchemas() {
  const blob = z.looseObject({ mimeType: z.string(), data: z.string(), displayName: str })
  const fileData = z.looseObject({ mimeType: str, fileUri: z.string(), displayName: str })

  const partSchema = z.looseObject({
    text: str,
    thought: bool,
    thoughtSignature: str,
    inlineData: z.optional(blob),
    fileData: z.optional(fileData),
    functionCall: z.optional(z.looseObject({ name: z.string(), args: z.optional(z.nullable(object)), id: str })),
    functionResponse: z.optional(
      z.looseObject({
        name: z.string(),
        response: z.optional(z.nullable(object)),
        id: str,
        parts: z.optional(z.array(z.looseObject({ inlineData: z.optional(blob), fileData: z.optional(fileData) }))),
      }),
    ),
  })

  const contentSchema = z.looseObject({ role: str, parts: z.array(partSchema) })
  return { partSchema, contentSchema }
}
type ContentSchemas = ReturnType<typeof contentSchemas>
type Content = z.Infer<ContentSchemas['contentSchema']>

const functionDeclaration = z.looseObject({
  name: z.string(),
  description: str,
  parameters: z.optional(object),
  parametersJsonSchema: z.optional(z.unknown()),
  response: z.optional(object),
  responseJsonSchema: z.optional(z.unknown()),
  behavior: str,
})

export const requestSchema = z.looseObject({
  model: z.optional(z.unknown()),
  contents: z.checked<Content[]>(checkContents),
  systemInstruction: z.optional(z.checked<Content>((value) => checkContent(value, true, true))),
  tools: z.optional(z.array(z.looseObject({ functionDeclarations: z.optional(z.array(functionDeclaration)) }))),
  toolConfig: z.optional(
    z.looseObject({
      functionCallingConfig: z.optional(
        z.looseObject({ mode: str, allowedFunctionNames: z.optional(z.array(z.string())) }),
      ),
    }),
  ),
  generationConfig: z.optional(
    z.looseObject({
      temperature: num,
      topP: num,
      topK: num,
      candidateCount: int,
      maxOutputTokens: int,
      stopSequences: z.optional(z.array(z.string())),
      presencePenalty: num,
      frequencyPenalty: num,
      seed: int,
      responseLogprobs: bool,
      logprobs: int,
      responseMimeType: str,
      responseSchema: z.optional(object),
      responseJsonSchema: z.optional(z.unknown()),
      thinkingConfig: z.optional(z.looseObject({ thinkingBudget: int, includeThoughts: bool, thinkingLevel: str })),
    }),
  ),
})

export type WireRequest = z.Infer<typeof requestSchema>
export type WirePart = z.Infer<ContentSchemas['partSchema']>
export type WireContent = Content
export type WireGenerationConfig = NonNullable<WireRequest['generationConfig']>

const count = z.optional(z.number())

export const responseSchema = z.looseObject({
  candidates: z.optional(
    z.array(
      z.looseObject({
        content: z.optional(z.checked<Partial<Content>>((value) => checkContent(value, false))),
        finishReason: str,
        index: int,
      }),
    ),
  ),
  promptFeedback: z.optional(z.looseObject({ blockReason: str })),
  usageMetadata: z.optional(
    z.looseObject({
      promptTokenCount: count,
      cachedContentTokenCount: count,
      candidatesTokenCount: count,
      thoughtsTokenCount: count,
      toolUsePromptTokenCount: count,
      totalTokenCount: count,
    }),
  ),
  modelVersion: str,
  responseId: str,
})

export type WireResponse = z.Infer<typeof responseSchema>
export type WireCandidate = NonNullable<WireResponse['candidates']>[number]

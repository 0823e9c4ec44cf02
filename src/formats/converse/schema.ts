/**
 * Amazon Bedrock Converse wire shapes (JSON over REST: `bytes` members are base64 strings), as the AWS SDK's
 * `@aws-sdk/client-bedrock-runtime` sends and reads them. Plain types: an upstream's answers are read defensively by
 * the decoders (bad vendor data becomes an error, never a throw), and a request body is validated by `decodeRequest`.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 */

export type Json = Record<string, unknown>

export interface ConverseImage {
  /** `png` · `jpeg` · `gif` · `webp`. */
  format: string
  source: { bytes?: string; s3Location?: { uri: string; bucketOwner?: string } }
}

export interface ConverseDocument {
  /** `pdf` · `csv` · `doc` · `docx` · `xls` · `xlsx` · `html` · `txt` · `md`. */
  format?: string
  /** Required by the service: letters, digits, single spaces, hyphens, parentheses and square brackets. */
  name: string
  source: { bytes?: string; text?: string; s3Location?: { uri: string } }
}

export interface ConverseToolUse {
  toolUseId: string
  name: string
  input: unknown
}

export interface ConverseToolResult {
  toolUseId: string
  content: Array<{ text?: string; json?: unknown; image?: ConverseImage; document?: ConverseDocument }>
  status?: 'success' | 'error'
}

export interface ConverseReasoning {
  reasoningText?: { text: string; signature?: string }
  /** base64 */
  redactedContent?: string
}

/** A content block: exactly one member is set. */
export interface ConverseBlock {
  text?: string
  image?: ConverseImage
  document?: ConverseDocument
  audio?: { format: string; source: { bytes?: string } }
  toolUse?: ConverseToolUse
  toolResult?: ConverseToolResult
  reasoningContent?: ConverseReasoning
  cachePoint?: { type: string }
  [member: string]: unknown
}

export interface ConverseMessage {
  role: 'user' | 'assistant'
  content: ConverseBlock[]
}

export interface ConverseToolSpec {
  name: string
  description?: string
  inputSchema: { json: unknown }
  strict?: boolean
}

export interface ConverseRequest {
  messages: ConverseMessage[]
  system?: Array<{ text?: string; cachePoint?: { type: string } }>
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] }
  toolConfig?: {
    tools: Array<{ toolSpec?: ConverseToolSpec; cachePoint?: { type: string } }>
    toolChoice?: { auto?: Json; any?: Json; tool?: { name: string } }
  }
  additionalModelRequestFields?: Json
  requestMetadata?: Record<string, string>
  [field: string]: unknown
}

/** @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html */
export interface ConverseUsage {
  /** Input not read from or written to the cache. */
  inputTokens?: number
  outputTokens?: number
  totalTokens?: number
  cacheReadInputTokens?: number
  cacheWriteInputTokens?: number
  [field: string]: unknown
}

export interface ConverseResponse {
  output: { message: ConverseMessage }
  stopReason: string
  usage: ConverseUsage
  metrics?: { latencyMs: number }
  additionalModelResponseFields?: Json
  [field: string]: unknown
}

/** The image formats Converse accepts, by media type. */
export const imageFormats: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
}

/** The document formats Converse accepts, by media type. */
export const documentFormats: Record<string, string> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
}

/** The media type of a Converse image or document `format` (the inverse of the tables above). */
export function mediaTypeOf(format: unknown, kind: 'image' | 'document'): string {
  const table = kind === 'image' ? imageFormats : documentFormats
  for (const type in table) if (table[type] === format) return type
  return kind === 'image' ? `image/${String(format)}` : 'application/octet-stream'
}

/**
 * The contract of an upstream provider (DESIGN §1 "Upstream providers"). A format says what the wire looks like; a
 * provider says where a request of that format goes, how it is authenticated and how the answer is framed. An
 * upstream without `provider` is first-party: its format's own `upstreamTarget` (the gateway's fast path, untouched).
 *
 * How to add a provider (say `acme`):
 * 1. `src/providers/acme/config.ts` exports a {@link ProviderSpec}: the formats it serves, a synchronous `check` of the
 *    upstream's options (what `createGateway` refuses, naming the field) and `load: () => import('./index.js')…`.
 *    It is small and has no dependency: every gateway bundle ships it.
 * 2. `src/providers/acme/index.ts` exports a {@link ProviderFactory}: `(upstream, context) => Provider`, one per
 *    configured upstream (token caches live in it). Only this file and what it imports may use the provider's
 *    libraries (SigV4, event-stream framing, JWT); they are loaded by `load()`, when a request first reaches such an
 *    upstream, so neither the converters' bundle nor the gateway's grows.
 * 3. Add `'acme'` to {@link ProviderId} and its spec to `providerSpecs` in `./index.ts`; new upstream fields go on
 *    {@link ProviderOptions} (the gateway's `UpstreamOptions` extends it), credential shapes on {@link UpstreamAuth}.
 * 4. Tests: a strict stand-in of the cloud (it verifies what the cloud verifies) and the cloud's official SDK pointed at
 *    it as the reference request (method, path, auth scheme, body shape).
 *
 * What the gateway does with a provider, per upstream call (`src/gateway/provider-call.ts`):
 *   target (cached per upstream, format, kind, stream flag and model) → the format's body (passthrough or translated)
 *   → `body` → `authorize` (plus the upstream's `headers`, object or function) → send (once more after a 401 when
 *   `unauthorized` says so) → a stream answer through `decodeStream` (when the wire is not SSE) → the format's
 *   decoders as usual; an error answer (any status outside 2xx) is decoded with `decodeError`, else the format's
 *   `decodeError`, and re-encoded in the client's format — a cloud's raw error body never reaches the client, even
 *   when client and upstream formats are the same.
 * Providers import formats, shared and stream code, never the gateway (data flows one way).
 */
import type { GatewayFormat, WireFormatId } from '../formats/format.js'
import type * as ir from '../ir/index.js'
import type { StreamStep } from '../stream/step.js'

/** The providers an upstream may name. */
export type ProviderId = 'azure' | 'bedrock' | 'vertex'

/** A Google service-account key: the JSON file's object (only these fields are read). */
export interface ServiceAccountKey {
  client_email: string
  /** PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`). */
  private_key: string
  /** Where the signed assertion is exchanged for an access token. @defaultValue `https://oauth2.googleapis.com/token` */
  token_uri?: string
  private_key_id?: string
  project_id?: string
  type?: string
}

/** AWS credentials (Bedrock, SigV4). */
export interface AwsCredentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
}

/** A credential value: a bearer/access token string, or one of the providers' credential objects. */
export type AuthValue = string | { serviceAccount: ServiceAccountKey } | AwsCredentials | { bearerToken: string }

/**
 * An upstream's cloud credential: a value, or a function returning one (called before each upstream call — cache
 * inside it when it is costly; SSO/role credentials, Entra ID or Google tokens the host refreshes). Which shapes a
 * provider accepts is its own: Azure a token (Bearer, Entra ID), Vertex AI a token or `{ serviceAccount }`.
 */
export type UpstreamAuth = AuthValue | (() => AuthValue | Promise<AuthValue>)

/**
 * The upstream options only providers read (documented for users on the gateway's `UpstreamOptions`, which extends
 * this). A provider that needs a new field adds it here.
 */
export interface ProviderOptions {
  /** Azure classic API (with `apiVersion`): the deployment name. @defaultValue the model id */
  deployment?: string
  /** Bedrock: the AWS region (`us-east-1`). */
  region?: string
  /** Vertex AI: the Google Cloud project id. */
  project?: string
  /** Vertex AI: the region (`us-central1`) or `'global'`. */
  location?: string
  /**
   * A cloud credential, or a function returning one (called before each call: cache inside it). Azure: an Entra ID
   * token. Vertex AI: `{ serviceAccount }` (the key file's object; tokens are fetched, cached and refreshed by the
   * gateway) or an access token. Bedrock: `{ accessKeyId, secretAccessKey, sessionToken? }` (SigV4) or
   * `{ bearerToken }` (a Bedrock API key).
   */
  auth?: UpstreamAuth
}

/** The upstream options a provider reads. */
export interface ProviderUpstream extends ProviderOptions {
  /** An upstream-only format (`converse`) is served by the provider that brings its codec (`Provider.codec`). */
  format: WireFormatId
  provider: ProviderId
  /** Replaces the provider's default origin (private endpoints, proxies, tests); Azure: the resource endpoint. */
  baseURL?: string
  /** A static key: Azure `api-key`, Vertex AI express mode (Gemini only). */
  apiKey?: string
  /** Azure classic API: the `api-version` query parameter. */
  apiVersion?: string
}

/** What is being sent: the upstream's format, the model id sent upstream, the endpoint kind and whether it streams. */
export interface ProviderRequest {
  format: WireFormatId
  model: string
  kind: 'generate' | 'count-tokens'
  stream: boolean
}

/** Where a request goes. Headers: lower-case names, nothing that expires (credentials are `authorize`'s). */
export interface ProviderTarget {
  url: string
  headers: Record<string, string>
}

/** One upstream call as it will be sent (headers: the target's, frozen — return a new record). */
export interface ProviderCall {
  url: string
  headers: Readonly<Record<string, string>>
  body: string
}

/** A framing step (`Provider.decodeStream`): the cloud's stream bytes in, the format's SSE bytes out. */
export interface FramingStep extends StreamStep<Uint8Array, Uint8Array> {
  /**
   * Set once a cloud exception (or a broken frame) ended the stream, with the error event already output: the error,
   * and `first` when nothing came before it — the gateway then answers the client an HTTP error (429, 400…) instead of
   * a stream that fails at once, as it does for any upstream's error before the first byte.
   */
  failure?: { error: ir.ErrorInfo; first: boolean }
}

/** A provider bound to one configured upstream. */
export interface Provider {
  /**
   * URL and static headers. Synchronous and pure: the gateway caches the result per (kind, stream, model). Throws
   * `InterlinguaError` (e.g. `unsupported-feature` for a `count-tokens` the cloud does not serve).
   */
  target(request: ProviderRequest): ProviderTarget
  /** Rewrites the format's body text (remove `model`/`stream`, add `anthropic_version`). @defaultValue as it is */
  body?(body: string, request: ProviderRequest): string
  /**
   * The headers to send, credentials included (a token, a signature over URL, headers and body): a new record. May
   * reject with `InterlinguaError('authentication' | 'upstream', …)`, answered in the client's format. @defaultValue the
   * target's headers
   */
  authorize?(call: ProviderCall): Promise<Record<string, string>>
  /**
   * The cloud answered 401 to a call sent with `headers`: forget the credential they carry (a cached token that
   * expired early, was revoked). `true`: the gateway sends the call once more with fresh `authorize` headers.
   * @defaultValue no second attempt
   */
  unauthorized?(headers: Readonly<Record<string, string>>): boolean
  /**
   * A streamed answer's framing → the format's SSE bytes (whole events), for a cloud whose stream is not SSE (Bedrock's
   * binary event stream). A cloud exception inside the stream becomes the format's SSE error event. Fresh state per
   * call. @defaultValue the stream is the format's SSE already
   */
  decodeStream?(request: ProviderRequest): FramingStep
  /**
   * An error answered by the cloud itself (its auth, quota or routing layer, in its own shape) → IR; `undefined` for a
   * body of the format's own shape (the format's `decodeError` reads it). `header` reads the answer's headers (Bedrock
   * names the exception in `x-amzn-errortype`). Total: never throws.
   */
  decodeError?(status: number, body: unknown, header: (name: string) => string | null): ir.ErrorInfo | undefined
  /**
   * A token-counting answer of the cloud (`kind: 'count-tokens'`, 2xx) → the number of input tokens, for a cloud whose
   * answer is not the format's own (Bedrock's CountTokens: `{inputTokens}`); `undefined` when the body holds none.
   * @defaultValue the answer is the format's, forwarded as it is
   */
  tokenCount?(body: unknown): number | undefined
  /**
   * The codec of an upstream-only format this provider serves (Bedrock: `converse`), shipped with the provider's code
   * so that only a gateway configured with it loads it. The gateway encodes requests to, and decodes answers of, an
   * upstream of that format with it. @defaultValue none: the upstream's format is in the registry
   */
  readonly codec?: GatewayFormat<WireFormatId>
}

/** What a provider may use besides its upstream's options. */
export interface ProviderContext {
  /** The gateway's `fetch` (its `fetch` option, else the global one): for token endpoints. */
  fetch: typeof fetch
  /** The upstream's name, for error messages. */
  name: string
}

/** A provider folder's `index.ts`: one `Provider` per configured upstream. */
export type ProviderFactory = (upstream: ProviderUpstream, context: ProviderContext) => Provider

/** A provider folder's `config.ts`: what the gateway knows of it without loading it. */
export interface ProviderSpec {
  /** The upstream formats it serves (an upstream-only one, `converse`, with its `codec`). */
  formats: readonly WireFormatId[]
  /**
   * The upstream's options checked at `createGateway`: a problem as `"<field> …"` (the gateway prefixes the upstream's
   * name), or `undefined`. Synchronous; a function credential cannot be checked before it is called.
   */
  check(upstream: ProviderUpstream): string | undefined
  /** Loads the provider's code (a dynamic import). */
  load(): Promise<ProviderFactory>
}

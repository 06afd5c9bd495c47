/**
 * Themes and content angles written by a language model behind any OpenAI-compatible chat-completions
 * endpoint (`POST <base>/chat/completions`: OpenAI, DeepSeek, Qwen on DashScope, Kimi, GLM ...). The
 * model only summarises the evidence it is given; it cites evidence ids, and ids it invents are dropped.
 *
 * Structured output differs by vendor: OpenAI and recent Qwen models take `response_format` of type
 * `json_schema`; DeepSeek, Kimi, GLM and older Qwen models only `json_object` (JSON mode), which wants
 * the word "json" and an example in the prompt, and refuse json_schema with a 400 or 422 naming
 * `response_format`. In `auto` mode the first refusal switches this endpoint to JSON mode with the schema
 * in the prompt, and the call is retried at once. Either way the answer is checked against the schema,
 * and blank content (DeepSeek answers spaces when its output is not JSON) is a bad answer.
 *
 * The answer is bounded by `max_tokens` (DeepSeek and DashScope take 1-8192; unbounded, a JSON-mode model
 * may write whitespace until its limit). An answer that stops at the bound (`finish_reason: "length"`) is
 * cut off and is a failure, never parsed; so are DeepSeek's `content_filter` and
 * `insufficient_system_resource` stops. OpenAI's newer models refuse `max_tokens` with a 400 naming
 * `max_completion_tokens`: that refusal switches this endpoint to it, retried at once.
 *
 * Token usage is recorded as provider spend: `usage.prompt_tokens` (which includes cached tokens),
 * `usage.completion_tokens`, and the cached input tokens, priced apart when a cached-input price is
 * configured (see `tokenCost`): DeepSeek reports them as `prompt_cache_hit_tokens` (prompt_tokens =
 * hit + miss), OpenAI-style vendors (DashScope) as `prompt_tokens_details.cached_tokens`.
 */
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { PROVIDER_LIMITS } from '../../catalog'
import { ProviderError, type EvidenceItem } from '../evidence'
import { JsonShape, type ProviderSpend, tokenCost, type TokenPrices } from '../../core'
import { checkShape, fetchJson, hostOf, ProviderHttpError } from './vendor-call'
import { count, obj } from './fields'

export interface ChatCompletionsOptions {
  baseUrl: string
  key?: string
  model: string
  timeoutMs: number
  /** json_schema, json_object, or auto (json_schema until the endpoint refuses it). Default auto. */
  responseFormat?: 'auto' | 'json_schema' | 'json_object'
  prices?: TokenPrices
  /** The bound on the answer's tokens. Default SUMMARY_MAX_TOKENS. */
  maxTokens?: number
}

/**
 * The answer's bound: a full answer (6 themes, 5 angles with a sentence and 3 ids each) is well under 1,000
 * tokens; 2,000 leaves room and is within every documented range (DeepSeek, DashScope: 1-8192; some older
 * Qwen models stop at 2,000).
 */
export const SUMMARY_MAX_TOKENS = 2000

export interface SummaryRequest {
  keyword: string
  platform: string
  /** Evidence the model may read, strongest first. */
  items: readonly EvidenceItem[]
  /** Terms counted in the evidence, as hints. */
  terms: readonly string[]
}

export interface TrendSummary {
  themes: string[]
  contentAngles: { angle: string; rationale: string; evidenceIds: string[] }[]
}

/** What the model must answer: the wire schema (kept to what strict structured-output modes accept). */
const Answer = Type.Object(
  {
    themes: Type.Array(Type.String()),
    content_angles: Type.Array(
      Type.Object(
        { angle: Type.String(), rationale: Type.String(), evidence_ids: Type.Array(Type.String()) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
)
type Answer = Static<typeof Answer>

const MAX_ITEMS = 40
const EXCERPT = 240
const MAX_THEMES = 6
const MAX_ANGLES = 5

const SYSTEM = [
  'You summarise social-media and web evidence about a keyword in the Chinese consumer market for marketers.',
  'Use only the evidence given. Themes are short noun phrases (in the language of the evidence) naming what the conversation is about.',
  'Content angles are concrete content ideas a brand could publish, each with a one-sentence rationale grounded in the evidence,',
  'citing up to three evidence ids. Answer with JSON only.',
].join(' ')

/** JSON mode has no schema parameter: the schema and an example go into the prompt (vendors ask for both). */
const JSON_MODE = [
  'Answer with one JSON object that matches this JSON schema:',
  JSON.stringify(Answer),
  'Example: {"themes": ["露营装备", "精致露营"], "content_angles": [{"angle": "A gear checklist for first-timers", "rationale": "The most engaged posts are practical lists.", "evidence_ids": ["id-1"]}]}',
].join('\n')

/** A 400 or 422 about the response format: the endpoint does not take json_schema (DeepSeek, older Qwen models, ...). */
const refusesSchema = (e: ProviderHttpError) => /response_format|json_schema|structured output/i.test(e.excerpt)
/** OpenAI's 400 for models that take only max_completion_tokens ("Unsupported parameter: 'max_tokens' ..."). */
const wantsCompletionTokens = (e: ProviderHttpError) => /max_completion_tokens/.test(e.excerpt)

/** Stops that leave no whole answer, by DeepSeek's documented finish_reason values (OpenAI shares the first two). */
const CUT_OFF = new Map<unknown, [kind: 'bad_response' | 'unavailable', why: string]>([
  [
    'length',
    ['bad_response', 'the answer was cut off at max_tokens or the context length (finish_reason "length"); a cut-off answer is not read'],
  ],
  ['content_filter', ['bad_response', 'the vendor’s content filter withheld the answer (finish_reason "content_filter")']],
  [
    'insufficient_system_resource',
    ['unavailable', 'the vendor ran out of inference capacity mid-answer (finish_reason "insufficient_system_resource")'],
  ],
])

/** What one summary's calls used, for the spend record. */
interface Used {
  requests: number
  input: number
  cachedInput: number
  output: number
}

export class ChatCompletionsSummariser {
  readonly name: string
  readonly timeoutMs: number
  /** Switched to json_object once the endpoint refused json_schema (auto mode). */
  private jsonMode: boolean
  /** Switched once the endpoint refused max_tokens for max_completion_tokens. */
  private completionTokens = false

  constructor(private readonly options: ChatCompletionsOptions) {
    this.name = `chat-completions (${hostOf(options.baseUrl)}, ${options.model})`
    this.timeoutMs = options.timeoutMs
    this.jsonMode = options.responseFormat === 'json_object'
  }

  /** The output mode in use: json_schema, or json_object (configured, or after a refusal in auto mode). */
  get responseFormat(): 'json_schema' | 'json_object' {
    return this.jsonMode ? 'json_object' : 'json_schema'
  }

  /** Themes and angles of the evidence; the requests and tokens it took are added to `spend`. */
  async summarise(request: SummaryRequest, signal: AbortSignal, spend?: ProviderSpend[]): Promise<TrendSummary> {
    const items = request.items.slice(0, MAX_ITEMS)
    const evidence = items.map((item) => ({
      id: item.id,
      platform: item.platform,
      kind: item.sourceKind,
      date: item.publishedAt.toISOString().slice(0, 10),
      text: `${item.title} ${item.text}`.trim().slice(0, EXCERPT),
    }))
    const user = JSON.stringify({ keyword: request.keyword, platform: request.platform, frequent_terms: request.terms, evidence })
    const used: Used = { requests: 0, input: 0, cachedInput: 0, output: 0 }
    const record = () => {
      if (used.requests === 0) return
      const prices = this.options.prices
      const priced = prices ? tokenCost(prices, used.input, used.output, used.cachedInput) : null
      spend?.push({
        provider: this.name,
        role: 'summary',
        requests: used.requests,
        inputTokens: used.input,
        outputTokens: used.output,
        costNanoUsd: priced,
      })
    }
    try {
      let body: unknown
      // Each refusal the endpoint explains is adapted to once, then asked again at once.
      for (;;) {
        try {
          body = await this.ask(user, signal, used)
          break
        } catch (error) {
          if (!this.adapt(error)) throw error
        }
      }
      const answer = parseAnswer(this.name, body)
      return this.summary(answer, items)
    } finally {
      record()
    }
  }

  /** Whether `error` is a refusal this endpoint can be adapted to (and it now is). */
  private adapt(error: unknown): boolean {
    if (!(error instanceof ProviderHttpError) || (error.status !== 400 && error.status !== 422)) return false
    if (!this.completionTokens && wantsCompletionTokens(error)) return (this.completionTokens = true)
    if (!this.jsonMode && this.options.responseFormat !== 'json_schema' && refusesSchema(error)) return (this.jsonMode = true)
    return false
  }

  private async ask(user: string, signal: AbortSignal, used: Used): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
    if (this.options.key) headers.authorization = `Bearer ${this.options.key}`
    const json = this.jsonMode
    used.requests++
    const body = await fetchJson(
      this.name,
      `${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`,
      {
        method: 'POST',
        headers,
        signal,
        body: JSON.stringify({
          model: this.options.model,
          temperature: 0,
          [this.completionTokens ? 'max_completion_tokens' : 'max_tokens']: this.options.maxTokens ?? SUMMARY_MAX_TOKENS,
          messages: [
            { role: 'system', content: json ? `${SYSTEM}\n${JSON_MODE}` : SYSTEM },
            { role: 'user', content: user },
          ],
          response_format: json
            ? { type: 'json_object' }
            : { type: 'json_schema', json_schema: { name: 'trend_summary', strict: true, schema: Answer } },
        }),
      },
      PROVIDER_LIMITS.summaryResponseBytes,
    )
    const usage = obj(obj(body).usage)
    used.input += count(usage.prompt_tokens) ?? 0
    used.cachedInput += count(usage.prompt_cache_hit_tokens) ?? count(obj(usage.prompt_tokens_details).cached_tokens) ?? 0
    used.output += count(usage.completion_tokens) ?? 0
    return body
  }

  private summary(answer: Answer, items: readonly EvidenceItem[]): TrendSummary {
    const known = new Set(items.map((i) => i.id))
    const themes = [...new Set(answer.themes.map((t) => t.trim()).filter(Boolean))].slice(0, MAX_THEMES)
    const contentAngles = answer.content_angles
      .filter((a) => a.angle.trim() && a.rationale.trim())
      .slice(0, MAX_ANGLES)
      .map((a) => ({
        angle: a.angle.trim(),
        rationale: a.rationale.trim(),
        evidenceIds: a.evidence_ids.filter((id) => known.has(id)).slice(0, 3),
      }))
    if (themes.length === 0) throw new ProviderError('bad_response', this.name, 'answered without themes')
    return { themes, contentAngles }
  }
}

/** The JSON answer inside `choices[0].message.content`, checked against the schema. */
function parseAnswer(provider: string, body: unknown): Answer {
  const choice = (body as { choices?: { finish_reason?: unknown; message?: { content?: unknown; refusal?: unknown } }[] })?.choices?.[0]
  const stop = CUT_OFF.get(choice?.finish_reason)
  if (stop) throw new ProviderError(stop[0], provider, stop[1])
  const message = choice?.message
  if (typeof message?.refusal === 'string' && message.refusal)
    throw new ProviderError('bad_response', provider, 'the model refused to answer')
  if (typeof message?.content !== 'string') throw new ProviderError('bad_response', provider, 'answered without choices[0].message.content')
  if (!message.content.trim())
    throw new ProviderError('bad_response', provider, 'the model answered blank content (its output was not JSON)')
  // JSON mode answers sometimes come fenced as a Markdown code block.
  const text = message.content.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/i, '$1')
  checkShape(provider, new JsonShape().scan(text))
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new ProviderError('bad_response', provider, 'the model answered text that is not JSON')
  }
  // Fields the schema does not name are dropped (JSON mode cannot forbid them); what it names must be right.
  const cleaned = Value.Clean(Answer, parsed && typeof parsed === 'object' ? structuredClone(parsed) : parsed)
  if (!Value.Check(Answer, cleaned)) throw new ProviderError('bad_response', provider, 'the model answered JSON of the wrong shape')
  return cleaned
}

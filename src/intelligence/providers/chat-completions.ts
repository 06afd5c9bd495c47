/**
 * Themes and content angles written by a language model behind any OpenAI-compatible chat-completions
 * endpoint (`POST <base>/chat/completions`), with structured JSON output (`response_format` of type
 * `json_schema`). The model only summarises the evidence it is given; it cites evidence ids, and ids it
 * invents are dropped.
 */
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { PROVIDER_LIMITS } from '../../catalog/evidence-rules'
import { ProviderError, type EvidenceItem } from '../evidence'
import { fetchJson, hostOf } from './call'

export interface ChatCompletionsOptions {
  baseUrl: string
  key?: string
  model: string
  timeoutMs: number
}

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
      Type.Object({ angle: Type.String(), rationale: Type.String(), evidence_ids: Type.Array(Type.String()) }, { additionalProperties: false }),
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

export class ChatCompletionsSummariser {
  readonly name: string
  readonly timeoutMs: number

  constructor(private readonly o: ChatCompletionsOptions) {
    this.name = `chat-completions (${hostOf(o.baseUrl)}, ${o.model})`
    this.timeoutMs = o.timeoutMs
  }

  async summarise(r: SummaryRequest, signal: AbortSignal): Promise<TrendSummary> {
    const items = r.items.slice(0, MAX_ITEMS)
    const evidence = items.map((i) => ({ id: i.id, platform: i.platform, kind: i.sourceKind, date: i.publishedAt.toISOString().slice(0, 10), text: `${i.title} ${i.text}`.trim().slice(0, EXCERPT) }))
    const user = JSON.stringify({ keyword: r.keyword, platform: r.platform, frequent_terms: r.terms, evidence })
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
    if (this.o.key) headers.authorization = `Bearer ${this.o.key}`
    const body = await fetchJson(this.name, `${this.o.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers,
      signal,
      body: JSON.stringify({
        model: this.o.model,
        temperature: 0,
        messages: [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: user },
        ],
        response_format: { type: 'json_schema', json_schema: { name: 'trend_summary', strict: true, schema: Answer } },
      }),
    }, PROVIDER_LIMITS.summaryResponseBytes)
    const answer = parseAnswer(this.name, body)
    const known = new Set(items.map((i) => i.id))
    const themes = [...new Set(answer.themes.map((t) => t.trim()).filter(Boolean))].slice(0, MAX_THEMES)
    const contentAngles = answer.content_angles
      .filter((a) => a.angle.trim() && a.rationale.trim())
      .slice(0, MAX_ANGLES)
      .map((a) => ({ angle: a.angle.trim(), rationale: a.rationale.trim(), evidenceIds: a.evidence_ids.filter((id) => known.has(id)).slice(0, 3) }))
    if (themes.length === 0) throw new ProviderError('bad_response', this.name, 'answered without themes')
    return { themes, contentAngles }
  }
}

/** The JSON answer inside `choices[0].message.content`, checked against the schema. */
function parseAnswer(provider: string, body: unknown): Answer {
  const message = (body as { choices?: { message?: { content?: unknown; refusal?: unknown } }[] })?.choices?.[0]?.message
  if (typeof message?.refusal === 'string' && message.refusal) throw new ProviderError('bad_response', provider, 'the model refused to answer')
  if (typeof message?.content !== 'string') throw new ProviderError('bad_response', provider, 'answered without choices[0].message.content')
  let parsed: unknown
  try {
    parsed = JSON.parse(message.content)
  } catch {
    throw new ProviderError('bad_response', provider, 'the model answered text that is not JSON')
  }
  if (!Value.Check(Answer, parsed)) throw new ProviderError('bad_response', provider, 'the model answered JSON of the wrong shape')
  return parsed
}

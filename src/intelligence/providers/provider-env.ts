/**
 * The environment variables of the live evidence providers (web search, native search, the model), as
 * rows of the settings table (src/config/settings.ts): name -> schema, default, meaning.
 */
import { PLATFORM_TOKENS } from '../../catalog'
import { HttpUrl, Millis, UsdPrice } from '../../core'
import { Type as T } from '@sinclair/typebox'
import { LLM_FORMATS, NATIVE_VENDORS, WEB_VENDORS, type VendorFacts } from './provider-settings'
import { NATIVE_ADAPTERS, WEB_ADAPTERS } from './vendors'

type Adapters = Record<string, { facts: VendorFacts }>
/** The vendors as the settings table lists them: `generic` (what it is), … or `bocha` (…). */
const listed = (adapters: Adapters) => {
  const items = Object.entries(adapters).map(([vendor, { facts }]) => `\`${vendor}\` (${facts.docs})`)
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`
}
/** A default that differs by vendor: the most vendors' value, then the others' (`12000 (tikhub: 30000)`, `(unset; bocha: https://…)`). */
const byVendor = (adapters: Adapters, pick: (facts: VendorFacts) => string | undefined) => {
  const values = Object.entries(adapters).map(([vendor, { facts }]) => [vendor, pick(facts)] as const)
  const tally = new Map<string | undefined, number>()
  for (const [, value] of values) tally.set(value, (tally.get(value) ?? 0) + 1)
  const usual = [...tally].sort((a, b) => b[1] - a[1])[0]![0]
  const others = values.filter(([, value]) => value !== usual).map(([vendor, value]) => `${vendor}: ${value ?? 'unset'}`)
  if (usual === undefined) return `(unset${others.length ? `; ${others.join('; ')}` : ''})`
  return others.length ? `${usual} (${others.join('; ')})` : usual
}

export const PROVIDER_ENV = {
  WEB_SEARCH_PROVIDER: {
    schema: T.Union(WEB_VENDORS.map((v) => T.Literal(v))),
    default: 'generic',
    meaning: `The web-search API behind WEB_SEARCH_URL: ${listed(WEB_ADAPTERS)}. Web search is the broad evidence of every lane.`,
  },
  WEB_SEARCH_URL: {
    schema: HttpUrl,
    default: byVendor(WEB_ADAPTERS, (facts) => facts.url),
    meaning:
      'Base URL of the web-search provider (generic: the search URL itself). Setting it, or a vendor in WEB_SEARCH_PROVIDER or NATIVE_SEARCH_PROVIDER, switches the China routes from the sample corpus to live providers.',
  },
  WEB_SEARCH_KEY: {
    schema: T.String({ minLength: 1 }),
    default: '(unset)',
    meaning: "The web-search provider's key, sent as `Authorization: Bearer <key>`.",
  },
  WEB_SEARCH_TIMEOUT_MS: {
    schema: Millis(25_000),
    default: byVendor(WEB_ADAPTERS, (facts) => String(facts.timeoutMs)),
    meaning: 'Timeout of one web-search call (all its pages), 100-25000 ms.',
  },
  WEB_SEARCH_MAX_PAGES: {
    schema: T.Integer({ minimum: 1, maximum: 10 }),
    default: byVendor(WEB_ADAPTERS, (facts) => String(facts.maxPages)),
    meaning:
      'Pages (requests) asked of the web-search provider at most per window, until it has no more, a page brings nothing new, or (a vendor listing newest first) its results reach back past the window. A relevance-ranked count cut off here is a lower bound (`capped`).',
  },
  WEB_SEARCH_PRICE_USD: {
    schema: UsdPrice,
    default: '(unset: requests counted, not priced)',
    meaning:
      'What one web-search request costs you, in USD (e.g. `0.005`): recorded per paid answer so `payments report` sets provider spend against revenue.',
  },
  NATIVE_SEARCH_PROVIDER: {
    schema: T.Union(NATIVE_VENDORS.map((v) => T.Literal(v))),
    default: 'generic',
    meaning: `The first-party platform data API: ${listed(NATIVE_ADAPTERS)}. A native provider is what the KOL routes need.`,
  },
  NATIVE_SEARCH_URL: {
    schema: HttpUrl,
    default: byVendor(NATIVE_ADAPTERS, (facts) => facts.url),
    meaning:
      'Base URL of the native provider (generic: the search URL itself). TikHub from mainland China: https://api.tikhub.dev (the same API; api.tikhub.io is not reachable there).',
  },
  NATIVE_SEARCH_KEY: {
    schema: T.String({ minLength: 1 }),
    default: '(unset)',
    meaning: "The native provider's key, sent as `Authorization: Bearer <key>`.",
  },
  NATIVE_SEARCH_PLATFORMS: {
    schema: T.String({ pattern: `^(${PLATFORM_TOKENS.join('|')})(,(${PLATFORM_TOKENS.join('|')}))*$` }),
    default: byVendor(NATIVE_ADAPTERS, (facts) => facts.platforms?.join(',')),
    meaning: 'Comma-separated platforms the native provider discovers first-party content for.',
  },
  NATIVE_SEARCH_TIMEOUT_MS: {
    schema: Millis(30_000),
    default: byVendor(NATIVE_ADAPTERS, (facts) => String(facts.timeoutMs)),
    meaning:
      'Timeout of one native-search call (all its pages), 100-30000 ms (TikHub documents at least 30 s: `providers check` says when it is less).',
  },
  NATIVE_SEARCH_MAX_PAGES: {
    schema: T.Integer({ minimum: 1, maximum: 10 }),
    default: byVendor(NATIVE_ADAPTERS, (facts) => String(facts.maxPages)),
    meaning: 'Pages (requests) asked of the native provider at most per window.',
  },
  NATIVE_SEARCH_PRICE_USD: {
    schema: UsdPrice,
    default: '(unset: requests counted, not priced)',
    meaning: 'What one native-search request costs you, in USD (e.g. `0.001`).',
  },
  LLM_BASE_URL: {
    schema: HttpUrl,
    default: '(unset)',
    meaning:
      'OpenAI-compatible chat-completions base URL (…/v1: OpenAI, DeepSeek, Qwen on DashScope, …); when set, trend themes and content angles are written by the model from the evidence.',
  },
  LLM_API_KEY: {
    schema: T.String({ minLength: 1 }),
    default: '(unset)',
    meaning: 'Sent to LLM_BASE_URL as `Authorization: Bearer <key>`.',
  },
  LLM_MODEL: {
    schema: T.String({ minLength: 1, maxLength: 200 }),
    default: '(unset; required with LLM_BASE_URL)',
    meaning: 'Model name passed to the chat-completions endpoint.',
  },
  LLM_TIMEOUT_MS: { schema: Millis(30_000), default: '20000', meaning: 'Timeout of one chat-completions call, 100-30000 ms.' },
  LLM_RESPONSE_FORMAT: {
    schema: T.Union(LLM_FORMATS.map((f) => T.Literal(f))),
    default: 'auto',
    meaning:
      '`json_schema` (structured output), `json_object` (JSON mode, the schema in the prompt: DeepSeek and others) or `auto`: json_schema, and json_object from the first time the endpoint refuses it. The answer is validated against the schema either way.',
  },
  LLM_PRICE_INPUT_USD_PER_MTOK: {
    schema: UsdPrice,
    default: '(unset: tokens counted, not priced)',
    meaning: 'USD per million input (prompt) tokens, as the model vendor bills them (e.g. `0.27`).',
  },
  LLM_PRICE_CACHED_INPUT_USD_PER_MTOK: {
    schema: UsdPrice,
    default: '(unset: cached input tokens at the input price)',
    meaning:
      "USD per million cached input tokens (DeepSeek's `prompt_cache_hit_tokens`, `prompt_tokens_details.cached_tokens` elsewhere), e.g. 0.028 for DeepSeek V3.2; with the input and output prices.",
  },
  LLM_PRICE_OUTPUT_USD_PER_MTOK: {
    schema: UsdPrice,
    default: '(unset: tokens counted, not priced)',
    meaning: 'USD per million output (completion) tokens.',
  },
} as const

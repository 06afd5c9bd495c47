/**
 * The settings of the live evidence providers, as the configuration (src/config/config.ts) reads them from the
 * environment and hands them to the intelligence layer: which built-in adapter, where, its key, its
 * budgets and prices.
 */
import type { Platform } from '../../catalog'
import type { TokenPrices } from '../../core'

/** Built-in web-search and native adapters (src/intelligence/providers/), and the model's output modes. */
export const WEB_VENDORS = ['generic', 'searxng', 'bocha'] as const
export const NATIVE_VENDORS = ['generic', 'tikhub'] as const
export const LLM_FORMATS = ['auto', 'json_schema', 'json_object'] as const
export type WebVendor = (typeof WEB_VENDORS)[number]
export type NativeVendor = (typeof NATIVE_VENDORS)[number]
export type LlmFormat = (typeof LLM_FORMATS)[number]

/**
 * What a built-in search adapter declares of its vendor, once, beside its code (providers/vendors.ts
 * registers them): the configuration's defaults, the settings table's text, and the hints `doctor`,
 * `providers check` and the banner give about a setting that costs the seller with this vendor.
 */
export interface VendorFacts {
  /** What the `*_SEARCH_PROVIDER` setting says of it (docs/configuration.md). */
  docs: string
  /** Where its API lives when `*_SEARCH_URL` is not set (none: the seller runs it, or names it). */
  url?: string
  /** Its API refuses calls without `*_SEARCH_KEY`: the configuration asks for one. */
  keyRequired?: boolean
  /** One call's timeout (all its pages) when `*_SEARCH_TIMEOUT_MS` is not set. */
  timeoutMs: number
  /** Pages asked for at most per window when `*_SEARCH_MAX_PAGES` is not set. */
  maxPages: number
  /** A native vendor's platforms when NATIVE_SEARCH_PLATFORMS is not set. */
  platforms?: readonly Platform[]
  /** Settings that look like a mistake with this vendor, each said in one line naming the setting. */
  hints?: (settings: SearchSettings<string>) => string[]
}

/** One search provider: which adapter, where, its key, its time and page budget, its price per request. */
export interface SearchSettings<V extends string> {
  /** Built-in adapter; generic when absent. */
  vendor?: V
  url: string
  key?: string
  timeoutMs: number
  /** Pages asked for at most per window (default: 1 generic, 3 the vendors). */
  maxPages?: number
  /** What one request costs the seller, in nano-USD. */
  priceNanoUsd?: bigint
}

export interface ProviderSettings {
  webSearch: SearchSettings<WebVendor> | null
  nativeSearch: (SearchSettings<NativeVendor> & { platforms: Platform[] }) | null
  llm: {
    baseUrl: string
    key?: string
    model: string
    timeoutMs: number
    /** Default auto. */
    responseFormat?: LlmFormat
    /** Per million tokens, in nano-USD, when configured (cached input tokens at their own price when given). */
    prices?: TokenPrices
  } | null
}

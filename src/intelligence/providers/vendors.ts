/**
 * The built-in search adapters, chosen by WEB_SEARCH_PROVIDER and NATIVE_SEARCH_PROVIDER, each with what
 * it declares of its vendor (VendorFacts, beside its code). Each speaks its vendor's documented API
 * (path, authentication, date, language, count and page parameters, field names); the pager (paging.ts)
 * makes them all evidence providers with honest coverage. A new vendor: its adapter file, one line here.
 */
import type { NativeVendor, SearchSettings, VendorFacts, WebVendor } from './provider-settings'
import type { EvidenceProvider, Platform } from '../evidence'
import { BOCHA, BochaAdapter } from './bocha'
import { PagedProvider, type VendorAdapter } from './paging'
import { GENERIC_NATIVE, GENERIC_WEB, SearchHttpAdapter } from './search-http'
import { SEARXNG, SearxngAdapter } from './searxng'
import { TIKHUB, TikhubAdapter } from './tikhub'

type NativeSettings = SearchSettings<NativeVendor> & { platforms: Platform[] }

export const WEB_ADAPTERS: Record<WebVendor, { facts: VendorFacts; create: (settings: SearchSettings<WebVendor>) => VendorAdapter }> = {
  generic: { facts: GENERIC_WEB, create: (settings) => new SearchHttpAdapter({ role: 'web', ...settings }) },
  searxng: { facts: SEARXNG, create: (settings) => new SearxngAdapter(settings) },
  bocha: { facts: BOCHA, create: (settings) => new BochaAdapter(settings) },
}

export const NATIVE_ADAPTERS: Record<NativeVendor, { facts: VendorFacts; create: (settings: NativeSettings) => VendorAdapter }> = {
  generic: { facts: GENERIC_NATIVE, create: (settings) => new SearchHttpAdapter({ role: 'native', ...settings }) },
  tikhub: { facts: TIKHUB, create: (settings) => new TikhubAdapter(settings) },
}

export function webProvider(settings: SearchSettings<WebVendor>): EvidenceProvider {
  return new PagedProvider(WEB_ADAPTERS[settings.vendor ?? 'generic'].create(settings))
}

export function nativeProvider(settings: NativeSettings): EvidenceProvider {
  return new PagedProvider(NATIVE_ADAPTERS[settings.vendor ?? 'generic'].create(settings))
}

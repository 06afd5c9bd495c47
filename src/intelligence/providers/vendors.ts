/**
 * The built-in search adapters, chosen by WEB_SEARCH_PROVIDER and NATIVE_SEARCH_PROVIDER. Each speaks
 * its vendor's documented API (path, authentication, date, language, count and page parameters, field
 * names); the pager (paging.ts) makes them all evidence providers with honest coverage.
 */
import type { NativeVendor, SearchSettings, WebVendor } from '../provider-settings'
import type { EvidenceProvider, Platform } from '../evidence'
import { BochaAdapter } from './bocha'
import { PagedProvider, type VendorAdapter } from './paging'
import { SearchHttpAdapter } from './search-http'
import { SearxngAdapter } from './searxng'
import { TikhubAdapter } from './tikhub'

export function webProvider(settings: SearchSettings<WebVendor>): EvidenceProvider {
  const adapters: Record<WebVendor, () => VendorAdapter> = {
    generic: () => new SearchHttpAdapter({ role: 'web', ...settings }),
    searxng: () => new SearxngAdapter(settings),
    bocha: () => new BochaAdapter(settings),
  }
  return new PagedProvider(adapters[settings.vendor ?? 'generic']())
}

export function nativeProvider(settings: SearchSettings<NativeVendor> & { platforms: Platform[] }): EvidenceProvider {
  const adapters: Record<NativeVendor, () => VendorAdapter> = {
    generic: () => new SearchHttpAdapter({ role: 'native', ...settings }),
    tikhub: () => new TikhubAdapter(settings),
  }
  return new PagedProvider(adapters[settings.vendor ?? 'generic']())
}

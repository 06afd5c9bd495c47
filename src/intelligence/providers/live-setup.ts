/**
 * What the China routes run on, said where a seller looks: the start-up banner, /ready and `providers
 * check`. Which providers serve which lanes, whether the KOL routes can answer (they need creators:
 * authors, followers and engagement, which only a native provider returns), and, after traffic, how
 * each provider's last call went.
 */
import { LANE_POLICY } from '../lanes'
import { type Platform, PLATFORM_TOKENS } from '../../catalog'
import type { ProviderSettings } from './provider-settings'
import { NATIVE_ADAPTERS, WEB_ADAPTERS } from './vendors'
import { ApiError } from '../../core'
import { creatorsOn } from '../evidence'
import type { EvidenceSources } from '../sources'

export interface LiveSetup {
  mode: 'sample' | 'live'
  web: string | null
  native: { provider: string; platforms: Platform[] } | null
  model: string | null
  lanes: Record<Platform, string>
  /** Where the KOL routes find creators, or why they cannot answer. */
  kols: string
}

export function liveSetup(src: EvidenceSources): LiveSetup {
  const native = src.native[0]
  const web = src.web[0]
  const platforms = native ? PLATFORM_TOKENS.filter((p) => native.serves(p)) : []
  const creators = native ? PLATFORM_TOKENS.filter((p) => creatorsOn(native, p)) : []
  if (src.mode === 'sample') {
    return {
      mode: 'sample',
      web: null,
      native: null,
      model: src.summariser?.name ?? null,
      lanes: Object.fromEntries(PLATFORM_TOKENS.map((p) => [p, `${LANE_POLICY[p]}: sample corpus`])) as Record<Platform, string>,
      kols: 'sample corpus',
    }
  }
  const lane = (p: Platform) => {
    const steps = [...(native?.serves(p) ? [`native ${native.name}`] : []), ...(web ? [`web ${web.name}`] : [])]
    return `${LANE_POLICY[p]}: ${steps.join(', then ') || 'no provider'}`
  }
  return {
    mode: 'live',
    web: web?.name ?? null,
    native: native ? { provider: native.name, platforms } : null,
    model: src.summariser?.name ?? null,
    lanes: Object.fromEntries(PLATFORM_TOKENS.map((p) => [p, lane(p)])) as Record<Platform, string>,
    kols: creators.length
      ? `creators from ${native!.name} (${creators.join(', ')})`
      : 'unavailable: no configured provider returns creators with follower counts; set NATIVE_SEARCH_PROVIDER',
  }
}

/**
 * Settings that look like a mistake a seller makes going live: a SearXNG instance configured as the
 * generic protocol (every call then answers HTML or 403 until `format=json` is guessed), a TikHub
 * timeout under its documented minimum.
 */
export function configHints(settings: ProviderSettings): string[] {
  const { webSearch: web, nativeSearch: native } = settings
  // Each vendor's adapter declares what looks like a mistake with it (providers/vendors.ts).
  return [
    ...(web ? (WEB_ADAPTERS[web.vendor ?? 'generic'].facts.hints?.(web) ?? []) : []),
    ...(native ? (NATIVE_ADAPTERS[native.vendor ?? 'generic'].facts.hints?.(native) ?? []) : []),
  ]
}

/** The banner's evidence lines: the live setup, or the sample corpus (with the model, if one is configured). */
export function setupLines(setup: LiveSetup | { mode: 'sample'; model: string | null }): string[] {
  if (setup.mode === 'sample') {
    return [
      `  evidence: sample corpus (no live provider configured: WEB_SEARCH_PROVIDER, NATIVE_SEARCH_PROVIDER in docs/intelligence.md)${setup.model ? `; model ${setup.model}` : ''}`,
    ]
  }
  return [
    `  evidence: LIVE providers: web ${setup.web ?? 'none'}; native ${setup.native ? `${setup.native.provider} for ${setup.native.platforms.join(', ')}` : 'none'}; model ${setup.model ?? 'none (extractive themes)'}`,
    `  lanes:    ${PLATFORM_TOKENS.map((p) => `${p} ${setup.lanes[p]}`).join('; ')}`,
    `  KOLs:     ${setup.kols.startsWith('unavailable') ? 'NOT AVAILABLE: /v1/china/kols and /v1/kol/shortlist answer 422 native_provider_required (web search returns no creators); set NATIVE_SEARCH_PROVIDER' : setup.kols}`,
    '  check:    `providers check` asks each provider once and says what it returns',
  ]
}

/**
 * The KOL routes score creators: with live providers they need a native provider serving the platform
 * asked for (or any platform). Refused before payment, so nobody pays for an answer that cannot exist.
 */
export function requireCreators(src: EvidenceSources, platform: Platform | null): void {
  if (src.mode !== 'live') return
  if (src.native.some((p) => PLATFORM_TOKENS.some((x) => (platform === null || x === platform) && creatorsOn(p, x)))) return
  const where = platform ? ` for ${platform}` : ''
  throw new ApiError(
    'native_provider_required',
    `KOL shortlists need creators (authors, followers, engagement), which only a native platform provider returns, and none configured here returns them${where}; nothing was charged.`,
    {
      platform,
      configured: {
        web: src.web.map((p) => p.name),
        native: src.native.map((p) => ({
          provider: p.name,
          platforms: PLATFORM_TOKENS.filter((x) => p.serves(x)),
          creators: PLATFORM_TOKENS.filter((x) => creatorsOn(p, x)),
        })),
      },
    },
  )
}

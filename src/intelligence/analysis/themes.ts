/**
 * Themes, related keywords and content angles of a keyword's evidence. Extractive by default: salient
 * terms (hashtags and segmented words) ranked by engagement-weighted document frequency. With a
 * chat-completions provider configured, the model writes themes and angles from the same evidence; if
 * it fails, the extractive answer stands and the failure is reported.
 */
import { engagementOf, ProviderError, type EvidenceItem } from '../evidence'
import type { ProviderReport } from '../lanes'
import type { ProviderSpend } from '../../core'
import { withDeadline } from '../providers/vendor-call'
import { byStrength, median, round } from '../reports/report'
import { scoreText, type Tone } from './sentiment'
import type { EvidenceSources } from '../sources'
import { termsOf } from './text'
import { eachSliced, evenSample } from '../turns'
import { TEXT_ANALYSIS_MAX_ITEMS } from '../../catalog'

export interface TermStat {
  term: string
  mentions: number
  score: number
  items: EvidenceItem[]
}

/** A term in more than this share of the items restates the keyword rather than naming a theme. */
const MAX_THEME_SHARE = 0.8
const THEMES = 5
const RELATED = 10
const ANGLES = 3

const weight = (i: EvidenceItem) => 1 + Math.log10(1 + engagementOf(i))

/** Term statistics of the items (segmentation is the costly part: in slices, see turns.ts). */
export async function termStats(items: readonly EvidenceItem[], terms: readonly string[]): Promise<TermStat[]> {
  const exclude = new Set([...terms, terms.join('')])
  const stats = new Map<string, TermStat>()
  await eachSliced(items, (item) => {
    for (const term of termsOf(`${item.title} ${item.text}`, item.language, exclude)) {
      const stat = stats.get(term) ?? { term, mentions: 0, score: 0, items: [] }
      stat.mentions++
      stat.score += weight(item)
      stat.items.push(item)
      stats.set(term, stat)
    }
  })
  return [...stats.values()].sort((a, b) => b.score - a.score || a.term.localeCompare(b.term))
}

const bare = (term: string) => term.replace(/^#/, '')

/**
 * Themes: sub-themes first (terms that contain a keyword term, like 精致露营 for 露营), then hashtags,
 * then words, each by score; a term contained in (or containing) a theme already chosen adds nothing.
 */
export function pickThemes(stats: readonly TermStat[], total: number, terms: readonly string[]): TermStat[] {
  const rank = (s: TermStat) => (terms.some((t) => bare(s.term).includes(t)) ? 0 : s.term.startsWith('#') ? 1 : 2)
  const ordered = [...stats].sort((a, b) => rank(a) - rank(b))
  const chosen: TermStat[] = []
  for (const stat of ordered) {
    if (chosen.length === THEMES) break
    if (stat.mentions < 2 || stat.mentions > MAX_THEME_SHARE * total) continue
    if (chosen.some((c) => bare(c.term).includes(bare(stat.term)) || bare(stat.term).includes(bare(c.term)))) continue
    chosen.push(stat)
  }
  return chosen
}

/** A hashtag and the same word in the text are one keyword: keep the first (higher-scored) of them. */
function dedupeBare(stats: readonly TermStat[]): TermStat[] {
  const seen = new Set<string>()
  return stats.filter((s) => !seen.has(bare(s.term)) && seen.add(bare(s.term)))
}

export interface ContentAngle {
  angle: string
  rationale: string
  example_evidence_id: string | null
}

/** One angle per leading theme, from how the theme's evidence reads and performs. */
export function extractiveAngles(
  themes: readonly TermStat[],
  all: readonly EvidenceItem[],
  toneOf: (item: EvidenceItem) => Tone,
): ContentAngle[] {
  const engaged = (xs: readonly EvidenceItem[]) => xs.filter((i) => i.engagement).map(engagementOf)
  const baseline = median(engaged(all))
  return themes.slice(0, ANGLES).map((theme) => {
    const itemCount = theme.items.length
    const pos = theme.items.filter((i) => toneOf(i) === 'positive').length / itemCount
    const neg = theme.items.filter((i) => toneOf(i) === 'negative').length / itemCount
    const kinds = new Map<string, number>()
    for (const i of theme.items) kinds.set(i.sourceKind, (kinds.get(i.sourceKind) ?? 0) + 1)
    const kind = [...kinds.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0]
    const themeMedian = median(engaged(theme.items))
    const lift = baseline > 0 && themeMedian > 0 ? `; median engagement ${round(themeMedian / baseline, 1)}x the keyword's` : ''
    const term = bare(theme.term)
    // The example must show what the angle says: a complaint for doubts, praise for a showcase, any item for a guide.
    const [angle, cites]: [string, Tone | null] =
      neg >= 0.35
        ? [`Answer the doubts around "${term}": address the complaints head-on`, 'negative']
        : pos >= 0.5
          ? [`Showcase "${term}": lead with what people praise`, 'positive']
          : [`Explain "${term}": guides, comparisons and first-hand notes`, null]
    return {
      angle,
      rationale: `${itemCount} of ${all.length} items mention "${term}" (${Math.round(pos * 100)}% positive, ${Math.round(neg * 100)}% negative)${lift}; most often as ${kind.replace('_', ' ')}.`,
      example_evidence_id: theme.items.filter((i) => cites === null || toneOf(i) === cites).sort(byStrength)[0]?.id ?? null,
    }
  })
}

export interface ThemeAnswer {
  themes: string[]
  related_keywords: { keyword: string; mentions: number }[]
  content_angles: ContentAngle[]
  themes_source: 'extractive' | 'llm'
  call?: ProviderReport
}

/** Tones of the items the angles read (those of the leading themes), scored once each, in slices. */
async function tonesOf(themes: readonly TermStat[]): Promise<(item: EvidenceItem) => Tone> {
  const tones = new Map<EvidenceItem, Tone>()
  await eachSliced([...new Set(themes.slice(0, ANGLES).flatMap((t) => t.items))], (i) =>
    tones.set(i, scoreText(`${i.title} ${i.text}`, i.language).tone),
  )
  return (i) => tones.get(i)!
}

/** Themes from at most TEXT_ANALYSIS_MAX_ITEMS of the items, evenly spaced through them. */
export async function themesOf(
  sources: EvidenceSources,
  keyword: string,
  platform: string,
  all: readonly EvidenceItem[],
  terms: readonly string[],
  spend?: ProviderSpend[],
): Promise<ThemeAnswer> {
  const items = evenSample(all, TEXT_ANALYSIS_MAX_ITEMS)
  const stats = await termStats(items, terms)
  const themes = pickThemes(stats, items.length, terms)
  const chosen = new Set(themes.map((t) => bare(t.term)))
  const extractive: ThemeAnswer = {
    themes: themes.map((t) => bare(t.term)),
    related_keywords: dedupeBare(stats.filter((s) => !chosen.has(bare(s.term)) && s.mentions >= 2))
      .slice(0, RELATED)
      .map((s) => ({ keyword: bare(s.term), mentions: s.mentions })),
    content_angles: extractiveAngles(themes, items, await tonesOf(themes)),
    themes_source: 'extractive',
  }
  const llm = sources.summariser
  if (!llm) return extractive
  const base = { provider: llm.name, role: 'summary', platform: null } as const
  try {
    const strongest = [...items].sort(byStrength)
    const summary = await withDeadline(llm.name, llm.timeoutMs, (signal) =>
      llm.summarise({ keyword, platform, items: strongest, terms: stats.slice(0, 15).map((t) => bare(t.term)) }, signal, spend),
    )
    return {
      ...extractive,
      themes: summary.themes,
      content_angles: summary.contentAngles.map((a) => ({
        angle: a.angle,
        rationale: a.rationale,
        example_evidence_id: a.evidenceIds[0] ?? null,
      })),
      themes_source: 'llm',
      call: { ...base, status: 'ok', items: summary.themes.length },
    }
  } catch (caught) {
    const error = caught instanceof ProviderError ? caught : new ProviderError('unavailable', llm.name, String(caught))
    return {
      ...extractive,
      call: {
        ...base,
        status: error.kind === 'timeout' ? 'timeout' : error.kind === 'rate_limited' ? 'rate_limited' : 'failed',
        items: 0,
        error: `${error.message}; extractive themes used instead`,
      },
    }
  }
}

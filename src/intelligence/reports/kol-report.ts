/** `data` of the KOL route: a scored, filtered shortlist with the filters echoed. */
import { type BudgetBand, type CreatorTier, KOL, LIVE_RESULTS_PER_CALL } from '../../catalog'
import { ApiError, type ProviderSpend } from '../../core'
import { countOf, type Platform } from '../evidence'
import { nearNameCheck, type Asked } from '../names/asked'
import { droppedTotals, gather, type LaneReport, type ProviderReport } from '../lanes'
import type { WeeklyCreator } from '../analysis/weekly'
import { shortlist, type FitParts, type KolFilters, type Shortlist } from './kols'
import { CREATOR_DRAWN_NOTE, evidenceSummary, isoDay, median, modeField } from './report'
import type { Computed } from './evidence-answer'
import { eachSliced } from '../turns'
import type { CreatorPost, EvidenceSources } from '../sources'

export interface KolRequest {
  /** What the answer calls the category: the resolved entity's name. */
  category: string
  asked: Asked
  /** Weekly signals category the parameter names (beauty, 美妆, skincare ...), when it names one. */
  categorySlug: string | null
  /** The category's leading creators of the last published week, to say where each stands. */
  weeklyTop?: Promise<WeeklyCreator[]> | null
  /** The filters as the caller gave them, echoed back. */
  echo: {
    platform: Platform | null
    city: string | null
    tier: CreatorTier | null
    budget_band: BudgetBand | null
    industry: string | null
  }
  filters: KolFilters
}

const DAY_MS = 86_400_000

/** A corpus window's posts by id and by category, built once per window (its array is shared by every KOL answer). */
const populations = new WeakMap<readonly CreatorPost[], { byId: Map<string, CreatorPost>; byCategory: Map<string, CreatorPost[]> }>()

async function indexPopulation(posts: readonly CreatorPost[]) {
  let index = populations.get(posts)
  if (!index) {
    const built = { byId: new Map<string, CreatorPost>(), byCategory: new Map<string, CreatorPost[]>() }
    await eachSliced(posts, (post) => {
      built.byId.set(post.id, post)
      if (post.category === null) return
      const list = built.byCategory.get(post.category)
      if (list) list.push(post)
      else built.byCategory.set(post.category, [post])
    })
    populations.set(posts, (index = built))
  }
  return index
}

async function creatorPosts(
  src: EvidenceSources,
  request: KolRequest,
  from: Date,
  to: Date,
  spend?: ProviderSpend[],
): Promise<{
  posts: CreatorPost[]
  /** The posts on the category, each once. */
  matching: readonly CreatorPost[]
  matches: (post: CreatorPost) => boolean
  calls: ProviderReport[]
  lanes: LaneReport[]
  dropped?: Record<string, number>
}> {
  if (src.creatorPosts) {
    const { posts, candidates } = await src.creatorPosts(from, to, request.asked.match.prefilter)
    const { byId, byCategory } = await indexPopulation(posts)
    // On the category: filed under it by the source, or about it (relevance, checked only for prefilter candidates, in slices).
    const on = new Set<CreatorPost>(request.categorySlug === null ? [] : byCategory.get(request.categorySlug))
    await eachSliced([...candidates], (id) => {
      const post = byId.get(id)
      if (post && !on.has(post) && request.asked.match.relevance(post) > 0) on.add(post)
    })
    const call: ProviderReport = {
      provider: 'sample-corpus',
      role: 'native',
      platform: request.filters.platform,
      status: posts.length ? 'ok' : 'empty',
      items: posts.length,
    }
    return { posts, matching: [...on], matches: (p) => on.has(p), calls: [call], lanes: [] }
  }
  // Live: the providers searched for the category, so what they return is on it.
  const asked = request.asked
  const gathered = await gather(src, request.filters.platform ?? 'all', {
    typed: asked.input,
    match: asked.match,
    query: asked.query,
    from,
    to,
    limit: LIVE_RESULTS_PER_CALL,
    creators: true,
    ...(spend ? { spend } : {}),
  })
  const posts = gathered.items.map((i) => ({ ...i, category: null }))
  return {
    posts,
    matching: posts,
    matches: () => true,
    calls: gathered.calls,
    lanes: gathered.lanes,
    dropped: droppedTotals(gathered),
  }
}

export async function kolReport(src: EvidenceSources, request: KolRequest, spend?: ProviderSpend[]): Promise<Computed> {
  const asOf = src.asOf()
  const from = new Date(asOf.getTime() - KOL.lookbackDays * DAY_MS)
  const { posts, matching, matches, calls, lanes, dropped } = await creatorPosts(src, request, from, asOf, spend)
  // Live: a creator's posts are those the search found, all on the category (no share to measure).
  nearNameCheck(request.asked, Math.round(countOf(matching)))
  // Industry: the one asked for, else on the corpus the category itself (industry_match: most posts in it).
  const industryCategory = request.filters.industryCategory ?? (src.creatorPosts ? request.categorySlug : null)
  const chosen = await shortlist(posts, matches, request.category, {
    ...request.filters,
    industryCategory,
    askedCategory: request.categorySlug,
    searchedOnly: !src.creatorPosts,
  })
  // The weekly leaders are context: a failed read of them leaves them out, not the answer.
  const leaders = request.weeklyTop ? await request.weeklyTop.catch(() => []) : []
  if (chosen.candidates === 0) {
    throw new ApiError(
      'not_found',
      `No creator posted about "${request.asked.input}"${request.filters.platform ? ` on ${request.filters.platform}` : ''} in the last ${KOL.lookbackDays} days; nothing was charged.`,
      {
        parameter: 'category',
        value: request.asked.input,
      },
    )
  }
  if (chosen.creators.length === 0) {
    throw new ApiError(
      'not_found',
      `${chosen.candidates} creators post about "${request.asked.input}", but none matches the filters; nothing was charged.`,
      {
        parameter: 'filters',
        value: request.echo,
        candidates_considered: chosen.candidates,
      },
    )
  }
  const flagged = chosen.creators.filter((c) => c.engagement.flags.length).length
  const bands = chosen.creators.map((c) => c.estimated_cost.cny_low + c.estimated_cost.cny_high).map((x) => x / 2)
  const platforms = [...new Set(chosen.creators.map((c) => c.platform))].join(', ')
  return {
    data: {
      category: request.asked.input,
      resolved: request.asked.resolved,
      category_match: request.categorySlug ? `category "${request.categorySlug}" or text` : 'text',
      filters: request.echo,
      window: { from: isoDay(from), to: isoDay(new Date(asOf.getTime() - 1)), as_of: asOf.toISOString() },
      candidates_considered: chosen.candidates,
      excluded_by_filters: chosen.excluded,
      shortlist: chosen.creators.map((c, i) => ({ rank: i + 1, ...c })),
      weekly_top_creators: leaders.map((leader, index) => {
        const at = chosen.standing(leader.platform, leader.handle)
        const standing =
          at.rank !== null
            ? at.rank <= chosen.creators.length
              ? 'shortlisted'
              : 'below_shortlist'
            : at.filtered
              ? 'filtered_out'
              : 'not_a_candidate'
        return {
          handle: leader.handle,
          platform: leader.platform,
          weekly_rank: index + 1,
          week_start: leader.week_start,
          standing,
          shortlist_rank: at.rank,
          fit_score: at.fit_score,
          ...(standing === 'below_shortlist' && at.fit ? { behind_on: behindOn(at.fit, chosen.creators.at(-1)!.fit) } : {}),
        }
      }),
      summary:
        `${chosen.creators.length} of ${chosen.candidates} creators posting about "${request.category}" shortlisted (${platforms}); ` +
        `top fit ${chosen.creators[0]!.fit_score} (${chosen.creators[0]!.handle}); median est. CNY ${Math.round(median(bands)).toLocaleString('en')} per post; ` +
        (flagged
          ? `${flagged} flagged for engagement anomalies — verify their audiences before booking.`
          : 'none flagged for engagement anomalies.') +
        whichToTrust(leaders, chosen),
      evidence: evidenceSummary(chosen.posts, lanes, CREATOR_DRAWN_NOTE),
      ...modeField(chosen.posts),
    },
    calls,
    ...(dropped ? { dropped } : {}),
  }
}

/** The parts of fit on which a creator below the shortlist falls behind its last place (what kept it out). */
function behindOn(fit: FitParts, cut: FitParts): string[] {
  const parts = ['relevance', 'engagement_quality', 'activity', 'reach'] as const
  return [...parts.filter((part) => fit[part] < cut[part]), ...(cut.industry_match && !fit.industry_match ? ['industry_match'] : [])]
}

/**
 * The weekly creator ranking and this shortlist answer different questions; where the weekly leaders are
 * not shortlisted, the summary says which to trust for what, and what kept them out.
 */
function whichToTrust(leaders: readonly WeeklyCreator[], list: Shortlist): string {
  const below = leaders
    .map((leader, index) => ({ leader, index, at: list.standing(leader.platform, leader.handle) }))
    .filter(({ at }) => at.rank === null || at.rank > list.creators.length)
  if (below.length === 0) return ''
  const cut = list.creators.at(-1)!.fit
  const where = below.map(({ leader, index, at }) => {
    const why = at.fit ? behindOn(at.fit, cut).join(', ').replaceAll('_', ' ') : ''
    const place = at.rank !== null ? `${ordinal(at.rank)} here` : at.filtered ? 'outside the filters' : 'not among these posts'
    return `${leader.handle} (weekly #${index + 1}) stands ${place}${why ? `, behind on ${why}` : ''}`
  })
  return (
    ` The weekly creator ranking's leaders rank by influence (engagement and views of all their posts in the week of ${below[0]!.leader.week_start}); ` +
    `this shortlist ranks fit for booking on this category (relevance, engagement against their tier, activity, reach): ${where.join('; ')}. ` +
    'For reach, trust the weekly ranking; for whom to book on this category, this shortlist.'
  )
}

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`

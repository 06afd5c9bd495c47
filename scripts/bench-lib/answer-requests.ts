/**
 * The request list of the answers benchmarks (bench-answers.ts, bench-scale.ts): first answers over the
 * sample world's names (a keyword, category, brand or destination asked for the first time), repeats of
 * half of them, and dataset routes, in a fixed shuffled order.
 */
import { DESTINATIONS } from '../../src/data/sample-geography'
import type { Query } from '../../support/route-url'
import { BRANDS, TOPICS } from '../sample/signals-vocabulary'

export type Family = 'china.trends' | 'china.sentiment' | 'china.kols' | 'wrappers' | 'datasets'
export interface Ask {
  id: string
  query: Query
  family: Family
  first: boolean
}

export const familyOf = (id: string): Family =>
  id.startsWith('capabilities.')
    ? 'wrappers'
    : id.startsWith('china.trends')
      ? 'china.trends'
      : id === 'china.sentiment' || id === 'china.kols'
        ? id
        : 'datasets'

/** Deterministic shuffle (a fixed LCG), so every run asks the same list in the same order. */
export function shuffled<T>(items: T[], seed = 20261125): T[] {
  const out = [...items]
  let state = seed
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31
    const swapWith = state % (i + 1)
    ;[out[i], out[swapWith]] = [out[swapWith]!, out[i]!]
  }
  return out
}

/** The requests: first answers over the sample world's names, repeats of some of them, and dataset routes. */
export function requests(FIRSTS: number): Ask[] {
  const categories = Object.keys(TOPICS)
  const topics = Object.values(TOPICS).flatMap((list) => list.map((t) => [t.name, t.zh]).flat())
  const brands = Object.values(BRANDS).flat()
  const places = DESTINATIONS.map((d) => d.name)
  const trendRoutes = ['china.trends', 'china.trends.xiaohongshu', 'china.trends.douyin', 'china.trends.wechat']
  // Timeframes up to a year: a whole category over a year is the largest answer (~40,000 posts).
  const timeframe = (i: number) => ['30d', '90d', '365d', '7d'][i % 4]!
  const candidates: Omit<Ask, 'family' | 'first'>[] = shuffled([
    ...topics.map((keyword, i) => ({ id: trendRoutes[i % trendRoutes.length]!, query: { keyword, timeframe: timeframe(i) } })),
    ...categories.map((keyword, i) => ({ id: 'china.trends', query: { keyword, timeframe: timeframe(i + 2) } })),
    ...brands.map((entity, i) => ({ id: 'china.sentiment', query: { entity, timeframe: timeframe(i) } })),
    ...categories.map((entity, i) => ({ id: 'china.sentiment', query: { entity, timeframe: timeframe(i + 1) } })),
    ...places.map((entity, i) => ({ id: 'china.sentiment', query: { entity, timeframe: timeframe(i) } })),
    ...categories.flatMap((category) => ['xiaohongshu', 'douyin'].map((platform) => ({ id: 'china.kols', query: { category, platform } }))),
    ...categories.map((category) => ({ id: 'china.kols', query: { category } })),
    ...brands.map((brand_name) => ({ id: 'capabilities.visibility', query: { brand_name } })),
    ...places.map((destination) => ({ id: 'capabilities.destination_demand', query: { destination } })),
    ...categories.map((category, i) => ({ id: 'capabilities.kol_shortlist', query: { brand_name: brands[i * 10]!, category } })),
  ])
  const firsts = candidates.slice(0, FIRSTS).map((c) => ({ ...c, family: familyOf(c.id), first: true }))
  const repeats = firsts.filter((_, i) => i % 2 === 0).map((c) => ({ ...c, first: false }))
  const datasets: Ask[] = shuffled(
    places.slice(0, 20).flatMap((destination, index): Ask[] => [
      { id: 'flights.summary', query: { destination }, family: 'datasets' as const, first: false },
      {
        id: 'spend.summary',
        query: { country: ['Japan', 'Thailand', 'France', 'Singapore'][index % 4]! },
        family: 'datasets' as const,
        first: false,
      },
      {
        id: 'signals.topics.rankings',
        query: { category: categories[index % categories.length]! },
        family: 'datasets' as const,
        first: false,
      },
    ]),
  )
  // Firsts spread through the run; each repeat comes after its first (the second half of the list).
  const firstHalf = shuffled([...firsts, ...datasets.slice(0, datasets.length / 2)], 7)
  const secondHalf = shuffled([...repeats, ...datasets.slice(datasets.length / 2)], 11)
  return [...firstHalf, ...secondHalf]
}

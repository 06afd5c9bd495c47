import { cachedAnswer, type CountryMonth, type MarketSnapshot, placeKey } from '../data'
import { type HandlerMap, invalidParameter, notFound, type RouteHandler, type RouteInput } from '../core'
import { addMonths, direction, pct, resolveMonth, round, threeMonthYoY } from './common'
import { monthsHandler, type MarketServices } from './market-services'

const UNITS: Record<string, string> = {
  total_cards: 'cards',
  total_spend_cny: 'CNY',
  estimated_average_luxury_spend_cny: 'CNY per card',
  estimated_average_accommodation_spend_cny: 'CNY per card',
  estimated_average_dining_spend_cny: 'CNY per card',
  estimated_average_retail_spend_cny: 'CNY per card',
}

const perCard = (total: number, cards: number) => (cards > 0 ? round(total / cards, 2) : 0)

const METRIC: Record<string, (month: CountryMonth) => number> = {
  total_cards: (r) => r.cards,
  total_spend_cny: (r) => round(r.luxury + r.accommodation + r.dining + r.retail, 2),
  estimated_average_luxury_spend_cny: (r) => perCard(r.luxury, r.cards),
  estimated_average_accommodation_spend_cny: (r) => perCard(r.accommodation, r.cards),
  estimated_average_dining_spend_cny: (r) => perCard(r.dining, r.cards),
  estimated_average_retail_spend_cny: (r) => perCard(r.retail, r.cards),
}

function resolveCountry(snap: MarketSnapshot, value: unknown) {
  const text = String(value).trim()
  const country = snap.countries.get(text.toLowerCase()) ?? snap.countries.get(placeKey(text))
  if (!country) throw notFound('country', text, 'country', [...new Set([...snap.countries.values()].map((x) => x.name))].sort())
  return country
}

/** Monthly totals of one country, oldest first (aggregated at load): shared by summary, trends and series. */
const countryMonthly = (snap: MarketSnapshot, country: string) => snap.totals.countries.get(country) ?? []

export function spendHandlers(services: MarketServices): HandlerMap {
  return {
    'spend.months': monthsHandler(services, 'spend.months', (snap) => snap.spend),
    'spend.countries': countriesHandler(services),
    'spend.summary': summaryHandler(services),
    'spend.trends': trendsHandler(services),
    'spend.series': seriesHandler(services),
  }
}

/** Destination countries ranked by cards in one month. */
function countriesHandler(services: MarketServices): RouteHandler {
  return {
    prepare({ query }: RouteInput) {
      const snap = services.snapshot()
      const month = resolveMonth(snap.spend, query.month)
      return cachedAnswer(services, snap.spend, 'spend.countries', month, async () => {
        const rows = await services.db.all<{ country: string; country_code: string; total_cards: number }>(
          `SELECT country, country_code, SUM(total_cards)::INTEGER AS total_cards FROM ${snap.spend.relation}
            WHERE month = $1 GROUP BY country, country_code ORDER BY total_cards DESC, country`,
          [month],
        )
        return { month, countries: rows }
      })
    },
  }
}

/** One country in one month: cards, spend per card and its mix, top source cities, month/year changes. */
function summaryHandler(services: MarketServices): RouteHandler {
  return {
    prepare({ query }: RouteInput) {
      const snap = services.snapshot()
      const country = resolveCountry(snap, query.country)
      const month = resolveMonth(snap.spend, query.month)
      if (!snap.spendMonths.get(country.name)?.has(month)) throw notFound('country-month', `${country.name} ${month}`, 'month')
      return cachedAnswer(services, snap.spend, 'spend.summary', `${country.name}|${month}`, async () => {
        const cities = await services.db.all<{ city: string; cards: number }>(
          `SELECT source_city AS city, SUM(total_cards)::INTEGER AS cards FROM ${snap.spend.relation}
            WHERE month = $1 AND country = $2 GROUP BY source_city ORDER BY cards DESC, city`,
          [month, country.name],
        )
        const monthly = countryMonthly(snap, country.name)
        const at = (m: string) => monthly.find((r) => r.month === m)
        const cur = at(month)!
        const total = cur.luxury + cur.accommodation + cur.dining + cur.retail
        const mix = (v: number) => (total > 0 ? round((v / total) * 100) : 0)
        return {
          country: country.name,
          country_code: country.code,
          source_month: month,
          summary: {
            total_cards: cur.cards,
            estimated_average_luxury_spend_cny: perCard(cur.luxury, cur.cards),
            estimated_average_accommodation_spend_cny: perCard(cur.accommodation, cur.cards),
            top_source_city: cities[0]?.city ?? '',
          },
          highlights: {
            estimated_average_dining_spend_cny: perCard(cur.dining, cur.cards),
            estimated_average_retail_spend_cny: perCard(cur.retail, cur.cards),
            total_spend_cny: round(total, 2),
            spend_mix_pct: {
              luxury: mix(cur.luxury),
              accommodation: mix(cur.accommodation),
              dining: mix(cur.dining),
              retail: mix(cur.retail),
            },
            top_source_cities: cities
              .slice(0, 5)
              .map((c) => ({ city: c.city, total_cards: c.cards, share_pct: cur.cards ? round((c.cards / cur.cards) * 100) : 0 })),
            total_cards_mom_pct: pct(cur.cards, at(addMonths(month, -1))?.cards),
            total_cards_yoy_pct: pct(cur.cards, at(addMonths(month, -12))?.cards),
          },
        }
      })
    },
  }
}

/** One country's latest changes, recovery against 2019, and its last `months` months of cards and spend per card. */
function trendsHandler(services: MarketServices): RouteHandler {
  return {
    prepare({ query }: RouteInput) {
      const snap = services.snapshot()
      const country = resolveCountry(snap, query.country)
      const months = Number(query.months ?? 12)
      return cachedAnswer(services, snap.spend, 'spend.trends', `${country.name}|${months}`, async () => {
        const monthly = countryMonthly(snap, country.name)
        const latest = monthly.at(-1)!
        const at = (m: string) => monthly.find((r) => r.month === m)
        const yearAgo = at(addMonths(latest.month, -12))
        const lux = METRIC.estimated_average_luxury_spend_cny!
        const acc = METRIC.estimated_average_accommodation_spend_cny!
        const last3 = monthly.slice(-3)
        const sum = (rows: (CountryMonth | undefined)[]) => rows.reduce((t, r) => t + (r?.cards ?? 0), 0)
        const yoy3 = threeMonthYoY(monthly.map((r) => ({ month: r.month, value: r.cards })))
        const base2019 = last3.map((r) => at(`2019-${r.month.slice(5)}`))
        return {
          country: country.name,
          country_code: country.code,
          latest_month: latest.month,
          direction: direction(yoy3),
          changes: {
            total_cards_mom_pct: pct(latest.cards, at(addMonths(latest.month, -1))?.cards),
            total_cards_yoy_pct: pct(latest.cards, yearAgo?.cards),
            average_luxury_spend_yoy_pct: yearAgo ? pct(lux(latest), lux(yearAgo)) : null,
            average_accommodation_spend_yoy_pct: yearAgo ? pct(acc(latest), acc(yearAgo)) : null,
          },
          recovery_vs_2019_pct: base2019.every(Boolean) ? pct(sum(last3), sum(base2019)) : null,
          series: monthly.slice(-months).map((row) => ({
            month: row.month,
            total_cards: row.cards,
            estimated_average_luxury_spend_cny: lux(row),
            estimated_average_accommodation_spend_cny: acc(row),
          })),
        }
      })
    },
  }
}

/** One metric of one country, month by month from `from` to `to`. */
function seriesHandler(services: MarketServices): RouteHandler {
  return {
    prepare({ query }: RouteInput) {
      const snap = services.snapshot()
      const country = resolveCountry(snap, query.country)
      const metric = String(query.metric)
      // Like every other month parameter, a month without data is a free 404: never charge for an empty series.
      const from = query.from === undefined ? snap.spend.periods[0]! : resolveMonth(snap.spend, query.from, 'from')
      const to = resolveMonth(snap.spend, query.to, 'to')
      if (from > to) throw invalidParameter('from', `must not be after "to" (${to})`)
      return cachedAnswer(services, snap.spend, 'spend.series', `${country.name}|${metric}|${from}|${to}`, async () => {
        const monthly = countryMonthly(snap, country.name)
        const value = METRIC[metric]!
        return {
          country: country.name,
          country_code: country.code,
          metric,
          unit: UNITS[metric]!,
          points: monthly.filter((r) => r.month >= from && r.month <= to).map((r) => ({ month: r.month, value: value(r) })),
        }
      })
    },
  }
}

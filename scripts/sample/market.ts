/**
 * The market model behind flights.parquet and spend.parquet: real place names and codes
 * (src/data/sample-geography.ts), synthetic figures with seasonality, the Spring Festival and the
 * 2020-22 border closure. Deterministic: see ./random.ts. Its synthetic parameters are in
 * ./market-parameters.ts, its months in ./market-calendar.ts.
 */
import { between, clamp, gaussian, rngFor, round2, type Rng } from './random'
import {
  COUNTRIES,
  DESTINATIONS,
  ORIGIN_CITIES,
  type CountryCode,
  type DestinationCode,
  type OriginCode,
  type Region,
} from '../../src/data/sample-geography'
import { SPRING_FESTIVAL_MONTH, START, monthIndex, type Month } from './market-calendar'
import {
  ANNUAL_PRICE_GROWTH,
  BASE_SEASON,
  CARDS_PER_PASSENGER,
  CLOSED_BORDER_RESIDUAL,
  COUNTRY_PROFILE,
  COUNTRY_SHOCKS,
  DEST_BASE_FLIGHTS,
  DISTANCE_DECAY,
  MIN_ORIGINS_PER_DESTINATION,
  MIN_ROUTE_FLIGHTS,
  ORIGIN_WEIGHT,
  POST_REOPENING_SPEND,
  RECOVERY_RATE,
  REGION_SEASON_TILT,
  REOPENING_LEVEL,
  RESIDENT_CARD_FLOOR,
  ROUTES_PER_TIER,
  SCHEDULE_SEASON_DAMPING,
  SPRING_FESTIVAL_LIFT,
} from './market-parameters'

// ---------------------------------------------------------------------------------------------
// Geography helpers

type Destination = (typeof DESTINATIONS)[number]
type OriginCity = (typeof ORIGIN_CITIES)[number]
type Country = (typeof COUNTRIES)[number]

const COUNTRY_BY_CODE = new Map<CountryCode, Country>(COUNTRIES.map((c) => [c.code, c]))

function countryOf(code: CountryCode): Country {
  const country = COUNTRY_BY_CODE.get(code)
  if (!country) throw new Error(`unknown country ${code}`)
  return country
}

interface Point {
  readonly lat: number
  readonly lon: number
}

/** Great-circle distance in km. */
function distanceKm(from: Point, to: Point): number {
  const rad = Math.PI / 180
  const dLat = (to.lat - from.lat) * rad
  const dLon = (to.lon - from.lon) * rad
  const haversine = Math.sin(dLat / 2) ** 2 + Math.cos(from.lat * rad) * Math.cos(to.lat * rad) * Math.sin(dLon / 2) ** 2
  return 2 * 6371 * Math.asin(Math.sqrt(haversine))
}

// ---------------------------------------------------------------------------------------------
// Demand model

/** Demand multiplier for the calendar month: base season, regional tilt, Spring Festival. */
function seasonality(month: Month, region: Region): number {
  const tilt = REGION_SEASON_TILT[region]?.[month.month - 1] ?? 0
  const festival = SPRING_FESTIVAL_MONTH[month.year] === month.month ? SPRING_FESTIVAL_LIFT : 0
  return BASE_SEASON[month.month - 1]! + tilt + festival
}

function countryShock(month: Month, country: CountryCode): number {
  const shock = COUNTRY_SHOCKS[country]
  if (!shock) return 1
  const offset = month.index - monthIndex(shock.from)
  if (offset < 0) return 1
  return shock.path[Math.min(offset, shock.path.length - 1)]!
}

/**
 * Demand relative to 2019 for one destination: normal until January 2020, collapse from
 * February 2020, a small residual while borders were closed, then an exponential approach to
 * the country's long-run level from January 2023.
 */
function travelLevel(month: Month, destination: Destination): number {
  const index = month.index
  if (index < monthIndex('2020-01')) return 1
  if (index === monthIndex('2020-01')) return 0.95
  if (index === monthIndex('2020-02')) return 0.3
  if (index === monthIndex('2020-03')) return 0.08
  if (index < monthIndex('2023-01')) {
    const residual = CLOSED_BORDER_RESIDUAL * between(rngFor('residual', destination.code), 0.65, 1.6)
    return index >= monthIndex('2022-07') ? residual * 1.4 : residual // gradual easing in late 2022
  }
  const profile = COUNTRY_PROFILE[destination.countryCode]
  const target = profile.recovery * between(rngFor('recovery', destination.code), 0.95, 1.05)
  const elapsed = index - monthIndex('2023-01')
  const gap = (target - REOPENING_LEVEL) * Math.exp(-RECOVERY_RATE * profile.speed * elapsed)
  return (target - gap) * countryShock(month, destination.countryCode)
}

// ---------------------------------------------------------------------------------------------
// Route network: each origin serves its highest-gravity destinations (volume x weight / distance),
// so hubs reach almost everywhere and smaller cities fly to a few nearby Asian points.

interface Route {
  origin: OriginCity
  destination: Destination
  distanceKm: number
  /** Share of the destination's flights that depart from this origin. */
  share: number
  seatsPerFlight: number
}

function gravity(origin: OriginCity, destination: Destination): number {
  const km = distanceKm(origin, destination)
  const jitter = between(rngFor('gravity', origin.code, destination.code), 0.75, 1.3)
  return (DEST_BASE_FLIGHTS[destination.code] * ORIGIN_WEIGHT[origin.code] * jitter) / (km / 1000) ** DISTANCE_DECAY[origin.tier]
}

/** Narrowbodies on short sectors, widebody mix on trunk routes from the gateways and long haul. */
function seatsPerFlight(origin: OriginCity, destination: Destination, km: number): number {
  const trunk = origin.tier === 1 && DEST_BASE_FLIGHTS[destination.code] >= 900
  const typical = km < 3500 ? (trunk ? 230 : 180) : km < 6500 ? 260 : 300
  return Math.round(typical * between(rngFor('aircraft', origin.code, destination.code), 0.96, 1.04))
}

export function buildRoutes(): Route[] {
  const served = new Map<DestinationCode, { origin: OriginCity; gravity: number }[]>(DESTINATIONS.map((d) => [d.code, []]))
  for (const origin of ORIGIN_CITIES) {
    const ranked = DESTINATIONS.map((destination) => ({ destination, gravity: gravity(origin, destination) }))
      .sort((a, b) => b.gravity - a.gravity)
      .slice(0, ROUTES_PER_TIER[origin.tier])
    for (const { destination, gravity: g } of ranked) served.get(destination.code)!.push({ origin, gravity: g })
  }
  const strongest = new Set(ORIGIN_CITIES.map((o) => `${o.code}|${bestDestination(o).code}`))
  const routes: Route[] = []
  for (const destination of DESTINATIONS) {
    const origins = served.get(destination.code)!
    if (origins.length < MIN_ORIGINS_PER_DESTINATION) topUpOrigins(destination, origins)
    const operated = dropThinRoutes(destination, origins, strongest)
    const total = operated.reduce((sum, o) => sum + o.gravity, 0)
    for (const { origin, gravity: g } of operated) {
      const km = distanceKm(origin, destination)
      routes.push({ origin, destination, distanceKm: km, share: g / total, seatsPerFlight: seatsPerFlight(origin, destination, km) })
    }
  }
  return routes
}

function bestDestination(origin: OriginCity): Destination {
  return DESTINATIONS.reduce((best, d) => (gravity(origin, d) > gravity(origin, best) ? d : best))
}

/** Keeps origins whose share of the destination's flights reaches MIN_ROUTE_FLIGHTS, plus exempt pairs. */
function dropThinRoutes(
  destination: Destination,
  origins: readonly { origin: OriginCity; gravity: number }[],
  exempt: ReadonlySet<string>,
): { origin: OriginCity; gravity: number }[] {
  const total = origins.reduce((sum, o) => sum + o.gravity, 0)
  const ranked = [...origins].sort((a, b) => b.gravity - a.gravity)
  return ranked.filter(
    (o, i) =>
      i === 0 ||
      exempt.has(`${o.origin.code}|${destination.code}`) ||
      (DEST_BASE_FLIGHTS[destination.code] * o.gravity) / total >= MIN_ROUTE_FLIGHTS,
  )
}

function topUpOrigins(destination: Destination, origins: { origin: OriginCity; gravity: number }[]): void {
  const candidates = ORIGIN_CITIES.filter((o) => !origins.some((s) => s.origin.code === o.code))
    .map((origin) => ({ origin, gravity: gravity(origin, destination) }))
    .sort((a, b) => b.gravity - a.gravity)
  origins.push(...candidates.slice(0, MIN_ORIGINS_PER_DESTINATION - origins.length))
}

// ---------------------------------------------------------------------------------------------
// Flights rows

type FlightRow = {
  month: string
  destination: string
  destination_code: string
  destination_country: string
  destination_country_code: string
  origin_city: string
  origin_code: string
  scheduled_flights: number
  seats: number
  estimated_passengers: number
}

function flightRow(month: Month, route: Route): FlightRow {
  const { origin, destination } = route
  const country = countryOf(destination.countryCode)
  const rng = rngFor('flights', month.key, destination.code, origin.code)
  const season = seasonality(month, country.region)
  const level = travelLevel(month, destination)
  const scheduleSeason = 1 + SCHEDULE_SEASON_DAMPING * (season - 1)
  const demand = DEST_BASE_FLIGHTS[destination.code] * route.share * scheduleSeason * level * (1 + 0.03 * gaussian(rng))
  const flights = Math.max(0, Math.round(demand))
  // Fuller planes in peak months and once demand is back; emptier during the collapse.
  const loadFactor = clamp(0.7 + 0.12 * Math.min(1, level) + (1 - SCHEDULE_SEASON_DAMPING) * (season - 1) + 0.02 * gaussian(rng), 0.65, 0.9)
  const seats = flights * route.seatsPerFlight
  return {
    month: month.key,
    destination: destination.name,
    destination_code: destination.code,
    destination_country: country.name,
    destination_country_code: country.code,
    origin_city: origin.name,
    origin_code: origin.code,
    scheduled_flights: flights,
    seats,
    estimated_passengers: Math.round(seats * loadFactor),
  }
}

export function generateFlights(months: readonly Month[], routes: readonly Route[]): FlightRow[] {
  return months.flatMap((month) => routes.map((route) => flightRow(month, route)))
}

// ---------------------------------------------------------------------------------------------
// Spend rows: cards follow the passengers flown to the country, split over source cities.

type SpendRow = {
  month: string
  country: string
  country_code: string
  source_city: string
  total_cards: number
  luxury_spend_cny: number
  accommodation_spend_cny: number
  dining_spend_cny: number
  retail_spend_cny: number
}

/** Cities whose card issuers are in the spend panel: the tier-1 and tier-2 origins. */
const SOURCE_CITIES: readonly OriginCity[] = ORIGIN_CITIES.filter((o) => o.tier <= 2)

function passengersByCountryMonth(rows: readonly FlightRow[]): Map<string, number> {
  const totals = new Map<string, number>()
  for (const row of rows) {
    const key = `${row.month}|${row.destination_country_code}`
    totals.set(key, (totals.get(key) ?? 0) + row.estimated_passengers)
  }
  return totals
}

/** Source-city shares of a country's cardholders: size plus a mild preference for nearby countries. */
function sourceCityShares(country: CountryCode): Map<OriginCode, number> {
  const anchor = DESTINATIONS.filter((d) => d.countryCode === country).sort(
    (a, b) => DEST_BASE_FLIGHTS[b.code] - DEST_BASE_FLIGHTS[a.code],
  )[0]!
  const raw = SOURCE_CITIES.map((city) => {
    const affinity = (distanceKm(city, anchor) / 1000) ** -0.5
    const jitter = between(rngFor('card-share', country, city.code), 0.85, 1.15)
    return [city.code, ORIGIN_WEIGHT[city.code] * affinity * jitter] as const
  })
  const total = raw.reduce((sum, [, w]) => sum + w, 0)
  return new Map(raw.map(([code, w]) => [code, w / total]))
}

/** Gateway cardholders spend more per card. */
function cityWealth(city: OriginCity): number {
  return (city.tier === 1 ? 1.2 : 0.95) * between(rngFor('wealth', city.code), 0.92, 1.08)
}

export function generateSpend(months: readonly Month[], flights: readonly FlightRow[]): SpendRow[] {
  const passengers = passengersByCountryMonth(flights)
  const rows: SpendRow[] = []
  for (const country of COUNTRIES) {
    const shares = sourceCityShares(country.code)
    const baseline2019 =
      months.filter((m) => m.year === 2019).reduce((sum, m) => sum + (passengers.get(`${m.key}|${country.code}`) ?? 0), 0) / 12
    for (const month of months) {
      const countryPassengers = Math.max(passengers.get(`${month.key}|${country.code}`) ?? 0, baseline2019 * RESIDENT_CARD_FLOOR)
      for (const city of SOURCE_CITIES) {
        rows.push(spendRow(month, country, city, countryPassengers * shares.get(city.code)!))
      }
    }
  }
  return rows
}

function spendRow(month: Month, country: Country, city: OriginCity, cityPassengers: number): SpendRow {
  const rng = rngFor('spend', month.key, country.code, city.code)
  const cards = Math.max(0, Math.round(cityPassengers * CARDS_PER_PASSENGER * (1 + 0.05 * gaussian(rng))))
  const reopened = month.index >= monthIndex('2023-01')
  const priceLevel = (1 + ANNUAL_PRICE_GROWTH) ** (month.year - START.year) * cityWealth(city)
  const [luxury, accommodation, dining, retail] = COUNTRY_PROFILE[country.code].perCard.map((perCard, i) => {
    const shift = reopened ? POST_REOPENING_SPEND[i]! : 1
    return round2(Math.max(0, cards * perCard * priceLevel * shift * (1 + 0.07 * gaussian(rng))))
  }) as [number, number, number, number]
  return {
    month: month.key,
    country: country.name,
    country_code: country.code,
    source_city: city.name,
    total_cards: cards,
    luxury_spend_cny: luxury,
    accommodation_spend_cny: accommodation,
    dining_spend_cny: dining,
    retail_spend_cny: retail,
  }
}

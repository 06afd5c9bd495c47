/**
 * The market model behind flights.parquet and spend.parquet: real place names and codes
 * (src/data/sample-geography.ts), synthetic figures with seasonality, the Spring Festival and the
 * 2020-22 border closure. Deterministic: see ./random.ts.
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

// ---------------------------------------------------------------------------------------------
// Fixed inputs. END is a constant so the output does not depend on when the script runs.

export const START_MONTH = '2019-01'
export const END_MONTH = '2026-10'

/** Month (1-12) holding the Spring Festival holiday, from the real Chinese New Year dates. */
const SPRING_FESTIVAL_MONTH: Readonly<Record<number, number>> = {
  2019: 2, // 5 Feb
  2020: 1, // 25 Jan
  2021: 2, // 12 Feb
  2022: 2, // 1 Feb
  2023: 1, // 22 Jan
  2024: 2, // 10 Feb
  2025: 1, // 29 Jan
  2026: 2, // 17 Feb
}

// ---------------------------------------------------------------------------------------------
// Model parameters (synthetic). Records keyed by the geography's code unions, so TypeScript
// flags any destination, origin or country that lacks a parameter.

/** Average monthly one-way flights from all of mainland China in 2019. */
const DEST_BASE_FLIGHTS: Readonly<Record<DestinationCode, number>> = {
  TYO: 1500,
  OSA: 1300,
  NGO: 380,
  CTS: 260,
  FUK: 240,
  OKA: 220,
  SEL: 1400,
  CJU: 380,
  PUS: 220,
  ULN: 90,
  BKK: 1500,
  HKT: 520,
  CNX: 260,
  SIN: 900,
  KUL: 720,
  PEN: 110,
  BKI: 200,
  DPS: 280,
  JKT: 220,
  SGN: 360,
  HAN: 300,
  DAD: 340,
  CXR: 300,
  MNL: 340,
  CEB: 110,
  PNH: 230,
  REP: 140,
  KOS: 150,
  VTE: 90,
  RGN: 120,
  KTM: 45,
  MLE: 60,
  CMB: 45,
  ALA: 55,
  TAS: 25,
  DXB: 150,
  AUH: 60,
  DOH: 60,
  CAI: 30,
  NBO: 12,
  ADD: 45,
  IST: 60,
  PAR: 190,
  LON: 150,
  FRA: 120,
  MUC: 50,
  ROM: 55,
  MIL: 50,
  MAD: 45,
  BCN: 20,
  AMS: 70,
  ZRH: 25,
  VIE: 30,
  HEL: 60,
  CPH: 30,
  ATH: 20,
  MOW: 180,
  VVO: 80,
  SYD: 220,
  MEL: 190,
  BNE: 60,
  PER: 40,
  AKL: 90,
  LAX: 180,
  NYC: 130,
  SFO: 120,
  SEA: 50,
  CHI: 40,
  YVR: 130,
  YTO: 90,
}

/** Relative outbound travel weight of each origin city (population x income x airport reach). */
const ORIGIN_WEIGHT: Readonly<Record<OriginCode, number>> = {
  SHA: 100,
  BJS: 85,
  CAN: 60,
  SZX: 35,
  CTU: 40,
  CKG: 22,
  HGH: 25,
  XIY: 18,
  KMG: 22,
  WUH: 15,
  NKG: 18,
  XMN: 20,
  TAO: 18,
  TSN: 10,
  CSX: 14,
  SHE: 12,
  DLC: 12,
  HRB: 8,
  CGO: 10,
  TNA: 8,
  FOC: 10,
  NNG: 8,
  HAK: 8,
  URC: 6,
  HFE: 6,
  KWE: 4,
  SYX: 6,
  KHN: 4,
  TYN: 3,
  SJW: 3,
  CGQ: 4,
  NGB: 6,
  WNZ: 4,
  LHW: 2,
  HET: 2,
  YNT: 5,
  WUX: 4,
  JJN: 4,
  ZUH: 3,
  INC: 2,
  XNN: 1,
  LXA: 1,
  KWL: 3,
  SWA: 3,
  WEH: 3,
  YNJ: 3,
  JHG: 2,
  CZX: 2,
}

/** How many destinations each origin tier serves (the highest-gravity ones). */
const ROUTES_PER_TIER: Readonly<Record<1 | 2 | 3, number>> = { 1: 62, 2: 26, 3: 7 }
/** Every destination keeps at least this many origins, so none drops out of the network. */
const MIN_ORIGINS_PER_DESTINATION = 2
/** Routes below about one weekly flight in 2019 would round to zero: they are not operated
 * (except each origin's strongest route, so every origin city stays in the data). */
const MIN_ROUTE_FLIGHTS = 4
/** Distance decay of route gravity: smaller cities' international flights stay closer to home. */
const DISTANCE_DECAY: Readonly<Record<1 | 2 | 3, number>> = { 1: 1.3, 2: 1.5, 3: 2.2 }

/** Spend per card per month in CNY: luxury, accommodation, dining, other retail. */
type SpendMix = readonly [luxury: number, accommodation: number, dining: number, retail: number]

interface CountryProfile {
  /** Long-run demand after reopening, relative to 2019. */
  recovery: number
  /** Multiplier on the reopening pace (visa-free access fast, group-tour bans slow). */
  speed: number
  perCard: SpendMix
}

const COUNTRY_PROFILE: Readonly<Record<CountryCode, CountryProfile>> = {
  JP: { recovery: 1.05, speed: 0.8, perCard: [3500, 2200, 1200, 4500] },
  KR: { recovery: 1.0, speed: 0.8, perCard: [3000, 1600, 800, 3200] },
  MN: { recovery: 1.0, speed: 1.0, perCard: [200, 800, 400, 600] },
  TH: { recovery: 0.9, speed: 1.3, perCard: [600, 1200, 500, 900] },
  SG: { recovery: 1.0, speed: 1.3, perCard: [2500, 2400, 900, 1500] },
  MY: { recovery: 1.05, speed: 1.3, perCard: [700, 1100, 500, 900] },
  ID: { recovery: 0.9, speed: 1.0, perCard: [500, 1500, 600, 700] },
  VN: { recovery: 1.0, speed: 1.1, perCard: [300, 900, 400, 600] },
  PH: { recovery: 0.75, speed: 0.9, perCard: [400, 1000, 450, 600] },
  KH: { recovery: 0.8, speed: 1.0, perCard: [200, 700, 350, 400] },
  LA: { recovery: 1.2, speed: 1.2, perCard: [150, 500, 300, 300] },
  MM: { recovery: 0.7, speed: 0.8, perCard: [150, 600, 300, 300] },
  NP: { recovery: 0.85, speed: 0.9, perCard: [150, 700, 300, 400] },
  MV: { recovery: 0.9, speed: 1.0, perCard: [800, 6000, 1500, 600] },
  LK: { recovery: 0.85, speed: 0.9, perCard: [300, 1500, 500, 500] },
  KZ: { recovery: 1.3, speed: 1.2, perCard: [400, 1000, 500, 800] },
  UZ: { recovery: 1.25, speed: 1.2, perCard: [200, 800, 400, 500] },
  AE: { recovery: 1.15, speed: 1.3, perCard: [5000, 3500, 1400, 3000] },
  QA: { recovery: 1.05, speed: 1.2, perCard: [3000, 3000, 1200, 2000] },
  TR: { recovery: 0.95, speed: 1.0, perCard: [1500, 1800, 800, 1500] },
  EG: { recovery: 0.95, speed: 1.0, perCard: [300, 1400, 500, 600] },
  KE: { recovery: 0.9, speed: 0.9, perCard: [300, 2500, 600, 500] },
  ET: { recovery: 1.0, speed: 1.0, perCard: [150, 900, 300, 300] },
  FR: { recovery: 0.9, speed: 0.8, perCard: [9000, 3500, 1500, 2500] },
  GB: { recovery: 0.85, speed: 0.8, perCard: [6500, 4000, 1500, 2800] },
  DE: { recovery: 0.85, speed: 0.8, perCard: [4000, 2800, 1100, 3000] },
  IT: { recovery: 0.9, speed: 0.8, perCard: [8000, 3200, 1400, 2200] },
  ES: { recovery: 0.9, speed: 0.8, perCard: [4500, 2600, 1200, 2000] },
  NL: { recovery: 0.8, speed: 0.8, perCard: [3000, 2800, 1200, 2000] },
  CH: { recovery: 0.85, speed: 0.8, perCard: [10000, 4500, 1800, 2500] },
  AT: { recovery: 0.85, speed: 0.8, perCard: [3500, 2800, 1100, 1900] },
  FI: { recovery: 0.75, speed: 0.8, perCard: [1500, 2600, 1100, 1500] },
  DK: { recovery: 0.8, speed: 0.8, perCard: [2500, 3000, 1300, 1700] },
  GR: { recovery: 0.9, speed: 0.9, perCard: [2000, 2600, 1000, 1500] },
  RU: { recovery: 1.15, speed: 1.2, perCard: [1200, 1800, 800, 1300] },
  AU: { recovery: 0.9, speed: 0.8, perCard: [2500, 3000, 1200, 3500] },
  NZ: { recovery: 0.8, speed: 0.8, perCard: [1500, 2800, 1100, 2500] },
  US: { recovery: 0.7, speed: 0.6, perCard: [4500, 3500, 1400, 4000] },
  CA: { recovery: 0.7, speed: 0.6, perCard: [2500, 3000, 1200, 3000] },
}

/**
 * Country-specific demand shocks: a factor per month from `from`, the last value held after.
 * Shaped after 2025 events (Thailand safety scare early 2025, Japan travel advisory Nov 2025).
 */
const COUNTRY_SHOCKS: Readonly<Partial<Record<CountryCode, { from: string; path: readonly number[] }>>> = {
  TH: { from: '2025-02', path: [0.85, 0.8, 0.8, 0.82, 0.85, 0.88, 0.9, 0.92, 0.95, 0.97, 1] },
  JP: { from: '2025-11', path: [0.85, 0.6, 0.55, 0.55, 0.57, 0.6, 0.62, 0.65, 0.67, 0.7, 0.72, 0.75] },
}

/** Outbound seasonality, Jan..Dec: summer and Golden Week peaks, March/November troughs. */
const BASE_SEASON = [0.96, 0.92, 0.86, 0.95, 0.98, 0.97, 1.12, 1.16, 0.96, 1.08, 0.86, 0.93] as const
/** Extra lift in the month holding the Spring Festival holiday. */
const SPRING_FESTIVAL_LIFT = 0.22
/** Regional deviations from BASE_SEASON (tropical winter escapes, European summers, ...). */
const REGION_SEASON_TILT: Readonly<Partial<Record<Region, readonly number[]>>> = {
  'Southeast Asia': [0.06, 0.04, 0, 0, -0.02, -0.03, -0.04, -0.03, -0.02, 0, 0.02, 0.06],
  'South Asia': [0.08, 0.08, 0.04, 0, -0.05, -0.05, -0.03, -0.03, -0.02, 0, 0.02, 0.08],
  'Middle East': [0.06, 0.06, 0.03, 0, -0.03, -0.05, -0.05, -0.05, -0.02, 0, 0.03, 0.06],
  Europe: [-0.08, -0.04, 0, 0.02, 0.03, 0.04, 0.08, 0.08, 0.05, 0, -0.05, -0.05],
  Oceania: [0.1, 0.08, 0, 0, -0.04, -0.06, -0.02, -0.02, 0, 0, 0.02, 0.05],
  'North America': [-0.04, 0, 0, 0, 0, 0.02, 0.06, 0.06, 0, 0, -0.02, 0],
}
/** Airlines adjust schedules less than demand moves; load factors absorb the rest. */
const SCHEDULE_SEASON_DAMPING = 0.7

/** Demand level (vs 2019) during the closed-border period, before per-destination variation. */
const CLOSED_BORDER_RESIDUAL = 0.03
/** Demand level in January 2023, the first month after reopening. */
const REOPENING_LEVEL = 0.08
/** Monthly closing rate of the gap to the long-run level after reopening (x country speed). */
const RECOVERY_RATE = 0.13

/** Distinct cards used abroad per outbound passenger (mobile wallets take the rest). */
const CARDS_PER_PASSENGER = 0.55
/** Students and residents abroad keep spending when flights stop: floor vs the 2019 level. */
const RESIDENT_CARD_FLOOR = 0.08
/** Spend-mix shift after reopening: less luxury shopping, dearer hotels. */
const POST_REOPENING_SPEND: SpendMix = [0.8, 1.1, 1.05, 0.9]
const ANNUAL_PRICE_GROWTH = 0.025

// ---------------------------------------------------------------------------------------------
// Calendar

interface Month {
  key: string // YYYY-MM
  year: number
  month: number // 1-12
  index: number // months since START_MONTH
}

function parseMonth(key: string): { year: number; month: number } {
  const [year, month] = key.split('-').map(Number)
  if (!year || !month) throw new Error(`bad month ${key}`)
  return { year, month }
}

const START = parseMonth(START_MONTH)

function monthIndex(key: string): number {
  const { year, month } = parseMonth(key)
  return (year - START.year) * 12 + (month - START.month)
}

export function monthRange(from: string, to: string): Month[] {
  const months: Month[] = []
  for (let index = 0; index <= monthIndex(to) - monthIndex(from); index++) {
    const total = START.year * 12 + START.month - 1 + monthIndex(from) + index
    const year = Math.floor(total / 12)
    const month = (total % 12) + 1
    months.push({ key: `${year}-${String(month).padStart(2, '0')}`, year, month, index: monthIndex(from) + index })
  }
  return months
}

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
function distanceKm(a: Point, b: Point): number {
  const rad = Math.PI / 180
  const dLat = (b.lat - a.lat) * rad
  const dLon = (b.lon - a.lon) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2
  return 2 * 6371 * Math.asin(Math.sqrt(h))
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
  const i = month.index
  if (i < monthIndex('2020-01')) return 1
  if (i === monthIndex('2020-01')) return 0.95
  if (i === monthIndex('2020-02')) return 0.3
  if (i === monthIndex('2020-03')) return 0.08
  if (i < monthIndex('2023-01')) {
    const residual = CLOSED_BORDER_RESIDUAL * between(rngFor('residual', destination.code), 0.65, 1.6)
    return i >= monthIndex('2022-07') ? residual * 1.4 : residual // gradual easing in late 2022
  }
  const profile = COUNTRY_PROFILE[destination.countryCode]
  const target = profile.recovery * between(rngFor('recovery', destination.code), 0.95, 1.05)
  const elapsed = i - monthIndex('2023-01')
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

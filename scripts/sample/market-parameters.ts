/**
 * The synthetic parameters of the market model (./market.ts): base volumes, origin weights, route
 * network limits, country profiles and shocks, seasonality, the border closure and recovery, card spend.
 */
import type { CountryCode, DestinationCode, OriginCode, Region } from '../../src/data/sample-geography'

// Records keyed by the geography's code unions, so TypeScript flags any destination, origin or country
// that lacks a parameter.

/** Average monthly one-way flights from all of mainland China in 2019. */
export const DEST_BASE_FLIGHTS: Readonly<Record<DestinationCode, number>> = {
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
export const ORIGIN_WEIGHT: Readonly<Record<OriginCode, number>> = {
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
export const ROUTES_PER_TIER: Readonly<Record<1 | 2 | 3, number>> = { 1: 62, 2: 26, 3: 7 }
/** Every destination keeps at least this many origins, so none drops out of the network. */
export const MIN_ORIGINS_PER_DESTINATION = 2
/** Routes below about one weekly flight in 2019 would round to zero: they are not operated
 * (except each origin's strongest route, so every origin city stays in the data). */
export const MIN_ROUTE_FLIGHTS = 4
/** Distance decay of route gravity: smaller cities' international flights stay closer to home. */
export const DISTANCE_DECAY: Readonly<Record<1 | 2 | 3, number>> = { 1: 1.3, 2: 1.5, 3: 2.2 }

/** Spend per card per month in CNY: luxury, accommodation, dining, other retail. */
type SpendMix = readonly [luxury: number, accommodation: number, dining: number, retail: number]

interface CountryProfile {
  /** Long-run demand after reopening, relative to 2019. */
  recovery: number
  /** Multiplier on the reopening pace (visa-free access fast, group-tour bans slow). */
  speed: number
  perCard: SpendMix
}

export const COUNTRY_PROFILE: Readonly<Record<CountryCode, CountryProfile>> = {
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
export const COUNTRY_SHOCKS: Readonly<Partial<Record<CountryCode, { from: string; path: readonly number[] }>>> = {
  TH: { from: '2025-02', path: [0.85, 0.8, 0.8, 0.82, 0.85, 0.88, 0.9, 0.92, 0.95, 0.97, 1] },
  JP: { from: '2025-11', path: [0.85, 0.6, 0.55, 0.55, 0.57, 0.6, 0.62, 0.65, 0.67, 0.7, 0.72, 0.75] },
}

/** Outbound seasonality, Jan..Dec: summer and Golden Week peaks, March/November troughs. */
export const BASE_SEASON = [0.96, 0.92, 0.86, 0.95, 0.98, 0.97, 1.12, 1.16, 0.96, 1.08, 0.86, 0.93] as const
/** Extra lift in the month holding the Spring Festival holiday. */
export const SPRING_FESTIVAL_LIFT = 0.22
/** Regional deviations from BASE_SEASON (tropical winter escapes, European summers, ...). */
export const REGION_SEASON_TILT: Readonly<Partial<Record<Region, readonly number[]>>> = {
  'Southeast Asia': [0.06, 0.04, 0, 0, -0.02, -0.03, -0.04, -0.03, -0.02, 0, 0.02, 0.06],
  'South Asia': [0.08, 0.08, 0.04, 0, -0.05, -0.05, -0.03, -0.03, -0.02, 0, 0.02, 0.08],
  'Middle East': [0.06, 0.06, 0.03, 0, -0.03, -0.05, -0.05, -0.05, -0.02, 0, 0.03, 0.06],
  Europe: [-0.08, -0.04, 0, 0.02, 0.03, 0.04, 0.08, 0.08, 0.05, 0, -0.05, -0.05],
  Oceania: [0.1, 0.08, 0, 0, -0.04, -0.06, -0.02, -0.02, 0, 0, 0.02, 0.05],
  'North America': [-0.04, 0, 0, 0, 0, 0.02, 0.06, 0.06, 0, 0, -0.02, 0],
}
/** Airlines adjust schedules less than demand moves; load factors absorb the rest. */
export const SCHEDULE_SEASON_DAMPING = 0.7

/** Demand level (vs 2019) during the closed-border period, before per-destination variation. */
export const CLOSED_BORDER_RESIDUAL = 0.03
/** Demand level in January 2023, the first month after reopening. */
export const REOPENING_LEVEL = 0.08
/** Monthly closing rate of the gap to the long-run level after reopening (x country speed). */
export const RECOVERY_RATE = 0.13

/** Distinct cards used abroad per outbound passenger (mobile wallets take the rest). */
export const CARDS_PER_PASSENGER = 0.55
/** Students and residents abroad keep spending when flights stop: floor vs the 2019 level. */
export const RESIDENT_CARD_FLOOR = 0.08
/** Spend-mix shift after reopening: less luxury shopping, dearer hotels. */
export const POST_REOPENING_SPEND: SpendMix = [0.8, 1.1, 1.05, 0.9]
export const ANNUAL_PRICE_GROWTH = 0.025

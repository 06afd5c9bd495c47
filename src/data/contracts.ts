import { PLATFORM_TOKENS, SIGNAL_CATEGORY_SLUGS } from '../catalog'

/**
 * Schema contracts of the Parquet datasets behind the dataset routes.
 * The sample generator writes exactly these columns; the engine reads them through a view that casts
 * to these types, and the data team's `data validate` decodes every value of a candidate file (no rule
 * is answered from Parquet statistics; a page that cannot be decoded refuses the file) and checks it
 * against every rule here.
 * Bump `schemaVersion` on any change.
 */
export type ColumnType = 'VARCHAR' | 'INTEGER' | 'DOUBLE'

export interface ColumnContract {
  name: string
  type: ColumnType
  description: string
  /** Counts and amounts: a negative value is a defect. */
  nonNegative?: boolean
  /** Regular expression every value must match (VARCHAR). */
  pattern?: string
  /** The only allowed values (VARCHAR). */
  values?: readonly string[]
  /** Most characters a value may have (VARCHAR); `MAX_TEXT_LENGTH` when absent. */
  maxLength?: number
}

/**
 * Text hygiene, checked on every VARCHAR column. No control characters (C0 and C1, NUL, tab and
 * newline included): they break CSV exports, logs and prompts. No zero-width or bidi-control
 * characters: "Tokyo" with a zero-width space looks like "Tokyo" but groups apart, silently splitting
 * a destination's rows, and a right-to-left override makes a name display as another. And at most
 * `maxLength` characters, so one value cannot bloat every answer that carries it.
 * Patterns are RE2 (DuckDB's regexp_matches).
 */
export const CONTROL_CHARACTERS = '[\\x{00}-\\x{1F}\\x{7F}-\\x{9F}]'
export const INVISIBLE_CHARACTERS = '[\\x{200B}-\\x{200F}\\x{202A}-\\x{202E}\\x{2060}-\\x{2064}\\x{2066}-\\x{2069}\\x{FEFF}]'
/** Names, codes and ids: the shipped sample's longest is 74 characters (an evidence id). */
export const MAX_TEXT_LENGTH = 200

/**
 * Two columns that name the same thing. Each value of `column` goes with one value of `partner`
 * (one code per name); with `oneToOne`, each `partner` value also goes with one `column` value (one
 * name per code). A destination spelt two ways, or one code shared by two names, splits or merges
 * the rows the routes group by.
 */
export interface PairContract {
  column: string
  partner: string
  oneToOne: boolean
}

/**
 * The time axis of a dataset. `month`: YYYY-MM. `week`: Monday `week_start` and the Sunday `week_end`
 * six days later. Periods must not lie in the future and, when `gapsAllowed` is false, every period
 * between the first and the last must have rows.
 */
export type PeriodContract =
  | { kind: 'month'; column: string; gapsAllowed: false }
  | { kind: 'week'; column: string; endColumn: string; gapsAllowed: false }

export interface DatasetContract {
  name: string
  file: string
  schemaVersion: number
  description: string
  /** Columns that together identify one row. */
  key: string[]
  /** Parquet is sorted by these columns so filtered scans skip row groups. */
  sortBy: string[]
  period: PeriodContract
  columns: ColumnContract[]
  pairs: PairContract[]
}

const MONTH: ColumnContract = { name: 'month', type: 'VARCHAR', description: 'source month, YYYY-MM', pattern: '^\\d{4}-(0[1-9]|1[0-2])$' }
const COUNTRY_CODE = '^[A-Z]{2}$'
const IATA = '^[A-Z]{3}$'
const SLUG = '^[a-z0-9]+(-[a-z0-9]+)*$'
const count = (name: string, description: string): ColumnContract => ({ name, type: 'INTEGER', description, nonNegative: true })
const oneToOne = (column: string, partner: string): PairContract => ({ column, partner, oneToOne: true })
const manyToOne = (column: string, partner: string): PairContract => ({ column, partner, oneToOne: false })
const amount = (name: string, description: string): ColumnContract => ({ name, type: 'DOUBLE', description, nonNegative: true })

export const FLIGHTS: DatasetContract = {
  name: 'flights',
  file: 'flights.parquet',
  schemaVersion: 1,
  description: 'Monthly scheduled flights, seats and estimated passengers from mainland China origin cities to destinations abroad.',
  key: ['month', 'destination', 'origin_city'],
  sortBy: ['month', 'destination'],
  period: { kind: 'month', column: 'month', gapsAllowed: false },
  columns: [
    MONTH,
    { name: 'destination', type: 'VARCHAR', description: 'destination city name, English' },
    { name: 'destination_code', type: 'VARCHAR', description: 'IATA metropolitan-area or airport code of the destination', pattern: IATA },
    { name: 'destination_country', type: 'VARCHAR', description: 'country of the destination, English' },
    {
      name: 'destination_country_code',
      type: 'VARCHAR',
      description: 'ISO 3166-1 alpha-2 code of the destination country',
      pattern: COUNTRY_CODE,
    },
    { name: 'origin_city', type: 'VARCHAR', description: 'mainland China departure city, English' },
    { name: 'origin_code', type: 'VARCHAR', description: 'IATA code of the departure city', pattern: IATA },
    count('scheduled_flights', 'scheduled one-way flights in the month'),
    count('seats', 'seats offered on those flights'),
    count('estimated_passengers', 'estimated passengers (seats x load factor)'),
  ],
  // A destination also lies in one country.
  pairs: [
    oneToOne('destination', 'destination_code'),
    oneToOne('destination_country', 'destination_country_code'),
    oneToOne('origin_city', 'origin_code'),
    manyToOne('destination', 'destination_country'),
  ],
}

export const SPEND: DatasetContract = {
  name: 'spend',
  file: 'spend.parquet',
  schemaVersion: 1,
  description: 'Monthly card spend abroad by mainland China cardholders, by destination country and cardholder source city.',
  key: ['month', 'country', 'source_city'],
  sortBy: ['month', 'country'],
  period: { kind: 'month', column: 'month', gapsAllowed: false },
  columns: [
    MONTH,
    { name: 'country', type: 'VARCHAR', description: 'country where the cards were used, English' },
    { name: 'country_code', type: 'VARCHAR', description: 'ISO 3166-1 alpha-2 code of that country', pattern: COUNTRY_CODE },
    { name: 'source_city', type: 'VARCHAR', description: 'mainland China city where the cards were issued, English' },
    count('total_cards', 'distinct cards with at least one transaction in the country that month'),
    amount('luxury_spend_cny', 'total luxury-goods spend, CNY'),
    amount('accommodation_spend_cny', 'total accommodation spend, CNY'),
    amount('dining_spend_cny', 'total dining spend, CNY'),
    amount('retail_spend_cny', 'total other retail spend, CNY'),
  ],
  pairs: [oneToOne('country', 'country_code')],
}

// Weekly signals: one file per entity kind, one row per entity, platform and published week.
const WEEK_START: ColumnContract = {
  name: 'week_start',
  type: 'VARCHAR',
  description: 'Monday of the week, YYYY-MM-DD',
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
}
const WEEK_END: ColumnContract = {
  name: 'week_end',
  type: 'VARCHAR',
  description: 'Sunday of the week, YYYY-MM-DD',
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
}
const CATEGORY: ColumnContract = {
  name: 'category',
  type: 'VARCHAR',
  description: 'category slug (documented list)',
  values: SIGNAL_CATEGORY_SLUGS,
}
const PLATFORM: ColumnContract = { name: 'platform', type: 'VARCHAR', description: 'platform token', values: PLATFORM_TOKENS }
const WEEKLY = { kind: 'week', column: 'week_start', endColumn: 'week_end', gapsAllowed: false } as const

export const SIGNAL_CREATORS: DatasetContract = {
  name: 'signal_creators',
  file: 'signal_creators.parquet',
  schemaVersion: 1,
  description: 'Weekly activity of creators (KOLs) per category: one row per creator and week.',
  key: ['week_start', 'category', 'creator_handle'],
  sortBy: ['week_start', 'category'],
  period: WEEKLY,
  columns: [
    WEEK_START,
    WEEK_END,
    CATEGORY,
    { name: 'creator_handle', type: 'VARCHAR', description: 'stable creator id (fictional in the sample)', pattern: '^[a-z0-9_.]{3,40}$' },
    { name: 'creator_name', type: 'VARCHAR', description: 'display name' },
    PLATFORM,
    {
      name: 'follower_band',
      type: 'VARCHAR',
      description: 'tier by followers: mega (1M+), macro (500k-1M), mid (100k-500k), micro (10k-100k), nano (<10k)',
      values: ['mega', 'macro', 'mid', 'micro', 'nano'],
    },
    count('followers', 'followers at the end of the week'),
    count('posts', 'posts published in the week'),
    count('engagement', 'likes, comments, saves and shares on those posts'),
    count('views', 'views of those posts'),
    { name: 'follower_growth_pct', type: 'DOUBLE', description: 'follower change over the week, percent (may be negative)' },
  ],
  // Display names are not unique: two creators may share one (the sample has ten such pairs).
  pairs: [manyToOne('creator_handle', 'creator_name')],
}

/** A weekly signals file of named entities: one row per entity, category, platform and week; its name columns and counts. */
function weeklyEntities(
  entity: 'topic' | 'brand',
  spec: { schemaVersion: number; description: string; name: string; nameZh: string; counts: ColumnContract[] },
): DatasetContract {
  const name = `signal_${entity}s`
  const [slug, english, chinese] = [`${entity}_slug`, `${entity}_name`, `${entity}_name_zh`]
  return {
    name,
    file: `${name}.parquet`,
    schemaVersion: spec.schemaVersion,
    description: spec.description,
    key: ['week_start', 'category', slug, 'platform'],
    sortBy: ['week_start', 'category'],
    period: WEEKLY,
    columns: [
      WEEK_START,
      WEEK_END,
      CATEGORY,
      { name: slug, type: 'VARCHAR', description: `stable ${entity} id`, pattern: SLUG },
      { name: english, type: 'VARCHAR', description: spec.name },
      { name: chinese, type: 'VARCHAR', description: spec.nameZh },
      PLATFORM,
      ...spec.counts,
    ],
    // Chinese names may be empty (a brand's), so several entities can share one.
    pairs: [oneToOne(slug, english), manyToOne(slug, chinese)],
  }
}

export const SIGNAL_TOPICS = weeklyEntities('topic', {
  schemaVersion: 1,
  description: 'Weekly volume of topics (hashtags, themes) per category and platform.',
  name: 'topic, English',
  nameZh: 'topic, Chinese',
  counts: [
    count('posts', 'posts on the topic in the week'),
    count('engagement', 'engagement on those posts'),
    count('creators', 'distinct creators posting on the topic'),
  ],
})

export const SIGNAL_BRANDS = weeklyEntities('brand', {
  schemaVersion: 2,
  description: 'Weekly brand mentions per category and platform (fictional brands in the sample).',
  name: 'brand name',
  nameZh: 'brand name as Chinese posts write it; empty when the brand has none',
  counts: [
    count('mentions', 'posts mentioning the brand'),
    count('reach', 'estimated views of those posts'),
    count('engagement', 'engagement on those posts'),
    count('seeding_creators', 'distinct creators who posted about the brand (seeding breadth)'),
    count('sponsored_posts', 'mentions marked as sponsored or gifted'),
  ],
})

/**
 * Evidence corpus behind the China intelligence routes when no live provider is configured: posts,
 * notes, articles and web coverage, one row per item. Creators and brands in the shipped sample are
 * fictional. `retrieval` says how an item was obtained: `native` = first-party platform discovery,
 * `proxy` = open web (reports, analysis, platform-adjacent coverage).
 */
export const EVIDENCE: DatasetContract = {
  name: 'evidence',
  file: 'evidence.parquet',
  schemaVersion: 2,
  description: 'Evidence items (posts, notes, videos, articles, web coverage) per platform, with creators and engagement.',
  key: ['id'],
  // In publication order: the corpus search table keeps the file's order, so windows skip row groups
  // without a sort at load (sorting 190k rows held ~70 MB more memory).
  sortBy: ['published_at', 'id'],
  period: { kind: 'month', column: 'month', gapsAllowed: false },
  columns: [
    { name: 'id', type: 'VARCHAR', description: 'stable item id' },
    { ...MONTH, description: 'month of publication, YYYY-MM' },
    {
      name: 'published_at',
      type: 'VARCHAR',
      description: 'publication time, ISO 8601 UTC (YYYY-MM-DDTHH:MM:SSZ)',
      pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$',
    },
    {
      name: 'platform',
      type: 'VARCHAR',
      description: 'where the item was published: xiaohongshu, douyin, wechat or web',
      values: [...PLATFORM_TOKENS, 'web'],
    },
    { name: 'about_platform', type: 'VARCHAR', description: 'for web items, the platform the coverage is about; empty when general' },
    {
      name: 'retrieval',
      type: 'VARCHAR',
      description: 'native (first-party platform discovery) or proxy (open web)',
      values: ['native', 'proxy'],
    },
    {
      name: 'source_kind',
      type: 'VARCHAR',
      description: 'note, video, article, web_page, report or news',
      values: ['note', 'video', 'article', 'web_page', 'report', 'news'],
    },
    { ...CATEGORY, description: 'content category slug (the weekly signal categories)' },
    { name: 'language', type: 'VARCHAR', description: 'zh or en', values: ['zh', 'en'] },
    { name: 'author', type: 'VARCHAR', description: 'creator handle or publishing site' },
    count('author_followers', 'followers of the creator when published; 0 for web publishers'),
    { name: 'author_city', type: 'VARCHAR', description: 'creator home city, English; empty when unknown' },
    // Longest in the sample: title 84 characters, text 241.
    { name: 'title', type: 'VARCHAR', description: 'title; empty when the item has none', maxLength: 500 },
    { name: 'text', type: 'VARCHAR', description: 'body text or excerpt, hashtags included', maxLength: 5000 },
    count('likes', 'likes (0 for web pages, which report none)'),
    count('comments', 'comments'),
    count('shares', 'shares, reposts or forwards'),
    count('views', 'views or reads; 0 when not reported'),
  ],
  pairs: [],
}

export const DATASETS: readonly DatasetContract[] = [FLIGHTS, SPEND, SIGNAL_CREATORS, SIGNAL_TOPICS, SIGNAL_BRANDS, EVIDENCE]

export const datasetContract = (name: string): DatasetContract | undefined => DATASETS.find((d) => d.name === name)

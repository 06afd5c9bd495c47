/**
 * Schema contracts of the Parquet datasets behind the market-data routes.
 * The sample generator writes exactly these columns; the engine and (later) the data team's
 * `data validate` command check files against them. Bump `schemaVersion` on any change.
 */
export type ColumnType = 'VARCHAR' | 'INTEGER' | 'DOUBLE'

export interface ColumnContract {
  name: string
  type: ColumnType
  description: string
}

export interface DatasetContract {
  name: string
  file: string
  schemaVersion: number
  description: string
  /** Columns that together identify one row. */
  key: string[]
  /** Parquet is sorted by these columns so filtered scans skip row groups. */
  sortBy: string[]
  columns: ColumnContract[]
}

export const FLIGHTS: DatasetContract = {
  name: 'flights',
  file: 'flights.parquet',
  schemaVersion: 1,
  description: 'Monthly scheduled flights, seats and estimated passengers from mainland China origin cities to destinations abroad.',
  key: ['month', 'destination', 'origin_city'],
  sortBy: ['month', 'destination'],
  columns: [
    { name: 'month', type: 'VARCHAR', description: 'source month, YYYY-MM' },
    { name: 'destination', type: 'VARCHAR', description: 'destination city name, English' },
    { name: 'destination_code', type: 'VARCHAR', description: 'IATA metropolitan-area or airport code of the destination' },
    { name: 'destination_country', type: 'VARCHAR', description: 'country of the destination, English' },
    { name: 'destination_country_code', type: 'VARCHAR', description: 'ISO 3166-1 alpha-2 code of the destination country' },
    { name: 'origin_city', type: 'VARCHAR', description: 'mainland China departure city, English' },
    { name: 'origin_code', type: 'VARCHAR', description: 'IATA code of the departure city' },
    { name: 'scheduled_flights', type: 'INTEGER', description: 'scheduled one-way flights in the month' },
    { name: 'seats', type: 'INTEGER', description: 'seats offered on those flights' },
    { name: 'estimated_passengers', type: 'INTEGER', description: 'estimated passengers (seats x load factor)' },
  ],
}

export const SPEND: DatasetContract = {
  name: 'spend',
  file: 'spend.parquet',
  schemaVersion: 1,
  description: 'Monthly card spend abroad by mainland China cardholders, by destination country and cardholder source city.',
  key: ['month', 'country', 'source_city'],
  sortBy: ['month', 'country'],
  columns: [
    { name: 'month', type: 'VARCHAR', description: 'source month, YYYY-MM' },
    { name: 'country', type: 'VARCHAR', description: 'country where the cards were used, English' },
    { name: 'country_code', type: 'VARCHAR', description: 'ISO 3166-1 alpha-2 code of that country' },
    { name: 'source_city', type: 'VARCHAR', description: 'mainland China city where the cards were issued, English' },
    { name: 'total_cards', type: 'INTEGER', description: 'distinct cards with at least one transaction in the country that month' },
    { name: 'luxury_spend_cny', type: 'DOUBLE', description: 'total luxury-goods spend, CNY' },
    { name: 'accommodation_spend_cny', type: 'DOUBLE', description: 'total accommodation spend, CNY' },
    { name: 'dining_spend_cny', type: 'DOUBLE', description: 'total dining spend, CNY' },
    { name: 'retail_spend_cny', type: 'DOUBLE', description: 'total other retail spend, CNY' },
  ],
}

/**
 * Evidence corpus behind the China intelligence routes when no live provider is configured: posts,
 * notes, articles and web coverage, one row per item. Creators and brands in the shipped sample are
 * fictional. `retrieval` says how an item was obtained: `native` = first-party platform discovery,
 * `proxy` = open web (reports, analysis, platform-adjacent coverage).
 */
export const EVIDENCE: DatasetContract = {
  name: 'evidence',
  file: 'evidence.parquet',
  schemaVersion: 1,
  description: 'Evidence items (posts, notes, videos, articles, web coverage) per platform, with creators and engagement.',
  key: ['id'],
  sortBy: ['month', 'platform'],
  columns: [
    { name: 'id', type: 'VARCHAR', description: 'stable item id' },
    { name: 'month', type: 'VARCHAR', description: 'month of publication, YYYY-MM' },
    { name: 'published_at', type: 'VARCHAR', description: 'publication time, ISO 8601 UTC (YYYY-MM-DDTHH:MM:SSZ)' },
    { name: 'platform', type: 'VARCHAR', description: 'where the item was published: xiaohongshu, douyin, wechat or web' },
    { name: 'about_platform', type: 'VARCHAR', description: 'for web items, the platform the coverage is about; empty when general' },
    { name: 'retrieval', type: 'VARCHAR', description: 'native (first-party platform discovery) or proxy (open web)' },
    { name: 'source_kind', type: 'VARCHAR', description: 'note, video, article, web_page, report or news' },
    { name: 'category', type: 'VARCHAR', description: 'content category slug (outdoor, beauty, travel, lifestyle, fashion, pets)' },
    { name: 'language', type: 'VARCHAR', description: 'zh or en' },
    { name: 'author', type: 'VARCHAR', description: 'creator handle or publishing site' },
    { name: 'author_followers', type: 'INTEGER', description: 'followers of the creator when published; 0 for web publishers' },
    { name: 'author_city', type: 'VARCHAR', description: 'creator home city, English; empty when unknown' },
    { name: 'title', type: 'VARCHAR', description: 'title; empty when the item has none' },
    { name: 'text', type: 'VARCHAR', description: 'body text or excerpt, hashtags included' },
    { name: 'likes', type: 'INTEGER', description: 'likes (0 for web pages, which report none)' },
    { name: 'comments', type: 'INTEGER', description: 'comments' },
    { name: 'shares', type: 'INTEGER', description: 'shares, reposts or forwards' },
    { name: 'views', type: 'INTEGER', description: 'views or reads; 0 when not reported' },
  ],
}

export const DATASETS = [FLIGHTS, SPEND, EVIDENCE] as const

/**
 * What kind of key a benchmark request asks about, in a long-tail world (`generate-sample-data.ts --scale N
 * --long-tail`): `rare`, an entity of the tail, whose posts stay those of the shipped corpus at any N;
 * `common`, an entity of the head, whose posts grow N times; `category`, a whole category (its head and
 * its tail). The head is the generator's own (scripts/sample/evidence.ts longTailHead), read from a
 * folder's weekly signals and flights.
 */
import { DuckDBInstance } from '@duckdb/node-api'
import { join } from 'node:path'
import { readManifest } from '../../src/data/import/datasets'
import type { Row } from '../sample/parquet'
import { longTailHead } from '../sample/evidence'
import type { Ask } from './answer-requests'

export type KeyClass = 'rare' | 'common' | 'category'

/** A named entity the counts pass asks about (bench-scale.ts), with its class. */
export interface NamedEntity {
  keyword: string
  kind: 'topic' | 'brand' | 'destination' | 'category'
  cls: KeyClass
}

export interface KeyClasses {
  of(ask: Ask): KeyClass
  entities: NamedEntity[]
}

/** The classes of the world whose files are in `dir` (the largest folder: its flights hold the generator's months). */
export async function keyClasses(dir: string): Promise<KeyClasses> {
  const manifest = readManifest(dir)
  const file = (name: string) => `read_parquet('${join(dir, manifest.datasets[name]!.file)}')`
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  const rows = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJS() as Row[]
  try {
    const topics = await rows(
      `SELECT category, topic_slug, any_value(topic_name) AS name, any_value(topic_name_zh) AS zh, sum(posts)::DOUBLE AS posts FROM ${file('signal_topics')} GROUP BY ALL`,
    )
    const brands = await rows(
      `SELECT category, brand_slug, any_value(brand_name) AS name, sum(mentions)::DOUBLE AS mentions FROM ${file('signal_brands')} GROUP BY ALL`,
    )
    const flights = await rows(
      `SELECT destination_code, any_value(destination) AS name, sum(estimated_passengers)::DOUBLE AS estimated_passengers FROM ${file('flights')} GROUP BY ALL`,
    )
    const head = longTailHead({ topics, brands, flights })
    const cls = new Map<string, KeyClass>()
    const entities: NamedEntity[] = []
    const add = (names: unknown[], kind: NamedEntity['kind'], isHead: boolean) => {
      const keyClass: KeyClass = kind === 'category' ? 'category' : isHead ? 'common' : 'rare'
      // A brand listed in two categories is common when either is in the head.
      for (const name of names) if (name) cls.set(String(name), cls.get(String(name)) === 'common' ? 'common' : keyClass)
      if (!entities.some((e) => e.keyword === names[0])) entities.push({ keyword: String(names[0]), kind, cls: keyClass })
    }
    for (const t of topics) add([t.name, t.zh], 'topic', head.subjects.has(`${t.category}|${t.topic_slug}`))
    for (const b of brands) add([b.name], 'brand', head.subjects.has(`${b.category}|${b.brand_slug}`))
    for (const f of flights) add([f.name], 'destination', head.places.has(String(f.destination_code)))
    for (const category of new Set(topics.map((t) => String(t.category)))) add([category], 'category', false)
    for (const e of entities) e.cls = cls.get(e.keyword)!
    return {
      entities,
      of: (ask) => {
        const q = ask.query
        if (q.category !== undefined) return 'category'
        return cls.get(String(q.keyword ?? q.entity ?? q.brand_name ?? q.destination)) ?? 'category'
      },
    }
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

import { COUNTRIES, DESTINATIONS } from './sample-geography'

/**
 * The alias table: every spelling a buyer may use for a place, by the place's code. English name,
 * IATA city code, airport codes of the metro area, Chinese name and common variants all reach the
 * same place: `东京`, `TYO`, `NRT` and `tokyo` are Tokyo; `日本`, `JP` and `Japan` are Japan.
 * Built from src/data/sample-geography.ts; a dataset's own names and codes are always accepted too.
 */
/** The lookup key of a name. Callers try `name.toLowerCase()` first: for a plain name it is the same key, without the cost of NFKC on the 402 path. */
export const placeKey = (name: string) => name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase()

export const DESTINATION_ALIASES: ReadonlyMap<string, readonly string[]> = new Map(
  DESTINATIONS.map((d) => [d.code, [d.name, d.code, d.nameZh, ...d.aliases, ...('airports' in d ? d.airports : [])]]),
)

export const COUNTRY_ALIASES: ReadonlyMap<string, readonly string[]> = new Map(
  COUNTRIES.map((c) => [c.code, [c.name, c.code, c.nameZh, ...c.aliases]]),
)

/** The slug of a name: `Aurora Skin` -> `aurora-skin`, `Kite & Pine` -> `kite-and-pine` (the weekly signals' brand ids). */
export const slugOf = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

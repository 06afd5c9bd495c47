/**
 * Which known names and entities each post holds, for the corpus index (corpus-index-build.ts runs it
 * over every post in rowid order): the posts' name tokens (`named`) and, per entity, its posts in order
 * (`entity_rows`: the n-th post of an entity, so a window's count is two lookups and a draw one lookup
 * per post drawn, at any corpus size).
 *
 * A name counts where it occurs in a title or a text as relevance reads them (NFKC, lower case): a
 * Chinese name as written, a Latin one as a whole word with a plural, spaces and hyphens alike; except
 * inside a longer known name that hides it for whichever entity is asked (relevance.ts hidersOf: a post
 * about Celestine Paris is no post about Paris). Every post relevance keeps is so among an entity's rows.
 */
import type { Database } from 'bun:sqlite'
import { normalizeText } from '../analysis/relevance'
import { AhoCorasick } from './aho-corasick'
import type { CorpusVocabulary } from './corpus-vocabulary'

const HAN = /\p{Script=Han}/u
const WORD = /[\p{Script=Latin}\p{N}_]/u
/** Latin names and texts as relevance's whole-word patterns read them: a hyphen is a space, runs of them one. */
const fold = (text: string) => text.replace(/[\s-]+/g, ' ')
/** Whether `text` holds a Latin name whole at [start, end): no word character before, none after but a plural. */
const wholeWord = (text: string, start: number, end: number) => {
  if (WORD.test(text.charAt(start - 1))) return false
  const plural = /^(?:'s|es|s)/.exec(text.slice(end, end + 2))?.[0] ?? ''
  return !WORD.test(text.charAt(end)) || !WORD.test(text.charAt(end + plural.length))
}

/** One kind of name and how a text is searched for it. */
interface Kind {
  matcher: AhoCorasick
  /** The kind's names' numbers among all names. */
  ids: number[]
  lengths: number[]
  read: (normalised: string) => string
  whole: (text: string, start: number, end: number) => boolean
}

/** A known name's token in `named`: letters and digits, one token to FTS5's ascii tokenizer. */
export const nameToken = (i: number) => `n${i.toString(36)}`

export const NAMES_SCHEMA = `
  CREATE TABLE names (name TEXT PRIMARY KEY, token TEXT) WITHOUT ROWID;
  CREATE VIRTUAL TABLE named USING fts5(n, content='', columnsize=0, detail=none, tokenize='ascii');
  CREATE TABLE entities (entity INTEGER PRIMARY KEY, key TEXT UNIQUE, posts INTEGER);`

export class NamesPass {
  private readonly kinds: Kind[]
  private readonly names: string[]
  /** Per name, the names that hide it (their numbers); and every name that hides some other. */
  private readonly hiders: Set<number>[]
  private readonly hiding: Set<number>
  /** Per name, the entities whose prefilter lists it; per author, the creators whose posts are theirs. */
  private readonly entitiesOfName: number[][]
  private readonly entitiesOfAuthor = new Map<string, number[]>()
  /** Posts of each entity so far: the next one's number. */
  private readonly counts: Int32Array
  private readonly insertNamed
  private readonly stage

  constructor(
    private readonly out: Database,
    private readonly vocabulary: CorpusVocabulary,
    /** A scratch database the entities' posts are staged in before they are sorted into `entity_rows`. */
    private readonly staging: string,
  ) {
    this.names = vocabulary.names.map((n) => n.name)
    const ids = new Map(this.names.map((name, i) => [name, i]))
    this.hiders = vocabulary.names.map((n) => new Set(n.hiders.flatMap((h) => ids.get(h) ?? [])))
    this.hiding = new Set(this.hiders.flatMap((set) => [...set]))
    this.entitiesOfName = this.names.map(() => [])
    vocabulary.entities.forEach((entity, e) => {
      for (const name of entity.names) this.entitiesOfName[ids.get(name) ?? -1]?.push(e)
      if (entity.author) this.entitiesOfAuthor.set(entity.author, [...(this.entitiesOfAuthor.get(entity.author) ?? []), e])
    })
    const kind = (han: boolean): Kind => {
      const ids = this.names.flatMap((name, i) => (HAN.test(name) === han ? [i] : []))
      const patterns = ids.map((i) => (han ? this.names[i]! : fold(this.names[i]!)))
      return {
        matcher: new AhoCorasick(patterns),
        ids,
        lengths: patterns.map((p) => p.length),
        read: han ? (text) => text : fold,
        whole: han ? () => true : wholeWord,
      }
    }
    this.kinds = [kind(true), kind(false)]
    this.counts = new Int32Array(vocabulary.entities.length)
    const insertName = out.prepare('INSERT INTO names VALUES (?, ?)')
    this.names.forEach((name, i) => insertName.run(name, nameToken(i)))
    out.exec(
      `ATTACH DATABASE '${staging.replaceAll("'", "''")}' AS staging; CREATE TABLE staging.rows (entity INTEGER, n INTEGER, post INTEGER);`,
    )
    this.insertNamed = out.prepare('INSERT INTO named (rowid, n) VALUES (?, ?)')
    this.stage = out.prepare('INSERT INTO staging.rows VALUES (?, ?, ?)')
  }

  /** The names a title or text holds, those inside a name that hides them left out (a hider of the same kind: Chinese or Latin). */
  private namesIn(field: string, found: Set<number>): void {
    const normalised = normalizeText(field)
    for (const kind of this.kinds) {
      const text = kind.read(normalised)
      const at: [number, number, number][] = []
      kind.matcher.scan(text, (k, end) => {
        const start = end - kind.lengths[k]!
        if (kind.whole(text, start, end)) at.push([kind.ids[k]!, start, end])
      })
      // A hider counts only where relevance's own pass would blank it whole: its occurrence overlaps no
      // other hider's (relevance blanks left to right, one match at a time, so of two overlapping
      // hiders, "le paris rue paris", one is cut short and the name inside it stays visible).
      const whole = ([hider, start, end]: (typeof at)[number], name: number) =>
        !at.some(([other, s, e]) => other !== hider && other !== name && this.hiding.has(other) && s < end && start < e)
      for (const occurrence of at) {
        const [name, start, end] = occurrence
        const hidden = at.some((h) => this.hiders[name]!.has(h[0]) && h[1] <= start && end <= h[2] && whole(h, name))
        if (!hidden) found.add(name)
      }
    }
  }

  /** One post, in rowid order. */
  add(rowid: number, title: string, text: string, author: string): void {
    const found = new Set<number>()
    this.namesIn(title, found)
    this.namesIn(text, found)
    if (found.size) this.insertNamed.run(rowid, [...found].map(nameToken).join(' '))
    const entities = new Set<number>(this.entitiesOfAuthor.get(author) ?? [])
    for (const name of found) for (const entity of this.entitiesOfName[name]!) entities.add(entity)
    for (const entity of entities) this.stage.run(entity, this.counts[entity]!++, rowid)
  }

  /** Every entity's posts, sorted by entity and number, and the entities' keys; the scratch database detached. */
  finish(): void {
    const entity = this.out.prepare('INSERT INTO entities VALUES (?, ?, ?)')
    this.vocabulary.entities.forEach((e, i) => entity.run(i, e.key, this.counts[i]!))
    this.out.exec(`CREATE TABLE entity_rows (entity INTEGER, n INTEGER, post INTEGER, PRIMARY KEY (entity, n)) WITHOUT ROWID;
      INSERT INTO entity_rows SELECT entity, n, post FROM staging.rows ORDER BY entity, n;`)
  }

  detach(): void {
    this.out.exec('DETACH DATABASE staging')
  }
}

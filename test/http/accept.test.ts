import { describe, expect, test } from 'bun:test'
import { prefersHtml, tableFormat } from '../../src/http/accept'
import { AGENT_ACCEPT, BROWSER_ACCEPT } from '../../support/accept'

/** What `decide` makes of each Accept header (a failure names the header). */
const expectEach = <T>(decide: (accept: string) => T, cases: Record<string, T>) => {
  for (const [accept, expected] of Object.entries(cases)) expect([accept, decide(accept)]).toEqual([accept, expected])
}

describe('prefersHtml', () => {
  test.each(Object.entries(BROWSER_ACCEPT))('%s navigation prefers HTML', (_, accept) => {
    expect(prefersHtml(accept)).toBe(true)
  })

  test.each(AGENT_ACCEPT.map((a) => [a]))('%p keeps JSON', (accept) => {
    expect(prefersHtml(accept)).toBe(false)
  })

  test('quality decides, the most specific range counts, ranges are read case-insensitively', () => {
    expectEach(prefersHtml, {
      'text/html': true,
      'application/json;q=0.5, text/html': true,
      'text/html ; q=0.9 , application/json ; q=0.8': true,
      // JSON is only reached through */* here, and that outranks the explicit HTML.
      'text/html;q=0.4, */*;q=0.5': false,
      // application/* stands for JSON when JSON itself is not named.
      'text/html;q=0.6, application/*;q=0.7': false,
      // A tie after lower-casing: JSON, whichever comes first.
      'text/html, APPLICATION/JSON': false,
      'application/json, text/html': false,
      // At equal quality the named type outranks the wildcard that is all JSON has here.
      'text/html, */*': true,
      'text/html, application/*': true,
    })
  })

  test('parameters other than q decide nothing; a q that is not a number from 0 to 1 is 0', () => {
    expectEach(prefersHtml, {
      'text/html;charset=utf-8, application/json': false, // still a tie
      'application/json;version=2, text/html;q=0.1': false,
      'application/json;q=0.9;ext=1, text/html;q=0.8': false,
      'text/html;q=2, application/json': false,
      'text/html;q=-1, */*;q=0.1': false,
    })
  })

  test('malformed headers throw nothing; a range that cannot be read is not HTML', () => {
    for (const junk of ['text/html, ;;;', 'text/html;q', 'text/html, /', 'text/html;a="open', 'text/html\u0000', 'text/html;=1']) {
      expect(() => [prefersHtml(junk), tableFormat(`${junk}, text/csv`)]).not.toThrow()
    }
    expectEach(prefersHtml, { 'text/html x': false, 'text/ html': false })
  })
})

describe('tableFormat', () => {
  const ARROW = 'application/vnd.apache.arrow.stream'
  test.each(AGENT_ACCEPT.map((a) => [a]))('%p answers JSON', (accept) => {
    expect(tableFormat(accept)).toBe('json')
  })

  test.each(Object.entries(BROWSER_ACCEPT))('a %s navigation gets JSON (never a download by surprise)', (_, accept) => {
    expect(tableFormat(accept)).toBe('json')
  })

  test('the named type with the highest quality wins; a tie, an unknown type or q=0 keep JSON', () => {
    expectEach(tableFormat, {
      'text/csv': 'csv',
      'TEXT/CSV; charset=utf-8': 'csv',
      [ARROW]: 'arrow',
      [`application/json;q=0.5, ${ARROW}`]: 'arrow',
      [`${ARROW}, application/json`]: 'json',
      'text/csv, application/json': 'json',
      'text/csv;q=0, */*': 'json',
      'text/plain': 'json',
      'application/*;q=0.1, text/csv;q=0.2': 'csv',
      'application/*': 'json',
      // Our own media type, as the answer's Content-Type writes it, and its parameters in any form.
      'text/csv; charset=utf-8; header=present': 'csv',
      'text/csv;header=present': 'csv',
      'text/csv; charset=UTF-8': 'csv',
      // A tie in quality and specificity is JSON's; a quality over 1 counts as 0.
      'text/csv;charset=utf-8, application/json': 'json',
      'text/csv;q=1.5, */*': 'json',
      // At equal quality the named type outranks a wildcard.
      'text/csv, */*': 'csv',
    })
  })
})

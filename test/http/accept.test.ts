import { describe, expect, test } from 'bun:test'
import { prefersHtml, tableFormat } from '../../src/http/accept'
import { AGENT_ACCEPT, BROWSER_ACCEPT } from '../../support/accept'

describe('prefersHtml', () => {
  test.each(Object.entries(BROWSER_ACCEPT))('%s navigation prefers HTML', (_, accept) => {
    expect(prefersHtml(accept)).toBe(true)
  })

  test.each(AGENT_ACCEPT.map((a) => [a]))('%p keeps JSON', (accept) => {
    expect(prefersHtml(accept)).toBe(false)
  })

  test('quality decides, the most specific range counts, ranges are read case-insensitively', () => {
    expect(prefersHtml('text/html')).toBe(true)
    expect(prefersHtml('application/json;q=0.5, text/html')).toBe(true)
    expect(prefersHtml('text/html ; q=0.9 , application/json ; q=0.8')).toBe(true)
    // JSON is only reached through */* here, and that outranks the explicit HTML.
    expect(prefersHtml('text/html;q=0.4, */*;q=0.5')).toBe(false)
    // application/* stands for JSON when JSON itself is not named.
    expect(prefersHtml('text/html;q=0.6, application/*;q=0.7')).toBe(false)
    // A tie after lower-casing: JSON, whichever comes first.
    expect(prefersHtml('text/html, APPLICATION/JSON')).toBe(false)
    expect(prefersHtml('application/json, text/html')).toBe(false)
    // At equal quality the named type outranks the wildcard that is all JSON has here.
    expect(prefersHtml('text/html, */*')).toBe(true)
    expect(prefersHtml('text/html, application/*')).toBe(true)
  })

  test('parameters other than q decide nothing; a q that is not a number from 0 to 1 is 0', () => {
    expect(prefersHtml('text/html;charset=utf-8, application/json')).toBe(false) // still a tie
    expect(prefersHtml('application/json;version=2, text/html;q=0.1')).toBe(false)
    expect(prefersHtml('application/json;q=0.9;ext=1, text/html;q=0.8')).toBe(false)
    expect(prefersHtml('text/html;q=2, application/json')).toBe(false)
    expect(prefersHtml('text/html;q=-1, */*;q=0.1')).toBe(false)
  })

  test('malformed headers throw nothing; a range that cannot be read is not HTML', () => {
    for (const junk of ['text/html, ;;;', 'text/html;q', 'text/html, /', 'text/html;a="open', 'text/html\u0000', 'text/html;=1']) {
      expect(() => [prefersHtml(junk), tableFormat(`${junk}, text/csv`)]).not.toThrow()
    }
    expect(prefersHtml('text/html x')).toBe(false)
    expect(prefersHtml('text/ html')).toBe(false)
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
    expect(tableFormat('text/csv')).toBe('csv')
    expect(tableFormat('TEXT/CSV; charset=utf-8')).toBe('csv')
    expect(tableFormat(ARROW)).toBe('arrow')
    expect(tableFormat(`application/json;q=0.5, ${ARROW}`)).toBe('arrow')
    expect(tableFormat(`${ARROW}, application/json`)).toBe('json')
    expect(tableFormat('text/csv, application/json')).toBe('json')
    expect(tableFormat('text/csv;q=0, */*')).toBe('json')
    expect(tableFormat('text/plain')).toBe('json')
    expect(tableFormat('application/*;q=0.1, text/csv;q=0.2')).toBe('csv')
    expect(tableFormat('application/*')).toBe('json')
    // Our own media type, as the answer's Content-Type writes it, and its parameters in any form.
    expect(tableFormat('text/csv; charset=utf-8; header=present')).toBe('csv')
    expect(tableFormat('text/csv;header=present')).toBe('csv')
    expect(tableFormat('text/csv; charset=UTF-8')).toBe('csv')
    // A tie in quality and specificity is JSON's; a quality over 1 counts as 0.
    expect(tableFormat('text/csv;charset=utf-8, application/json')).toBe('json')
    expect(tableFormat('text/csv;q=1.5, */*')).toBe('json')
    // At equal quality the named type outranks a wildcard.
    expect(tableFormat('text/csv, */*')).toBe('csv')
  })
})

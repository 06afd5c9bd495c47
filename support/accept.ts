/** What browsers send on a navigation, as of their current releases. */
export const BROWSER_ACCEPT = {
  chromium:
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
  firefox: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  safari: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
}

/** Accept values of agents and scripts: every one must keep the JSON answer. */
export const AGENT_ACCEPT: (string | null)[] = [
  null,
  '',
  '*/*',
  'application/json',
  'application/json, text/plain, */*',
  'application/json, text/html;q=0.9',
  'text/html, application/json', // a tie goes to JSON
  'application/*, text/html;q=0.5',
  'text/html;q=0',
  'text/html;q=abc', // malformed quality: never HTML by accident
  'text/plain',
  'text/*', // HTML only when named
]

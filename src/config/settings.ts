/**
 * Every environment variable the service reads, as a table: name -> schema, default, meaning. The
 * configuration (./config.ts) validates the environment against these schemas; the README and docs
 * tables are generated from it (src/docs/doc-tables.ts).
 */
import { Type as T } from '@sinclair/typebox'
import { NETWORKS, PAYMENT_MODES } from '../payments'
import { CLIENT_IP_HEADERS, HttpUrl } from '../core'
import { PROVIDER_ENV } from '../intelligence'

const NETWORK_NAMES = `\`${Object.keys(NETWORKS).join('`, `')}\``

/** Paid to in development mode when PAY_TO is unset: anvil's well-known test account #9. */
export const DEV_PAY_TO = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'

const Address = T.String({ pattern: '^0x[0-9a-fA-F]{40}$' })
/** A USDC amount: at most 6 decimals (the token's own). */
const UsdcAmount = T.String({ pattern: '^\\d{1,6}(\\.\\d{1,6})?$' })

/** Every environment variable the service reads: name -> schema, default, meaning (README derives its table from this). */
export const ENV = {
  PORT: { schema: T.Integer({ minimum: 0, maximum: 65535 }), default: '3000', meaning: 'TCP port to listen on (0 = any free port).' },
  HOST: {
    schema: T.String({ minLength: 1 }),
    default: '127.0.0.1 (0.0.0.0 when NODE_ENV=production)',
    meaning: 'Interface to bind. Development and test instances listen on the loopback only unless HOST says otherwise.',
  },
  PUBLIC_BASE_URL: {
    schema: T.String({ pattern: '^https?://[^\\s/]+(/[^\\s]*)?$' }),
    default: 'http://localhost:$PORT',
    meaning:
      'Public origin of the service; used for the absolute `resource` URLs in payment requirements, and the origin (and `Host`) `/mcp` accepts besides localhost.',
  },
  MCP_ALLOWED_ORIGINS: {
    schema: T.String({ minLength: 1 }),
    default: '— (PUBLIC_BASE_URL and localhost only)',
    meaning:
      "Comma-separated origins (`https://app.example.com`, scheme://host[:port]) that may call `/mcp` besides PUBLIC_BASE_URL's and localhost (any port); their host names are accepted as `Host` too. `*` accepts any `Origin` (the `Host` check stays). Others get 403 (DNS-rebinding protection).",
  },
  REUSE_PORT: {
    schema: T.Union([T.Literal('true'), T.Literal('false')]),
    default: 'false',
    meaning:
      '`true` lets several instances listen on the same HOST and PORT (the kernel spreads connections among them), only when they share one LEDGER_PATH file: an instance refuses to join a port held by anything not registered in its ledger. Without it, a port in use stops start-up (exit 3).',
  },
  SHUTDOWN_TIMEOUT_SECONDS: {
    schema: T.Integer({ minimum: 0, maximum: 3600 }),
    default: '30',
    meaning:
      'On SIGTERM/SIGINT, how long requests in flight may still finish; then each is answered `503 shutting_down` (a payment not yet settling is released, one settling is kept pending) and the process exits.',
  },
  ENV_FILE: {
    schema: T.String({ minLength: 1 }),
    default: '— (none)',
    meaning:
      'A dotenv file to read settings from (also `--env-file PATH`); the real environment wins. The executable never reads a `.env` by itself; from source, Bun also reads `./.env`.',
  },
  PAY_TO: {
    schema: Address,
    default: `${DEV_PAY_TO} (development only)`,
    meaning: 'Address that receives USDC. Required when NODE_ENV=production.',
  },
  X402_NETWORK: {
    schema: T.Union(Object.keys(NETWORKS).map((n) => T.Literal(n))),
    default: 'base-sepolia',
    meaning: `The one network payments are taken on: ${NETWORK_NAMES} (the testnets for staging). PAYMENT_NETWORKS takes several.`,
  },
  PAYMENT_NETWORKS: {
    schema: T.String({ minLength: 1, maxLength: 512 }),
    default: 'X402_NETWORK',
    meaning: `Several networks, comma-separated, by name (${NETWORK_NAMES}) or CAIP-2 id (\`eip155:137\`); the first is the primary. Every 402 offers each, in this order, at the same price in that network's USDC; a buyer pays on the one its wallet holds. With X402_NETWORK too, it must be this list's first.`,
  },
  'PAY_TO_<NETWORK>': {
    schema: Address,
    default: 'PAY_TO',
    meaning:
      'The address paid on one network of PAYMENT_NETWORKS, named upper-case with `_` for `-`: `PAY_TO_POLYGON`, `PAY_TO_BASE_SEPOLIA`.',
  },
  PAYMENT_MODE: {
    schema: T.Union(PAYMENT_MODES.map((m) => T.Literal(m))),
    default: 'local (development only)',
    meaning:
      '`local`: verify offline, settle nothing (development; refused when NODE_ENV=production). `facilitator`: verify and settle through the x402 facilitator at X402_FACILITATOR_URL. `self`: verify and settle in-process over each network RPC (X402_RPC_URL, X402_RPC_URL_<NETWORK>) with X402_SETTLER_PRIVATE_KEY.',
  },
  X402_FACILITATOR_URL: {
    schema: HttpUrl,
    default: "— (required in facilitator mode; with CDP keys, Coinbase's CDP facilitator https://api.cdp.coinbase.com/platform/v2/x402)",
    meaning: 'Base URL of an x402 facilitator speaking the standard `/verify`, `/settle`, `/supported` API.',
  },
  X402_FACILITATOR_TIMEOUT_SECONDS: {
    schema: T.Integer({ minimum: 1, maximum: 300 }),
    default: '30',
    meaning:
      'Per-call timeout of facilitator requests. A verify that times out is a 502 (nothing charged); a settle that times out is recorded as `pending` and reconciled.',
  },
  X402_FACILITATOR_OUTAGE_SECONDS: {
    schema: T.Integer({ minimum: 1, maximum: 3600 }),
    default: '30',
    meaning:
      'How long the facilitator may go without answering a call before `/ready` answers 503 `facilitator_unavailable` (a load balancer then sends buyers elsewhere); `/ready` asks its `/supported` again and is 200 once it answers.',
  },
  X402_FACILITATOR_HEADERS: {
    schema: T.String({ minLength: 2 }),
    default: '— (none)',
    meaning:
      'JSON object of extra headers sent with every facilitator call, e.g. `{"Authorization":"Bearer …"}`. With CDP keys they are sent too, besides the signed token (an `Authorization` here is then refused at start).',
  },
  CDP_API_KEY_ID: {
    schema: T.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._:/-]{0,199}$' }),
    default: '— (none)',
    meaning:
      "Coinbase Developer Platform API key id (a UUID, or `organizations/…/apiKeys/…`). With CDP_API_KEY_SECRET, facilitator mode signs a fresh JWT for every facilitator call, as Coinbase's CDP facilitator requires.",
  },
  CDP_API_KEY_SECRET: {
    schema: T.String({ minLength: 1 }),
    default: '— (none)',
    meaning:
      'Secret of that key, as CDP issued it: the base64 Ed25519 secret, or the EC private key PEM (`\\n` escapes allowed). Checked at start; never logged, printed or quoted in errors.',
  },
  X402_RPC_URL: {
    schema: HttpUrl,
    default: "the network's public endpoint (https://sepolia.base.org, https://mainnet.base.org, …)",
    meaning:
      'JSON-RPC endpoint of the (first) network: settles in `self` mode (required there) and reconciles pending settlements in both on-chain modes.',
  },
  'X402_RPC_URL_<NETWORK>': {
    schema: HttpUrl,
    default: "X402_RPC_URL for the first network; the network's public endpoint for the others",
    meaning:
      'JSON-RPC endpoint of one network of PAYMENT_NETWORKS (`X402_RPC_URL_POLYGON`): `self` mode needs one for every network but the first (which may use X402_RPC_URL).',
  },
  X402_SETTLER_PRIVATE_KEY: {
    schema: T.String({ pattern: '^0x[0-9a-fA-F]{64}$' }),
    default: '— (required in self mode)',
    meaning: 'Key of the account that submits transfers and pays their gas in `self` mode (needs ETH, not USDC). Never logged.',
  },
  SETTLE_MODE: {
    schema: T.Union([T.Literal('sync'), T.Literal('deferred')]),
    default: 'sync',
    meaning:
      '`sync`: a paid answer is released once its payment is settled on chain. `deferred` (facilitator and self modes): released once the payment is verified and its claim is on disk, and settled in the background, within the limits of the DEFERRED_ settings (docs/payments.md).',
  },
  DEFERRED_MAX_UNSETTLED_USD: {
    schema: UsdcAmount,
    default: '1',
    meaning:
      "SETTLE_MODE=deferred: answered-but-unsettled value allowed per payer and instance; beyond it, the payer's answers wait for their settlement.",
  },
  DEFERRED_MAX_PRICE_USD: {
    schema: UsdcAmount,
    default: '— (every route may be deferred)',
    meaning: 'SETTLE_MODE=deferred: routes priced above this are always settled before their answer.',
  },
  DEFERRED_SETTLE_CONCURRENCY: {
    schema: T.Integer({ minimum: 1, maximum: 64 }),
    default: '8',
    meaning:
      'SETTLE_MODE=deferred: settlements in flight at once, oldest authorization first (an authorization expires about a minute after signing; one per block would fall behind).',
  },
  BATCH_NETWORKS: {
    schema: T.String({ minLength: 1 }),
    default: '— (exact only)',
    meaning:
      'Networks of PAYMENT_NETWORKS where x402 `batch-settlement` is offered beside `exact` (self or facilitator mode): the buyer deposits once into the escrow and pays each request with a signed voucher, charged without a transaction; vouchers are claimed and settled in batches (docs/payments.md).',
  },
  BATCH_RECEIVER_AUTHORIZER_KEY: {
    schema: T.String({ pattern: '^0x[0-9a-fA-F]{64}$' }),
    default: '— (required with BATCH_NETWORKS)',
    meaning:
      "Key that signs the seller's claims and refunds; its address is every channel's receiverAuthorizer (changing it means new channels). Holds nothing. Never logged.",
  },
  BATCH_WITHDRAW_DELAY_SECONDS: {
    schema: T.Integer({ minimum: 900, maximum: 2_592_000 }),
    default: '86400',
    meaning: 'How long a payer waits between asking to withdraw a deposit and withdrawing what is unclaimed.',
  },
  BATCH_MIN_DEPOSIT_USD: {
    schema: UsdcAmount,
    default: '1',
    meaning: "The smallest deposit accepted (at least one request's price).",
  },
  BATCH_CLAIM_SECONDS: {
    schema: T.Integer({ minimum: 10, maximum: 648_000 }),
    default: '600',
    meaning:
      'How often the leaseholder claims and settles the charged vouchers, and looks for withdrawals (at most a quarter of BATCH_WITHDRAW_DELAY_SECONDS).',
  },
  BATCH_REFUND_IDLE_HOURS: {
    schema: T.Integer({ minimum: 0, maximum: 8760 }),
    default: '72',
    meaning: 'A channel without a request for this long is claimed and its unclaimed rest refunded to the payer (0 = never).',
  },
  RECONCILE_SECONDS: {
    schema: T.Integer({ minimum: 0, maximum: 86400 }),
    default: '30',
    meaning: 'How often pending settlements are checked on chain (0 = only when their client retries, or `payments reconcile`).',
  },
  RATE_LIMIT_IP_PER_MINUTE: {
    schema: T.Integer({ minimum: 0, maximum: 10_000_000 }),
    default: '600',
    meaning:
      'Requests carrying a payment proof per client IP per minute, bursts up to the same number (0 = unlimited). Over it: 429 `rate_limited`, before the proof is verified. The client IP is the socket peer, or the forwarded client when the peer is in TRUSTED_PROXIES.',
  },
  RATE_LIMIT_PAYER_PER_MINUTE: {
    schema: T.Integer({ minimum: 0, maximum: 10_000_000 }),
    default: '120',
    meaning:
      'Paid requests per payer address per minute (0 = unlimited). Over it: 429 `rate_limited`, before the payment is claimed or settled.',
  },
  RATE_LIMIT_IPV6_PREFIX: {
    schema: T.Integer({ minimum: 32, maximum: 128 }),
    default: '64',
    meaning:
      'IPv6 clients share the per-IP limit by this prefix length (one /64 is one subscriber: limiting each of its addresses apart would give a client billions of limits). 128 limits each address.',
  },
  X402_VERIFY_CONCURRENCY: {
    schema: T.Integer({ minimum: 1, maximum: 10_000 }),
    default: '32',
    meaning:
      'Facilitator and self modes: verification calls in flight, all payers together. Past it: 503 `verification_busy` with Retry-After, before anything is claimed.',
  },
  X402_VERIFY_NEW_PAYERS_PER_SECOND: {
    schema: T.Integer({ minimum: 1, maximum: 10_000 }),
    default: '20',
    meaning:
      'Facilitator and self modes: verification calls per second for payers this instance has not served yet (junk proofs from fresh empty wallets). Payers it has served are not held back by it. A payer the facilitator refused for a lasting reason (no funds, wrong network) is refused from memory for 30 s.',
  },
  TRUSTED_PROXIES: {
    schema: T.String({ minLength: 1, maxLength: 16_384 }),
    default: '— (none: the socket peer is the client)',
    meaning:
      'Reverse proxies whose CLIENT_IP_HEADER is believed: comma-separated IPv4/IPv6 addresses, CIDR ranges and the keywords `loopback`, `private` (RFC 1918, fc00::/7) and `linklocal`, e.g. `127.0.0.1` for nginx on the same host (a range holding every IPv4 address, such as a /0, is refused). When the socket peer is one of them, the client is the first address of the header, read right to left, that is not; rate limits and logs use it. The header is never read from any other sender.',
  },
  CLIENT_IP_HEADER: {
    schema: T.Union(CLIENT_IP_HEADERS.map((h) => T.Literal(h))),
    default: 'x-forwarded-for',
    meaning:
      'Header the TRUSTED_PROXIES write the client into: `x-forwarded-for` or `forwarded` (RFC 7239). Only this one is read: a proxy passes the other through from the client unchanged.',
  },
  METRICS_TOKEN: {
    schema: T.String({ minLength: 16 }),
    default: '— (open in development; /metrics off in production)',
    meaning:
      "`/metrics`, `/console` and the details of `/ready` require `Authorization: Bearer <token>` (or the console's sign-in): they show revenue, paths and the parts' errors. Make one with `openssl rand -hex 32`; a weak one is warned about at start and by `doctor`, never shown. Without it, a production instance serves neither `/metrics` nor `/console`, and `/ready` shows status words only (docs/operations.md).",
  },
  DATASETS_DIR: {
    schema: T.String({ minLength: 1 }),
    default: './var/datasets from source (binary: built in)',
    meaning:
      'Folder with the Parquet datasets and manifest.json. From source, when it is unset, `serve`, `data` and `doctor` use `var/datasets`, a copy of the shipped sample made on first use (and made again from a newer sample unless the copy was changed), so `data import` never changes the files git tracks. The single executable, when it is unset, uses the datasets built into it, extracted once to a cache folder ($XDG_CACHE_HOME, ~/.cache or the temp dir). With DATA_SOURCE_URL: where the instance keeps its verified copy of the publication (an empty folder, or one it filled before; default: `datasets-<hash of the URL>` beside LEDGER_PATH, so on persistent storage).',
  },
  DATASETS_RELOAD_SECONDS: {
    schema: T.Integer({ minimum: 0, maximum: 3600 }),
    default: '2',
    meaning:
      'How often the running service checks manifest.json for a new dataset version (0 = never; SIGHUP reloads at once). Not used with DATA_SOURCE_URL: a publication is loaded as soon as it is installed.',
  },
  DATA_SOURCE_URL: {
    schema: T.String({ pattern: '^(https?|s3|file)://\\S+/publication\\.json$', maxLength: 2048 }),
    default: '(unset: the datasets of DATASETS_DIR)',
    meaning:
      "A fleet's datasets: the `publication.json` that `data publish` writes, as an `https://`, `http://`, `s3://bucket/prefix/` (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL) or `file://` URL. The instance keeps a verified copy in DATASETS_DIR (default: beside the ledger file), polls every DATA_POLL_SECONDS and installs a newer publication only once its signature (DATA_SOURCE_PUBLIC_KEY), every file's size and sha256 and every file's contract check out (docs/operations.md, \"A fleet\").",
  },
  DATA_SOURCE_PUBLIC_KEY: {
    schema: T.String({ minLength: 1, maxLength: 16_384 }),
    default: '— (required with DATA_SOURCE_URL)',
    meaning:
      "The publisher's Ed25519 public key (`openssl pkey -in publisher.pem -pubout`), as PEM text or the path of a PEM file; several PEM blocks one after another are all trusted (key rotation).",
  },
  DATA_SOURCE_REDIRECT_ORIGINS: {
    schema: T.String({ minLength: 1 }),
    default: "— (redirects only within the source's own origin)",
    meaning:
      'Comma-separated origins (`https://cdn.example.com`) that DATA_SOURCE_URL may redirect to besides its own. A redirect anywhere else is refused (`unreachable`, saying where it pointed): a source that redirects to an internal address cannot make an instance fetch from it.',
  },
  DATA_POLL_SECONDS: {
    schema: T.Integer({ minimum: 5, maximum: 86_400 }),
    default: '60',
    meaning:
      'How often an instance with DATA_SOURCE_URL checks the publication (a conditional request; each wait varies by a fifth, so instances do not call at once). After a failure it waits twice as long each time, up to ten polls or 15 minutes.',
  },
  INTELLIGENCE_CACHE_TTL_SECONDS: {
    schema: T.Integer({ minimum: 0, maximum: 86400 }),
    default: '3600',
    meaning:
      'How long a trends or sentiment answer is reused for the same resolved request (entity, lanes, window; 0 = never, at most 24 h): with live providers a reuse costs no provider request. With LEDGER_URL the live answers are shared by every instance. Dataset and signal answers are cached per dataset version instead.',
  },
  WARM_UP_SAMPLE_ANSWERS: {
    schema: T.Union([T.Literal('true'), T.Literal('false')]),
    default: 'true when NODE_ENV=production, else false',
    meaning:
      'Without live providers: compute the sample answers of every known topic, brand, category and destination (default parameters) in the background once the datasets are indexed, and again each INTELLIGENCE_CACHE_TTL_SECONDS, so that first questions about them are cache hits. Only while no request is waiting; a request never waits for it.',
  },
  KOL_CACHE_TTL_SECONDS: {
    schema: T.Integer({ minimum: 0, maximum: 604800 }),
    default: '21600',
    meaning:
      'The same for KOL answers (`/v1/china/kols`, the KOL shortlist): creators change more slowly than the conversation (0 = never, at most 7 days).',
  },
  LEDGER_PATH: {
    schema: T.String({ minLength: 1 }),
    default: './var/ledger.sqlite',
    meaning:
      'SQLite file of the payment ledger (used nonces, payments, artifacts) of one instance. `:memory:` for throwaway runs. Ignored when LEDGER_URL is set.',
  },
  LEDGER_URL: {
    schema: T.String({ pattern: '^postgres(ql)?://\\S+$', maxLength: 2048 }),
    default: '(unset: SQLite at LEDGER_PATH)',
    meaning:
      '`postgres://user:password@host:5432/db`: the payment ledger, wrapper sessions and per-payer rate limits in PostgreSQL, shared by every instance behind a load balancer (see docs/operations.md). The schema is created and migrated on start.',
  },
  ARTIFACT_TTL_HOURS: {
    schema: T.Integer({ minimum: 1, maximum: 720 }),
    default: '24',
    meaning: 'How long a paid result stays fetchable at its `meta.artifact_path`.',
  },
  RESULT_CACHE_MAX_MB: {
    schema: T.Integer({ minimum: 8, maximum: 65_536 }),
    default: '96',
    meaning:
      'Memory for computed answers reused in this process (dataset results and sample China answers), estimated from their JSON size; the least recently used go first.',
  },
  DUCKDB_MEMORY_LIMIT_MB: {
    schema: T.Integer({ minimum: 128, maximum: 1_048_576 }),
    default: '512',
    meaning:
      "DuckDB's memory: the loaded datasets (~75 MB with the samples; the evidence corpus is read from its index on disk, not held here), its buffers and caches. A query that needs more spills up to four times as much to a folder of the system's temporary directory, then fails (`500 internal_error`, never charged) instead of growing the process; raise it with larger datasets.",
  },
  LEDGER_KEEP_FAILED_DAYS: {
    schema: T.Integer({ minimum: 0, maximum: 3650 }),
    default: '7',
    meaning:
      'Failed payments (nothing was charged: a handler or a settlement failed) are dropped from the ledger with their events this many days after their last change (hourly pass; 0: at the next pass). Payments refused by verification are not written at all with a SQLite ledger (PostgreSQL keeps them as failed).',
  },
  LEDGER_KEEP_SERVED_DAYS: {
    schema: T.Integer({ minimum: 1, maximum: 36500 }),
    default: '— (for ever)',
    meaning:
      'When set, served payments (the revenue record) are dropped with their events, stored results and provider spend this many days after their last change. Export them first (`payments export`). Pending payments are never dropped.',
  },
  LOG_LEVEL: {
    schema: T.Union(['debug', 'info', 'warn', 'error', 'silent'].map((l) => T.Literal(l))),
    default: 'info',
    meaning: 'JSON-lines log threshold on stdout.',
  },
  NODE_ENV: {
    schema: T.Union(['development', 'production', 'test'].map((l) => T.Literal(l))),
    default: 'development',
    meaning: '`production` requires PAY_TO and an on-chain PAYMENT_MODE.',
  },
  ...PROVIDER_ENV,
} as const

export type EnvName = keyof typeof ENV

#!/usr/bin/env bash
# A paid request by hand, with curl: 402 → sign → pay. Needs curl and Node.js (node signs, with the
# packages `npm install` put in node_modules).
#
#   bash examples/curl.sh [url]
#
# The wallet is BUYER_PRIVATE_KEY, or a throwaway key that only a server in development payment mode
# accepts (examples/buyer-key.mjs).
set -euo pipefail
url=${1:-'http://localhost:3000/v1/market-data/flights/summary?destination=Tokyo'}
here=$(cd "$(dirname "$0")" && pwd)
head=$(mktemp)
trap 'rm -f "$head"' EXIT

echo "1. Ask without paying: the answer is 402, the price in the PAYMENT-REQUIRED header (and the body)." >&2
echo "   curl -i '$url'" >&2
if ! status=$(curl -s -o /dev/null -D "$head" -w '%{http_code}' "$url"); then
  echo "Could not reach $url: is the service running? Start it with: npm start" >&2
  exit 1
fi
required=$(grep -i '^payment-required:' "$head" | cut -d' ' -f2 | tr -d '\r')
if [ "$status" != 402 ] || [ -z "$required" ]; then
  echo "expected a 402 with PAYMENT-REQUIRED, got $status" >&2
  exit 1
fi
echo "   $status; PAYMENT-REQUIRED decodes to:" >&2
echo "$required" | base64 -d | head -c 400 >&2
echo "…" >&2

echo "2. Sign one of its accepts (an EIP-3009 USDC authorization; nothing is sent on chain):" >&2
echo "   node examples/sign.mjs \"\$PAYMENT_REQUIRED\"" >&2
signature=$(node "$here/sign.mjs" "$required")

echo "3. Send the same request with the proof in PAYMENT-SIGNATURE; the answer carries PAYMENT-RESPONSE:" >&2
echo "   curl -i -H \"PAYMENT-SIGNATURE: \$SIGNATURE\" '$url'" >&2
curl -s -i -H "PAYMENT-SIGNATURE: $signature" "$url"
echo

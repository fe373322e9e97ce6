#!/bin/sh
# Bundles Discord's Embedded App SDK (@discord/embedded-app-sdk, MIT) into one
# file the arranging page loads from its own origin (never a CDN), and copies
# the licences of what the bundle holds beside it. The bundle is vendored in
# bot/web/static/files/vendor/: CI needs no build, and checks it is there.
# Run it again (it needs node and npm) to take a newer SDK; say so in the commit.
#   sh tools/discord_sdk/build.sh [version]
set -eu
VERSION="${1:-2.5.0}"
ESBUILD=0.28.2
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="$HERE/../../bot/web/static/files/vendor"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cp "$HERE/entry.js" "$WORK/entry.js"
cd "$WORK"
npm init -y >/dev/null
npm install --no-audit --no-fund --save-exact "@discord/embedded-app-sdk@$VERSION" "esbuild@$ESBUILD" >/dev/null
./node_modules/.bin/esbuild entry.js --bundle --minify --format=iife --target=es2019 \
  --legal-comments=none --outfile="$OUT/discord-sdk.min.js"
{
  echo "The bundle discord-sdk.min.js holds these npm packages (made by tools/discord_sdk/build.sh)."
  for dir in node_modules/@discord/embedded-app-sdk node_modules/big-integer node_modules/decimal.js-light \
    node_modules/eventemitter3 node_modules/lodash.transform node_modules/uuid node_modules/zod; do
    name=$(node -p "require('./$dir/package.json').name + '@' + require('./$dir/package.json').version + ' (' + require('./$dir/package.json').license + ')'")
    echo
    echo "==== $name"
    cat "$dir"/LICEN[CS]E* 2>/dev/null || echo "(no licence file in the package; licence: see its package.json)"
  done
} >"$OUT/discord-sdk.LICENSE"
echo "wrote $OUT/discord-sdk.min.js ($(wc -c <"$OUT/discord-sdk.min.js") bytes) and discord-sdk.LICENSE"

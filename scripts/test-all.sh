#!/usr/bin/env bash
# Every test tier, in order of speed: static checks, unit, API, component, browser.
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false

step() { printf '\n=== %s ===\n' "$1"; }

step "runtime and lock"
# npm puts node_modules/.bin first on a script's PATH, so the pinned Node.js 24 (the `node` dev dependency) runs
# every tier even where the system Node.js is older.
node -e 'const major = Number(process.versions.node.split(".")[0]); console.log(`Node.js ${process.version}`); if (major !== 24) { console.error("The tests run on Node.js 24 LTS; run them through npm (npm test)."); process.exit(1); }'
node scripts/lockfile-platforms.mjs --check
step "format (prettier --check)"
npx prettier --check . --log-level warn
step "lint (eslint)"
npx eslint . --max-warnings=0
node --test scripts/lint-layers.test.mjs scripts/jest-tier.test.mjs scripts/split-imports-loader.test.mjs
step "typecheck (every project)"
npx nx run-many -t typecheck --outputStyle=static
step "OpenAPI document and client are current"
npm run --silent openapi:check -w backend
npm run --silent check -w frontends/shared
# Each tier runs on its own and fails when it ran no test (scripts/jest-tier.mjs reads jest's JSON report).
step "contracts package"
node scripts/jest-tier.mjs contracts jest --config libs/contracts/jest.config.js --ci
step "unit tests (backend)"
node scripts/jest-tier.mjs backend-unit jest --config backend/jest.config.js --selectProjects unit --ci
step "API tests (backend, real PostgreSQL and Redis)"
node scripts/jest-tier.mjs backend-api jest --config backend/jest.config.js --selectProjects api --ci
step "component tests (frontends)"
node scripts/jest-tier.mjs frontends jest --config frontends/jest.config.js --ci
step "build (production)"
npx nx run-many -t build --outputStyle=static
step "browser tests (Chromium against the production build)"
node scripts/jest-tier.mjs e2e npm test -w e2e

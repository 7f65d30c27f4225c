#!/usr/bin/env bash
# Every test tier, in order of speed: static checks, unit, API, component, browser.
set -euo pipefail
cd "$(dirname "$0")/.."
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false

step() { printf '\n=== %s ===\n' "$1"; }

step "format (prettier --check)"
npx prettier --check . --log-level warn
step "lint (eslint)"
npx eslint . --max-warnings=0
step "typecheck (every project)"
npx nx run-many -t typecheck --outputStyle=static
step "OpenAPI document and client are current"
npm run --silent openapi:check -w backend
npm run --silent check -w frontends/shared
step "unit + API tests (backend, real PostgreSQL and Redis)"
npx jest --config backend/jest.config.js --ci
step "component tests (frontends)"
npx jest --config frontends/jest.config.js --ci
step "build (production)"
npx nx run-many -t build --outputStyle=static
step "browser tests (Chromium against the production build)"
npm test -w e2e

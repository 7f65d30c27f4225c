#!/usr/bin/env node
// Keeps package-lock.json installable by `npm ci` on every platform.
//
// npm 11 records only the optional native packages of the platform it runs on (npm/cli#4828, #8320), so a lock
// written on Linux makes `npm ci` fail on macOS and Windows, and then on Linux as well once npm notices the gap.
// `--check` (run by `npm test`) fails when any package's optional dependency has no entry in the lock;
// `--fix` adds the missing entries from the registry's metadata, exactly as npm writes them, and their own
// dependencies, without moving any other locked version.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lockPath = join(root, 'package-lock.json');
const mode = process.argv[2];
if (mode !== '--check' && mode !== '--fix') {
  console.error('usage: node scripts/lockfile-platforms.mjs --check | --fix');
  process.exit(2);
}

const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

/** Where Node would find `name` from the package at `from` (its own node_modules first, then each parent's). */
function resolveFrom(from, name) {
  let base = from;
  for (;;) {
    const candidate = (base ? `${base}/` : '') + `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return null;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

/** Every optional dependency of a locked package that the lock does not hold. */
function missingEntries() {
  const missing = [];
  for (const [path, entry] of Object.entries(packages)) {
    if (path === '' || entry.link) continue;
    const wanted = {
      ...(entry.optionalDependencies ?? {}),
      ...(entry.addedForPlatforms ? entry.dependencies : {}),
    };
    for (const [name, range] of Object.entries(wanted)) {
      if (!resolveFrom(path, name)) missing.push({ parent: path, name, range });
    }
  }
  return missing;
}

const fields = [
  'version',
  'resolved',
  'integrity',
  'cpu',
  'os',
  'libc',
  'license',
  'dependencies',
  'engines',
];

function registryEntry(name, range) {
  const out = execFileSync('npm', ['view', `${name}@${range}`, '--json'], { encoding: 'utf8' });
  const parsed = JSON.parse(out);
  const meta = Array.isArray(parsed) ? parsed[parsed.length - 1] : parsed;
  const entry = {
    version: meta.version,
    resolved: meta.dist.tarball,
    integrity: meta.dist.integrity,
    cpu: meta.cpu,
    os: meta.os,
    libc: meta.libc,
    license: meta.license,
    dependencies: meta.dependencies && Object.keys(meta.dependencies).length ? meta.dependencies : undefined,
    engines: meta.engines,
  };
  return Object.fromEntries(fields.filter((f) => entry[f] !== undefined).map((f) => [f, entry[f]]));
}

let missing = missingEntries();
if (mode === '--check') {
  if (missing.length === 0) {
    console.log('package-lock.json holds the optional packages of every platform');
    process.exit(0);
  }
  for (const m of missing)
    console.error(`missing from the lock: ${m.name}@${m.range} (optional dependency of ${m.parent})`);
  console.error('Run `node scripts/lockfile-platforms.mjs --fix` and commit package-lock.json.');
  process.exit(1);
}

let added = 0;
while (missing.length) {
  for (const { parent, name, range } of missing) {
    if (resolveFrom(parent, name)) continue;
    const parentEntry = packages[parent];
    const topLevel = `node_modules/${name}`;
    const path = packages[topLevel] ? `${parent}/node_modules/${name}` : topLevel;
    const entry = registryEntry(name, range);
    const { version, resolved, integrity, ...rest } = entry;
    packages[path] = {
      version,
      resolved,
      integrity,
      ...(parentEntry.dev ? { dev: true } : {}),
      optional: true,
      ...rest,
      // Marks the entry so that its own dependencies are completed on the next pass.
      ...(rest.dependencies ? { addedForPlatforms: true } : {}),
    };
    added += 1;
    console.log(`added ${path}@${version}`);
  }
  missing = missingEntries();
}
for (const entry of Object.values(packages)) delete entry.addedForPlatforms;
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a.localeCompare(b, 'en')));
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`${added} entries added`);

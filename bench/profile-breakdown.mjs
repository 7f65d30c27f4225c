// Where a backend's main thread spent its time, from a V8 CPU profile: each sample goes to the first part of the
// product its stack passes through, read from the innermost frame outwards (auth, database, provider, socket
// emit, Redis), so a socket write made by the Socket.IO adapter counts as socket emit and one made by pg as
// database. Garbage collection and the rest (HTTP, Nest, validation, the product's own code) are listed apart.

/** Which part a frame belongs to, by its script's path or, for a few natives, its name; null when none. */
function partOf({ url, functionName }) {
  if (functionName === '(garbage collector)') return 'gc';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return 'other';
  if (/createPublicKey|createSecretKey/.test(functionName)) return 'auth';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
  if (pkg) {
    if (
      /^(pg|pg-protocol|pg-pool|pg-types|pg-connection-string|postgres-.*|typeorm|@electric-sql\/.*)$/.test(
        pkg,
      )
    )
      return 'database';
    if (/^(openai|undici)$/.test(pkg)) return 'provider';
    if (/^(socket\.io.*|engine\.io.*|ws|@socket\.io\/.*|notepack\.io)$/.test(pkg)) return 'socket emit';
    if (/^(jsonwebtoken|jws|jwa|passport.*|@nestjs\/passport|@nestjs\/jwt)$/.test(pkg)) return 'auth';
    if (/^(ioredis|bullmq|@ioredis\/.*)$/.test(pkg)) return 'redis';
    return null;
  }
  if (/node:internal\/deps\/undici/.test(url)) return 'provider';
  // The backend's build puts src/ straight under dist/ (older builds kept dist/src/).
  if (/\/dist\/(?:src\/)?database\/|\.repository\.js$/.test(url)) return 'database';
  if (/\/dist\/(?:src\/)?modules\/realtime\//.test(url)) return 'socket emit';
  if (/\/dist\/(?:src\/)?modules\/ai\//.test(url)) return 'provider';
  if (/\/dist\/(?:src\/)?(?:common|modules)\/auth\//.test(url)) return 'auth';
  return null;
}

export const PARTS = ['auth', 'database', 'provider', 'socket emit', 'redis', 'gc', 'other'];

/** Milliseconds of main-thread time by part ({ auth, database, ... }), idle left out. */
export function breakdown(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const partCache = new Map();
  const resolve = (id) => {
    if (partCache.has(id)) return partCache.get(id);
    let part = null;
    let redisSeen = false;
    for (let at = id; at !== undefined && part === null; at = parent.get(at)) {
      const own = partOf(byId.get(at).callFrame);
      // Redis under the Socket.IO adapter is socket emit; keep looking outwards for who called it.
      if (own === 'redis') redisSeen = true;
      else if (own !== null) part = own;
    }
    part ??= redisSeen ? 'redis' : 'other';
    partCache.set(id, part);
    return part;
  };
  const totals = Object.fromEntries(PARTS.map((p) => [p, 0]));
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const part = resolve(samples[i]);
    // A sample's time is the delta to the next one.
    const ms = (timeDeltas[i + 1] ?? 0) / 1000;
    if (part !== 'idle') totals[part] += ms;
  }
  return totals;
}

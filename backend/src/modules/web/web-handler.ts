import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { SIGNED_IN_HINT_COOKIE } from '@avatar-studio/contracts';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { landingContentSecurityPolicy } from './landing-page';
import type { LandingPages } from './landing.service';

/** The remotes the shell may load, each built to frontends/<name>/dist. */
export const REMOTE_NAMES = ['customer', 'admin', 'org'] as const;

/** Paths that belong to other handlers; the web handler never answers them. */
const RESERVED = /^\/(api|socket\.io|widget)(\/|$)/;
/** Content-hashed build outputs (name.0123abcd.js, assets/x.0123abcd.png) never change. */
const HASHED = /\.[0-9a-f]{8}\.[a-z0-9]+$/i;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

function setCacheHeaders(res: Response, filePath: string): void {
  // index.html, main.js and remoteEntry.js keep stable names, so browsers must revalidate them.
  res.setHeader('Cache-Control', HASHED.test(filePath) ? IMMUTABLE : REVALIDATE);
}

const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.json']);

/** The file under `root` that `urlPath` names, or null when it escapes root or does not exist. */
function fileInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const file = resolve(root, '.' + decoded);
  if (file !== root && !file.startsWith(root + sep)) return null;
  try {
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

/**
 * Sends the build's precompressed twin (.br or .gz, written by the webpack config) when the browser accepts
 * it. Returns false when there is none, so the plain file is served instead.
 */
function sendPrecompressed(req: Request, res: Response, file: string, next: NextFunction): boolean {
  const type = extname(file);
  if (!COMPRESSIBLE.has(type)) return false;
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const encoding =
    /\bbr\b/.test(accepted) && existsSync(`${file}.br`)
      ? 'br'
      : /\bgzip\b/.test(accepted) && existsSync(`${file}.gz`)
        ? 'gzip'
        : null;
  if (!encoding) return false;
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Content-Encoding', encoding);
  res.type(type);
  setCacheHeaders(res, file);
  res.sendFile(`${file}${encoding === 'br' ? '.br' : '.gz'}`, (err?: Error) => {
    if (err && !res.headersSent) next(err);
  });
  return true;
}

/**
 * One remote's part of /remotes.json: where its container is and what its build published in
 * remote-manifest.json (mount points, menu entries, audience), or null when either file is missing or unreadable.
 * Read on each request: it is small, and a rebuild is picked up without a restart.
 */
function remoteDescriptor(frontendsDir: string, name: string): Record<string, unknown> | null {
  const dist = join(frontendsDir, name, 'dist');
  if (!existsSync(join(dist, 'remoteEntry.js'))) return null;
  try {
    const manifest = JSON.parse(readFileSync(join(dist, 'remote-manifest.json'), 'utf8')) as {
      mounts?: unknown;
      navigation?: unknown;
      audience?: unknown;
    };
    if (!Array.isArray(manifest.mounts) || !Array.isArray(manifest.navigation)) return null;
    return {
      entry: `/remotes/${name}/remoteEntry.js`,
      mounts: manifest.mounts,
      navigation: manifest.navigation,
      // Staff-only remotes are mounted for staff accounts only (the shell reads it).
      ...(manifest.audience === 'staff' ? { audience: 'staff' } : {}),
    };
  } catch {
    return null;
  }
}

const HINT = new RegExp(`(?:^|;\\s*)${SIGNED_IN_HINT_COOKIE}=1(?:;|$)`);

/** Sends a rendered landing page: its own CSP (a nonce for its script), gzipped when accepted, never cached. */
function sendLanding(req: Request, res: Response, html: string, nonce: string): void {
  res.setHeader('Content-Security-Policy', landingContentSecurityPolicy(nonce));
  // The same address is the app for a signed-in browser (the hint cookie), so caches keep neither.
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Vary', 'Cookie, Accept-Encoding');
  res.type('html');
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    res.setHeader('Content-Encoding', 'gzip');
    res.send(gzipSync(html));
    return;
  }
  res.send(html);
}

const NOT_BUILT =
  'Avatar Studio: the web app is not built yet. Run `npm run build` (or `npx webpack --mode production` in ' +
  'frontends/shell and each remote), then reload this page. The API is at /api (docs at /api/docs).\n';

/**
 * Serves the built frontends from the API's origin (no CORS needed): the shell at /, each remote at /remotes/<name>/,
 * the manifest at /remotes.json, and the shell's index.html for any other page a browser asks for (SPA).
 * Mounted after the API routes, so /api keeps its own answers and its JSON 404. `/` and `/latam` answer the
 * server-rendered landing page instead when it is switched on (and, for `/`, the browser holds no session).
 */
export function createWebHandler(frontendsDir: string, landing?: LandingPages): RequestHandler {
  const shellDist = join(frontendsDir, 'shell', 'dist');
  const shellIndex = join(shellDist, 'index.html');
  const staticOptions = {
    index: false,
    dotfiles: 'ignore' as const,
    setHeaders: setCacheHeaders,
    fallthrough: true,
  };
  const shellStatic = express.static(shellDist, staticOptions);
  const remoteStatic = new Map<string, RequestHandler>(
    REMOTE_NAMES.map((name) => [name, express.static(join(frontendsDir, name, 'dist'), staticOptions)]),
  );

  const widgetDist = join(frontendsDir, 'widget', 'dist');
  const widgetStatic = express.static(widgetDist, staticOptions);

  /**
   * The chat widget's files (frontends/widget/dist) at /widget/, for other sites' pages: they may load them
   * (Cross-Origin-Resource-Policy cross-origin), and nothing else of the app is served there.
   */
  const serveWidget = (req: Request, res: Response, next: NextFunction, rest: string): void => {
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    const file = fileInside(widgetDist, rest);
    if (!file) return next();
    if (sendPrecompressed(req, res, file, next)) return;
    const originalUrl = req.url;
    req.url = rest;
    widgetStatic(req, res, (err?: unknown) => {
      req.url = originalUrl;
      next(err);
    });
  };

  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = req.path;
    const widget = /^\/widget(\/.*)$/.exec(path);
    if (widget) return serveWidget(req, res, next, widget[1]);
    if (RESERVED.test(path)) return next();

    if (path === '/remotes.json') {
      // Lists only the remotes whose build exists, with the routes and menus they publish, so the shell
      // draws every menu and mounts every route without downloading any remote's code.
      const remotes = Object.fromEntries(
        REMOTE_NAMES.map((name) => [name, remoteDescriptor(frontendsDir, name)] as const).filter(
          ([, descriptor]) => descriptor !== null,
        ),
      );
      res.setHeader('Cache-Control', REVALIDATE);
      res.json({ remotes });
      return;
    }

    const remote = /^\/remotes\/([^/]+)(\/.*)$/.exec(path);
    if (remote) {
      const serve = remoteStatic.get(remote[1]);
      if (!serve) return next();
      const file = fileInside(join(frontendsDir, remote[1], 'dist'), remote[2]);
      if (file && sendPrecompressed(req, res, file, next)) return;
      // express.static resolves against the remote's dist; strip the /remotes/<name> prefix for it.
      const originalUrl = req.url;
      req.url = remote[2] + (originalUrl.includes('?') ? originalUrl.slice(originalUrl.indexOf('?')) : '');
      return serve(req, res, (err?: unknown) => {
        req.url = originalUrl;
        next(err);
      });
    }
    if (path === '/remotes' || path.startsWith('/remotes/')) return next();

    if (landing && (path === '/' || path === '/latam')) {
      const nonce = randomBytes(16).toString('base64');
      const request = {
        path,
        signedInHint: HINT.test(String(req.headers.cookie ?? '')),
        temporaryUid: typeof req.query.uid === 'string',
      };
      landing.render(request, nonce).then(
        (html) => (html === null ? serveShell(req, res, next, path) : sendLanding(req, res, html, nonce)),
        () => serveShell(req, res, next, path),
      );
      return;
    }
    serveShell(req, res, next, path);
  };

  /** The shell's own files, and its index.html for any page path (SPA fallback). */
  function serveShell(req: Request, res: Response, next: NextFunction, path: string): void {
    const file = path === '/' ? null : fileInside(shellDist, path);
    if (file && sendPrecompressed(req, res, file, next)) return;
    shellStatic(req, res, (err?: unknown) => {
      if (err) return next(err);
      // SPA fallback: a page load (Accept: text/html) of any other path gets the shell.
      if (path !== '/' && !(req.headers.accept ?? '').includes('text/html')) return next();
      if (!existsSync(shellIndex)) {
        res.status(200).type('text/plain').setHeader('Cache-Control', REVALIDATE).send(NOT_BUILT);
        return;
      }
      if (sendPrecompressed(req, res, shellIndex, next)) return;
      res.setHeader('Cache-Control', REVALIDATE);
      res.sendFile(shellIndex, (sendErr?: Error) => {
        if (sendErr && !res.headersSent) next(sendErr);
      });
    });
  }
}

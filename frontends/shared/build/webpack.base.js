/**
 * One webpack 5 + Module Federation config for the shell (host) and the remotes (customer, admin, org).
 * Each app's webpack.config.js calls createConfig(); see frontends/shared/src/remote.ts for the contract.
 */
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const { ModuleFederationPlugin } = require('webpack').container;

const zlib = require('node:zlib');

const FRONTENDS = path.resolve(__dirname, '..', '..');
const NODE_MODULES = path.resolve(FRONTENDS, '..', 'node_modules');
const SHARED_SRC = path.join(FRONTENDS, 'shared', 'src');
const CONTRACTS_SRC = path.resolve(FRONTENDS, '..', 'libs', 'contracts', 'src');
const SHARED_VERSION = require('../package.json').version;

/** Dev-server ports; the shell's dev server points the manifest at the remotes' dev servers. */
const DEV_PORTS = { shell: 4100, customer: 4101, admin: 4102, org: 4103 };
const BACKEND = process.env.BACKEND_URL || 'http://localhost:3000';

const fs = require('node:fs');

/** Frontend sources (tests excluded): what they import decides what a shared library keeps. */
function* sourceFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['node_modules', 'dist', '__tests__', 'testing', 'build'].includes(entry.name))
        yield* sourceFiles(file);
    } else if (/\.(tsx?|mjs|jsx?)$/.test(entry.name) && !/\.test\.|testkit/.test(entry.name)) {
      yield file;
    }
  }
}

/**
 * The named exports of `pkg` that the given folders import or re-export, or null when some file takes the
 * whole module (a namespace, default or dynamic import), in which case the library is shared whole.
 */
function importedNames(pkg, dirs) {
  const quoted = `['"]${pkg.replace(/[/.@-]/g, (c) => `\\${c}`)}['"]`;
  const named = new RegExp(`(?:import|export)\\s*\\{([^}]*)\\}\\s*from\\s*${quoted}`, 'g');
  const whole = new RegExp(
    `(?:import\\s+[\\w$]+\\s*(?:,|from)|import\\s*\\*|export\\s*\\*|import\\s*\\()\\s*[^;]*?${quoted}`,
  );
  const names = new Set();
  for (const dir of dirs) {
    for (const file of sourceFiles(dir)) {
      const text = fs.readFileSync(file, 'utf8');
      if (!text.includes(pkg)) continue;
      if (whole.test(text)) return null;
      for (const match of text.matchAll(named)) {
        for (const part of match[1].split(',')) {
          const name = part
            .trim()
            .replace(/^type\s+.*/, '')
            .split(/\s+as\s+/)[0];
          if (name) names.add(name);
        }
      }
    }
  }
  return [...names].sort();
}

/**
 * A module re-exporting only what the frontends use of a library that every container shares. A shared
 * library is provided whole (any remote might use any export), so without this the sign-in page would
 * download every Mantine component and all of React Router's data APIs. All containers build from this one
 * repository, so each provides the same set and the singleton serves every one of them.
 * `from` is the library's file by absolute path, so the shared-module plugin does not route it to itself.
 */
function facade(name, from, names) {
  const dir = path.join(NODE_MODULES, '.cache', 'avatar-studio-facades');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.mjs`);
  const text = `export { ${names.join(', ')} } from ${JSON.stringify(from)};\n`;
  if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) {
    // Written aside and renamed: parallel builds of the apps never read a half-written file.
    const temp = `${file}.${process.pid}`;
    fs.writeFileSync(temp, text);
    fs.renameSync(temp, file);
  }
  return file;
}

const APP_SOURCES = ['shell', 'customer', 'admin', 'org', 'shared'].map((app) =>
  path.join(FRONTENDS, app, 'src'),
);

const MANTINE_CORE = path.join(NODE_MODULES, '@mantine', 'core', 'esm', 'index.mjs');
const BLOCKNOTE_MANTINE = path.join(NODE_MODULES, '@blocknote', 'mantine', 'dist');
/** Mantine's charts (the analytics screens) take their core parts and hooks from the shared Mantine too. */
const MANTINE_CHARTS = path.join(NODE_MODULES, '@mantine', 'charts', 'esm');
/** The shared module holding the Mantine components the first page never shows (see mantineSplit). */
const MANTINE_LATER = '@avatar-studio/mantine-core-later';
/** Mantine components built on floating-ui or react-number-format (about 25 KB compressed together). */
const MANTINE_HEAVY = new Set([
  'Autocomplete',
  'ColorInput',
  'ColorPicker',
  'Combobox',
  'HoverCard',
  'Menu',
  'MultiSelect',
  'NumberInput',
  'Popover',
  'Select',
  'TagsInput',
  'Tooltip',
]);

let mantineSplitCache;
/**
 * The names of @mantine/core the frontends (and Mantine's own shared packages) import, in two shared modules:
 * `first`, what the shared package and the shell's signed-out screens use (less the heavy components), which
 * the sign-in page downloads; and `later`, the rest, which loads with the first screen that imports one of
 * them. Both are provided by every container and the shell's copy wins (see the share scope's tie rule in
 * DECISIONS.md), so both sit on the same Mantine modules and contexts. Null when some source imports
 * @mantine/core whole (then it is shared whole).
 */
function mantineSplit() {
  if (mantineSplitCache !== undefined) return mantineSplitCache;
  const all = importedNames('@mantine/core', [
    ...APP_SOURCES,
    path.join(NODE_MODULES, '@mantine', 'notifications', 'esm'),
    path.join(NODE_MODULES, '@mantine', 'dates', 'esm'),
    // The block editor's Mantine flavour (documents) takes its components from the shared Mantine too.
    BLOCKNOTE_MANTINE,
    MANTINE_CHARTS,
  ]);
  const firstPage = importedNames('@mantine/core', [
    SHARED_SRC,
    path.join(FRONTENDS, 'shell', 'src', 'auth'),
    path.join(NODE_MODULES, '@mantine', 'notifications', 'esm'),
  ]);
  if (!all || !firstPage) return (mantineSplitCache = null);
  const first = new Set(firstPage.filter((name) => !MANTINE_HEAVY.has(name)));
  mantineSplitCache = {
    first: all.filter((name) => first.has(name)),
    later: all.filter((name) => !first.has(name)),
  };
  return mantineSplitCache;
}

/** Singletons every container shares, so the page runs one copy of each. */
function sharedModules(production, { whole = false } = {}) {
  const singleton = (requiredVersion) => ({ singleton: true, requiredVersion });
  const pkg = require('../../../package.json').dependencies;
  const versionOf = (name) => require(path.join(NODE_MODULES, name, 'package.json')).version;
  // `whole` (the size bench's reference build) shares every library whole, as Module Federation does by default.
  const mantine = whole ? null : mantineSplit();
  const mantineHooksNames = whole
    ? null
    : importedNames('@mantine/hooks', [
        ...APP_SOURCES,
        ...['core', 'notifications', 'dates', 'form'].map((p) =>
          path.join(NODE_MODULES, '@mantine', p, 'esm'),
        ),
        BLOCKNOTE_MANTINE,
        MANTINE_CHARTS,
      ]);
  const routerNames = whole ? null : importedNames('react-router-dom', APP_SOURCES);
  const router = path.join(
    NODE_MODULES,
    'react-router',
    'dist',
    production ? 'production' : 'development',
    'index.mjs',
  );
  return {
    react: singleton(pkg.react),
    'react/jsx-runtime': singleton(pkg.react),
    'react-dom': singleton(pkg['react-dom']),
    'react-dom/client': singleton(pkg['react-dom']),
    // react-router-dom 7 re-exports react-router; the facade takes what the apps use from it directly.
    'react-router-dom': routerNames
      ? {
          ...singleton(pkg['react-router-dom']),
          version: versionOf('react-router-dom'),
          import: facade(
            `react-router-dom.${production ? 'production' : 'development'}`,
            router,
            routerNames,
          ),
        }
      : singleton(pkg['react-router-dom']),
    ...(routerNames ? {} : { 'react-router': singleton(pkg['react-router-dom']) }),
    ...(mantine
      ? {
          '@mantine/core': {
            ...singleton(pkg['@mantine/core']),
            version: versionOf('@mantine/core'),
            import: facade('mantine-core', MANTINE_CORE, mantine.first),
          },
          [MANTINE_LATER]: {
            ...singleton(pkg['@mantine/core']),
            version: versionOf('@mantine/core'),
            import: facade('mantine-core-later', MANTINE_CORE, mantine.later),
          },
        }
      : { '@mantine/core': singleton(pkg['@mantine/core']) }),
    '@mantine/hooks': mantineHooksNames
      ? {
          ...singleton(pkg['@mantine/hooks']),
          version: versionOf('@mantine/hooks'),
          import: facade(
            'mantine-hooks',
            path.join(NODE_MODULES, '@mantine', 'hooks', 'esm', 'index.mjs'),
            mantineHooksNames,
          ),
        }
      : singleton(pkg['@mantine/hooks']),
    '@mantine/notifications': singleton(pkg['@mantine/notifications']),
    '@tanstack/react-query': singleton(pkg['@tanstack/react-query']),
    i18next: singleton(pkg.i18next),
    'react-i18next': singleton(pkg['react-i18next']),
    '@avatar-studio/shared': {
      singleton: true,
      requiredVersion: `^${SHARED_VERSION}`,
      version: SHARED_VERSION,
      import: path.join(SHARED_SRC, 'index.ts'),
    },
    // Not singletons, but shared so the remotes that use them download them once.
    '@mantine/form': { requiredVersion: pkg['@mantine/form'] },
    '@mantine/dates': { requiredVersion: pkg['@mantine/dates'] },
    dayjs: { requiredVersion: pkg.dayjs },
  };
}

/**
 * Writes .br and .gz beside each JS/CSS/HTML file so the backend serves them compressed with no CPU per
 * request (backend/src/modules/web/web-handler.ts picks the variant the browser accepts).
 */
class PrecompressPlugin {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'PrecompressPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER },
        (assets) => {
          for (const [name, asset] of Object.entries(assets)) {
            if (!/\.(js|css|html|json)$/.test(name)) continue;
            const buffer = asset.buffer();
            if (buffer.length < 1024) continue;
            const br = zlib.brotliCompressSync(buffer, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buffer.length,
              },
            });
            compilation.emitAsset(`${name}.br`, new sources.RawSource(br));
            compilation.emitAsset(`${name}.gz`, new sources.RawSource(zlib.gzipSync(buffer, { level: 9 })));
          }
        },
      );
    });
  }
}

/**
 * A remote's manifest: its mount points and menu entries (frontends/<name>/src/manifest.ts, plain data with
 * type-only imports), compiled with swc and evaluated here so the shell can read it as JSON without loading
 * the remote's code.
 */
function readRemoteManifest(dir) {
  const file = path.join(dir, 'src', 'manifest.ts');
  const { code } = require('@swc/core').transformFileSync(file, {
    swcrc: false,
    configFile: false,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2020' },
    module: { type: 'commonjs' },
  });
  const module = { exports: {} };
  const refuse = (id) => {
    throw new Error(`${file} must hold plain data: it imports ${id} (only type imports are allowed)`);
  };
  new Function('module', 'exports', 'require', code)(module, module.exports, refuse);
  const manifest = module.exports.manifest;
  const problem = manifestProblem(manifest);
  if (problem) throw new Error(`${file}: ${problem}`);
  return {
    mounts: manifest.mounts,
    navigation: manifest.navigation,
    ...(manifest.audience ? { audience: manifest.audience } : {}),
  };
}

/** What is wrong with a remote manifest, or null when it has the shape the shell reads. */
function manifestProblem(manifest) {
  if (!manifest || !Array.isArray(manifest.mounts) || !Array.isArray(manifest.navigation)) {
    return 'export const manifest = { mounts: [...], navigation: [...] }';
  }
  if (!manifest.mounts.every((m) => typeof m === 'string' && m.startsWith('/'))) {
    return 'every mount is an absolute path';
  }
  if (manifest.audience !== undefined && manifest.audience !== 'staff') {
    return "audience is 'staff' or absent";
  }
  for (const entry of manifest.navigation) {
    const ok =
      entry &&
      typeof entry.labelKey === 'string' &&
      typeof entry.path === 'string' &&
      entry.path.startsWith('/') &&
      entry.label &&
      typeof entry.label.en === 'string' &&
      typeof entry.label.es === 'string';
    if (!ok)
      return `navigation entry ${JSON.stringify(entry)} needs labelKey, label { en, es } and an absolute path`;
  }
  return null;
}

/** Emits remote-manifest.json beside remoteEntry.js; the backend merges it into /remotes.json. */
class RemoteManifestPlugin {
  constructor(dir) {
    this.dir = dir;
  }
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('RemoteManifestPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'RemoteManifestPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          compilation.fileDependencies.add(path.join(this.dir, 'src', 'manifest.ts'));
          const json = JSON.stringify(readRemoteManifest(this.dir));
          compilation.emitAsset('remote-manifest.json', new sources.RawSource(json));
        },
      );
    });
  }
}

/**
 * @param {object} options
 * @param {'shell'|'customer'|'admin'|'org'} options.name
 * @param {string} options.dir the app folder (__dirname of its webpack.config.js)
 * @param {Record<string,string>} [options.exposes] remotes only: { './App': './src/App.tsx' }
 */
function createConfig({ name, dir, exposes }) {
  return (env, argv) => {
    // --env shareWhole: the size bench's reference build (every shared library whole, no facades).
    const shareWhole = Boolean(env?.shareWhole);
    const split = shareWhole ? null : mantineSplit();
    const production = argv.mode !== 'development';
    const isHost = !exposes;
    const port = DEV_PORTS[name];
    // A remote's standalone page (npm run dev) mounts it with every provider; production builds only the
    // container the shell loads.
    const standalone = !isHost && !production;

    /** @type {import('webpack').Configuration} */
    const config = {
      name,
      context: dir,
      mode: production ? 'production' : 'development',
      devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
      entry: isHost || standalone ? { main: './src/index.ts' } : {},
      output: {
        path: path.join(dir, 'dist'),
        // 'auto' resolves to where remoteEntry.js was loaded from (/remotes/<name>/ in production), so a
        // remote moves to a CDN by editing the manifest only. The shell lives at the site root.
        publicPath: isHost ? '/' : 'auto',
        // Entry files keep plain names, so /remotes.json and index.html name the same files after every build;
        // the page links them with ?<hash> and the server sends them with no-cache.
        filename: '[name].js',
        chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
        assetModuleFilename: production ? 'assets/[name].[contenthash:8][ext]' : 'assets/[name][ext]',
        uniqueName: `avatar_studio_${name}`,
        clean: true,
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
        alias: {
          '@avatar-studio/shared$': path.join(SHARED_SRC, 'index.ts'),
          // Compiled from its sources like shared (its dist is the backend's CommonJS build).
          '@avatar-studio/contracts': CONTRACTS_SRC,
          // react-router's package exports only its development build; production gets the lean one.
          ...(production
            ? {
                'react-router$': path.join(NODE_MODULES, 'react-router/dist/production/index.mjs'),
                'react-router/dom$': path.join(NODE_MODULES, 'react-router/dist/production/dom-export.mjs'),
              }
            : {}),
        },
      },
      module: {
        rules: [
          // Runs after swc (loaders apply bottom-up): imports of the later Mantine names go to their module.
          ...(split
            ? [
                {
                  test: /\.m?[jt]sx?$/,
                  include: [
                    ...APP_SOURCES,
                    ...['notifications', 'dates'].map((p) => path.join(NODE_MODULES, '@mantine', p, 'esm')),
                    BLOCKNOTE_MANTINE,
                    MANTINE_CHARTS,
                  ],
                  enforce: 'post',
                  use: {
                    loader: path.join(__dirname, 'split-imports-loader.js'),
                    options: { from: '@mantine/core', to: MANTINE_LATER, names: split.later },
                  },
                },
              ]
            : []),
          {
            test: /\.[jt]sx?$/,
            exclude: /node_modules/,
            use: {
              loader: 'swc-loader',
              options: {
                jsc: {
                  parser: { syntax: 'typescript', tsx: true },
                  transform: { react: { runtime: 'automatic', development: !production, refresh: false } },
                  target: 'es2020',
                },
              },
            },
          },
          {
            test: /\.css$/,
            use: [production ? MiniCssExtractPlugin.loader : 'style-loader', 'css-loader'],
          },
          {
            test: /\.(png|jpe?g|gif|svg|webp|woff2?)$/,
            type: 'asset',
            parser: { dataUrlCondition: { maxSize: 4096 } },
          },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          // A remote's container goes to window.avatar_studio_<name> (remoteGlobalName in shared/src/remote.ts),
          // where the shell finds it after loading the remoteEntry.js that /remotes.json names.
          ...(isHost
            ? {}
            : {
                filename: 'remoteEntry.js',
                exposes,
                library: { type: 'window', name: `avatar_studio_${name}` },
              }),
          // The shell loads remotes at run time from /remotes.json; no URL is baked into any build.
          remotes: {},
          shared: sharedModules(production, { whole: shareWhole }),
        }),
        ...(isHost ? [] : [new RemoteManifestPlugin(dir)]),
        ...(production ? [new PrecompressPlugin()] : []),
        ...(production
          ? [
              new MiniCssExtractPlugin({
                filename: '[name].[contenthash:8].css',
                chunkFilename: '[id].[contenthash:8].css',
              }),
            ]
          : []),
        ...(isHost || standalone
          ? [
              new HtmlWebpackPlugin({
                template: path.join(dir, 'index.html'),
                minify: production,
                // Cache-busts main.js (its name has no hash; see output.filename).
                hash: true,
                // The standalone page links main.js from the root so deep links work (chunks use 'auto').
                publicPath: '/',
                chunks: ['main'],
              }),
            ]
          : []),
      ],
      optimization: {
        // Keeps the host's startup chunk small: vendors load as shared chunks, split by package.
        splitChunks: production ? { chunks: 'async' } : false,
      },
      performance: { hints: false },
      stats: production ? 'errors-warnings' : 'minimal',
      devServer: {
        port,
        historyApiFallback: true,
        hot: false,
        liveReload: true,
        headers: { 'Access-Control-Allow-Origin': '*' },
        proxy: [
          { context: ['/api', '/socket.io', '/widget'], target: BACKEND, ws: true, changeOrigin: true },
        ],
        setupMiddlewares: (middlewares, devServer) => {
          if (isHost) {
            // In development the shell loads the remotes from their own dev servers.
            devServer.app.get('/remotes.json', (_req, res) => {
              res.set('Cache-Control', 'no-cache');
              res.json({
                remotes: Object.fromEntries(
                  ['customer', 'admin', 'org'].map((r) => [
                    r,
                    {
                      entry: `http://localhost:${DEV_PORTS[r]}/remoteEntry.js`,
                      ...readRemoteManifest(path.join(FRONTENDS, r)),
                    },
                  ]),
                ),
              });
            });
          }
          return middlewares;
        },
      },
    };
    return config;
  };
}

module.exports = { createConfig, sharedModules, readRemoteManifest, DEV_PORTS, PrecompressPlugin };

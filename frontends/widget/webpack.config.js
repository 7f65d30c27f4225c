/**
 * The chat widget third-party pages load: plain TypeScript, no framework, built to dist/ and served by the
 * backend at /widget/. `widget.js` (the loader: finds the snippet's div and draws the button) keeps a stable
 * name for the snippet; the chat panel is a content-hashed chunk loaded on the first click, from wherever
 * widget.js came from (publicPath auto).
 */
const path = require('node:path');
const { ModuleFederationPlugin } = require('webpack').container;
const { PrecompressPlugin } = require('../shared/build/webpack.base');

/**
 * The generator's live preview: a module-federated container (no shared modules: the widget needs no
 * framework) exposing `./preview`. The same names are in WIDGET_PREVIEW_REMOTE of the contracts package, which
 * the app loads it by; a widget test checks they agree.
 */
const PREVIEW_REMOTE = {
  name: 'avatarStudioWidgetPreview',
  filename: 'preview-entry.js',
  module: './preview',
};

class CopyStylesheet {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('CopyStylesheet', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'CopyStylesheet', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          const file = path.join(__dirname, 'src', 'widget.css');
          compilation.fileDependencies.add(file);
          compilation.emitAsset('widget.css', new sources.RawSource(require('node:fs').readFileSync(file)));
        },
      );
    });
  }
}

module.exports = (_env, argv = {}) => {
  const production = argv.mode !== 'development';
  return {
    name: 'widget',
    mode: production ? 'production' : 'development',
    devtool: production ? false : 'source-map',
    entry: { widget: './src/loader.ts' },
    context: __dirname,
    output: {
      path: path.join(__dirname, 'dist'),
      filename: '[name].js',
      chunkFilename: 'widget-[name].[contenthash:8].js',
      publicPath: 'auto',
      clean: true,
      // The host page may run other webpack bundles: our chunk loader keeps to its own global.
      uniqueName: 'avatarStudioWidget',
    },
    resolve: {
      extensions: ['.ts', '.js'],
      alias: { '@avatar-studio/contracts': path.resolve(__dirname, '../../libs/contracts/src') },
    },
    module: {
      rules: [
        {
          test: /\.ts$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: { jsc: { parser: { syntax: 'typescript' }, target: 'es2019' } },
          },
        },
      ],
    },
    performance: { hints: false },
    plugins: [
      new CopyStylesheet(),
      new ModuleFederationPlugin({
        name: PREVIEW_REMOTE.name,
        filename: PREVIEW_REMOTE.filename,
        exposes: { [PREVIEW_REMOTE.module]: './src/preview.ts' },
      }),
      ...(production ? [new PrecompressPlugin()] : []),
    ],
  };
};

module.exports.PREVIEW_REMOTE = PREVIEW_REMOTE;

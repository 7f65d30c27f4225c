/**
 * The chat widget third-party pages load: plain TypeScript, no framework, built to dist/ and served by the
 * backend at /widget/. `widget.js` (the loader: finds the snippet's div and draws the button) keeps a stable
 * name for the snippet; the chat panel is a content-hashed chunk loaded on the first click, from wherever
 * widget.js came from (publicPath auto).
 */
const path = require('node:path');
const { PrecompressPlugin } = require('../shared/build/webpack.base');

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

module.exports = (_env, argv) => {
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
    plugins: [new CopyStylesheet(), ...(production ? [new PrecompressPlugin()] : [])],
  };
};

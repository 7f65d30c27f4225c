const { createConfig } = require('../shared/build/webpack.base');

module.exports = createConfig({
  name: 'admin',
  dir: __dirname,
  exposes: { './App': './src/App.tsx' },
});

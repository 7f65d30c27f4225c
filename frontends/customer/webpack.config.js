const { createConfig } = require('../shared/build/webpack.base');

module.exports = createConfig({
  name: 'customer',
  dir: __dirname,
  exposes: { './App': './src/App.tsx' },
});

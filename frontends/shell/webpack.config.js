const { createConfig } = require('../shared/build/webpack.base');

module.exports = createConfig({
  name: 'shell',
  dir: __dirname,
});

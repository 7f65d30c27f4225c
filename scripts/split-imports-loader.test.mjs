// The build loader that sends some of a module's named imports to another module (the Mantine split).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';

const require = createRequire(import.meta.url);
const loader = require('../frontends/shared/build/split-imports-loader.js');
const run = (source, names = ['Select', 'Menu']) =>
  loader.call({ getOptions: () => ({ from: '@mantine/core', to: 'later', names }) }, source);

test('moves the listed names and keeps the rest', () => {
  assert.equal(
    run(`import { Button, Select, Menu as M } from "@mantine/core";`),
    `import { Button } from "@mantine/core";\nimport { Select, Menu as M } from "later";`,
  );
});

test('a statement with only listed names moves whole; re-exports and single quotes too', () => {
  assert.equal(run(`export { Select } from '@mantine/core';`), `export { Select } from "later";`);
});

test('leaves other modules and statements without listed names alone', () => {
  const source = `import { Button } from "@mantine/core";\nimport { Select } from "other";`;
  assert.equal(run(source), source);
});

test('reads imports over several lines', () => {
  assert.equal(
    run(`import {\n  Button,\n  Select,\n} from "@mantine/core";`),
    `import { Button } from "@mantine/core";\nimport { Select } from "later";`,
  );
});

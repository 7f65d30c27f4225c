/**
 * The layer rules of eslint.config.mjs fail a forbidden import and pass an allowed one:
 * `node --test scripts/lint-layers.test.mjs` (npm test runs it with the lint step).
 */
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: ROOT });

/** The messages of no-restricted-imports for one import line placed in a file at `path`. */
async function layerErrors(path, source) {
  const [result] = await eslint.lintText(`${source}\nexport const used = x;\n`, {
    filePath: join(ROOT, path),
  });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const FORBIDDEN = [
  ['frontends/shared/src/x.ts', "import { x } from '../../../backend/src/common/auth/permissions';"],
  ['frontends/shared/src/realtime/x.ts', "import { x } from '../../../../libs/contracts/src/events';"],
  ['frontends/shared/src/x.ts', "import { x } from '../../customer/src/App';"],
  ['frontends/shared/src/x.ts', "import { x } from '../../shell/src/routes';"],
  ['frontends/customer/src/x.tsx', "import { x } from '../../admin/src/App';"],
  ['frontends/customer/src/x.tsx', "import { x } from '../../shell/src/routes';"],
  ['frontends/admin/src/x.tsx', "import { x } from '../../../backend/src/modules/realtime/events';"],
  ['frontends/shell/src/x.tsx', "import { x } from '../../org/src/App';"],
  ['backend/src/x.ts', "import { x } from '@avatar-studio/shared';"],
  ['backend/src/x.ts', "import { x } from '../../frontends/shared/src/permissions';"],
  ['backend/src/x.ts', "import { x } from '../../libs/contracts/src/events';"],
  ['libs/contracts/src/x.ts', "import { x } from '@avatar-studio/shared';"],
  ['libs/contracts/src/x.ts', "import { x } from '../../../backend/src/common/errors/domain-error';"],
];

const ALLOWED = [
  ['frontends/shared/src/x.ts', "import { x } from '@avatar-studio/contracts';"],
  ['frontends/customer/src/x.tsx', "import { x } from '@avatar-studio/shared';"],
  ['frontends/shell/src/x.tsx', "import { x } from '@avatar-studio/contracts/permissions';"],
  ['backend/src/x.ts', "import { x } from '@avatar-studio/contracts';"],
  ['libs/contracts/src/x.ts', "import { x } from './events';"],
];

for (const [path, source] of FORBIDDEN) {
  test(`forbids in ${path}: ${source}`, async () => {
    assert.equal((await layerErrors(path, source)).length, 1);
  });
}

for (const [path, source] of ALLOWED) {
  test(`allows in ${path}: ${source}`, async () => {
    assert.deepEqual(await layerErrors(path, source), []);
  });
}

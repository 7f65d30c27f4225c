import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';

/**
 * The table-ownership rule, checked over the source: only a module's repository (`*.repository.ts`) reaches the
 * database, and no module imports another module's entity. Migrations, the database bootstrap (this folder) and
 * tests are outside the rule. `src/database/table-ownership.spec.ts` runs it over backend/src.
 */

/** Names from typeorm that give a handle on the database; outside a repository only EntityManager's type is. */
const DATABASE_HANDLES = new Set([
  'DataSource',
  'Repository',
  'QueryRunner',
  'getRepository',
  'InjectRepository',
]);
/** Methods that run SQL or reach a table, whatever object they are called on. */
const DATABASE_METHODS = new Set(['query', 'getRepository', 'createQueryBuilder', 'getTreeRepository']);

export interface Violation {
  file: string;
  line: number;
  rule: string;
}

/** Files the rule does not apply to, relative to backend/src. */
export function isExempt(file: string): boolean {
  return file.endsWith('.repository.ts') || file.endsWith('.spec.ts') || file.startsWith('database/');
}

/** The module a file belongs to (`modules/<name>/...`), or null for common code. */
function moduleOf(file: string): string | null {
  const match = /^modules\/([^/]+)\//.exec(file);
  return match ? match[1] : null;
}

/** `EntityManager`, or a union with it (`EntityManager | undefined`). */
function isManagerType(type: ts.TypeNode): boolean {
  if (ts.isUnionTypeNode(type)) return type.types.some(isManagerType);
  return (
    ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'EntityManager'
  );
}

/** Violations in one file; `file` is its path relative to backend/src, with forward slashes. */
export function checkSource(file: string, source: string): Violation[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true);
  const found: Violation[] = [];
  const at = (node: ts.Node, rule: string) =>
    found.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, rule });
  /** Names declared as an EntityManager here (parameters, variables): such a value may only be passed on. */
  const managers = new Set<string>();
  const owner = moduleOf(file);

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = node.moduleSpecifier.text;
      const clause = node.importClause;
      if ((from === 'typeorm' || from === '@nestjs/typeorm') && clause?.namedBindings) {
        if (ts.isNamedImports(clause.namedBindings)) {
          for (const el of clause.namedBindings.elements) {
            const name = (el.propertyName ?? el.name).text;
            if (DATABASE_HANDLES.has(name)) at(el, `imports ${name} from ${from}: only a repository may`);
          }
        } else {
          at(clause.namedBindings, `imports all of ${from}: only a repository may`);
        }
      }
      if (from.startsWith('.') && /\.entity$/.test(from)) {
        const target = relative('.', join(dirname(file), from))
          .split(sep)
          .join('/');
        const targetOwner = moduleOf(target);
        if (targetOwner !== owner) at(node, `imports ${target}.ts, an entity of another module`);
      }
    }
    if (
      (ts.isParameter(node) || ts.isVariableDeclaration(node)) &&
      ts.isIdentifier(node.name) &&
      node.type &&
      isManagerType(node.type)
    ) {
      managers.add(node.name.text);
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      if (DATABASE_METHODS.has(method)) at(node, `calls .${method}(): only a repository may`);
    }
    if (ts.isPropertyAccessExpression(node)) {
      if (node.name.text === 'manager') at(node, 'reads .manager (an EntityManager): only a repository may');
      else if (ts.isIdentifier(node.expression) && managers.has(node.expression.text)) {
        at(node, `uses the EntityManager ${node.expression.text}.${node.name.text}: pass it to a repository`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Every .ts file under `root`, relative to it, with forward slashes. */
export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        out.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  walk(root);
  return out.sort();
}

/** Violations of every file under backend/src that the rule applies to, by file. */
export function checkTree(root = resolve(__dirname, '../src')): Map<string, Violation[]> {
  const byFile = new Map<string, Violation[]>();
  for (const file of sourceFiles(root)) {
    if (isExempt(file)) continue;
    const found = checkSource(file, readFileSync(join(root, file), 'utf8'));
    if (found.length) byFile.set(file, found);
  }
  return byFile;
}

/**
 * Moves some named imports of one module to another: with { from, to, names }, the names of `names` in
 * `import { a, b } from '<from>'` (or export ... from) are imported from `to` instead, the rest stay. Runs on
 * compiled JavaScript (after swc), so type-only imports are already gone. Used to split a shared library into
 * two shared modules (webpack.base.js, mantineSplit).
 */
module.exports = function splitImportsLoader(source) {
  const { from, to, names } = this.getOptions();
  if (!source.includes(from)) return source;
  const moved = new Set(names);
  const name = from.replace(/[/.@-]/g, (c) => `\\${c}`);
  const statement = new RegExp(`\\b(import|export)\\s*\\{([^}]*)\\}\\s*from\\s*(['"])${name}\\3\\s*;?`, 'g');
  return source.replace(statement, (whole, keyword, list) => {
    const parts = list
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const later = parts.filter((p) => moved.has(p.split(/\s+as\s+/)[0]));
    if (!later.length) return whole;
    const stay = parts.filter((p) => !later.includes(p));
    const out = [];
    if (stay.length) out.push(`${keyword} { ${stay.join(', ')} } from ${JSON.stringify(from)};`);
    out.push(`${keyword} { ${later.join(', ')} } from ${JSON.stringify(to)};`);
    return out.join('\n');
  });
};

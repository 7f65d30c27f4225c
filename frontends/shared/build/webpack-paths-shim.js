/**
 * @module-federation/enhanced 2.9.2 requires webpack internals by their pre-5.112 paths; webpack 5.112 moved
 * them. Until the two agree again (or webpack is pinned below 5.112), map the old paths to the new files.
 * Loaded before the federation plugin; it only touches requests for these exact old paths.
 */
const Module = require('node:module');

const MOVED = {
  'webpack/lib/HotUpdateChunk': 'webpack/lib/graph/HotUpdateChunk',
  'webpack/lib/ModuleFactory': 'webpack/lib/module/ModuleFactory',
  'webpack/lib/dependencies/EntryDependency': 'webpack/lib/entry/EntryDependency',
  'webpack/lib/dependencies/ModuleDependency': 'webpack/lib/dependencies/core/ModuleDependency',
  'webpack/lib/dependencies/StaticExportsDependency': 'webpack/lib/dependencies/core/StaticExportsDependency',
  'webpack/lib/util/extractUrlAndGlobal': 'webpack/lib/externals/extractUrlAndGlobal',
  'webpack/lib/util/fs': 'webpack/lib/fs/fs',
  'webpack/lib/util/semver': 'webpack/lib/sharing/semver',
};

if (!Module.__avatarStudioWebpackShim) {
  Module.__avatarStudioWebpackShim = true;
  const original = Module._resolveFilename;
  Module._resolveFilename = function resolveMovedWebpackPath(request, ...rest) {
    const key = request.replace(/\.js$/, '');
    if (key in MOVED) {
      try {
        return original.call(this, request, ...rest);
      } catch {
        return original.call(this, MOVED[key], ...rest);
      }
    }
    return original.call(this, request, ...rest);
  };
}

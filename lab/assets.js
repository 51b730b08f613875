// assets.js prepares build/ for rspack and for jupyterlab_server, from the
// extensions listed in package.json ("jupyterlab": {"extensions": [...]}):
//
//   build/schemas/PKG/*.json (+ package.json.orig)  settings schemas, which
//       the server merges with user settings (LabServerApp.schemas_dir);
//   build/themes/PKG/index.css (+ its folder)       themes, which the front
//       end loads from the server (LabServerApp.themes_dir);
//   build/style.js                                  one import of each
//       extension's style module, bundled by rspack;
//   build/extensions.js                             the extension modules, for
//       index.js (a dynamic import each, so one list serves both files).
//
// build/ is emptied first. It is our own short version of what @jupyterlab/builder's ensureAssets does.
'use strict';
const fs = require('fs');
const path = require('path');

const here = __dirname;
const build = path.join(here, 'build');
const extensions = require('./package.json').jupyterlab.extensions;

// A fresh build/ every time (rspack then adds the bundle and its chunks).
fs.rmSync(build, { recursive: true, force: true });
fs.mkdirSync(build, { recursive: true });

const styles = [];
for (const name of extensions) {
  const pkgFile = require.resolve(`${name}/package.json`, { paths: [here] });
  const root = path.dirname(pkgFile);
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
  const lab = pkg.jupyterlab || {};
  if (lab.schemaDir) {
    const dst = path.join(build, 'schemas', name);
    fs.mkdirSync(dst, { recursive: true });
    const src = path.join(root, lab.schemaDir);
    for (const f of fs.readdirSync(src).filter(f => f.endsWith('.json'))) {
      fs.copyFileSync(path.join(src, f), path.join(dst, f));
    }
    fs.copyFileSync(pkgFile, path.join(dst, 'package.json.orig'));
  }
  if (lab.themePath) {
    // The theme's folder as it is (its CSS imports files beside it), with
    // the theme's entry file as index.css.
    const src = path.join(root, path.dirname(lab.themePath));
    const dst = path.join(build, 'themes', name);
    fs.cpSync(src, dst, { recursive: true });
    fs.copyFileSync(path.join(root, lab.themePath), path.join(dst, 'index.css'));
  }
  const style = pkg.styleModule || pkg.style;
  if (style) {
    styles.push(`import '${name}/${style}';`);
  }
}
fs.writeFileSync(path.join(build, 'style.js'),
  '// Written by assets.js: the style of each extension.\n' + styles.join('\n') + '\n');
fs.writeFileSync(path.join(build, 'extensions.js'),
  '// Written by assets.js: the extensions of package.json, in its order.\nexport default [\n' +
  extensions.map(n => `  import('${n}')`).join(',\n') + '\n];\n');
console.log(`assets: ${extensions.length} extensions, ${styles.length} style modules`);

// The lessons' JupyterLab: the extensions of package.json on JupyterLab's
// application shell. Built by rspack (rspack.config.js) into build/bundle.js.
import { PageConfig } from '@jupyterlab/coreutils';

// Chunks, fonts and images load from the server's static URL for this app
// (under the base URL); set before anything else is loaded.
// eslint-disable-next-line no-undef
__webpack_public_path__ = PageConfig.getOption('fullStaticUrl') + '/';

// Plugins left out: those that need the language-server extension (not
// included), and the news announcements (they ask to fetch news from the
// internet, which a class server may not reach).
const leftOut = id => id.includes(':language-server') || id === '@jupyterlab/apputils-extension:announcements';

async function main() {
  await import('./build/style.js');
  const { JupyterLab } = await import('@jupyterlab/application');
  const modules = await Promise.all((await import('./build/extensions.js')).default);
  const plugins = modules.map(m => {
    const p = m.default;
    return Array.isArray(p) ? p.filter(x => !leftOut(x.id)) : p;
  });
  const lab = new JupyterLab();
  lab.registerPluginModules(plugins);
  await lab.start();
  await lab.restored;
  // The browser test waits for this.
  window.jupyterapp = lab;
}

window.addEventListener('load', () => {
  main().catch(err => console.error('JupyterLab failed to start:', err));
});

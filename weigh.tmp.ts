import { readFile, readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import { init, parse } from 'es-module-lexer';
import { parse as parseHtml } from 'parse5';
const dist = process.argv[2]!;
const gz = (d: string) => gzipSync(d).length;
function walk(n: any, f: (e: any) => void) { if (n.tagName) f(n); for (const c of n.childNodes ?? []) walk(c, f); if (n.content) walk(n.content, f); }
const attr = (e: any, name: string) => e.attrs?.find((a: any) => a.name === name)?.value;
const cat = (await readdir(join(dist, 'category'), { withFileTypes: true })).filter(e => e.isDirectory()).map(e => e.name).sort()[0];
const bizId = (await readdir(join(dist, 'business'))).sort()[0];
const bizSlug = (await readdir(join(dist, 'business', bizId!))).sort()[0];
const pages = ['', 'search', `category/${cat}`, `business/${bizId}/${bizSlug}`, 'events', 'events-list', 'community-events', '404'];
await init;
for (const p of pages) {
  const html = await readFile(join(dist, p, p === '404' ? '' : 'index.html').replace(/404$/, '404.html'), 'utf8');
  const entries = new Set<string>(); let inline = '';
  walk(parseHtml(html), (e) => {
    const src = e.tagName === 'script' ? attr(e, 'src') : e.tagName === 'link' && attr(e, 'rel') === 'modulepreload' ? attr(e, 'href') : undefined;
    if (src) entries.add(src);
    if (e.tagName === 'astro-island') for (const n of ['component-url', 'renderer-url', 'before-hydration-url']) { const u = attr(e, n); if (u) entries.add(u); }
    const t = attr(e, 'type');
    if (e.tagName === 'script' && !attr(e, 'src') && t !== 'application/json' && t !== 'application/ld+json') for (const c of e.childNodes) if ('value' in c) inline += c.value;
  });
  const seen = new Set<string>(); const q = [...entries].map(u => new URL(u, `http://site/${p}/`).pathname); let js = 0;
  while (q.length) { const u = q.shift()!; if (seen.has(u)) continue; seen.add(u); const code = await readFile(join(dist, u), 'utf8'); js += gz(code); const [imps] = parse(code); for (const i of imps) if (i.d === -1 && i.n) q.push(posix.join(posix.dirname(u), i.n)); }
  console.log(`${(p || 'home').padEnd(60)} html ${(gz(html) / 1024).toFixed(2)} KB  js ${(js / 1024).toFixed(2)} KB (${seen.size} files)  inline ${(inline ? gz(inline) / 1024 : 0).toFixed(2)} KB`);
}
if (process.argv[3]) {
  const p = process.argv[3];
  const html = await readFile(join(dist, p, 'index.html'), 'utf8');
  const entries = new Set<string>();
  walk(parseHtml(html), (e) => { if (e.tagName === 'astro-island') for (const n of ['component-url', 'renderer-url']) { const u = attr(e, n); if (u) entries.add(u); } if (e.tagName === 'script' && attr(e,'src')) entries.add(attr(e,'src')); });
  const seen = new Set<string>(); const q = [...entries].map(u => new URL(u, `http://site/${p}/`).pathname);
  while (q.length) { const u = q.shift()!; if (seen.has(u)) continue; seen.add(u); const code = await readFile(join(dist, u), 'utf8'); console.log('  ', u, gz(code)); const [imps] = parse(code); for (const i of imps) if (i.d === -1 && i.n) q.push(posix.join(posix.dirname(u), i.n)); }
}

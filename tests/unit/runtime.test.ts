import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(resolve(ROOT, file), 'utf8');

/**
 * The Node version has one home, .nvmrc; the places that must say it too (the pinned `node`
 * package every npm script runs on, `engines`, Netlify's build image) are pinned to it here, and
 * the docs, which point at .nvmrc, may name no other.
 */
const MAJOR = Number(read('.nvmrc').trim());

describe('runtime', () => {
	it('runs on the pinned Node, not the machine’s Node 20', () => {
		expect(Number(process.versions.node.split('.')[0])).toBe(MAJOR);
	});

	it('names one Node major everywhere: .nvmrc, the node package, engines and netlify.toml', () => {
		const pkg = JSON.parse(read('package.json')) as {
			engines: { node: string };
			devDependencies: Record<string, string>;
		};
		const major = (range: string) => Number(/(\d+)/.exec(range)?.[1]);
		expect({
			node: major(pkg.devDependencies.node!),
			engines: major(pkg.engines.node),
			netlify: major(/NODE_VERSION = "(\d+)"/.exec(read('netlify.toml'))?.[1] ?? ''),
		}).toEqual({ node: MAJOR, engines: MAJOR, netlify: MAJOR });
	});

	it('has no doc name a Node major other than .nvmrc’s', () => {
		const docs = [
			'README.md',
			'CONTRIBUTING.md',
			...readdirSync(resolve(ROOT, 'docs'))
				.filter((file) => file.endsWith('.md'))
				.map((file) => `docs/${file}`),
		];
		const stated = docs.flatMap((file) =>
			[...read(file).matchAll(/\bNode(?:\.js)?\s+(?:[≥>=]+\s*)?v?(\d+)/g)].map(
				(match) => `${file}: ${match[0]}`,
			),
		);
		expect(stated.filter((line) => !line.endsWith(String(MAJOR)))).toEqual([]);
	});
});

import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { glob } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { USER_INFO_KEY } from '../auth/auth.ts';
import { EVENT_KINDS, STAT_KINDS } from './reports.ts';

const ROOT = new URL('../../../', import.meta.url);

describe('the statistics page script', () => {
	it('weighs at most 1 KB gzipped', async () => {
		const source = await readFile(new URL('stats-beacon.js', import.meta.url));
		expect(gzipSync(source, { level: 9 }).length).toBeLessThanOrEqual(1024);
	});

	it('sends only to this site, and stores nothing in the browser', async () => {
		const source = await readFile(new URL('stats-beacon.js', import.meta.url), 'utf8');
		expect(source).toContain("sendBeacon('/api/stats'");
		expect(source).not.toMatch(/https?:\/\//);
		expect(source).not.toMatch(/cookie|setItem|indexedDB|sessionStorage/i);
		expect(source).toMatch(/globalPrivacyControl/);
		expect(source).toMatch(/doNotTrack/);
		// Staff signed in on this browser: the admin pages' user-info, read, never written.
		expect(source).toContain(`localStorage.getItem('${USER_INFO_KEY}')`);
	});

	it('every data-stat in the components names a kind the API takes', async () => {
		const found = new Set<string>();
		for await (const file of glob('src/features/**/*.{astro,tsx}', { cwd: ROOT })) {
			const text = await readFile(new URL(file, ROOT), 'utf8');
			for (const match of text.matchAll(/data-stat=(?:"([^"]+)"|\{`([^`]+)`\})/g)) {
				found.add(match[1] ?? match[2]!);
			}
		}
		const social = [...found].filter((kind) => kind.includes('${'));
		expect(social).toEqual(['social_${link.network}']);
		for (const kind of found) if (!kind.includes('${')) expect(EVENT_KINDS).toContain(kind);
		expect([...found].sort()).toEqual(
			['directions', 'email', 'phone', 'share', 'social_${link.network}', 'website'].sort(),
		);
	});

	it('the database counts exactly the kinds of reports.ts', async () => {
		const migration = await readFile(
			new URL('supabase/migrations/20261121000005_baseline_members.sql', ROOT),
			'utf8',
		);
		const check =
			/table if not exists public\.business_stats [^]*?check \(kind in \(([^)]*)\)\)/.exec(
				migration,
			)?.[1] ?? '';
		expect([...check.matchAll(/'(\w+)'/g)].map((m) => m[1])).toEqual([...STAT_KINDS]);
		const fn =
			/function public\.business_stat_kinds\(\)[^]*?array\[([^\]]*)\]/.exec(migration)?.[1] ?? '';
		expect([...fn.matchAll(/'(\w+)'/g)].map((m) => m[1])).toEqual([...STAT_KINDS]);
	});
});

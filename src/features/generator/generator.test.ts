import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.ts';
import { parseTenantFile } from '../tenants/tenant-file.ts';
import {
	buildConfig,
	buildTenantFile,
	configurationCode,
	downloadAllText,
	draftJson,
	emptyForm,
	environmentText,
	GENERATOR_FIELDS,
	GENERATOR_TABS,
	progress,
	readDraft,
	REQUIRED_FIELDS,
	setField,
	stylingCode,
	type GeneratorForm,
} from './generator.ts';

/** Types values one by one, as a person fills the form, so auto-fill runs as in the page. */
function fill(entries: [string, string][], form: GeneratorForm = emptyForm()): GeneratorForm {
	return entries.reduce((f, [path, value]) => setField(f, path, value), form);
}

function typeName(name: string, form = emptyForm()): GeneratorForm {
	let f = form;
	for (let i = 1; i <= name.length; i++) f = setField(f, 'name', name.slice(0, i));
	return f;
}

const MINIMAL: [string, string][] = [
	['name', 'Lakeside Chamber of Commerce'],
	['city', 'Lakeside'],
	['state', 'mn'],
	['contact.address', '1 Harbor Road'],
	['contact.phone', '(218) 555-0100'],
	['contact.email', 'info@lakeside.example'],
	['urls.mainWebsite', 'https://www.lakeside.example'],
];

describe('the form', () => {
	it('has the five tabs and the eight required fields', () => {
		expect(GENERATOR_TABS.map((t) => t.label)).toEqual([
			'Identity',
			'Branding',
			'Contact',
			'URLs',
			'Content',
		]);
		expect(REQUIRED_FIELDS).toEqual([
			'name',
			'slug',
			'city',
			'state',
			'contact.address',
			'contact.phone',
			'contact.email',
			'urls.mainWebsite',
		]);
	});

	it('starts with the configuration defaults for colours and fonts', () => {
		const form = emptyForm();
		expect(form['colors.primary']).toBe('#0d3e63');
		expect(form['colors.primaryLight']).toBe('#5fa6d7');
		expect(form['textColors.onDarkBody']).toBe('#e5e7eb');
		expect(form['fonts.heading']).toBe('Inter');
		expect(form['content.defaultEventsCalendar']).toBe('events');
		expect(form.name).toBe('');
	});
});

describe('auto-fill', () => {
	it('a chamber name typed letter by letter fills the slug: lowercase, other runs to hyphens', () => {
		const form = typeName('St. Mary’s  Chamber & Co');
		expect(form.slug).toBe('st-mary-s-chamber-co');
	});

	it('a slug edited by hand is kept when the name changes', () => {
		let form = typeName('Lakeside Chamber');
		form = setField(form, 'slug', 'lakeside');
		form = setField(form, 'name', 'Lakeside Area Chamber');
		expect(form.slug).toBe('lakeside');
	});

	it('a slug fills the logo paths, which follow it until edited', () => {
		let form = setField(emptyForm(), 'slug', 'lakeside');
		expect([form['logo.standard'], form['logo.stacked'], form['logo.favicon']]).toEqual([
			'/logos/lakeside/logo.svg',
			'/logos/lakeside/logo-stacked.svg',
			'/logos/lakeside/favicon.svg',
		]);
		form = setField(form, 'logo.favicon', '/favicon.ico');
		form = setField(form, 'slug', 'lake');
		expect(form['logo.standard']).toBe('/logos/lake/logo.svg');
		expect(form['logo.favicon']).toBe('/favicon.ico');
	});

	it('the name fills the slug and through it the logo paths', () => {
		expect(typeName('Lakeside')['logo.standard']).toBe('/logos/lakeside/logo.svg');
	});

	it('city and state fill an empty contact city and state; state is 2 letters, uppercased', () => {
		let form = fill([
			['city', 'Lakeside'],
			['state', 'm'],
			['state', 'mn4x'],
		]);
		expect(form.state).toBe('MN');
		expect(form['contact.city']).toBe('Lakeside');
		expect(form['contact.state']).toBe('MN');
		form = setField(form, 'contact.city', 'Duluth');
		form = setField(form, 'city', 'Lakeside Township');
		expect(form['contact.city']).toBe('Duluth');
		expect(setField(form, 'contact.state', 'wisconsin')['contact.state']).toBe('WI');
	});
});

describe('progress', () => {
	it("counts 'N of 8 required fields' and rounds the percent", () => {
		expect(progress(emptyForm())).toEqual({ filled: 0, total: 8, percent: 0 });
		expect(
			progress(
				fill([
					['city', 'Lakeside'],
					['contact.phone', '1'],
				]),
			),
		).toEqual({ filled: 2, total: 8, percent: 25 });
		expect(progress(fill(MINIMAL.slice(0, 3)))).toEqual({ filled: 4, total: 8, percent: 50 });
		expect(progress(fill([['contact.phone', '1']]))).toEqual({ filled: 1, total: 8, percent: 13 });
		expect(progress(fill(MINIMAL))).toEqual({ filled: 8, total: 8, percent: 100 });
		expect(progress(fill([['name', '   ']])).filled).toBe(0);
	});
});

describe('outputs', () => {
	const full = fill([
		...MINIMAL,
		['foundedYear', '1921'],
		['adminEmail', 'Director@Lakeside.example'],
		['colors.primary', '#114477'],
		['fonts.heading', 'Merriweather'],
		['contact.zip', '55555'],
		['social.facebook', 'https://facebook.com/lakeside'],
		['urls.joinUrl', 'https://www.lakeside.example/join'],
		['content.heroTitle', 'Shop Lakeside'],
		['content.defaultEventsCalendar', 'events-list'],
	]);

	it('the configuration code of a full form is the config section, valid for the site', () => {
		const code = configurationCode(full);
		expect(code).toContain('// Chamber configuration: Lakeside Chamber of Commerce');
		const json = JSON.parse(code.slice(code.indexOf('{')));
		expect(json).toMatchObject({
			name: 'Lakeside Chamber of Commerce',
			slug: 'lakeside-chamber-of-commerce',
			state: 'MN',
			foundedYear: 1921,
			colors: { primary: '#114477' },
			contact: { city: 'Lakeside', state: 'MN', zip: '55555' },
			content: { heroTitle: 'Shop Lakeside', defaultEventsCalendar: 'events-list' },
		});
		expect(json.adminEmail).toBeUndefined();
		expect(parseConfig(json, 'generated').fonts.heading).toBe('Merriweather');
	});

	it('the configuration code of a minimal form holds what was typed, plus the default theme', () => {
		const json = JSON.parse(configurationCode(fill(MINIMAL)).replace(/^\/\/.*\n/gm, ''));
		expect(Object.keys(json).sort()).toEqual(
			[
				'city',
				'colors',
				'contact',
				'content',
				'fonts',
				'logo',
				'name',
				'slug',
				'state',
				'textColors',
				'urls',
			].sort(),
		);
		expect(json.colors.primary).toBe('#0d3e63');
	});

	it('the styling configuration is the theme the site sets, invalid colours at their default', () => {
		expect(stylingCode(full)).toContain('--color-primary: #114477;');
		expect(stylingCode(full)).toContain("--font-heading: 'Merriweather'");
		const broken = setField(full, 'colors.primary', 'blue');
		expect(stylingCode(broken)).toContain('--color-primary: #0d3e63;');
		expect(buildConfig(broken)).toMatchObject({
			ok: false,
			errors: [{ path: 'colors.primary', label: 'Primary' }],
		});
	});

	it('the environment text names every variable a deployment reads, with this chamber in it', () => {
		const env = environmentText(full);
		for (const name of [
			'TENANT=lakeside-chamber-of-commerce',
			'SITE_URL=https://lakeside-chamber-of-commerce.netlify.app',
			'SUPABASE_URL=',
			'SUPABASE_ANON_KEY=',
			'SUPABASE_SERVICE_ROLE_KEY=',
			'NETLIFY_BUILD_HOOK_URL=',
			'RECAPTCHA_SECRET=',
			'SMTP_URL=',
			'ATLAS_BASE_URL=',
			'ATLAS_TENANT=',
		]) {
			expect(env).toContain(name);
		}
		expect(environmentText(emptyForm())).toContain('TENANT=new-chamber');
	});

	it('Download All holds the three outputs', () => {
		const all = downloadAllText(full);
		expect(all).toContain(configurationCode(full));
		expect(all).toContain(stylingCode(full));
		expect(all).toContain(environmentText(full));
	});
});

describe('drafts', () => {
	it('round-trip: save, load, the same form', () => {
		const form = fill([...MINIMAL, ['colors.secondary', '#abcdef'], ['adminEmail', 'a@b.example']]);
		const loaded = readDraft(draftJson(form));
		expect(loaded).toEqual({ ok: true, form, dropped: [] });
	});

	it("refuses a file that is not JSON with 'Invalid JSON file'", () => {
		expect(readDraft('{"name": ')).toEqual({ ok: false, error: 'Invalid JSON file' });
		expect(readDraft('')).toEqual({ ok: false, error: 'Invalid JSON file' });
	});

	it('loads what is valid from a draft with unknown or wrong-typed fields, and names the rest', () => {
		const result = readDraft(
			JSON.stringify({
				format: 'chamber-generator-draft',
				version: 1,
				extra: true,
				fields: {
					name: 'Lakeside',
					foundedYear: 1921,
					state: 'mn',
					city: { nested: true },
					'fonts.heading': 'Comic Sans',
					favouriteColour: 'blue',
				},
			}),
		);
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(result.form.name).toBe('Lakeside');
		expect(result.form.foundedYear).toBe('1921');
		expect(result.form.state).toBe('MN');
		expect(result.form['fonts.heading']).toBe('Inter');
		expect(result.dropped.sort()).toEqual(['city', 'extra', 'favouriteColour', 'fonts.heading']);
	});

	it('takes a flat object of fields too, and a JSON value that holds no form loads nothing', () => {
		const flat = readDraft(JSON.stringify({ name: 'Flat' }));
		expect(flat.ok && flat.form.name).toBe('Flat');
		const list = readDraft('[1, 2]');
		expect(list.ok && list.dropped).toEqual(['the whole file (it holds no form fields)']);
	});

	it('a draft names every field of the form', () => {
		const saved = JSON.parse(draftJson(emptyForm()));
		expect(Object.keys(saved.fields)).toEqual(GENERATOR_FIELDS.map((f) => f.path));
	});
});

describe('the tenant file', () => {
	it('is refused until the required fields are filled, naming them', () => {
		expect(buildTenantFile(fill(MINIMAL.slice(0, 2)))).toEqual({
			ok: false,
			message: 'Fill in the required fields first: State, Address, Phone, Email, Main website',
		});
	});

	it('parses with the import: configuration, no businesses, the first admin without a password', () => {
		const form = fill([...MINIMAL, ['adminEmail', 'Director@Lakeside.example']]);
		const result = buildTenantFile(form);
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		const parsed = parseTenantFile(JSON.parse(result.json), 'generated');
		expect(parsed.tenant).toEqual({
			slug: 'lakeside-chamber-of-commerce',
			name: 'Lakeside Chamber of Commerce',
		});
		expect(parsed.businesses).toEqual([]);
		expect(parsed.users).toEqual([{ email: 'director@lakeside.example', role: 'admin' }]);
		expect(parsed.config.contact.email).toBe('info@lakeside.example');
	});

	it('reports a value the configuration refuses instead of writing a file the import rejects', () => {
		const form = fill([...MINIMAL, ['contact.email', 'not-an-address']]);
		expect(buildTenantFile(form)).toMatchObject({
			ok: false,
			message: expect.stringMatching(/^Email: /),
		});
		const badSlug = fill([...MINIMAL, ['slug', 'Bad Slug']]);
		expect(buildTenantFile(badSlug)).toMatchObject({
			ok: false,
			message: expect.stringMatching(/^Slug: /),
		});
	});
});

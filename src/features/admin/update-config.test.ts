import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.ts';
import {
	ConfigChangeError,
	parseConfigChange,
	pendingChanges,
	roleRefusal,
} from './update-config.ts';

const base = parseConfig({ name: 'Cedar Valley', slug: 'demo' }, 'test');

describe('parseConfigChange: the body forms of POST /api/update-config', () => {
	it('maps each form to one write, with the schema output as the value', () => {
		expect(parseConfigChange({ chamber: 'demo', field: 'state', value: 'mn', version: 0 })).toEqual(
			{
				chamber: 'demo',
				write: { column: 'state', section: 'identity', field: null, value: 'MN', path: 'state' },
				version: 0,
				publish: true,
			},
		);
		expect(
			parseConfigChange({
				chamber: 'demo',
				section: 'textColors',
				field: 'linkHover',
				value: '#abcdef',
				version: 41,
			}),
		).toEqual({
			chamber: 'demo',
			write: {
				column: 'text_colors',
				section: 'textColors',
				field: 'linkHover',
				value: '#abcdef',
				path: 'textColors.linkHover',
			},
			version: 41,
			publish: true,
		});
		expect(
			parseConfigChange({
				chamber: 'demo',
				section: 'features',
				field: 'featuredEventId',
				value: '',
				version: 1,
			}).write.value,
		).toBeNull();
		const colors = parseConfigChange({
			chamber: 'demo',
			colors: { primary: '#123456' },
			version: 7,
		}).write;
		expect(colors).toMatchObject({
			column: 'colors',
			section: 'colors',
			field: null,
			path: 'colors',
		});
		expect(colors.value).toMatchObject({ primary: '#123456', primaryLight: '#5fa6d7' });
	});

	it('publishes unless the call says publish: false (the panel asks once per save)', () => {
		const body = { chamber: 'demo', field: 'city', value: 'Lakeside', version: 3 };
		expect(parseConfigChange(body).publish).toBe(true);
		expect(parseConfigChange({ ...body, publish: false }).publish).toBe(false);
		expect(() => parseConfigChange({ ...body, publish: 'no' })).toThrow(
			'Expected publish to be true or false, received "no"',
		);
	});

	it('names the field in every refusal', () => {
		const refusal = (body: unknown) => {
			try {
				parseConfigChange(body);
			} catch (error) {
				expect(error).toBeInstanceOf(ConfigChangeError);
				return (error as Error).message;
			}
			throw new Error('accepted');
		};
		expect(
			refusal({
				chamber: 'demo',
				section: 'urls',
				field: 'joinUrl',
				value: 'javascript:x',
				version: 0,
			}),
		).toMatch(/^urls\.joinUrl: Expected a URL/);
		expect(refusal({ chamber: 'demo', categoryDisplay: { sortBy: 'size' } })).toMatch(
			/^categoryDisplay\.sortBy: /,
		);
		expect(refusal({ chamber: '', field: 'name', value: 'x' })).toBe(
			'Expected chamber, the chamber slug',
		);
		expect(refusal([])).toBe('Expected a JSON object');
		expect(refusal({ chamber: 'demo', field: 'name', value: '', version: 0 })).toMatch(/^name: /);
	});

	it('a change states the version of its section it was made from, or none (last write wins)', () => {
		const parsed = (body: object) => parseConfigChange({ chamber: 'demo', ...body });
		expect(parsed({ section: 'content', field: 'heroTitle', value: 'x', version: 4 }).version).toBe(
			4,
		);
		// The original specification's bodies state none: written whatever the version now.
		expect(parsed({ section: 'content', field: 'heroTitle', value: 'x' }).version).toBeNull();
		expect(() => parsed({ field: 'city', value: 'x', version: null })).toThrow(
			'Expected version, the version of identity the change was made from (config_versions), received null; leave it out to write whatever the version now',
		);
		expect(() => parsed({ field: 'city', value: 'x', version: -1 })).toThrow(
			'Expected version, the version of identity',
		);
		expect(() => parsed({ navigation: { menuItems: [] }, version: '3' })).toThrow(
			'Expected version, the version of navigation the change was made from (config_versions), received "3"',
		);
		expect(() => parsed({ colors: {}, version: 1.5 })).toThrow('Expected version');
	});

	it('asks who may make the change once its form is known, before its value is read', () => {
		const targets: unknown[] = [];
		const refuse = (target: unknown) => {
			targets.push(target);
			throw new Error('refused');
		};
		for (const body of [
			{ colors: { primary: 'not a colour' } },
			{ section: 'features', field: 'showEvents', value: 'not a boolean' },
			{ field: 'state', value: 'not a state' },
		]) {
			expect(() => parseConfigChange({ chamber: 'demo', ...body }, refuse)).toThrow('refused');
		}
		expect(targets).toEqual([
			{ section: 'colors', field: null },
			{ section: 'features', field: 'showEvents' },
			{ section: 'identity', field: null },
		]);
	});

	it('an editor may change content and its display toggles, nothing else', () => {
		expect(roleRefusal('editor', { section: 'content', field: 'heroTitle' })).toBeNull();
		expect(roleRefusal('editor', { section: 'features', field: 'showFeaturedEvent' })).toBeNull();
		expect(roleRefusal('editor', { section: 'features', field: 'showEvents' })).toBe(
			'Editors can change content and text only, not features.showEvents',
		);
		expect(roleRefusal('editor', { section: 'colors', field: null })).toBe(
			'Editors can change content and text only, not colors',
		);
		expect(roleRefusal('admin', { section: 'colors', field: null })).toBeNull();
	});
});

describe('pendingChanges: from the edited configuration to the calls that save it', () => {
	it('nothing changed, nothing to save', () => {
		expect(pendingChanges(base, structuredClone(base))).toEqual([]);
	});

	it('one call per changed field or whole section, with the message for its failure', () => {
		const draft = structuredClone(base);
		draft.name = 'Cedar Valley Chamber';
		draft.content.heroTitle = 'Shop local';
		draft.fonts.heading = 'Lato';
		draft.textColors.link = '#000000';
		draft.social.facebook = 'https://facebook.com/cedar';
		draft.colors.primary = '#111111';
		draft.colors.secondary = '#222222';
		draft.categoryDisplay.count = 12;
		const changes = pendingChanges(base, draft);
		expect(changes.map((c) => [c.path, c.failure])).toEqual([
			['name', 'Failed to save name'],
			['fonts.heading', 'Failed to save heading font'],
			['textColors.link', 'Failed to save link color'],
			['social.facebook', 'Failed to save social media field: facebook'],
			['content.heroTitle', 'Failed to save content field: heroTitle'],
			['colors', 'Failed to save colors'],
			['categoryDisplay', 'Failed to save category display settings'],
		]);
		expect(changes.map((c) => c.section)).toEqual([
			'identity',
			'fonts',
			'textColors',
			'social',
			'content',
			'colors',
			'categoryDisplay',
		]);
		expect(changes[0]!.body).toEqual({ field: 'name', value: 'Cedar Valley Chamber' });
		expect(changes[4]!.body).toEqual({
			section: 'content',
			field: 'heroTitle',
			value: 'Shop local',
		});
		expect(changes[5]!.body).toEqual({ colors: draft.colors });
	});

	it('every body it produces is one the function accepts', () => {
		const draft = structuredClone(base);
		draft.features.featuredEventId = 12;
		draft.navigation.menuItems = draft.navigation.menuItems.slice(1);
		draft.contact.state = 'IA';
		for (const change of pendingChanges(base, draft)) {
			expect(parseConfigChange({ chamber: 'demo', ...change.body, version: 3 }).write.section).toBe(
				change.section,
			);
		}
	});
});

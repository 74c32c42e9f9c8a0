import { describe, expect, it } from 'vitest';
import { chamberConfigSchema, type ChamberConfigInput } from '../config/config.ts';
import {
	buildTitle,
	deployPhase,
	describeChangeValue,
	diffConfigs,
	publishFromTitle,
	publishStatus,
	type PublishView,
} from './publish.ts';

const config = (input: Partial<ChamberConfigInput> = {}) =>
	chamberConfigSchema.parse({ name: 'Demo Chamber', slug: 'demo', ...input });

function view(id: number, state: PublishView['state'], error: string | null = null): PublishView {
	return {
		id,
		state,
		reason: '',
		requestedBy: null,
		requestedAt: '2026-11-23T10:00:00Z',
		requests: 1,
		startedAt: null,
		finishedAt: state === 'live' || state === 'failed' ? '2026-11-23T10:01:00Z' : null,
		error,
		deployId: null,
	};
}

describe('diffConfigs', () => {
	it('names each changed field as the audit log does, and nothing else', () => {
		const before = config({ city: 'Cedarbrook', content: { heroTitle: 'Old' } });
		const after = config({
			city: 'Ashford',
			content: { heroTitle: 'New' },
			colors: { primary: '#112233' },
		});
		expect(diffConfigs(before, after)).toEqual([
			{ section: 'identity', field: 'city', before: 'Cedarbrook', after: 'Ashford' },
			{ section: 'colors', field: 'primary', before: '#0d3e63', after: '#112233' },
			{ section: 'content', field: 'heroTitle', before: 'Old', after: 'New' },
		]);
	});

	it('finds no change between equal configurations, defaults included', () => {
		expect(diffConfigs(config(), config({ colors: { primary: '#0d3e63' } }))).toEqual([]);
	});

	it('treats a list (the menu) as one field', () => {
		const before = config();
		const after = config({
			navigation: { menuItems: [{ id: 'home', label: 'Home', type: 'link', url: '/' }] },
		});
		const changes = diffConfigs(before, after);
		expect(changes.map((c) => `${c.section}.${c.field}`)).toEqual(['navigation.menuItems']);
	});
});

describe('build titles', () => {
	it('name the chamber, the reason, the user and the publish, and find the publish again', () => {
		const title = buildTitle({
			tenantName: 'Cedar Valley Chamber',
			tenantSlug: 'demo',
			reason: 'Content saved',
			requestedBy: 'admin@demo.test',
			publishId: 42,
		});
		expect(title).toBe(
			'Cedar Valley Chamber: Content saved by admin@demo.test [publish 42 of demo]',
		);
		expect(publishFromTitle(title)).toEqual({ id: 42, chamber: 'demo' });
	});

	it('find no publish in a deploy someone else started', () => {
		expect(publishFromTitle('Merge pull request #12 from main')).toBeNull();
		expect(publishFromTitle(null)).toBeNull();
		expect(publishFromTitle('[publish 42 of demo] then more')).toBeNull();
		expect(publishFromTitle('[publish 42]')).toBeNull();
	});
});

describe('deployPhase', () => {
	it.each([
		['enqueued', 'queued'],
		['new', 'queued'],
		['building', 'building'],
		['uploading', 'building'],
		['processing', 'building'],
		['ready', 'live'],
		['error', 'failed'],
		['rejected', 'failed'],
	] as const)('Netlify state %s is %s', (state, phase) => {
		expect(deployPhase(state)).toBe(phase);
	});
});

describe('publishStatus', () => {
	const now = new Date('2026-11-23T12:00:00Z');

	it('is publishing while any publish is queued or building', () => {
		expect(publishStatus([view(3, 'queued'), view(2, 'building')], now).kind).toBe('publishing');
	});

	it('is failed with the reason when the newest publish failed', () => {
		expect(publishStatus([view(3, 'failed', 'Boom'), view(2, 'live')], now)).toEqual({
			kind: 'failed',
			text: 'Publish failed: Boom',
		});
	});

	it('is live when the newest publish went live', () => {
		expect(publishStatus([view(3, 'live'), view(2, 'failed', 'Boom')], now).kind).toBe('live');
	});

	it('is nothing before any publish', () => {
		expect(publishStatus([], now)).toEqual({ kind: 'none' });
	});
});

describe('describeChangeValue', () => {
	it('shows text as it is, empty values as (empty), others as JSON', () => {
		expect(describeChangeValue('Hello')).toBe('Hello');
		expect(describeChangeValue('')).toBe('(empty)');
		expect(describeChangeValue(null)).toBe('(empty)');
		expect(describeChangeValue(true)).toBe('true');
		expect(describeChangeValue(['a'])).toBe('["a"]');
	});
});

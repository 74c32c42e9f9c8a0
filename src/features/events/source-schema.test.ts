import { describe, expect, it, vi } from 'vitest';
import type { EventRecord } from '../tenants/tenant-file.ts';
import { parseSourceEvents } from './source-schema.ts';
import { sourceEvent } from './test-events.ts';

const event = sourceEvent;

describe('source rows', () => {
	it('keeps unknown fields, fills defaults for nulls and drops bad nested rows', () => {
		const [row] = parseSourceEvents(
			[
				{
					EventId: '42',
					EventName: ' Gala ',
					StartDateTimeUtc: '2027-03-15T23:30:00',
					EndDateTimeUtc: '2027-03-16T04:00:00Z',
					StartDate: '2027-03-15T00:00:00',
					Venue: null,
					Closed: null,
					EventTypeColor: 'blue',
					OrganizationName: 'Atlas extra field',
					Items: [{ ItemId: 1, ItemName: 'Ticket', UnitPrice: 125 }, { ItemName: 'no id' }],
				},
			],
			'test',
		);
		expect(row).toMatchObject({
			EventId: 42,
			EventName: 'Gala',
			StartDateTimeUtc: '2027-03-15T23:30:00.000Z',
			StartDate: '2027-03-15',
			Venue: '',
			Closed: false,
			EventTypeColor: '#0d3e63',
			OrganizationName: 'Atlas extra field',
			AttendingAttendees: 0,
		});
		expect(row?.Items).toEqual([
			expect.objectContaining({ ItemId: 1, UnitPrice: 125, IsPublic: true }),
		]);
	});

	it('drops an invalid row with a warning and keeps the others', () => {
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const rows = parseSourceEvents(
			[
				{ EventId: 7, EventName: 'No dates' },
				{
					EventId: 8,
					EventName: 'Backwards',
					StartDateTimeUtc: '2027-01-02T00:00:00Z',
					EndDateTimeUtc: '2027-01-01T00:00:00Z',
				},
				{
					EventId: 9,
					EventName: 'Fine',
					StartDateTimeUtc: '2027-01-01T00:00:00Z',
					EndDateTimeUtc: '2027-01-01T01:00:00Z',
				},
			],
			'Atlas',
		);
		expect(rows.map((r) => r.EventId)).toEqual([9]);
		expect(warn).toHaveBeenCalledTimes(2);
		expect(warn.mock.calls[0]?.[0]).toContain('EventId 7');
		warn.mockRestore();
	});

	it('accepts every event of the tenant file format unchanged', () => {
		const record: EventRecord = {
			...event({ start: '2027-03-15T14:00:00.000Z', end: '2027-03-15T15:00:00.000Z' }),
		};
		const [again] = parseSourceEvents([record], 'test');
		expect(again).toEqual(record);
	});
});

describe('links in source rows (script from outside data)', () => {
	it('keeps only http(s) registration and sponsor links', () => {
		const [row] = parseSourceEvents(
			[
				{
					EventId: 5,
					EventName: 'Hostile',
					StartDateTimeUtc: '2030-01-01T15:00:00',
					EndDateTimeUtc: '2030-01-01T16:00:00',
					SpecialRegistrationUrl: 'javascript:alert(1)',
					Sponsors: [
						{
							SponserId: 1,
							SponsorName: 'S',
							SponsorLogoUrl: 'data:image/png;base64,AAAA',
							SponsorWebsite: 'javascript:alert(1)',
						},
						{ SponserId: 2, SponsorName: 'T', SponsorWebsite: 'www.example.org' },
					],
				},
			],
			'test',
		);
		expect(row?.SpecialRegistrationUrl).toBe('');
		expect(row?.Sponsors.map((s) => [s.SponsorLogoUrl, s.SponsorWebsite])).toEqual([
			['', ''],
			['', 'http://www.example.org'],
		]);
	});
});

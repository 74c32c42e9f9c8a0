import { describe, expect, it } from 'vitest';
import { mapTiles, OSM_TILES, tileSource } from './tiles.ts';

const services = (mapTileUrl = '', mapAttribution = '') => ({
	services: { mapTileUrl, mapAttribution },
});

describe('where the tiles come from', () => {
	it("takes the chamber's tiles first, with their attribution", () => {
		expect(
			mapTiles(services('https://tiles.example.org/{z}/{x}/{y}.png', '© Example Maps'), {
				MAP_TILE_URL: 'http://127.0.0.1:9/tiles/{z}/{x}/{y}.png',
				MAP_TILE_ATTRIBUTION: 'Test tiles',
			}),
		).toEqual({
			url: 'https://tiles.example.org/{z}/{x}/{y}.png',
			attribution: '© Example Maps',
			attributionUrl: '',
			maxZoom: 19,
		});
	});

	it("else the deployment's, else OpenStreetMap's standard tiles", () => {
		expect(
			mapTiles(services(), {
				MAP_TILE_URL: 'http://127.0.0.1:9/tiles/{z}/{x}/{y}.png',
				MAP_TILE_ATTRIBUTION: 'Test tiles',
				MAP_TILE_MAX_ZOOM: '17',
			}),
		).toMatchObject({
			url: 'http://127.0.0.1:9/tiles/{z}/{x}/{y}.png',
			attribution: 'Test tiles',
			maxZoom: 17,
		});
		expect(mapTiles(services(), {})).toEqual(OSM_TILES);
		// A variable that is no tile address is none.
		expect(mapTiles(services(), { MAP_TILE_URL: 'javascript:alert(1)' })).toEqual(OSM_TILES);
		expect(mapTiles(services(), { MAP_TILE_URL: 'https://tiles.example.org/{z}.png' })).toEqual(
			OSM_TILES,
		);
	});
});

describe("the policy's source for the tiles", () => {
	it('is the template’s scheme and host, its {s} subdomains a wildcard', () => {
		expect(tileSource(OSM_TILES.url)).toBe('https://tile.openstreetmap.org');
		expect(tileSource('https://{s}.tiles.example.org/{z}/{x}/{y}{r}.png')).toBe(
			'https://*.tiles.example.org',
		);
		expect(tileSource('http://127.0.0.1:57305/tiles/{z}/{x}/{y}.png')).toBe(
			'http://127.0.0.1:57305',
		);
	});

	it('is none for a template the policy cannot name', () => {
		expect(tileSource('https://a{b}c.example.org/{z}/{x}/{y}.png')).toBeNull();
		expect(tileSource('tiles/{z}/{x}/{y}.png')).toBeNull();
	});
});

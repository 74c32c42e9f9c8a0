/**
 * `npm start` as the end-to-end tests run it: the same server, with one difference made in code
 * before it starts, so that no environment variable could ever make it in production. The
 * membership system's stand-in (tests/e2e/member-imports.spec.ts) and the geocoder's listen on
 * 127.0.0.1, which the deployed fetch refuses; here their host names, atlas-members.test and
 * census-geocoder.test, resolve to 127.0.0.1 and may be connected to, and so may
 * calendar-feeds.test, the calendar feeds' stand-in (tests/e2e/event-feeds.spec.ts). Every other
 * loopback or private address, and a redirect to one, is refused as in production
 * (tests/support/standin-fetch.ts).
 */
import { useSourceFetch } from '../../src/lib/public-fetch.server.ts';
import { standinFetch } from './standin-fetch.ts';

useSourceFetch(standinFetch(['atlas-members.test', 'census-geocoder.test', 'calendar-feeds.test']));
await import('../../scripts/start.ts');

import type { Config } from '@netlify/functions';
import { deployNotificationsFunction } from '../../src/features/publish/deploy-events.server.ts';

export const config: Config = { path: '/api/deploy-notifications' };

/**
 * Netlify's deploy notifications (Deploy started / succeeded / failed, "HTTP POST request" with a
 * JWS secret token): each must carry a valid X-Webhook-Signature over its body.
 */
export default deployNotificationsFunction;

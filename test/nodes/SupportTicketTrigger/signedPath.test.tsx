import { signedPath } from '../../../nodes/SupportTicketTrigger/signedPath';

describe('signedPath', () => {
	it.each([
		[
			'no public path: what n8n received',
			'/webhook/a/support-ticket?x=1',
			'',
			'/webhook/a/support-ticket?x=1',
		],
		[
			'public path keeps the received query',
			'/webhook/a/support-ticket?x=1',
			'/n8n/webhook/a/support-ticket',
			'/n8n/webhook/a/support-ticket?x=1',
		],
		[
			'public path with its own query wins',
			'/webhook/a/support-ticket?x=1',
			'/n8n/hook?y=2',
			'/n8n/hook?y=2',
		],
		[
			'a full public URL is reduced to its path',
			'/webhook/a/support-ticket',
			'https://example.com/n8n/webhook/a/support-ticket',
			'/n8n/webhook/a/support-ticket',
		],
		[
			'a missing leading slash is added',
			'/webhook/a/support-ticket',
			'n8n/webhook/a/support-ticket',
			'/n8n/webhook/a/support-ticket',
		],
		['blank is ignored', '/webhook/a/support-ticket', '   ', '/webhook/a/support-ticket'],
	])('%s', (_name, received, publicPath, expected) => {
		expect(signedPath(received, publicPath)).toBe(expected);
	});
});

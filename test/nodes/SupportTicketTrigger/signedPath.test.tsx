import { signedPath } from '../../../nodes/SupportTicketTrigger/signedPath';

describe('signedPath', () => {
	it.each([
		['no public path: what n8n received', '/webhook/a?x=1', '', '/webhook/a?x=1'],
		[
			'public path keeps the received query',
			'/webhook/a?x=1',
			'/n8n/webhook/a',
			'/n8n/webhook/a?x=1',
		],
		['public path with its own query wins', '/webhook/a?x=1', '/n8n/hook?y=2', '/n8n/hook?y=2'],
		['a full public URL is reduced to its path', '/webhook/a', 'https://h/n8n/a', '/n8n/a'],
		['a missing leading slash is added', '/webhook/a', 'n8n/webhook/a', '/n8n/webhook/a'],
		['blank is ignored', '/webhook/a', '   ', '/webhook/a'],
	])('%s', (_name, received, publicPath, expected) => {
		expect(signedPath(received, publicPath)).toBe(expected);
	});
});

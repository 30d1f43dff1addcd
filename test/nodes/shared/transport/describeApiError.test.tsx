import { describeApiError } from '../../../../nodes/shared/transport/describeApiError';

describe('describeApiError: a rejected page cursor', () => {
	const body = { error: { code: 'invalid_cursor', message: 'The cursor is not valid' } };

	it('tells a poll trigger that the next poll starts over, not to "run the node again"', () => {
		const { message, description } = describeApiError(400, body, { poll: true });
		expect(message).toBe('The service rejected the page cursor');
		expect(description).toMatch(/next poll reads these records again from the newest one/);
		expect(description).not.toMatch(/run the node/i);
	});

	it('tells an action node to run again from the first page', () => {
		expect(describeApiError(400, body).description).toMatch(/Run the node again to start from the first page/);
	});
});
